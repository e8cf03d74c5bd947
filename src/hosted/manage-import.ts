import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import { checkCsrf, openConnectSessionFrom } from '../links/page-sessions.ts';
import { requirePageSession } from './page-middleware.ts';
import { SESSION_HOME, sessionLocale, setSessionCookies } from './page-session-cookies.ts';
import { postedForm } from './posted-form.ts';

/**
 * "Import from another service": the person, already in a manage session their
 * single-use link opened, starts a connect flow for the same app and user
 * without a new link. A form post with the session's CSRF token, so no other
 * site can start one in their browser; the connect session is a new one under
 * the connect pages' own rules (its cookie, 30 idle minutes), in the manage
 * session's language.
 */
export function manageImport(deps: Deps) {
  return new Hono<AppEnv>().post('/manage/import', requirePageSession(deps, 'manage'), async (c) => {
    const form = await postedForm(deps, c);
    checkCsrf(c.var.session, form.csrf);
    const token = await openConnectSessionFrom(deps, c.var.session);
    setSessionCookies(c, deps, 'connect', token, sessionLocale(c, 'manage'));
    return c.redirect(SESSION_HOME.connect, 303);
  });
}
