import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from './database.ts';
import { dialectOf, type IndexScope } from './dialects/dialect.ts';
import { countRows, rowsOf } from './sql-fragments.ts';
import {
  conversationColumns,
  listingOrder,
  ofConnection,
  type ConversationFields,
  type ConversationRowOf,
} from './conversations.ts';

export type { IndexScope };

/**
 * Full-text search over conversations (schema.sql and schema.postgres.sql: the
 * index and how it is kept in step). `words` are plain words — letters, digits
 * and their marks, as searchWords gives them — each of which must match; the
 * last also as the start of a longer word, so results come as a word is typed.
 * Best match first (the title weighs more than the messages), then the listing's
 * order.
 */

/** The FROM and WHERE that find the matches as `c` within `scope` (a condition on `c`), and the ORDER BY: best match, then the listing's order. */
function matches(db: Db, words: readonly string[], scope: Expression<SqlBool>) {
  const { from, order } = dialectOf(db).searchMatches(words, scope);
  return { from, order: sql`${order}, ${listingOrder}` };
}

/**
 * A page of the conversations `where.scope` (a condition on `c`) keeps that
 * match, best first, in the form `fields` says (payloads as stored bytes, see
 * listConversationsPage), and how many match: what the database has yet to
 * index in `where.index` (see indexPending) is indexed first, so that the
 * search finds everything stored.
 */
export async function searchConversations<Fields extends ConversationFields>(
  db: Db,
  where: { index: IndexScope; scope: Expression<SqlBool> },
  words: readonly string[],
  fields: Fields,
  page: { limit: number; offset: number },
) {
  await indexPending(db, where.index);
  const { from, order } = matches(db, words, where.scope);
  return {
    rows: await rowsOf<ConversationRowOf<Fields>>(
      db,
      sql`SELECT ${conversationColumns(db, fields)} FROM ${from} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`,
    ),
    total: await countRows(db, from),
  };
}

/** A connection's conversations that match (see searchConversations). */
export const searchConnection = <Fields extends ConversationFields>(
  db: Db,
  connectionId: string,
  words: readonly string[],
  fields: Fields,
  page: { limit: number; offset: number; changedAfter?: string | undefined },
) =>
  searchConversations(
    db,
    { index: { connectionId }, scope: ofConnection(connectionId, page.changedAfter) },
    words,
    fields,
    page,
  );

/** How many of a connection's conversations match. */
export function countConnectionMatches(
  db: Db,
  connectionId: string,
  words: readonly string[],
  changedAfter?: string,
): Promise<number> {
  return countRows(db, matches(db, words, ofConnection(connectionId, changedAfter)).from);
}

/** The connection id in `column` is that of one of the connections of a user of an app. */
export const ofUser = (column: string, user: { appId: string; userRef: string }) =>
  sql<SqlBool>`${sql.ref(column)} IN (SELECT cn.id FROM connections cn JOIN users u ON u.id = cn.user_id
    WHERE u.app_id = ${user.appId} AND u.user_ref = ${user.userRef})`;

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
  const { from, order } = matches(db, words, ofUser('c.connection_id', { appId, userRef }));
  return rowsOf<UserMatchRow>(
    db,
    sql`SELECT c.id, c.title, c.update_time, ${sql.raw(dialectOf(db).payloadText('c.payload'))} AS payload,
       (SELECT provider FROM connections WHERE id = c.connection_id) AS provider
     FROM ${from} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
  );
}

function countUserMatches(db: Db, appId: string, userRef: string, words: readonly string[]): Promise<number> {
  return countRows(db, matches(db, words, ofUser('c.connection_id', { appId, userRef })).from);
}

/**
 * Indexes for search what the database stored but has not indexed yet, in the
 * connections of `scope` (every one without it): a search does it first, so that
 * it finds everything stored, and the server's background work just after each
 * import. Stops between two batches once `signal` aborts.
 */
export const indexPending = (db: Db, scope: IndexScope, signal?: AbortSignal): Promise<void> =>
  dialectOf(db).indexPending(db, scope, signal);
