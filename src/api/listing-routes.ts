import { Hono, type Context } from 'hono';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  conversationOfApp,
  listConnections,
  listConversations,
} from '../conversations/listing.ts';
import type { Deps } from '../deps.ts';
import { ParleyError, parseInput } from '../errors.ts';
import type { AppEnv } from '../app-env.ts';
import { concatBytes } from '../bytes.ts';
import { connectionJson, conversationSummaryJson, conversationsJson } from '../wire/wire-json.ts';
import { methodNotAllowed, rateLimit, type CallerMiddleware } from './middleware.ts';
import { ConnectionsQuery, ConversationsQuery } from './schemas.ts';
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

/** GET /api/conversations and its alias GET /api/connections for the userRef form. */
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
  routes.all('/conversations', methodNotAllowed(['GET']));
  routes.all('/connections', methodNotAllowed(['GET']));
  return routes;
}
