import * as connections from '../db/connections.ts';
import { deleteConversationsOfConnection } from '../db/conversations.ts';
import { deletePageSessionsOfUser } from '../db/page-sessions.ts';
import * as users from '../db/users.ts';
import { writeTransaction } from '../db/transaction.ts';
import type { Deps } from '../deps.ts';
import { recordEvent } from '../webhooks/events.ts';
import { connectionOfApp, userOfApp } from './ownership.ts';

export interface PurgeCounts {
  users: number;
  connections: number;
  conversations: number;
}

/**
 * Hard-deletes a user with all their connections and conversations, and ends
 * their page sessions (but `keptSession`, the manage page's that asked for it),
 * in one transaction.
 */
export async function purgeUser(
  deps: Pick<Deps, 'db' | 'clock' | 'random' | 'erased'>,
  appId: string,
  userRef: string,
  keptSession?: string,
): Promise<PurgeCounts> {
  const counts = await writeTransaction(deps.db, async (db) => {
    const user = await userOfApp({ db }, appId, userRef);
    const counts = { users: 1, ...(await connections.countConnectionsAndConversationsOfUser(db, user.id)) };
    // In batches first: the cascade would delete them in one long statement.
    for (const connectionId of await connections.connectionIdsOfUser(db, user.id))
      await deleteConversationsOfConnection(db, connectionId);
    await users.deleteUser(db, user.id);
    await deletePageSessionsOfUser(db, appId, userRef, keptSession);
    // The only event of a user purge: no per-connection events accompany it.
    await recordEvent(db, deps, appId, 'user.purged', { userRef, ...counts });
    return counts;
  });
  deps.erased?.();
  return counts;
}

/** Hard-deletes one connection (whatever its status) and its conversations, and ends its user's page sessions, in one transaction. */
export async function purgeConnection(
  deps: Pick<Deps, 'db' | 'clock' | 'random' | 'erased'>,
  appId: string,
  connectionId: string,
): Promise<PurgeCounts> {
  const counts = await writeTransaction(deps.db, async (db) => {
    const connection = await connectionOfApp({ db }, appId, connectionId);
    const conversations = await deleteConversationsOfConnection(db, connection.id);
    await connections.deleteConnection(db, connection.id);
    // The user's open pages would show, or upload into, what was just purged.
    await deletePageSessionsOfUser(db, appId, connection.user_ref);
    await recordEvent(db, deps, appId, 'connection.purged', {
      userRef: connection.user_ref,
      connectionId,
      conversations,
    });
    return { users: 0, connections: 1, conversations };
  });
  deps.erased?.();
  return counts;
}
