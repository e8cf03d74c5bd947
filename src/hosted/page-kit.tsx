import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { ErrorPage } from '../../pages/error-page.tsx';
import { messagesFor, negotiateLocale, supportedLocale } from '../../pages/i18n/locales.ts';
import { MessagesContext } from '../../pages/i18n/messages-context.ts';
import type { Messages } from '../../pages/i18n/en.ts';
import { PageFrameContext } from '../../pages/page-frame.ts';
import type { AppEnv } from '../app-env.ts';
import type { PagePurpose } from '../db/database.ts';
import { ParleyError, type ErrorCode } from '../errors.ts';
import { pageBrand, registeredReturnUrl } from '../apps/page-settings.ts';
import type { Deps } from '../deps.ts';
import {
  authenticateLink,
  checkLink,
  consumeLink,
  linkLocale,
  type AuthenticLink,
} from '../links/link-verification.ts';
import { openPageSession, resumePageSession } from '../links/page-sessions.ts';
import { errorStatus } from '../http/error-response.ts';
import { BODY_LIMITS, readBoundedBody } from '../http/request-body.ts';

/** The headers every hosted page is served with; also marks errors here as HTML, in the browser's language until a link or session says otherwise. */
export const pageHeaders = createMiddleware<AppEnv>(async (c, next) => {
  c.set('page', { locale: negotiateLocale(c.req.header('Accept-Language')) });
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

/** The catalogue of the language this request's pages are in. */
export const messages = (c: Context<AppEnv>): Messages => messagesFor(c.get('page').locale);

export function renderPage(
  c: Context<AppEnv>,
  page: VNode,
  status: 200 | 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 500 | 503 = 200,
) {
  const { brand, returnUrl, returnStatus } = c.get('page');
  const framed = (
    <PageFrameContext.Provider value={{ brand, returnUrl, returnStatus }}>{page}</PageFrameContext.Provider>
  );
  return c.html(
    `<!doctype html>${renderToString(<MessagesContext.Provider value={messages(c)}>{framed}</MessagesContext.Provider>)}`,
    status,
  );
}

/**
 * The error as a page: its message and what to do, in the person's language. A
 * technical reason after the message (a parser's, in English) stays in the API's
 * JSON and the log. A session that was never opened in this browser is not said
 * to have expired.
 */
export function pageErrorResponse(c: Context<AppEnv>, error: ParleyError) {
  const t = messages(c);
  const { appName, sessionSent } = c.get('page');
  const neverOpened = error.code === 'sessionExpired' && !sessionSent;
  const advice = neverOpened
    ? t.noSessionAdvice
    : ((t.advice as Partial<Record<ErrorCode, string>>)[error.code] ?? t.askAgain);
  const message = neverOpened ? t.noSessionTitle : t.errors[error.code];
  const status = errorStatus(error);
  return renderPage(
    c,
    <ErrorPage status={status} message={message} advice={advice} appName={appName} />,
    status as 400,
  );
}

/** Follows a signed link's `locale` claim, when it names a language the pages speak. */
export function useLinkLocale(c: Context<AppEnv>, token: string | undefined) {
  const locale = supportedLocale(linkLocale(token));
  if (locale) c.set('page', { ...c.get('page'), locale });
}

const COOKIE_NAMES: Record<PagePurpose, string> = { connect: 'parley_connect', manage: 'parley_manage' };
/**
 * The link's language, kept beside the session cookie for the whole session. A
 * cookie rather than a column: it is no secret, and a person who edits it only
 * changes the language of their own pages.
 */
const LOCALE_COOKIE_NAMES: Record<PagePurpose, string> = {
  connect: 'parley_connect_locale',
  manage: 'parley_manage_locale',
};

export const sessionCookie = (c: Context, purpose: PagePurpose) => getCookie(c, COOKIE_NAMES[purpose]);

/** Where a session of each purpose starts, and where a browser coming back to its link is sent. */
const SESSION_HOME: Record<PagePurpose, string> = { connect: '/connect', manage: '/manage' };

/**
 * What the pages of this request show of their app (its brand) and where they
 * offer to return to: before completion the way back is "cancelled", from the
 * manage pages (nothing to complete) "success"; result and error pages say their own.
 */
async function showApp(
  deps: Deps,
  c: Context<AppEnv>,
  appId: string,
  purpose: PagePurpose,
  returnUrl: string | undefined,
) {
  const brand = await pageBrand(deps, appId);
  const returnStatus = purpose === 'connect' ? 'cancelled' : 'success';
  c.set('page', { ...c.get('page'), appId, appName: brand.name, brand, returnUrl, returnStatus });
  return brand;
}

/**
 * A signed link for `purpose`, checked (every check but its use) without consuming it; its
 * app's brand is on the page, error pages included, once the app's signature
 * holds. A browser coming back to the very link that opened its live session
 * (Back, a reload) is sent on to that session rather than told the link was
 * used, or has expired since: that redirect is returned instead of the link.
 */
export async function pageLink(
  deps: Deps,
  c: Context<AppEnv>,
  token: string | undefined,
  purpose: PagePurpose,
): Promise<AuthenticLink | Response> {
  useLinkLocale(c, token);
  const link = await authenticateLink(deps, token);
  await showApp(deps, c, link.claims.appId, purpose, link.returnUrl);
  if (await sessionOpenedBy(deps, c, purpose, link.claims)) return c.redirect(SESSION_HOME[purpose], 303);
  await checkLink(deps, link, purpose);
  return link;
}

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
 * Whether the request is a person's top-level navigation, as browsers mark it
 * (Fetch Metadata). Link previews, mail scanners and `curl` send neither header.
 * Only a GET: a HEAD (answered by the GET route) shows the person nothing, and
 * its headers are anyone's to write, so it must never use a link up.
 */
export const isNavigation = (c: Context) =>
  c.req.method === 'GET' &&
  c.req.header('Sec-Fetch-Mode') === 'navigate' &&
  c.req.header('Sec-Fetch-Dest') === 'document';

/**
 * Consumes a checked link and opens its page session: the cookie (Secure behind
 * https) and the redirect to its purpose's first page, a URL without the token.
 */
export async function startPageSession(deps: Deps, c: Context<AppEnv>, { claims, returnUrl }: AuthenticLink) {
  c.set('page', { ...c.get('page'), appId: claims.appId });
  await consumeLink(deps, claims);
  const token = await openPageSession(deps, {
    appId: claims.appId,
    userRef: claims.userRef,
    purpose: claims.purpose,
    linkJti: claims.jti,
    returnUrl,
  });
  const cookie = {
    httpOnly: true,
    sameSite: 'Lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    path: '/',
  } as const;
  setCookie(c, COOKIE_NAMES[claims.purpose], token, cookie);
  const locale = supportedLocale(claims.locale);
  // A new session without a language of its own must not inherit an older one's.
  if (locale) setCookie(c, LOCALE_COOKIE_NAMES[claims.purpose], locale, cookie);
  else if (getCookie(c, LOCALE_COOKIE_NAMES[claims.purpose]) !== undefined)
    deleteCookie(c, LOCALE_COOKIE_NAMES[claims.purpose], cookie);
  return c.redirect(SESSION_HOME[claims.purpose], 303);
}

/**
 * The posted form's text fields, from a body of at most BODY_LIMITS.pageForm
 * (413 past it, before anything the form says is checked: its link is in it).
 * A body that is not a form reads as an empty one, so the checks that follow
 * refuse it (no link, no CSRF token) instead of a 500.
 */
export async function postedForm(deps: Deps, c: Context<AppEnv>): Promise<Record<string, string>> {
  const bytes = await readBoundedBody(c.req.raw, BODY_LIMITS.pageForm, deps.config.bodyTimeoutMs);
  try {
    const form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'Content-Type': c.req.header('Content-Type') ?? '' },
    }).formData();
    return Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/**
 * The live page session of `purpose`, with the name of its app; its brand and way
 * back show on its pages and error pages (the way back only while its origin
 * is still registered).
 */
export async function pageSession(deps: Deps, c: Context<AppEnv>, purpose: PagePurpose) {
  const locale = supportedLocale(getCookie(c, LOCALE_COOKIE_NAMES[purpose]));
  const cookie = sessionCookie(c, purpose);
  c.set('page', { ...c.get('page'), ...(locale && { locale }), sessionSent: cookie !== undefined });
  const session = await resumePageSession(deps, cookie, purpose);
  const brand = await showApp(
    deps,
    c,
    session.appId,
    purpose,
    await registeredReturnUrl(deps, session.appId, session.returnUrl),
  );
  return { ...session, appName: brand.name };
}
