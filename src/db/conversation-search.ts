import { isPostgres, type Db } from './database.ts';
import { countRows, fixedSql } from './fixed-sql.ts';
import { writeTransaction } from './transaction.ts';
import { bytesColumns, listingOrder, ofConnection, payloadText, type ConversationBytesRow } from './conversations.ts';

/**
 * Full-text search over conversations (schema.sql and schema.postgres.sql: the
 * index and how it is kept in step). `words` are plain words — letters, digits
 * and their marks, as searchWords gives them — each of which must match; the
 * last also as the start of a longer word, so results come as a word is typed.
 * Best match first (the title weighs more than the messages), then the listing's
 * order.
 */

/** The words as the database's query language. Quoted although they hold no operator characters, so no word (AND, NEAR) reads as one. */
function searchQuery(db: Db, words: readonly string[]): string {
  const last = words.length - 1;
  return isPostgres(db)
    ? words.map((word, i) => `'${word}'${i === last ? ':*' : ''}`).join(' & ')
    : words.map((word, i) => `"${word}"${i === last ? '*' : ''}`).join(' ');
}

/**
 * The FROM and WHERE that find the matches, as `c`, with the query as the first
 * parameter, and the ORDER BY that ranks them. The FTS5 table is joined to its
 * conversations through its stable keys; PostgreSQL's GIN index is on the row.
 */
function matches(db: Db, scope: string) {
  return isPostgres(db)
    ? {
        from: `conversations c CROSS JOIN to_tsquery('simple', parley_search_fold(?)) AS query WHERE c.search @@ query AND ${scope}`,
        order: `ts_rank(c.search, query) DESC, ${listingOrder('c.')}`,
      }
    : {
        from: `conversation_search JOIN conversation_search_keys k ON k.key = conversation_search.rowid
               JOIN conversations c ON c.id = k.conversation_id WHERE conversation_search MATCH ? AND ${scope}`,
        order: `bm25(conversation_search, 4.0, 1.0), ${listingOrder('c.')}`,
      };
}

/** A page of a connection's conversations that match, best first, payloads as stored bytes (see listConversationsPage). */
export function searchConnectionPage(db: Db, connectionId: string, words: readonly string[], limit: number, offset: number, changedAfter?: string) {
  const scope = ofConnection(connectionId, changedAfter, 'c.');
  const { from, order } = matches(db, scope.where);
  return fixedSql<ConversationBytesRow>(db, `SELECT ${bytesColumns(db, 'c.')} FROM ${from} ORDER BY ${order} LIMIT ? OFFSET ?`, [
    searchQuery(db, words),
    ...scope.parameters,
    limit,
    offset,
  ]);
}

/** How many of a connection's conversations match. */
export function countConnectionMatches(db: Db, connectionId: string, words: readonly string[], changedAfter?: string): Promise<number> {
  const scope = ofConnection(connectionId, changedAfter, 'c.');
  return countRows(db, matches(db, scope.where).from, [searchQuery(db, words), ...scope.parameters]);
}

/** `column` (a connection id) is one of the connections of a user of an app: the app id and userRef follow as parameters. */
const ofUser = (column: string) => `${column} IN (SELECT cn.id FROM connections cn JOIN users u ON u.id = cn.user_id WHERE u.app_id = ? AND u.user_ref = ?)`;

export interface UserMatchRow {
  id: string;
  title: string | null;
  update_time: string | null;
  provider: string;
  payload: string | null;
}

/** A page of the conversations of one user of one app, across their connections, that match: the manage page's search. */
export function searchUserPage(db: Db, appId: string, userRef: string, words: readonly string[], limit: number, offset: number) {
  const { from, order } = matches(db, ofUser('c.connection_id'));
  return fixedSql<UserMatchRow>(
    db,
    `SELECT c.id, c.title, c.update_time, ${payloadText(db, 'c.')} AS payload,
       (SELECT provider FROM connections WHERE id = c.connection_id) AS provider
     FROM ${from} ORDER BY ${order} LIMIT ? OFFSET ?`,
    [searchQuery(db, words), appId, userRef, limit, offset],
  );
}

export function countUserMatches(db: Db, appId: string, userRef: string, words: readonly string[]): Promise<number> {
  return countRows(db, matches(db, ofUser('c.connection_id')).from, [searchQuery(db, words), appId, userRef]);
}

/** Which connections `connectionsToIndex` looks at: one, one user's of one app, or every one. */
export type IndexScope = { connectionId: string } | { appId: string; userRef: string } | undefined;

/**
 * The connections with conversations still to index: on SQLite an import's
 * new conversations are indexed after it commits (schema.sql, version 9). None
 * on PostgreSQL, whose index is a column of the row, written with it.
 */
export async function connectionsToIndex(db: Db, scope: IndexScope): Promise<string[]> {
  if (isPostgres(db)) return [];
  const [where, parameters] =
    scope === undefined
      ? ['', []]
      : 'connectionId' in scope
        ? ['WHERE p.connection_id = ?', [scope.connectionId]]
        : [`WHERE ${ofUser('p.connection_id')}`, [scope.appId, scope.userRef]];
  const rows = await fixedSql<{ connection_id: string }>(db, `SELECT p.connection_id FROM conversation_search_pending p ${where}`, parameters);
  return rows.map((row) => row.connection_id);
}

/**
 * Indexes up to `limit` of the connection's conversations that are not yet,
 * in one transaction, going on in external-id order after `after` (the value a
 * previous call returned), so that each batch starts where the last ended
 * rather than passing over every conversation already indexed. Returns where
 * to go on from, or null once none is left, the connection then taken off the
 * list. New keys are handed out above every earlier one (AUTOINCREMENT), so the
 * conversations just keyed are those past the highest key before.
 */
export function indexConversations(db: Db, connectionId: string, limit: number, after?: string): Promise<string | null> {
  return writeTransaction(db, async (trx) => {
    const [before] = await fixedSql<{ last: number }>(trx, 'SELECT coalesce(max(key), 0) AS last FROM conversation_search_keys', []);
    await fixedSql(
      trx,
      `INSERT INTO conversation_search_keys (conversation_id)
       SELECT c.id FROM conversations c WHERE c.connection_id = ?${after === undefined ? '' : ' AND c.external_id > ?'}
         AND NOT EXISTS (SELECT 1 FROM conversation_search_keys k WHERE k.conversation_id = c.id)
       ORDER BY c.external_id LIMIT ?`,
      [connectionId, ...(after === undefined ? [] : [after]), limit],
    );
    await fixedSql(
      trx,
      `INSERT INTO conversation_search (rowid, title, body)
       SELECT k.key, t.title, t.body FROM conversation_search_keys k JOIN conversation_search_text t ON t.id = k.conversation_id
       WHERE k.key > ?`,
      [before!.last],
    );
    const [keyed] = await fixedSql<{ count: number; last: string | null }>(
      trx,
      `SELECT count(*) AS count, max(c.external_id) AS last FROM conversation_search_keys k JOIN conversations c ON c.id = k.conversation_id WHERE k.key > ?`,
      [before!.last],
    );
    if (Number(keyed!.count) === limit) return keyed!.last;
    await fixedSql(trx, 'DELETE FROM conversation_search_pending WHERE connection_id = ?', [connectionId]);
    return null;
  });
}
