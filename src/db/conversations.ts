import type { ConversationsTable, Db } from './database.ts';
import { fixedSql } from './fixed-sql.ts';

/** A page in listing order: newest update first (those without one last), then id. */
export const listConversationsPage = (db: Db, connectionId: string, limit: number, offset: number) =>
  fixedSql<Pick<ConversationsTable, 'id' | 'external_id' | 'title' | 'payload' | 'update_time'>>(
    db,
    `SELECT id, external_id, title, payload, update_time FROM conversations
     WHERE connection_id = ? ORDER BY update_time DESC, id LIMIT ? OFFSET ?`,
    [connectionId, limit, offset],
  );

export async function countConversations(db: Db, connectionId: string): Promise<number> {
  const { count } = await db
    .selectFrom('conversations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('connection_id', '=', connectionId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function deleteConversationsOfConnection(db: Db, connectionId: string): Promise<number> {
  const result = await db.deleteFrom('conversations').where('connection_id', '=', connectionId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** One conversation, if it belongs to that user of that app. */
export const findConversationOfUser = (db: Db, appId: string, userRef: string, conversationId: string) =>
  db
    .selectFrom('conversations')
    .innerJoin('connections', 'connections.id', 'conversations.connection_id')
    .innerJoin('users', 'users.id', 'connections.user_id')
    .select([
      'conversations.id',
      'conversations.external_id',
      'conversations.title',
      'conversations.payload',
      'conversations.update_time',
      'conversations.connection_id',
      'connections.provider',
    ])
    .where('conversations.id', '=', conversationId)
    .where('users.app_id', '=', appId)
    .where('users.user_ref', '=', userRef)
    .executeTakeFirst();

export async function deleteConversation(db: Db, conversationId: string): Promise<void> {
  await db.deleteFrom('conversations').where('id', '=', conversationId).execute();
}
