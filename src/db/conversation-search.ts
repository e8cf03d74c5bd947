import type { Db } from './database.ts';
import { dialectOf, type IndexScope } from './dialects/dialect.ts';
import { countRows, fixedSql } from './fixed-sql.ts';
import { bytesColumns, listingOrder, ofConnection, payloadText, type ConversationBytesRow } from './conversations.ts';

export type { IndexScope };

/**
 * Full-text search over conversations (schema.sql and schema.postgres.sql: the
 * index and how it is kept in step). `words` are plain words — letters, digits
 * and their marks, as searchWords gives them — each of which must match; the
 * last also as the start of a longer word, so results come as a word is typed.
 * Best match first (the title weighs more than the messages), then the listing's
 * order.
 */

/** The FROM and WHERE that find the matches as `c` within `scope`, with the query as the first parameter, and the ORDER BY: best match, then the listing's order. */
function matches(db: Db, scope: string) {
  const { from, order } = dialectOf(db).searchMatches(scope);
  return { from, order: `${order}, ${listingOrder('c.')}` };
}

const searchQuery = (db: Db, words: readonly string[]) => dialectOf(db).searchQuery(words);

/**
 * A page of a connection's conversations that match, best first, payloads as
 * stored bytes (see listConversationsPage), and how many match: what the
 * database has yet to index (see indexPending) is indexed first, so that the
 * search finds everything stored.
 */
export async function searchConnection(
  db: Db,
  connectionId: string,
  words: readonly string[],
  page: { limit: number; offset: number; changedAfter?: string | undefined },
) {
  await indexPending(db, { connectionId });
  return {
    rows: await searchConnectionPage(db, connectionId, words, page.limit, page.offset, page.changedAfter),
    total: await countConnectionMatches(db, connectionId, words, page.changedAfter),
  };
}

function searchConnectionPage(
  db: Db,
  connectionId: string,
  words: readonly string[],
  limit: number,
  offset: number,
  changedAfter?: string,
) {
  const scope = ofConnection(connectionId, changedAfter, 'c.');
  const { from, order } = matches(db, scope.where);
  return fixedSql<ConversationBytesRow>(
    db,
    `SELECT ${bytesColumns(db, 'c.')} FROM ${from} ORDER BY ${order} LIMIT ? OFFSET ?`,
    [searchQuery(db, words), ...scope.parameters, limit, offset],
  );
}

/** How many of a connection's conversations match. */
export function countConnectionMatches(
  db: Db,
  connectionId: string,
  words: readonly string[],
  changedAfter?: string,
): Promise<number> {
  const scope = ofConnection(connectionId, changedAfter, 'c.');
  return countRows(db, matches(db, scope.where).from, [searchQuery(db, words), ...scope.parameters]);
}

/** `column` (a connection id) is one of the connections of a user of an app: the app id and userRef follow as parameters. */
export const ofUser = (column: string) =>
  `${column} IN (SELECT cn.id FROM connections cn JOIN users u ON u.id = cn.user_id WHERE u.app_id = ? AND u.user_ref = ?)`;

export interface UserMatchRow {
  id: string;
  title: string | null;
  update_time: string | null;
  provider: string;
  payload: string | null;
}

/** A page of the conversations of one user of one app, across their connections, that match, and how many: the manage page's search (indexed first, as searchConnection). */
export async function searchUser(
  db: Db,
  appId: string,
  userRef: string,
  words: readonly string[],
  page: { limit: number; offset: number },
) {
  await indexPending(db, { appId, userRef });
  return {
    rows: await searchUserPage(db, appId, userRef, words, page.limit, page.offset),
    total: await countUserMatches(db, appId, userRef, words),
  };
}

function searchUserPage(
  db: Db,
  appId: string,
  userRef: string,
  words: readonly string[],
  limit: number,
  offset: number,
) {
  const { from, order } = matches(db, ofUser('c.connection_id'));
  return fixedSql<UserMatchRow>(
    db,
    `SELECT c.id, c.title, c.update_time, ${payloadText(db, 'c.')} AS payload,
       (SELECT provider FROM connections WHERE id = c.connection_id) AS provider
     FROM ${from} ORDER BY ${order} LIMIT ? OFFSET ?`,
    [searchQuery(db, words), appId, userRef, limit, offset],
  );
}

function countUserMatches(db: Db, appId: string, userRef: string, words: readonly string[]): Promise<number> {
  return countRows(db, matches(db, ofUser('c.connection_id')).from, [searchQuery(db, words), appId, userRef]);
}

/**
 * Indexes for search what the database stored but has not indexed yet, in the
 * connections of `scope` (every one without it): a search does it first, so that
 * it finds everything stored, and the server's background work just after each
 * import. Stops between two batches once `signal` aborts.
 */
export const indexPending = (db: Db, scope: IndexScope, signal?: AbortSignal): Promise<void> =>
  dialectOf(db).indexPending(db, scope, signal);
