import { sql } from 'kysely';
import type { Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';

/**
 * A write transaction, begun as the dialect begins one (its beginWrite: where
 * write transactions overlap, the work locks the rows its decisions depend on,
 * see lockConnection). Use only `trx` inside `work`: the outer handle waits for
 * this one to finish.
 */
export function writeTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (trx) => {
    await sql.raw(dialectOf(db).beginWrite).execute(trx);
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
 * transaction (an import's merge, a purge) where the statements run on this
 * thread (see the dialect's writeBatch).
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
