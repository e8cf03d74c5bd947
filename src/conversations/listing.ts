import { attachmentsOfConversations, knowledgeOfProjects } from '../db/attachments.ts';
import * as connections from '../db/connections.ts';
import * as search from '../db/conversation-search.ts';
import * as conversations from '../db/conversations.ts';
import * as memories from '../db/memories.ts';
import * as projects from '../db/projects.ts';
import type { ConversationFields } from '../db/conversations.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { connectionOfApp } from './ownership.ts';
import { isSearch, searchWords } from './search.ts';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

type PageQuery = { limit: number; offset: number; changedAfter?: string | undefined; q?: string | undefined };

/** The user's connections, newest capture first. */
export async function listConnections(deps: Pick<Deps, 'db'>, appId: string, userRef: string) {
  const rows = await connections.listConnectionsOfUserRef(deps.db, appId, userRef);
  if (!rows) throw new ParleyError('userNotFound');
  return rows;
}

/**
 * One page of a connection's conversations, newest update first, and whose
 * they are (`userId`, for the access log); `limit` is already capped. With `changedAfter` (ISO 8601, as Parley writes its times),
 * only those stored or changed after it; with a search `q` (see searchWords),
 * only those that match, best match first. `total` counts what is kept. Whole
 * conversations come with `attachments`, those of the page's messages (none
 * where they show none); summaries with none.
 */
export async function listConversations<Fields extends ConversationFields>(
  deps: Pick<Deps, 'db'>,
  appId: string,
  connectionId: string,
  page: PageQuery,
  fields: Fields,
) {
  const connection = await connectionOfApp(deps, appId, connectionId);
  const { db } = deps;
  const { rows, total } = await conversationsPage(db, connection, page, fields);
  const attachments =
    fields === 'full'
      ? await attachmentsOfConversations(
          db,
          rows.map((row) => row.id),
        )
      : [];
  return { rows, total, attachments, userId: connection.user_id };
}

async function conversationsPage<Fields extends ConversationFields>(
  db: Deps['db'],
  connection: { id: string; conversation_count: number; captured_at: string },
  { limit, offset, changedAfter: after, q }: PageQuery,
  fields: Fields,
) {
  // A connection's conversations were stored no earlier than it was captured,
  // whenever the import that opened it wrote them (see import-connection.ts).
  const changedAfter = after !== undefined && connection.captured_at > after ? undefined : after;
  if (isSearch(q)) {
    const words = searchWords(q);
    if (words.length === 0) return { rows: [], total: 0 };
    return search.searchConnection(db, connection.id, words, fields, { limit, offset, changedAfter });
  }
  const scope = conversations.ofConnection(connection.id, changedAfter);
  const rows = await conversations.listConversationsIn(db, scope, fields, limit, offset);
  const total =
    changedAfter === undefined ? connection.conversation_count : await conversations.countConversationsIn(db, scope);
  return { rows, total };
}

type BesidePage = Omit<PageQuery, 'q'>;

/** One page of a connection's memories, newest update first; `total` counts what is kept (see listConversations). */
export async function listMemories(deps: Pick<Deps, 'db'>, appId: string, connectionId: string, page: BesidePage) {
  const connection = await connectionOfApp(deps, appId, connectionId);
  const { limit, offset, changedAfter } = page;
  return {
    rows: await memories.listMemoriesPage(deps.db, connection.id, limit, offset, changedAfter),
    total: await memories.countMemories(deps.db, connection.id, changedAfter),
    userId: connection.user_id,
  };
}

/** One page of a connection's projects, newest update first, with their knowledge files. */
export async function listProjects(deps: Pick<Deps, 'db'>, appId: string, connectionId: string, page: BesidePage) {
  const connection = await connectionOfApp(deps, appId, connectionId);
  const { limit, offset, changedAfter } = page;
  const rows = await projects.listProjectsPage(deps.db, connection.id, limit, offset, changedAfter);
  return {
    rows,
    total: await projects.countProjects(deps.db, connection.id, changedAfter),
    knowledge: await knowledgeOfProjects(
      deps.db,
      rows.map((row) => row.id),
    ),
    userId: connection.user_id,
  };
}

/**
 * One conversation of the app (of that user, where one is named), with the
 * attachments of its messages; 404 for another app's or user's, 409 for one of
 * a connection the person disconnected.
 */
export async function conversationOfApp(
  deps: Pick<Deps, 'db'>,
  owner: { appId: string; userRef?: string | undefined },
  conversationId: string,
) {
  const row = await conversations.findConversationBytes(deps.db, owner, conversationId);
  if (!row) throw new ParleyError('conversationNotFound');
  if (row.status === 'revoked') throw new ParleyError('connectionRevoked');
  return { rows: [row], attachments: await attachmentsOfConversations(deps.db, [row.id]), userId: row.user_id };
}
