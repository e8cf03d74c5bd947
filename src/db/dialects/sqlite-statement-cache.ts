import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { SqliteConnection } from '../sqlite-driver.ts';

const CACHED_STATEMENTS = 256;

/**
 * kysely prepares every query anew, and preparing costs more than running most
 * of Parley's queries. Values are always bound parameters, so the distinct SQL
 * texts are few and their statements can be kept and reused.
 */
export function withStatementCache(connection: SqliteConnection): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => connection.close(),
    prepare(text) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
        statement = connection.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}
