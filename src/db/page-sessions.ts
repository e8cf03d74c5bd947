import type { Db, PageSessionsTable } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';
import { fixedSql } from './fixed-sql.ts';

/** Marks one app's link used; false if it was already (a jti is unique only within its app). */
export async function insertUsedLink(
  db: Db,
  row: { jti: string; app_id: string; used_at: string; expires_at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('used_links')
    .values(row)
    .onConflict((oc) => oc.columns(['app_id', 'jti']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows) === 1;
}

export async function isLinkUsed(db: Db, appId: string, jti: string): Promise<boolean> {
  const used = await db
    .selectFrom('used_links')
    .select('jti')
    .where('app_id', '=', appId)
    .where('jti', '=', jti)
    .executeTakeFirst();
  return used !== undefined;
}

export async function insertPageSession(db: Db, row: PageSessionsTable): Promise<void> {
  await db.insertInto('page_sessions').values(row).execute();
}

export const findPageSession = (db: Db, tokenHash: string) =>
  db.selectFrom('page_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

/**
 * Whether the session still exists, locking its row until the transaction ends
 * where write transactions overlap (see lockRows): a purge that ends
 * it either waits for the import holding it, or the import finds it gone.
 */
export async function lockPageSession(db: Db, tokenHash: string): Promise<boolean> {
  const rows = await fixedSql(
    db,
    `SELECT token_hash FROM page_sessions WHERE token_hash = ?${dialectOf(db).lockRows}`,
    [tokenHash],
  );
  return rows.length === 1;
}

export async function updatePageSession(
  db: Db,
  tokenHash: string,
  changes: { last_seen_at?: string; last_result?: string },
) {
  await db.updateTable('page_sessions').set(changes).where('token_hash', '=', tokenHash).execute();
}

export async function deletePageSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('page_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Ends every page session of one user of one app (but `kept`): a purged user's open pages can do nothing more. */
export async function deletePageSessionsOfUser(db: Db, appId: string, userRef: string, kept?: string): Promise<void> {
  await db
    .deleteFrom('page_sessions')
    .where('app_id', '=', appId)
    .where('user_ref', '=', userRef)
    .$if(kept !== undefined, (query) => query.where('token_hash', '<>', kept!))
    .execute();
}

/**
 * Forgets ended sessions — idle since `idleBefore`, and for a connect session
 * also opened before `connectOpenedBefore` — and used link ids whose links have expired anyway.
 */
export async function deleteExpiredPageState(
  db: Db,
  { idleBefore, connectOpenedBefore, now }: { idleBefore: string; connectOpenedBefore: string; now: string },
): Promise<void> {
  await db
    .deleteFrom('page_sessions')
    .where('last_seen_at', '<', idleBefore)
    .where((eb) => eb.or([eb('purpose', '<>', 'connect'), eb('created_at', '<', connectOpenedBefore)]))
    .execute();
  await db.deleteFrom('used_links').where('expires_at', '<', now).execute();
}
