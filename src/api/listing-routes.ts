import { Hono, type Context } from 'hono';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, listConnections, listConversations } from '../conversations/listing.ts';
import type { Deps } from '../deps.ts';
import { ApiError, type ErrorCode } from '../errors.ts';
import type { AppEnv } from '../app-env.ts';
import { concatBytes } from '../bytes.ts';
import { connectionJson, conversationsJsonParts } from './api-json.ts';
import { requireUserRef } from '../users/user-ref.ts';
import { methodNotAllowed, rateLimit, type CallerMiddleware } from './middleware.ts';

const encoder = new TextEncoder();

function wholeNumber(raw: string | undefined, fallback: number, min: number, code: ErrorCode): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= Number.MAX_SAFE_INTEGER)) throw new ApiError(code);
  return value;
}

async function connectionsResponse(deps: Deps, c: Context<AppEnv>, userRef: string) {
  const rows = await listConnections(deps, c.get('caller').appId, userRef);
  return c.json({ connections: rows.map(connectionJson), userRef });
}

async function conversationsResponse(deps: Deps, c: Context<AppEnv>, connectionId: string) {
  const limit = Math.min(wholeNumber(c.req.query('limit'), DEFAULT_PAGE_SIZE, 1, 'invalidLimit'), MAX_PAGE_SIZE);
  const offset = wholeNumber(c.req.query('offset'), 0, 0, 'invalidOffset');
  const { rows, total } = await listConversations(deps, c.get('caller').appId, connectionId, { limit, offset });
  const parts = [
    encoder.encode('{"conversations":['),
    ...conversationsJsonParts(rows),
    encoder.encode(`],"total":${total},"limit":${limit},"offset":${offset}}`),
  ];
  return c.body(concatBytes(parts) as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'application/json' });
}

/** GET /api/conversations and its alias GET /api/connections for the userRef form. */
export function listingRoutes(deps: Deps, requireCaller: CallerMiddleware) {
  const routes = new Hono<AppEnv>();
  const limited = [requireCaller, rateLimit(deps)] as const;

  routes.get('/conversations', ...limited, (c) => {
    const connectionId = c.req.query('connectionId');
    const userRef = c.req.query('userRef');
    if (connectionId) return conversationsResponse(deps, c, connectionId);
    if (userRef) return connectionsResponse(deps, c, requireUserRef(userRef));
    // Neither given: paging parameters say which listing the caller meant.
    const paging = c.req.query('limit') !== undefined || c.req.query('offset') !== undefined;
    throw new ApiError(paging || connectionId !== undefined ? 'missingConnectionId' : 'missingUserRef');
  });
  routes.get('/connections', ...limited, (c) => {
    return connectionsResponse(deps, c, requireUserRef(c.req.query('userRef')));
  });
  routes.all('/conversations', methodNotAllowed(['GET']));
  routes.all('/connections', methodNotAllowed(['GET']));
  return routes;
}
