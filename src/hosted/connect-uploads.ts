import { every } from 'hono/combine';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';
import { tusRoutes } from '../api/upload-routes.ts';
import type { Deps } from '../deps.ts';
import { checkCsrf } from '../links/page-sessions.ts';
import { requirePageSession } from './page-middleware.ts';

/** The header the connect page's script sends its session's CSRF token in. */
export const CSRF_HEADER = 'Parley-CSRF';

/**
 * /connect/uploads: the resumable uploads (tus) of the connect page's script,
 * under its page session rather than an API key. An upload belongs to the session
 * that made it: another session, or an API key, gets 404. The session's cookie
 * alone is not enough — a cross-site page's request would carry it — so every
 * request also names the session's CSRF token in a header, which only the page
 * knows and which a cross-origin request cannot send without the browser asking first.
 */
export function connectUploads(deps: Deps) {
  const csrf = createMiddleware<AppEnv>(async (c, next) => {
    checkCsrf(c.var.session, c.req.header(CSRF_HEADER));
    await next();
  });
  return tusRoutes(deps, {
    path: '/connect/uploads',
    location: '/connect/uploads',
    authorise: every(requirePageSession(deps, 'connect'), csrf),
    owner: (c) => ({
      appId: c.var.session.appId,
      pageSession: c.var.session.tokenHash,
      userRef: c.var.session.userRef,
    }),
  });
}
