import { sql } from 'kysely';
import { isPostgres, type Db } from './database.ts';

/**
 * A write transaction. On SQLite it takes the write lock up front (BEGIN
 * IMMEDIATE): a deferred transaction that reads and then writes can fail
 * outright when another process wrote in between; this one waits its turn
 * (busy_timeout) instead, so transactions never overlap. On PostgreSQL
 * transactions do overlap: the work locks the rows its decisions depend on
 * (see lockConnection). Use only `trx` inside `work`: the outer handle waits for
 * this one to finish.
 */
export function writeTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (trx) => {
    await (isPostgres(db) ? sql`BEGIN` : sql`BEGIN IMMEDIATE`).execute(trx);
    try {
      const result = await work(trx);
      await sql`COMMIT`.execute(trx);
      return result;
    } catch (error) {
      await sql`ROLLBACK`.execute(trx);
      throw error;
    }
  });
}

/**
 * Lets the event loop answer other requests between two statements of a long
 * transaction (an import's merge, a purge): on SQLite the statements run on
 * this thread, and readers take the other connection meanwhile (see
 * sqlite-connections.ts).
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
