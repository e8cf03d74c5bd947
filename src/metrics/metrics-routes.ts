import { Hono } from 'hono';
import { timingSafeEqual } from 'parley-sdk/encoding';
import type { AppEnv } from '../app-env.ts';
import { bearerCredential } from '../apps/authenticate.ts';
import { serverFigures } from '../db/server-figures.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { exposition, EXPOSITION_CONTENT_TYPE } from './exposition.ts';

/**
 * GET /metrics for Prometheus, behind METRICS_TOKEN; without it there is no
 * such route (404), as a server that does not publish its figures should look.
 */
export function metricsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  const token = deps.config.metricsToken;
  if (token === undefined) return app;
  app.get('/metrics', async (c) => {
    if (!timingSafeEqual(bearerCredential(c.req.header('Authorization')), token))
      throw new ParleyError('invalidMetricsToken');
    const body = exposition(deps.metrics.families(await serverFigures(deps.db)));
    return c.body(body, 200, { 'Content-Type': EXPOSITION_CONTENT_TYPE, 'Cache-Control': 'no-store' });
  });
  return app;
}
