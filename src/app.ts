import { Hono, type Context } from 'hono';
import { routePath } from 'hono/route';
import { sql } from 'kysely';
import packageJson from '../package.json' with { type: 'json' };
import { mcpRoutes } from './agents/mcp-routes.ts';
import { apiRoutes } from './api/api-routes.ts';
import { openApiDocument } from './api/openapi.ts';
import type { AppEnv } from './app-env.ts';
import type { Deps } from './deps.ts';
import { ASSETS } from '../dist/assets.ts';
import { operatorPage } from '../pages/operator-page.ts';
import { brandRoutes } from './hosted/brand-routes.ts';
import { connectRoutes } from './hosted/connect-routes.tsx';
import { manageRoutes } from './hosted/manage-routes.ts';
import { pageHeaders } from './hosted/page-middleware.ts';
import { pageErrorResponse } from './hosted/render-page.tsx';
import { ParleyError } from './errors.ts';
import { errorStatus, setErrorHeaders } from './http/error-response.ts';
import { isDatabaseBusy } from './db/dialects/dialect.ts';
import { ImportSlots } from './import/import-slots.ts';
import { metricsRoutes } from './metrics/metrics-routes.ts';

export const VERSION: string = packageJson.version;

const BUSY_RETRY_AFTER_SECONDS = 1;

/** The Content-Type of each kind of file in pages/assets/, as served (a script from TypeScript is a .js). */
const ASSET_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The whole service as one fetch handler, built only from what it is given. */
export function createApp(deps: Deps) {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    // The last route the request matched: its template, the handler's where one took it.
    deps.metrics.requestAnswered(c.req.method, routePath(c, -1), c.res.status, seconds);
    deps.log.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round(seconds * 10_000) / 10,
      appId: c.get('caller')?.appId ?? c.get('page')?.appId,
    });
  });

  app.get('/', pageHeaders, (c) => c.html(operatorPage(VERSION)));
  app.get('/healthz', async (c) => {
    await sql`SELECT 1`.execute(deps.db);
    return c.json({ ok: true, version: VERSION });
  });
  let openApi: string | undefined;
  app.get('/openapi.json', (c) => {
    // Built on first request: most processes never serve it. Readable from
    // anywhere, so documentation viewers on other origins can load it.
    openApi ??= JSON.stringify(openApiDocument(VERSION));
    return c.body(openApi, 200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
  });
  const imports = new ImportSlots(deps.config.maxConcurrentImports, deps.config.importQueueTimeoutMs);
  app.route('/api', apiRoutes(deps, imports));
  app.route('/', mcpRoutes(deps));
  app.route('/', connectRoutes(deps, imports));
  app.route('/', manageRoutes(deps));
  app.route('/', brandRoutes(deps));
  app.route('/', metricsRoutes(deps));
  // The pages' scripts, stylesheet and favicon: pages/assets/, built by scripts/build-assets.ts.
  for (const [name, body] of Object.entries(ASSETS)) {
    const headers = {
      'Content-Type': ASSET_TYPES[name.slice(name.lastIndexOf('.'))]!,
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    };
    app.get(`/assets/${name}`, (c) => c.body(body, 200, headers));
  }

  app.notFound((c) => errorResponse(c, new ParleyError('notFound')));
  app.onError((error, c) => {
    if (error instanceof ParleyError) return errorResponse(c, error);
    if (isDatabaseBusy(deps.db, error)) {
      // Waited busy_timeout for another process's write: the client may simply try again.
      deps.log.warn('database busy', { method: c.req.method, path: c.req.path });
      return errorResponse(c, new ParleyError('databaseBusy', { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS }));
    }
    // Details stay in the log; the client learns only that it was not its fault.
    deps.log.error('unhandled', {
      method: c.req.method,
      path: c.req.path,
      error: String(error),
      stack: (error as Error).stack,
    });
    return errorResponse(c, new ParleyError('internal'));
  });
  return app;
}

/** `{"error": message}` for the API; an HTML page with advice on the hosted pages. */
function errorResponse(c: Context<AppEnv>, error: ParleyError) {
  setErrorHeaders(c, error);
  return c.get('page') ? pageErrorResponse(c, error) : c.json({ error: error.message }, errorStatus(error));
}

export type App = ReturnType<typeof createApp>;
