import { Hono } from 'hono';
import { purgeConnection, purgeUser } from '../conversations/purge.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { AppEnv } from '../app-env.ts';
import { isValidUserRef } from '../users/user-ref.ts';
import { methodNotAllowed, type CallerMiddleware } from './middleware.ts';

async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw new ApiError('invalidJsonBody');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError('invalidJsonBody');
  return body as Record<string, unknown>;
}

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** POST /api/purge: `{"userRef"}` or `{"connectionId"}`, exactly one. */
export function purgeRoutes(deps: Deps, requireCaller: CallerMiddleware) {
  const routes = new Hono<AppEnv>();
  routes.post('/purge', requireCaller, async (c) => {
    const { userRef, connectionId } = await readJsonObject(c.req.raw);
    const target = userRef ?? connectionId;
    if ((userRef === undefined) === (connectionId === undefined) || !nonEmptyString(target)) {
      throw new ApiError('purgeTarget');
    }
    if (userRef !== undefined && !isValidUserRef(target)) throw new ApiError('invalidUserRef');
    const appId = c.get('caller').appId;
    const deleted =
      userRef !== undefined ? await purgeUser(deps, appId, target) : await purgeConnection(deps, appId, target);
    return c.json({ ok: true, deleted });
  });
  routes.all('/purge', methodNotAllowed(['POST']));
  return routes;
}
