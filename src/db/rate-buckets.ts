import type { Db } from './database.ts';
import { fixedSql } from './fixed-sql.ts';

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
