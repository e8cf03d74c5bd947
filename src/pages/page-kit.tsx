import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { ErrorPage } from '../../pages/error-page.tsx';
import type { AppEnv } from '../app-env.ts';
import type { PagePurpose } from '../db/database.ts';
import type { ApiError, ErrorCode } from '../errors.ts';
import { requireApp } from '../apps/apps.ts';
import type { Deps } from '../deps.ts';
import { consumeLink } from '../links/link-verification.ts';
import { openPageSession, resumePageSession } from '../links/page-sessions.ts';
import type { LinkClaims } from '../../sdk/src/sign-link.ts';

const ASK_AGAIN = 'Go back to the app you came from and open this page again: it will give you a new link.';

/** What the person can do about each error a page can show. */
const ADVICE: Partial<Record<ErrorCode, string>> = {
  missingLink: `This page opens only from a link the app gives you. ${ASK_AGAIN}`,
  invalidLink: `This link is damaged or not meant for this service. ${ASK_AGAIN}`,
  appNotFound: 'The app that made this link is not registered here. Contact the app’s support.',
  linkExpired: `Links work for 15 minutes, and this one has run out. ${ASK_AGAIN}`,
  invalidLinkLifetime: `This link was made to last too long, so it is not accepted. ${ASK_AGAIN}`,
  wrongLinkPurpose: `This link is for a different page. ${ASK_AGAIN}`,
  forbiddenScope: `This link asks for access the app is not allowed. Contact the app’s support.`,
  linkAlreadyUsed: `Each link works once, and this one was already used. ${ASK_AGAIN}`,
  sessionExpired: `Your session ended after 30 minutes without activity. ${ASK_AGAIN}`,
  invalidCsrf: 'This form was out of date. Go back, reload the page and try again.',
  connectionNotFound: 'This connection does not exist or was removed.',
  conversationNotFound: 'This conversation does not exist or was deleted.',
};

/** The headers every hosted page is served with; also marks errors here as HTML. */
export const pageHeaders = createMiddleware<AppEnv>(async (c, next) => {
  c.set('page', {});
  await next();
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('X-Frame-Options', 'DENY');
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  );
});

export function renderPage(c: Context, page: VNode, status: 200 | 400 | 401 | 403 | 404 | 409 | 413 | 415 | 500 = 200) {
  return c.html(`<!doctype html>${renderToString(page)}`, status);
}

export function pageErrorResponse(c: Context<AppEnv>, error: ApiError) {
  return renderPage(
    c,
    <ErrorPage status={error.status} message={error.message} advice={ADVICE[error.code] ?? ASK_AGAIN} appName={c.get('page').appName} />,
    error.status as 400,
  );
}

const COOKIE_NAMES: Record<PagePurpose, string> = { connect: 'parley_connect', manage: 'parley_manage' };

export const sessionCookie = (c: Context, purpose: PagePurpose) => getCookie(c, COOKIE_NAMES[purpose]);

/**
 * Consumes a verified link and opens its page session: the cookie (Secure behind
 * https) and the redirect to `to`, a URL without the token.
 */
export async function startPageSession(deps: Deps, c: Context<AppEnv>, claims: LinkClaims, to: string) {
  await consumeLink(deps, claims);
  const token = await openPageSession(deps, { appId: claims.appId, userRef: claims.userRef, purpose: claims.purpose });
  setCookie(c, COOKIE_NAMES[claims.purpose], token, { httpOnly: true, sameSite: 'Lax', secure: deps.config.publicUrl.startsWith('https:'), path: '/' });
  return c.redirect(to, 303);
}

/** The live page session of `purpose`, with the name of its app, which error pages show too. */
export async function pageSession(deps: Deps, c: Context<AppEnv>, purpose: PagePurpose) {
  const session = await resumePageSession(deps, sessionCookie(c, purpose), purpose);
  const app = await requireApp(deps, session.appId);
  c.set('page', { appName: app.name });
  return { ...session, appName: app.name };
}
