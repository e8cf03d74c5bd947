import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import type { ImportSlots } from '../import/import-slots.ts';
import { agentTokenRoutes } from './agent-token-routes.ts';
import { attachmentRoutes } from './attachment-routes.ts';
import { ingestRoutes } from './ingest-routes.ts';
import { listingRoutes } from './listing-routes.ts';
import { requireCaller } from './middleware.ts';
import { purgeRoutes } from './purge-routes.ts';
import { uploadRoutes } from './upload-routes.ts';

/** Everything under /api, sharing one authenticator; no answer of it may be cached, but an attachment's bytes as they say. */
export function apiRoutes(deps: Deps, imports: ImportSlots) {
  const api = new Hono<AppEnv>();
  api.use(async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  const caller = requireCaller(deps);
  api.route('/', listingRoutes(deps, caller));
  api.route('/', purgeRoutes(deps, caller));
  api.route('/', ingestRoutes(deps, caller, imports));
  api.route('/', attachmentRoutes(deps, caller));
  api.route('/', uploadRoutes(deps, caller));
  api.route('/', agentTokenRoutes(deps, caller));
  return api;
}
