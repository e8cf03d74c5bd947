import { Hono, type Context } from 'hono';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  listConnections,
  listConversations,
  listMemories,
  listProjects,
} from '../conversations/listing.ts';
import type { Deps } from '../deps.ts';
import { ParleyError, parseInput } from '../errors.ts';
import type { AppEnv } from '../app-env.ts';
import { concatBytes } from '../bytes.ts';
import { connectionJson, conversationsJson, memoryJson, projectJson } from '../wire/wire-json.ts';
import { methodNotAllowed, rateLimit, type CallerMiddleware } from './middleware.ts';
import { ConnectionsQuery, ConversationsQuery, MemoriesQuery, ProjectsQuery } from './schemas.ts';

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
  } = parseInput(ConversationsQuery, c.req.query());
  const limit = Math.min(asked, MAX_PAGE_SIZE);
  const { rows, total, attachments } = await listConversations(deps, c.get('caller').appId, connectionId, {
    limit,
    offset,
    changedAfter: updatedSince,
    q,
  });
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
  const { rows, total } = await listMemories(deps, c.get('caller').appId, connectionId, page);
  return c.json({ memories: rows.map(memoryJson), total, limit: page.limit, offset: page.offset });
}

async function projectsResponse(deps: Deps, c: Context<AppEnv>) {
  const { connectionId, page } = besidePage(c, ProjectsQuery);
  const { rows, total, knowledge } = await listProjects(deps, c.get('caller').appId, connectionId, page);
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
  routes.get('/memories', ...limited, (c) => memoriesResponse(deps, c));
  routes.get('/projects', ...limited, (c) => projectsResponse(deps, c));
  for (const path of ['/conversations', '/connections', '/memories', '/projects'])
    routes.all(path, methodNotAllowed(['GET']));
  return routes;
}
