import type { Db } from './database.ts';

export const listConversationsPage = (db: Db, connectionId: string, limit: number, offset: number) =>
  db
    .selectFrom('conversations')
    .select(['id', 'external_id', 'title', 'payload', 'update_time'])
    .where('connection_id', '=', connectionId)
    .orderBy('update_time', 'desc')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();

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
