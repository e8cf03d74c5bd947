import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { supportedLocale } from '../../pages/i18n/locales.ts';
import type { AppEnv } from '../app-env.ts';
import type { PagePurpose } from '../db/database.ts';
import type { Deps } from '../deps.ts';
import { consumeLink } from '../links/link-verification.ts';
import { connectSessionMs, openPageSession } from '../links/page-sessions.ts';

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

/** Where a session of each purpose starts, and where a browser coming back to its link is sent. */
export const SESSION_HOME: Record<PagePurpose, string> = { connect: '/connect', manage: '/manage' };

export const sessionCookie = (c: Context, purpose: PagePurpose) => getCookie(c, COOKIE_NAMES[purpose]);

/** The language of the session of `purpose`, when its link named one the pages speak. */
export const sessionLocale = (c: Context, purpose: PagePurpose) =>
  supportedLocale(getCookie(c, LOCALE_COOKIE_NAMES[purpose]));

/**
 * The cookies of a session just opened: its token (HttpOnly, SameSite=Lax,
 * Secure behind https) and its language, if it has one.
 */
export function setSessionCookies(
  c: Context,
  deps: Pick<Deps, 'config'>,
  purpose: PagePurpose,
  token: string,
  locale: string | undefined,
): void {
  const cookie = {
    httpOnly: true,
    sameSite: 'Lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    path: '/',
    // A connect session outlives the browser's own session (a phone closes tabs
    // while the person requests their export); the server ends it all the same.
    ...(purpose === 'connect' && { maxAge: connectSessionMs(deps.config) / 1000 }),
  } as const;
  setCookie(c, COOKIE_NAMES[purpose], token, cookie);
  // A new session without a language of its own must not inherit an older one's.
  if (locale) setCookie(c, LOCALE_COOKIE_NAMES[purpose], locale, cookie);
  else if (getCookie(c, LOCALE_COOKIE_NAMES[purpose]) !== undefined)
    deleteCookie(c, LOCALE_COOKIE_NAMES[purpose], cookie);
}

/**
 * The person's click on a link's page (connect's Continue, manage's Open, or a
 * person's own navigation to a manage link): consumes the link and opens its
 * page session: the cookie (Secure behind https) and the redirect to its
 * purpose's first page, a URL without the token. No CSRF token: there is no
 * session yet, and the single-use signed token is the proof.
 */
export const startPageSession =
  (deps: Deps) =>
  async (c: Context<AppEnv>): Promise<Response> => {
    const { claims, returnUrl } = c.var.link;
    await consumeLink(deps, claims);
    const token = await openPageSession(deps, {
      appId: claims.appId,
      userRef: claims.userRef,
      purpose: claims.purpose,
      linkJti: claims.jti,
      returnUrl,
    });
    setSessionCookies(c, deps, claims.purpose, token, supportedLocale(claims.locale));
    return c.redirect(SESSION_HOME[claims.purpose], 303);
  };
