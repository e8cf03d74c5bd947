import { sql, type Expression, type SqlBool } from 'kysely';
import type { ConnectionStatus, ConversationsTable, Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';
import { andAfter, countRows, rowsOf } from './sql-fragments.ts';
import { nextTurn } from './transaction.ts';

/*
 * The fragments below, shared by the listing and the search
 * (conversation-search.ts), name the conversations `c`: every query using them
 * reads `conversations c`, or the dialect's search matches as `c`.
 */

/** Listing order: newest update first (those without one last), then id. */
export const listingOrder = sql`c.update_time DESC NULLS LAST, c.id`;

/** A page in the listing's order. */
const listingPage = (limit: number, offset: number) => sql`ORDER BY ${listingOrder} LIMIT ${limit} OFFSET ${offset}`;

/** A conversation's columns as the API answers it, the payload as bytes. */
export const bytesColumns = (db: Db) =>
  sql.raw(
    `c.id, c.external_id, c.title, ${dialectOf(db).payloadBytes('c.payload')} AS payload, c.update_time, c.project_id`,
  );

/** A conversation as the API and the manage page's download answer it, its payload as stored bytes. */
export type ConversationBytesRow = Pick<ConversationsTable, 'id' | 'external_id' | 'title' | 'update_time'> & {
  payload: Uint8Array | null;
  project_id: string | null;
};

/** A conversation without its payload, and how many messages it has: the listing's `fields=summary`, an agent's lists. */
export type ConversationSummaryRow = Pick<ConversationsTable, 'id' | 'external_id' | 'title' | 'update_time'> & {
  message_count: number;
};

/** The columns each form of an answer reads: the whole conversation, or its summary, whose payload the database reads but never sends. */
const COLUMNS = {
  full: bytesColumns,
  summary: (db: Db) =>
    sql.raw(`c.id, c.external_id, c.title, c.update_time, ${dialectOf(db).messageCount('c.payload')} AS message_count`),
};

export type ConversationFields = keyof typeof COLUMNS;
export type ConversationRowOf<Fields extends ConversationFields> = Fields extends 'summary'
  ? ConversationSummaryRow
  : ConversationBytesRow;

export const conversationColumns = (db: Db, fields: ConversationFields) => COLUMNS[fields](db);

/**
 * A connection's conversations, or with `changedAfter` only those stored or
 * changed after it. The listing, its count and the search share it.
 */
export const ofConnection = (connectionId: string, changedAfter: string | undefined) =>
  changedAfter === undefined
    ? sql<SqlBool>`c.connection_id = ${connectionId}`
    : sql<SqlBool>`c.connection_id = ${connectionId} AND c.changed_at > ${changedAfter}`;

/** A page of the conversations `scope` (a condition on `c`) keeps, in the listing's order, in the form `fields` says. */
export function listConversationsIn<Fields extends ConversationFields>(
  db: Db,
  scope: Expression<SqlBool>,
  fields: Fields,
  limit: number,
  offset: number,
) {
  return rowsOf<ConversationRowOf<Fields>>(
    db,
    sql`SELECT ${conversationColumns(db, fields)} FROM conversations c WHERE ${scope} ${listingPage(limit, offset)}`,
  );
}

/** How many conversations `scope` keeps. */
export const countConversationsIn = (db: Db, scope: Expression<SqlBool>): Promise<number> =>
  countRows(db, sql`conversations c WHERE ${scope}`);

/**
 * A page for the API, payloads as the UTF-8 bytes stored: the response splices
 * them in as they are, with no decoding into a string and encoding back.
 */
export const listConversationsPage = (
  db: Db,
  connectionId: string,
  limit: number,
  offset: number,
  changedAfter?: string,
) => listConversationsIn(db, ofConnection(connectionId, changedAfter), 'full', limit, offset);

/** How many of a connection's conversations were stored or changed after an instant. */
export const countConversationsChangedAfter = (db: Db, connectionId: string, changedAfter: string): Promise<number> =>
  countConversationsIn(db, ofConnection(connectionId, changedAfter));

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
  rowsOf<ConversationBytesRow>(
    db,
    sql`SELECT ${bytesColumns(db)} FROM conversations c
      WHERE c.connection_id = ${connectionId}${andAfter('c.external_id', afterExternalId)}
      ORDER BY c.external_id LIMIT ${limit}`,
  );

/** A page of titles, for the manage page's list. */
export const listConversationTitles = (db: Db, connectionId: string, limit: number, offset: number) =>
  rowsOf<Pick<ConversationsTable, 'id' | 'title' | 'update_time'>>(
    db,
    sql`SELECT c.id, c.title, c.update_time FROM conversations c
      WHERE ${ofConnection(connectionId, undefined)} ${listingPage(limit, offset)}`,
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
      sql.raw<string | null>(dialectOf(db).payloadText('conversations.payload')).as('payload'),
      'conversations.update_time',
      'conversations.connection_id',
      'connections.provider',
    ])
    .where('conversations.id', '=', conversationId)
    .where('users.app_id', '=', appId)
    .where('users.user_ref', '=', userRef)
    .executeTakeFirst();

/**
 * Links the connection's conversations (by external id) to their projects (by
 * Parley's id); one whose link changes counts as changed at `now`.
 */
export async function linkProjects(
  db: Db,
  connectionId: string,
  links: ReadonlyMap<string, string>,
  now: string,
): Promise<void> {
  for (const [externalId, projectId] of links)
    await db
      .updateTable('conversations')
      .set({ project_id: projectId, changed_at: now })
      .where('connection_id', '=', connectionId)
      .where('external_id', '=', externalId)
      .where((eb) => eb.or([eb('project_id', 'is', null), eb('project_id', '<>', projectId)]))
      .execute();
}

export async function deleteConversationRow(db: Db, conversationId: string): Promise<void> {
  await db.deleteFrom('conversations').where('id', '=', conversationId).execute();
}

/**
 * One conversation as the API answers it, with its connection's status, if it
 * is of that app (and of that user, where one is named): not an import's own
 * (see import-connection.ts).
 */
export async function findConversationBytes(
  db: Db,
  owner: { appId: string; userRef?: string | undefined },
  conversationId: string,
) {
  const ofUser = owner.userRef === undefined ? sql`` : sql` AND u.user_ref = ${owner.userRef}`;
  const [row] = await rowsOf<ConversationBytesRow & { status: ConnectionStatus; user_id: string }>(
    db,
    sql`SELECT ${bytesColumns(db)}, cn.status, u.id AS user_id FROM conversations c
      JOIN connections cn ON cn.id = c.connection_id JOIN users u ON u.id = cn.user_id
      WHERE c.id = ${conversationId} AND u.app_id = ${owner.appId} AND u.import_id IS NULL${ofUser}`,
  );
  return row;
}
