import { countConversations } from './conversations.ts';
import type { ConnectionStatus, Db } from './database.ts';

const CONNECTION_COLUMNS = [
  'connections.id',
  'connections.provider',
  'connections.status',
  'connections.captured_at',
  'connections.last_sync_at',
  'connections.conversation_count',
] as const;

export const listConnectionsOfUser = (db: Db, userId: string) =>
  db
    .selectFrom('connections')
    .select(CONNECTION_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('captured_at', 'desc')
    .orderBy('id')
    .execute();

/** A connection as seen from one app: another app's connection is not found. */
export const findConnectionOfApp = (db: Db, appId: string, connectionId: string) =>
  db
    .selectFrom('connections')
    .innerJoin('users', 'users.id', 'connections.user_id')
    .select([...CONNECTION_COLUMNS, 'connections.user_id', 'users.user_ref'])
    .where('connections.id', '=', connectionId)
    .where('users.app_id', '=', appId)
    .executeTakeFirst();

export const findOpenConnection = (db: Db, userId: string, provider: string) =>
  db
    .selectFrom('connections')
    .select(CONNECTION_COLUMNS)
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .where('status', '<>', 'revoked')
    .executeTakeFirst();

export async function insertConnection(
  db: Db,
  row: { id: string; user_id: string; provider: string; captured_at: string },
): Promise<void> {
  await db.insertInto('connections').values({ ...row, status: 'active', last_sync_at: null, conversation_count: 0 }).execute();
}

export async function updateConnection(
  db: Db,
  connectionId: string,
  changes: { status?: ConnectionStatus; last_sync_at?: string },
): Promise<void> {
  await db.updateTable('connections').set(changes).where('id', '=', connectionId).execute();
}

/** Recomputes the stored count from the rows, in the caller's transaction. */
export async function refreshConversationCount(db: Db, connectionId: string): Promise<number> {
  const count = await countConversations(db, connectionId);
  await db.updateTable('connections').set({ conversation_count: count }).where('id', '=', connectionId).execute();
  return count;
}

export async function deleteConnection(db: Db, connectionId: string): Promise<void> {
  await db.deleteFrom('connections').where('id', '=', connectionId).execute();
}

export async function countConnectionsAndConversationsOfUser(db: Db, userId: string) {
  const row = await db
    .selectFrom('connections')
    .leftJoin('conversations', 'conversations.connection_id', 'connections.id')
    .select((eb) => [
      eb.fn.count<number>('connections.id').distinct().as('connections'),
      eb.fn.count<number>('conversations.id').as('conversations'),
    ])
    .where('connections.user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { connections: Number(row.connections), conversations: Number(row.conversations) };
}

/** Active connections not synced (or, never synced, not captured) since `before`, with their owner. */
export const findStaleConnections = (db: Db, before: string) =>
  db
    .selectFrom('connections')
    .innerJoin('users', 'users.id', 'connections.user_id')
    .select(['connections.id', 'users.app_id', 'users.user_ref'])
    .where('connections.status', '=', 'active')
    .where((eb) => eb(eb.fn.coalesce('connections.last_sync_at', 'connections.captured_at'), '<', before))
    .execute();
