import { Hono, type Context } from 'hono';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  conversationOfApp,
  listConnections,
  listConversations,
  listMemories,
  listProjects,
} from '../conversations/listing.ts';
import type { Deps } from '../deps.ts';
import { ParleyError, parseInput } from '../errors.ts';
import type { AppEnv } from '../app-env.ts';
import { concatBytes } from '../bytes.ts';
import {
  connectionJson,
  conversationSummaryJson,
  conversationsJson,
  memoryJson,
  projectJson,
} from '../wire/wire-json.ts';
import { methodNotAllowed, rateLimit, type CallerMiddleware } from './middleware.ts';
import { ConnectionsQuery, ConversationsQuery, MemoriesQuery, ProjectsQuery } from './schemas.ts';
import { isSearch } from '../conversations/search.ts';
import { recordAccess } from '../users/access-log.ts';

const encoder = new TextEncoder();

async function connectionsResponse(deps: Deps, c: Context<AppEnv>) {
  const { userRef } = parseInput(ConnectionsQuery, c.req.query());
  const rows = await listConnections(deps, c.get('caller').appId, userRef);
  return c.json({ connections: rows.map(connectionJson), userRef });
}

async function conversationsResponse(deps: Deps, c: Context<AppEnv>) {
  const {
    connectionId,
    limit: asked = DEFAULT_PAGE_SIZE,
    offset = 0,
    updatedSince,
    q,
    fields = 'full',
  } = parseInput(ConversationsQuery, c.req.query());
  const limit = Math.min(asked, MAX_PAGE_SIZE);
  const page = { limit, offset, changedAfter: updatedSince, q };
  const appId = c.get('caller').appId;
  const counted = (userId: string) => recordAccess(deps, userId, 'api', { search: isSearch(q) });
  if (fields === 'summary') {
    const { rows, total, userId } = await listConversations(deps, appId, connectionId, page, 'summary');
    counted(userId);
    return c.json({ conversations: rows.map(conversationSummaryJson), total, limit, offset });
  }
  const { rows, total, attachments, userId } = await listConversations(deps, appId, connectionId, page, 'full');
  counted(userId);
  const parts = [
    encoder.encode('{"conversations":['),
    conversationsJson({ rows, attachments }),
    encoder.encode(`],"total":${total},"limit":${limit},"offset":${offset}}`),
  ];
  return c.body(concatBytes(parts) as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'application/json' });
}

/** A page of memories or projects: the query parsed, the limit capped, as for conversations. */
function besidePage(c: Context<AppEnv>, query: typeof MemoriesQuery) {
  const { connectionId, limit: asked = DEFAULT_PAGE_SIZE, offset = 0, updatedSince } = parseInput(query, c.req.query());
  return { connectionId, page: { limit: Math.min(asked, MAX_PAGE_SIZE), offset, changedAfter: updatedSince } };
}

async function memoriesResponse(deps: Deps, c: Context<AppEnv>) {
  const { connectionId, page } = besidePage(c, MemoriesQuery);
  const { rows, total, userId } = await listMemories(deps, c.get('caller').appId, connectionId, page);
  recordAccess(deps, userId, 'api');
  return c.json({ memories: rows.map(memoryJson), total, limit: page.limit, offset: page.offset });
}

async function projectsResponse(deps: Deps, c: Context<AppEnv>) {
  const { connectionId, page } = besidePage(c, ProjectsQuery);
  const { rows, total, knowledge, userId } = await listProjects(deps, c.get('caller').appId, connectionId, page);
  recordAccess(deps, userId, 'api');
  return c.json({
    projects: rows.map((row) => projectJson(row, knowledge)),
    total,
    limit: page.limit,
    offset: page.offset,
  });
}

/** GET /api/conversations and its alias GET /api/connections for the userRef form; GET /api/memories and /api/projects. */
export function listingRoutes(deps: Deps, requireCaller: CallerMiddleware) {
  const routes = new Hono<AppEnv>();
  const limited = [requireCaller, rateLimit(deps)] as const;

  routes.get('/conversations', ...limited, (c) => {
    const { connectionId, userRef, limit, offset } = c.req.query();
    if (connectionId) return conversationsResponse(deps, c);
    if (userRef) return connectionsResponse(deps, c);
    // Neither given: paging parameters say which listing the caller meant.
    const paging = limit !== undefined || offset !== undefined;
    throw new ParleyError(paging || connectionId !== undefined ? 'missingConnectionId' : 'missingUserRef');
  });
  routes.get('/connections', ...limited, (c) => connectionsResponse(deps, c));
  routes.get('/conversations/:id', ...limited, async (c) => {
    const conversation = await conversationOfApp(deps, { appId: c.get('caller').appId }, c.req.param('id'));
    recordAccess(deps, conversation.userId, 'api');
    return c.body(conversationsJson(conversation) as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/json',
    });
  });
  routes.all('/conversations/:id', methodNotAllowed(['GET']));
  routes.get('/memories', ...limited, (c) => memoriesResponse(deps, c));
  routes.get('/projects', ...limited, (c) => projectsResponse(deps, c));
  for (const path of ['/conversations', '/connections', '/memories', '/projects'])
    routes.all(path, methodNotAllowed(['GET']));
  return routes;
}
