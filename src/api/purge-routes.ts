import { Hono } from 'hono';
import { purgeConnection, purgeUser } from '../conversations/purge.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../errors.ts';
import type { AppEnv } from '../app-env.ts';
import { methodNotAllowed, type CallerMiddleware } from './middleware.ts';
import { PurgeBody } from './schemas.ts';
import { BODY_LIMITS, readJsonObject } from '../http/request-body.ts';

/** POST /api/purge: `{"userRef"}` or `{"connectionId"}`, exactly one. */
export function purgeRoutes(deps: Deps, requireCaller: CallerMiddleware) {
  const routes = new Hono<AppEnv>();
  routes.post('/purge', requireCaller, async (c) => {
    const target = parseInput(PurgeBody, await readJsonObject(c.req.raw, BODY_LIMITS.purge, deps.config.bodyTimeoutMs));
    const appId = c.get('caller').appId;
    const deleted =
      target.userRef !== undefined
        ? await purgeUser(deps, appId, target.userRef)
        : await purgeConnection(deps, appId, target.connectionId);
    return c.json({ ok: true, deleted });
  });
  routes.all('/purge', methodNotAllowed(['POST']));
  return routes;
}
