import * as connections from '../db/connections.ts';
import { countConversations } from '../db/conversations.ts';
import * as users from '../db/users.ts';
import { writeTransaction } from '../db/transaction.ts';
import type { Deps } from '../deps.ts';
import { recordEvent } from '../webhooks/events.ts';
import { requireConnection, requireUser } from './listing.ts';

export interface PurgeCounts {
  users: number;
  connections: number;
  conversations: number;
}

/** Hard-deletes a user with all their connections and conversations, in one transaction. */
export function purgeUser(deps: Pick<Deps, 'db' | 'clock' | 'random'>, appId: string, userRef: string): Promise<PurgeCounts> {
  return writeTransaction(deps.db, async (db) => {
    const user = await requireUser({ db }, appId, userRef);
    const counts = { users: 1, ...(await connections.countConnectionsAndConversationsOfUser(db, user.id)) };
    await users.deleteUser(db, user.id);
    // The only event of a user purge: no per-connection events accompany it.
    await recordEvent(db, deps, appId, 'user.purged', { userRef, ...counts });
    return counts;
  });
}

/** Hard-deletes one connection (whatever its status) and its conversations, in one transaction. */
export function purgeConnection(deps: Pick<Deps, 'db' | 'clock' | 'random'>, appId: string, connectionId: string): Promise<PurgeCounts> {
  return writeTransaction(deps.db, async (db) => {
    const connection = await requireConnection({ db }, appId, connectionId);
    const conversations = await countConversations(db, connection.id);
    await connections.deleteConnection(db, connection.id);
    await recordEvent(db, deps, appId, 'connection.purged', { userRef: connection.user_ref, connectionId, conversations });
    return { users: 0, connections: 1, conversations };
  });
}
