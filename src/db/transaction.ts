import { sql } from 'kysely';
import type { Db } from './database.ts';

/**
 * A transaction that takes SQLite's write lock up front (BEGIN IMMEDIATE). A
 * deferred transaction that reads and then writes can fail outright when another
 * process wrote in between; this one waits its turn (busy_timeout) instead.
 * Use only `trx` inside `work`: the outer handle waits for this one to finish.
 */
export function writeTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (trx) => {
    await sql`BEGIN IMMEDIATE`.execute(trx);
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
