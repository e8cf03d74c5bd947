import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { negotiateLocale, supportedLocale } from '../../pages/i18n/locales.ts';
import type { AppEnv } from '../app-env.ts';
import { pageBrand, registeredReturnUrl } from '../apps/page-settings.ts';
import type { PagePurpose } from '../db/database.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { authenticateLink, checkLink, linkLocale } from '../links/link-verification.ts';
import { resumePageSession } from '../links/page-sessions.ts';
import { postedForm } from './posted-form.ts';
import { SESSION_HOME, sessionCookie, sessionLocale } from './page-session-cookies.ts';

// What a hosted page (its error page included) shows around its content — its
// language, its app's brand, the way back — is set here, before any handler
// runs: pageHeaders on every page, then requirePageLink or requirePageSession.

const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The headers every hosted page is served with; also marks errors here as HTML, in the browser's language until a link or session says otherwise. */
export const pageHeaders = createMiddleware<AppEnv>(async (c, next) => {
  c.set('page', { locale: negotiateLocale(c.req.header('Accept-Language')) });
  await next();
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('X-Frame-Options', 'DENY');
  // Added, never replacing: a file's own policy (`sandbox`) stays, and a browser enforces both.
  c.header('Content-Security-Policy', PAGE_POLICY, { append: true });
});

/**
 * The app on the pages (its brand), and where they offer to return to: before
 * completion the way back is "cancelled", from the manage pages (nothing to
 * complete) "success"; result and error pages say their own.
 */
async function appShown(deps: Deps, appId: string, purpose: PagePurpose, returnUrl: string | undefined) {
  const brand = await pageBrand(deps, appId);
  const returnStatus = purpose === 'connect' ? ('cancelled' as const) : ('success' as const);
  return { appId, appName: brand.name, brand, returnUrl, returnStatus };
}

/**
 * The pages a signed link for `purpose` opens: the link (in the URL, or posted by
 * the page's button) is checked — every check but its use — without consuming
 * it. A browser coming back to the very link that opened its live session (Back,
 * a reload) is sent on to that session rather than told the link was used, or
 * has expired since.
 */
export const requirePageLink = (deps: Deps, purpose: PagePurpose) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const token = c.req.method === 'POST' ? (await postedForm(deps, c)).token : c.req.query('token');
    // Each step shows what it learnt before the next may fail: an error page about
    // the link is in its language, and wears its app's brand once that is certain.
    const locale = supportedLocale(linkLocale(token));
    if (locale) c.set('page', { ...c.get('page'), locale });
    const link = await authenticateLink(deps, token);
    const app = await appShown(deps, link.claims.appId, purpose, link.returnUrl);
    c.set('page', { ...c.get('page'), ...app });
    if (await sessionOpenedBy(deps, c, purpose, link.claims)) return c.redirect(SESSION_HOME[purpose], 303);
    await checkLink(deps, link, purpose);
    // authenticateLink refused a missing token.
    c.set('link', { ...link, token: token!, brand: app.brand });
    await next();
  });

/** Whether this browser's live session of `purpose` was opened by this very link: its app's, with its jti. */
async function sessionOpenedBy(
  deps: Deps,
  c: Context<AppEnv>,
  purpose: PagePurpose,
  { appId, jti }: { appId: string; jti: string },
): Promise<boolean> {
  if (sessionCookie(c, purpose) === undefined) return false;
  try {
    const session = await resumePageSession(deps, sessionCookie(c, purpose), purpose);
    return session.appId === appId && session.linkJti === jti;
  } catch (error) {
    if (error instanceof ParleyError && error.code === 'sessionExpired') return false;
    throw error;
  }
}

/**
 * The pages of a live page session of `purpose`: in its link's language, and
 * with its app's brand and way back (the way back only while its origin is
 * still registered), on its error pages too.
 */
export const requirePageSession = (deps: Deps, purpose: PagePurpose) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const locale = sessionLocale(c, purpose);
    const cookie = sessionCookie(c, purpose);
    c.set('page', {
      ...c.get('page'),
      ...(locale && { locale }),
      sessionSent: cookie !== undefined,
      ...(purpose === 'connect' && { connectSessionHours: deps.config.connectSessionHours }),
    });
    const session = await resumePageSession(deps, cookie, purpose);
    const returnUrl = await registeredReturnUrl(deps, session.appId, session.returnUrl);
    const app = await appShown(deps, session.appId, purpose, returnUrl);
    c.set('page', { ...c.get('page'), ...app });
    c.set('session', { ...session, appName: app.appName });
    await next();
  });
