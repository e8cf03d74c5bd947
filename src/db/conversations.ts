import { sql } from 'kysely';
import type { ConversationsTable, Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';
import { countRows, fixedSql } from './fixed-sql.ts';
import { nextTurn } from './transaction.ts';

// Listing order: newest update first (those without one last), then id.
export const listingOrder = (table = '') => `${table}update_time DESC NULLS LAST, ${table}id`;
const ORDER_AND_PAGE = `ORDER BY ${listingOrder()} LIMIT ? OFFSET ?`;
const PAGE = `WHERE connection_id = ? ${ORDER_AND_PAGE}`;

/** A conversation's columns as the API answers it, the payload as bytes; `table` qualifies them (`c.`) in a join. */
export const bytesColumns = (db: Db, table = '') =>
  `${table}id, ${table}external_id, ${table}title, ${dialectOf(db).payloadBytes(`${table}payload`)} AS payload, ${table}update_time`;
/** The payload as text. */
export const payloadText = (db: Db, table = '') => dialectOf(db).payloadText(`${table}payload`);

/** A conversation as the API and the manage page's download answer it, its payload as stored bytes. */
export type ConversationBytesRow = Pick<ConversationsTable, 'id' | 'external_id' | 'title' | 'update_time'> & {
  payload: Uint8Array | null;
};

/**
 * A connection's conversations, or with `changedAfter` only those stored or
 * changed after it: the WHERE condition (columns qualified by `table`) and its
 * parameters. The listing, its count and the search share it.
 */
export const ofConnection = (connectionId: string, changedAfter: string | undefined, table = '') =>
  changedAfter === undefined
    ? { where: `${table}connection_id = ?`, parameters: [connectionId] }
    : { where: `${table}connection_id = ? AND ${table}changed_at > ?`, parameters: [connectionId, changedAfter] };

/**
 * A page for the API, payloads as the UTF-8 bytes stored: the response splices
 * them in as they are, with no decoding into a string and encoding back.
 */
export function listConversationsPage(
  db: Db,
  connectionId: string,
  limit: number,
  offset: number,
  changedAfter?: string,
) {
  const { where, parameters } = ofConnection(connectionId, changedAfter);
  return fixedSql<ConversationBytesRow>(
    db,
    `SELECT ${bytesColumns(db)} FROM conversations WHERE ${where} ${ORDER_AND_PAGE}`,
    [...parameters, limit, offset],
  );
}

/** How many of a connection's conversations were stored or changed after an instant. */
export async function countConversationsChangedAfter(
  db: Db,
  connectionId: string,
  changedAfter: string,
): Promise<number> {
  const { where, parameters } = ofConnection(connectionId, changedAfter);
  return countRows(db, `conversations WHERE ${where}`, parameters);
}

/** The external ids of a connection's conversations, from the index alone. */
export async function externalIdsOfConnection(db: Db, connectionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('conversations')
    .select('external_id')
    .where('connection_id', '=', connectionId)
    .execute();
  return rows.map((row) => row.external_id);
}

/**
 * Up to `limit` of a connection's conversations after `afterExternalId` (from the
 * first without it), in `external_id` order, payloads as the UTF-8 bytes stored:
 * keyset pages for reading all of them, however many. The key is unique in the
 * connection, indexed, and — unlike the listing's update_time — kept when a
 * re-import updates a conversation, so a reader paging through while an import
 * runs sees each conversation at most once.
 */
export const listConversationsAfter = (
  db: Db,
  connectionId: string,
  afterExternalId: string | undefined,
  limit: number,
) =>
  fixedSql<ConversationBytesRow>(
    db,
    `SELECT ${bytesColumns(db)} FROM conversations
     WHERE connection_id = ?${afterExternalId === undefined ? '' : ' AND external_id > ?'} ORDER BY external_id LIMIT ?`,
    afterExternalId === undefined ? [connectionId, limit] : [connectionId, afterExternalId, limit],
  );

/** A page of titles, for the manage page's list. */
export const listConversationTitles = (db: Db, connectionId: string, limit: number, offset: number) =>
  fixedSql<Pick<ConversationsTable, 'id' | 'title' | 'update_time'>>(
    db,
    `SELECT id, title, update_time FROM conversations ${PAGE}`,
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

/**
 * Deletes a connection's conversations and returns how many, in the dialect's
 * batches, letting other requests in between two (`nextTurn`), or in one
 * statement. In a transaction, readers see every one of them until it commits;
 * outside one (conversations nobody sees), each batch commits by itself.
 */
export async function deleteConversationsOfConnection(db: Db, connectionId: string): Promise<number> {
  const batchSize = dialectOf(db).writeBatch?.delete;
  if (batchSize === undefined)
    return Number(
      (await db.deleteFrom('conversations').where('connection_id', '=', connectionId).executeTakeFirst())
        .numDeletedRows,
    );
  let deleted = 0;
  for (;;) {
    const result = await db
      .deleteFrom('conversations')
      .where('id', 'in', (eb) =>
        eb.selectFrom('conversations').select('id').where('connection_id', '=', connectionId).limit(batchSize),
      )
      .executeTakeFirst();
    const batch = Number(result.numDeletedRows);
    deleted += batch;
    if (batch < batchSize) return deleted;
    await nextTurn();
  }
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
      sql.raw<string | null>(payloadText(db)).as('payload'),
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
