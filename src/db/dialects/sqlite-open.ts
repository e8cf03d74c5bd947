import { createFoldersFor } from '../database-folder.ts';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database, Db } from '../database.ts';
import type { SqliteConnection, SqliteDriver } from '../sqlite-driver.ts';
import { withDialect } from './dialect.ts';
import { TwoConnectionDialect } from './sqlite-connections.ts';
import { sqlite } from './sqlite-dialect.ts';
import { migrateSqlite } from './sqlite-migrations.ts';
import { withStatementCache } from './sqlite-statement-cache.ts';
import { STAGING_SCHEMA } from './sqlite-temp-tables.ts';

/**
 * Opens (creating its folder) the SQLite file at `path`, or `:memory:`, with a
 * runtime's driver, and brings its schema up to date. A file is opened twice,
 * the second connection only reading, so that reads never wait behind a write
 * (see sqlite-connections.ts); an in-memory database, private to its one
 * connection, has one.
 */
export function openSqlite(driver: SqliteDriver, path: string, schemaSql: string): Db {
  const file = path !== ':memory:';
  if (file) createFoldersFor(path);
  const connection = driver(path);
  configureConnection(connection, { file });
  migrateSqlite(connection, schemaSql);
  if (!file)
    return new Kysely<Database>({
      dialect: withDialect(new SqliteDialect({ database: withStatementCache(connection) }), sqlite),
    });
  const reader = driver(path);
  reader.exec(`PRAGMA busy_timeout = 5000; PRAGMA query_only = ON; PRAGMA cache_size = -${PAGE_CACHE_KIB};`);
  return new Kysely<Database>({
    dialect: withDialect(new TwoConnectionDialect(withStatementCache(connection), withStatementCache(reader)), sqlite),
  });
}

/**
 * The page cache of each connection and schema (the database's, the TEMP
 * staging tables'), in KiB: SQLite's own default. better-sqlite3 builds
 * SQLite with 16 MB caches instead, and an import fills all three (the
 * writer's two, the reader's), which then stay full for the life of the
 * process; the smaller caches cost an import no measurable time (what they
 * miss is in the operating system's file cache).
 */
const PAGE_CACHE_KIB = 2000;

/** The pragmas every connection gets, whatever the runtime. */
function configureConnection(connection: SqliteConnection, { file }: { file: boolean }): void {
  // The background work checkpoints the log (see checkpoint.ts), not each commit.
  if (file) connection.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0;');
  // secure_delete overwrites purged text on disk instead of leaving it in free pages.
  connection.exec('PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA secure_delete = ON;');
  connection.exec(STAGING_SCHEMA);
  connection.exec(`PRAGMA main.cache_size = -${PAGE_CACHE_KIB}; PRAGMA temp.cache_size = -${PAGE_CACHE_KIB};`);
}
