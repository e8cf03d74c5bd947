import { sql } from 'kysely';
import type { Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';
import { openSqlite } from './dialects/sqlite-open.ts';
import { fixedSql } from './fixed-sql.ts';
import type { SqliteDriver } from './sqlite-driver.ts';

/**
 * On SQLite the counters live in a file of their own beside the database (the
 * database has no `rate_buckets`): its write lock is not the database's, so
 * counting a request never waits behind an import's or a purge's transaction,
 * and every process on the file still counts in one place. An in-memory
 * database's are in memory too. On PostgreSQL they are in the database.
 */
export async function openCounters(driver: SqliteDriver, databasePath: string): Promise<Db> {
  const counters = openSqlite(
    driver,
    databasePath === ':memory:' ? databasePath : `${databasePath}-counters`,
    COUNTERS_SCHEMA,
  );
  // Its transactions are one small upsert each: SQLite's own checkpoints after
  // each commit that fills its log cost nothing, unlike the database's (checkpoint.ts).
  await sql`PRAGMA wal_autocheckpoint = 1000`.execute(counters);
  return counters;
}

const COUNTERS_SCHEMA = `
-- version 1
CREATE TABLE rate_buckets (
  app_id TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (app_id, window_start)
) STRICT, WITHOUT ROWID;
`;

/**
 * Counts one request in the app's window with a single atomic upsert, so
 * concurrent requests, even from several processes or instances, never share a count.
 */
export async function countRequest(db: Db, appId: string, windowStart: number): Promise<number> {
  const [{ count }] = (await fixedSql<{ count: number }>(
    db,
    `INSERT INTO rate_buckets (app_id, window_start, count) VALUES (?, ?, 1)
     ON CONFLICT (app_id, window_start) DO UPDATE SET count = rate_buckets.count + 1 RETURNING count`,
    [appId, windowStart],
  )) as [{ count: number }];
  // The first request of a window clears the app's finished windows.
  if (count === 1) {
    await db.deleteFrom('rate_buckets').where('app_id', '=', appId).where('window_start', '<', windowStart).execute();
  }
  return count;
}

/**
 * Deletes an app's request counts: in `counters` where given (SQLite's file of
 * its own), else in `db` where it holds them (PostgreSQL). A SQLite database
 * without its counters has none to delete.
 */
export async function deleteRateBucketsOfApp(db: Db, counters: Db | undefined, appId: string): Promise<void> {
  const holder = counters ?? (dialectOf(db).schemaFile === 'schema.postgres.sql' ? db : undefined);
  await holder?.deleteFrom('rate_buckets').where('app_id', '=', appId).execute();
}
