import { countConversations } from './conversations.ts';
import type { ConnectionStatus, ConnectionsTable, Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';
import { fixedSql } from './fixed-sql.ts';
import { countMemories } from './memories.ts';
import { countProjects } from './projects.ts';

const CONNECTION_COLUMNS = [
  'connections.id',
  'connections.provider',
  'connections.status',
  'connections.captured_at',
  'connections.last_sync_at',
  'connections.conversation_count',
] as const;

export type ConnectionRow = Pick<
  ConnectionsTable,
  'id' | 'provider' | 'status' | 'captured_at' | 'last_sync_at' | 'conversation_count'
>;

/** A connection as listed: with how many memories and projects it holds (PostgreSQL answers counts as text). */
export type ListedConnectionRow = ConnectionRow & { memory_count: number | string; project_count: number | string };

/** The counts of a listed connection `c`, from their tables' indexes. */
const BESIDE_COUNTS = `(SELECT count(*) FROM memories m WHERE m.connection_id = c.id) AS memory_count,
  (SELECT count(*) FROM projects p WHERE p.connection_id = c.id) AS project_count`;

/**
 * A user's connections, newest capture first, in one query with the user
 * lookup; `null` when the app has no user with that ref.
 */
export async function listConnectionsOfUserRef(
  db: Db,
  appId: string,
  userRef: string,
): Promise<ListedConnectionRow[] | null> {
  const rows = await fixedSql<Omit<ListedConnectionRow, 'id'> & { id: string | null }>(
    db,
    `SELECT c.id, c.provider, c.status, c.captured_at, c.last_sync_at, c.conversation_count, ${BESIDE_COUNTS}
     FROM users u LEFT JOIN connections c ON c.user_id = u.id
     WHERE u.app_id = ? AND u.user_ref = ?
     ORDER BY c.captured_at DESC, c.id`,
    [appId, userRef],
  );
  if (rows.length === 0) return null;
  return rows.filter((row): row is ListedConnectionRow => row.id !== null);
}

/** A connection as seen from one app: another app's connection is not found, nor an import's own (see import-connection.ts). */
export async function findConnectionOfApp(db: Db, appId: string, connectionId: string) {
  const [connection] = await fixedSql<ConnectionRow & { user_id: string; user_ref: string }>(
    db,
    `SELECT c.id, c.provider, c.status, c.captured_at, c.last_sync_at, c.conversation_count, c.user_id, u.user_ref
     FROM connections c JOIN users u ON u.id = c.user_id
     WHERE c.id = ? AND u.app_id = ? AND u.import_id IS NULL`,
    [connectionId, appId],
  );
  return connection;
}

export const findOpenConnection = (db: Db, userId: string, provider: string) =>
  db
    .selectFrom('connections')
    .select(CONNECTION_COLUMNS)
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .where('status', '<>', 'revoked')
    .executeTakeFirst();

/**
 * Opens a connection of the user's. One per provider is open (the unique index
 * connections_one_open_per_provider): the caller, holding the user's lock, found none.
 */
export async function insertConnection(
  db: Db,
  row: { id: string; user_id: string; provider: string; captured_at: string },
): Promise<void> {
  await db
    .insertInto('connections')
    .values({ ...row, status: 'active', last_sync_at: null, conversation_count: 0 })
    .execute();
}

/**
 * Locks the connection's row until the transaction ends, so that imports into
 * it count and merge one after the other. Where write transactions never
 * overlap (no lockRows) there is nothing to do.
 */
export async function lockConnection(db: Db, connectionId: string): Promise<void> {
  const { lockRows } = dialectOf(db);
  if (lockRows) await fixedSql(db, `SELECT id FROM connections WHERE id = ?${lockRows}`, [connectionId]);
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

/** How many memories and projects the connection holds. */
export async function besideCounts(
  db: Db,
  connectionId: string,
): Promise<{ memoryCount: number; projectCount: number }> {
  return { memoryCount: await countMemories(db, connectionId), projectCount: await countProjects(db, connectionId) };
}

/**
 * Recomputes from the rows what the connection stores (payload and file bytes),
 * in the caller's transaction: call it wherever its content changes. Returns
 * how much that grew.
 */
export async function refreshStoredBytes(db: Db, connectionId: string): Promise<number> {
  const [before] = await fixedSql<{ stored_bytes: number }>(db, 'SELECT stored_bytes FROM connections WHERE id = ?', [
    connectionId,
  ]);
  const [after] = await fixedSql<{ stored_bytes: number }>(
    db,
    `UPDATE connections SET stored_bytes =
       (SELECT coalesce(sum(octet_length(payload)), 0) FROM conversations WHERE connection_id = ?)
       + (SELECT coalesce(sum(size), 0) FROM attachment_blobs WHERE connection_id = ?)
     WHERE id = ? RETURNING stored_bytes`,
    [connectionId, connectionId, connectionId],
  );
  return Number(after!.stored_bytes) - Number(before!.stored_bytes);
}

/** What the user's connections store, in bytes. */
export async function storedBytesOfUser(db: Db, userId: string): Promise<number> {
  const [row] = await fixedSql<{ bytes: number | string }>(
    db,
    'SELECT coalesce(sum(stored_bytes), 0) AS bytes FROM connections WHERE user_id = ?',
    [userId],
  );
  return Number(row!.bytes);
}

/** What the connections of the app's users store, in bytes (an import's own one counts from its commit). */
export async function storedBytesOfApp(db: Db, appId: string): Promise<number> {
  const [row] = await fixedSql<{ bytes: number | string }>(
    db,
    `SELECT coalesce(sum(c.stored_bytes), 0) AS bytes
     FROM users u JOIN connections c ON c.user_id = u.id WHERE u.app_id = ?`,
    [appId],
  );
  return Number(row!.bytes);
}

export async function connectionIdsOfUser(db: Db, userId: string): Promise<string[]> {
  return (await db.selectFrom('connections').select('id').where('user_id', '=', userId).execute()).map((row) => row.id);
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
    // An import's own connection is not the user's yet (see import-connection.ts).
    .where('users.import_id', 'is', null)
    .where((eb) => eb(eb.fn.coalesce('connections.last_sync_at', 'connections.captured_at'), '<', before))
    .execute();
