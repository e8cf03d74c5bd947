import type { Db } from './database.ts';

/**
 * Counts one request in the app's window with a single atomic upsert, so
 * concurrent requests, even from several processes on one file, never share a count.
 */
export async function countRequest(db: Db, appId: string, windowStart: number): Promise<number> {
  const { count } = await db
    .insertInto('rate_buckets')
    .values({ app_id: appId, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(['app_id', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_buckets.count', '+', 1) })))
    .returning('count')
    .executeTakeFirstOrThrow();
  // The first request of a window clears the app's finished windows.
  if (count === 1) {
    await db.deleteFrom('rate_buckets').where('app_id', '=', appId).where('window_start', '<', windowStart).execute();
  }
  return count;
}
