import type { AccessChannel, AccessLogTable, Db } from './database.ts';
import { fixedSql } from './fixed-sql.ts';

/**
 * Counts one read of a user's data on `day` through `channel` (a search too,
 * where it was one), in one upsert. A user purged meanwhile is counted nowhere:
 * the row comes from theirs.
 */
export async function countAccess(
  db: Db,
  { userId, day, channel, search }: { userId: string; day: string; channel: AccessChannel; search: boolean },
): Promise<void> {
  await fixedSql(
    db,
    `INSERT INTO access_log (user_id, day, channel, reads, searches) SELECT id, ?, ?, 1, ? FROM users WHERE id = ?
     ON CONFLICT (user_id, day, channel)
     DO UPDATE SET reads = access_log.reads + 1, searches = access_log.searches + excluded.searches`,
    [day, channel, search ? 1 : 0, userId],
  );
}

/** A user's counts from `fromDay` on, by day and channel. */
export const accessOfUser = (
  db: Db,
  userId: string,
  fromDay: string,
): Promise<Array<Omit<AccessLogTable, 'user_id'>>> =>
  db
    .selectFrom('access_log')
    .select(['day', 'channel', 'reads', 'searches'])
    .where('user_id', '=', userId)
    .where('day', '>=', fromDay)
    .execute();

export async function deleteAccessBefore(db: Db, day: string): Promise<void> {
  await db.deleteFrom('access_log').where('day', '<', day).execute();
}
