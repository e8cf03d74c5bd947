import type { Db } from './database.ts';
import { lockRow } from './sql-fragments.ts';

export const findUser = (db: Db, appId: string, userRef: string) =>
  db
    .selectFrom('users')
    .select(['id', 'user_ref'])
    .where('app_id', '=', appId)
    .where('user_ref', '=', userRef)
    .executeTakeFirst();

/** Creates the user if new; safe against a concurrent creator thanks to the unique (app, ref). */
export async function ensureUser(db: Db, row: { id: string; app_id: string; user_ref: string; created_at: string }) {
  await db
    .insertInto('users')
    .values(row)
    .onConflict((oc) => oc.columns(['app_id', 'user_ref']).doNothing())
    .execute();
  return (await findUser(db, row.app_id, row.user_ref))!;
}

export async function deleteUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/** Locks the user's row until the transaction ends, so that imports opening one of their connections do so one after the other. */
export const lockUser = (db: Db, userId: string): Promise<void> => lockRow(db, 'users', userId);

/** The refs of every user of an app. */
export async function userRefsOfApp(db: Db, appId: string): Promise<string[]> {
  const rows = await db.selectFrom('users').select('user_ref').where('app_id', '=', appId).execute();
  return rows.map((row) => row.user_ref);
}
