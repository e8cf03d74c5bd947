import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import { ingestRoutes } from './ingest-routes.ts';
import { listingRoutes } from './listing-routes.ts';
import { requireCaller } from './middleware.ts';
import { purgeRoutes } from './purge-routes.ts';

/** Everything under /api, sharing one authenticator. */
export function apiRoutes(deps: Deps) {
  const api = new Hono<AppEnv>();
  const caller = requireCaller(deps);
  api.route('/', listingRoutes(deps, caller));
  api.route('/', purgeRoutes(deps, caller));
  api.route('/', ingestRoutes(deps, caller));
  return api;
}
