import * as connections from '../db/connections.ts';
import { deleteConversationsOfConnection } from '../db/conversations.ts';
import { refuseImportsFor } from '../db/imports.ts';
import { deletePageSessionsOfUser } from '../db/page-sessions.ts';
import { deleteUploadsOfUser } from '../db/uploads.ts';
import { deleteApp } from '../db/apps.ts';
import type { Db } from '../db/database.ts';
import { deleteRateBucketsOfApp } from '../db/rate-buckets.ts';
import * as users from '../db/users.ts';
import { writeTransaction } from '../db/transaction.ts';
import type { Deps } from '../deps.ts';
import { recordEvent } from '../webhooks/events.ts';
import { requireApp } from '../apps/apps.ts';
import { connectionOfApp } from './ownership.ts';
import { ParleyError } from '../errors.ts';
import { removeLeftoverPartFiles } from '../uploads/resumable-uploads.ts';

export interface PurgeCounts {
  users: number;
  connections: number;
  conversations: number;
}

/**
 * Deletes a user, their connections and conversations (with their attachments),
 * their page sessions but `keptSession` and the resumable uploads naming them;
 * refuses their imports under way. Null if no user of that ref was stored: one
 * who never finished an import can still have a page session, uploads and an
 * import under way, and those go all the same.
 */
async function eraseUser(db: Db, appId: string, userRef: string, keptSession?: string): Promise<PurgeCounts | null> {
  const user = await users.findUser(db, appId, userRef);
  let counts: PurgeCounts | null = null;
  if (user) {
    // First, as an import's commit takes it first (see imports.ts).
    await users.lockUser(db, user.id);
    counts = { users: 1, ...(await connections.countConnectionsAndConversationsOfUser(db, user.id)) };
    // In batches first: the cascade would delete them in one long statement.
    for (const connectionId of await connections.connectionIdsOfUser(db, user.id))
      await deleteConversationsOfConnection(db, connectionId);
    await users.deleteUser(db, user.id);
  }
  await deletePageSessionsOfUser(db, appId, userRef, keptSession);
  await deleteUploadsOfUser(db, appId, userRef);
  await refuseImportsFor(db, appId, userRef);
  return counts;
}

/**
 * Hard-deletes a user with all their connections and conversations, ends their
 * page sessions (but `keptSession`, the manage page's that asked for it) and
 * refuses their imports under way, in one transaction.
 */
export async function purgeUser(
  deps: Pick<Deps, 'db' | 'clock' | 'random' | 'erased' | 'partFiles'>,
  appId: string,
  userRef: string,
  keptSession?: string,
): Promise<PurgeCounts> {
  const counts = await writeTransaction(deps.db, async (db) => {
    const counts = await eraseUser(db, appId, userRef, keptSession);
    // The only event of a user purge: no per-connection events accompany it.
    if (counts) await recordEvent(db, deps, appId, 'user.purged', { userRef, ...counts });
    return counts;
  });
  await erasePurged(deps);
  if (!counts) throw new ParleyError('userNotFound');
  return counts;
}

/**
 * Hard-deletes one connection (whatever its status) and its conversations, ends
 * its user's page sessions and refuses their imports under way, in one transaction.
 */
export async function purgeConnection(
  deps: Pick<Deps, 'db' | 'clock' | 'random' | 'erased' | 'partFiles'>,
  appId: string,
  connectionId: string,
): Promise<PurgeCounts> {
  const counts = await writeTransaction(deps.db, async (db) => {
    const connection = await connectionOfApp({ db }, appId, connectionId);
    // First, as an import's commit takes it first (see imports.ts).
    await users.lockUser(db, connection.user_id);
    const conversations = await deleteConversationsOfConnection(db, connection.id);
    await connections.deleteConnection(db, connection.id);
    // The user's open pages would show, or upload into, what was just purged; their
    // imports under way, whichever connection they go to, would bring it back.
    await deletePageSessionsOfUser(db, appId, connection.user_ref);
    await refuseImportsFor(db, appId, connection.user_ref);
    await recordEvent(db, deps, appId, 'connection.purged', {
      userRef: connection.user_ref,
      connectionId,
      conversations,
    });
    return { users: 0, connections: 1, conversations };
  });
  await erasePurged(deps);
  return counts;
}

/**
 * Hard-deletes an app and everything of it: each user as a user purge deletes
 * them (one transaction each, so a large app never holds the write lock long),
 * then the app row with what cascades from it, its used links and its request
 * counts. No event: the outbox that would carry it goes with the app.
 */
export async function purgeApp(
  deps: Pick<Deps, 'db' | 'counters' | 'erased' | 'partFiles'>,
  appId: string,
): Promise<PurgeCounts & { apps: number }> {
  await requireApp(deps, appId);
  const counts = { apps: 1, users: 0, connections: 0, conversations: 0 };
  for (const userRef of await users.userRefsOfApp(deps.db, appId)) {
    const erased = await writeTransaction(deps.db, (db) => eraseUser(db, appId, userRef));
    counts.users += erased?.users ?? 0;
    counts.connections += erased?.connections ?? 0;
    counts.conversations += erased?.conversations ?? 0;
  }
  await writeTransaction(deps.db, (db) => deleteApp(db, appId));
  await deleteRateBucketsOfApp(deps.db, deps.counters, appId);
  await erasePurged(deps);
  return counts;
}

/**
 * What a purge erases once committed: SQLite's log that still holds the text,
 * and the files of the upload parts it removed (its own, and those that went
 * with the page sessions it ended).
 */
async function erasePurged(deps: Pick<Deps, 'db' | 'erased' | 'partFiles'>): Promise<void> {
  deps.erased?.();
  await removeLeftoverPartFiles(deps);
}
