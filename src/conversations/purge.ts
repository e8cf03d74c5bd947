import * as connections from '../db/connections.ts';
import { countConversations } from '../db/conversations.ts';
import * as users from '../db/users.ts';
import type { Deps } from '../deps.ts';
import { requireConnection, requireUser } from './listing.ts';

export interface PurgeCounts {
  users: number;
  connections: number;
  conversations: number;
}

/** Hard-deletes a user with all their connections and conversations, in one transaction. */
export function purgeUser(deps: Pick<Deps, 'db'>, appId: string, userRef: string): Promise<PurgeCounts> {
  return deps.db.transaction().execute(async (db) => {
    const user = await requireUser({ db }, appId, userRef);
    const counts = await connections.countConnectionsAndConversationsOfUser(db, user.id);
    await users.deleteUser(db, user.id);
    return { users: 1, ...counts };
  });
}

/** Hard-deletes one connection (whatever its status) and its conversations, in one transaction. */
export function purgeConnection(deps: Pick<Deps, 'db'>, appId: string, connectionId: string): Promise<PurgeCounts> {
  return deps.db.transaction().execute(async (db) => {
    const connection = await requireConnection({ db }, appId, connectionId);
    const conversations = await countConversations(db, connection.id);
    await connections.deleteConnection(db, connection.id);
    return { users: 0, connections: 1, conversations };
  });
}
