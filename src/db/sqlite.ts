import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { Database, Db } from './database.ts';
import { schemaVersions } from './schema-versions.ts';
import { TwoConnectionDialect } from './sqlite-connections.ts';

/**
 * What every SQLite driver adapter offers: kysely's statement interface, plus
 * `exec` for the multi-statement schema and `close`.
 */
export interface SqliteConnection extends SqliteDatabase {
  exec(sql: string): void;
}

/** The pragmas every connection gets, whatever the runtime. */
function configureConnection(connection: SqliteConnection, { file }: { file: boolean }): void {
  // The background work checkpoints the log (see checkpoint.ts), not each commit.
  if (file) connection.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0;');
  // secure_delete overwrites purged text on disk instead of leaving it in free pages.
  connection.exec('PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA secure_delete = ON;');
  connection.exec(STAGING_SCHEMA);
}

/**
 * An import streams its conversations into this table in small transactions,
 * then moves them into `conversations` in one: a failed or interrupted import
 * leaves nothing visible. It is a TEMP table: private to this connection, kept in
 * a temporary file (not the database and its WAL), and gone with the process.
 */
const STAGING_SCHEMA = `
  PRAGMA temp_store = FILE;
  CREATE TEMP TABLE import_staging (
    import_id TEXT NOT NULL,
    external_id TEXT NOT NULL,
    -- The id the conversation gets if it turns out to be new.
    conversation_id TEXT NOT NULL,
    title TEXT,
    payload TEXT,
    update_time TEXT,
    source_hash TEXT,
    source TEXT NOT NULL,
    seq INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (import_id, external_id)
  );
  -- Records that several make one conversation (Gemini's exchanges, Copilot's
  -- rows), read back in this key's order to be grouped.
  CREATE TEMP TABLE import_records (
    import_id TEXT NOT NULL,
    group_key TEXT NOT NULL,
    time INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    record TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (import_id, group_key, time, seq)
  );`;

/**
 * Applies the sections of schema.sql newer than the file's user_version, each in
 * one transaction with its version bump, so a crash never leaves half a version.
 */
function migrate(connection: SqliteConnection, schemaSql: string): void {
  const [row] = connection.prepare('PRAGMA user_version').all([]) as Array<{ user_version: number }>;
  const current = row?.user_version ?? 0;
  for (const { version, sql } of schemaVersions(schemaSql, 'schema.sql')) {
    if (version <= current) continue;
    connection.exec('BEGIN IMMEDIATE');
    try {
      connection.exec(`${sql}\n;PRAGMA user_version = ${version};`);
      connection.exec('COMMIT');
    } catch (error) {
      connection.exec('ROLLBACK');
      throw error;
    }
  }
}

/**
 * Prepares freshly opened connections (pragmas, schema) and wraps them in
 * kysely. A file is opened twice, `reader` being the second connection to it,
 * so that reads never wait behind a write (see sqlite-connections.ts); an
 * in-memory database, private to its one connection, has none.
 */
export function openDb(connection: SqliteConnection, schemaSql: string, { file }: { file: boolean }, reader?: SqliteConnection): Db {
  configureConnection(connection, { file });
  migrate(connection, schemaSql);
  if (!reader) return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  reader.exec('PRAGMA busy_timeout = 5000; PRAGMA query_only = ON;');
  return new Kysely<Database>({ dialect: new TwoConnectionDialect(withStatementCache(connection), withStatementCache(reader)) });
}

const CACHED_STATEMENTS = 256;

/**
 * kysely prepares every query anew, and preparing costs more than running most
 * of Parley's queries. Values are always bound parameters, so the distinct SQL
 * texts are few and their statements can be kept and reused.
 */
function withStatementCache(connection: SqliteConnection): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => connection.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
        statement = connection.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
