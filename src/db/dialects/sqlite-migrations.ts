import { versionsToApply } from '../schema-versions.ts';
import type { SqliteConnection } from '../sqlite-driver.ts';
import { sqlite } from './sqlite-dialect.ts';

/**
 * Applies the sections of schema.sql newer than the file's user_version, each in
 * one transaction with its version bump, so a crash never leaves half a version.
 */
export function migrateSqlite(connection: SqliteConnection, schemaSql: string): void {
  const [row] = connection.prepare('PRAGMA user_version').all([]) as Array<{ user_version: number }>;
  const current = row?.user_version ?? 0;
  for (const { version, sql: statements } of versionsToApply(schemaSql, sqlite.schemaFile, current)) {
    connection.exec('BEGIN IMMEDIATE');
    try {
      connection.exec(`${statements}\n;PRAGMA user_version = ${version};`);
      connection.exec('COMMIT');
    } catch (error) {
      connection.exec('ROLLBACK');
      throw error;
    }
  }
}
