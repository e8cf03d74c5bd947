import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import {
  canonicalLocale,
  isReturnUrl,
  LINK_SCOPE,
  MAX_LINK_LIFETIME_SECONDS,
  type LinkClaims,
} from 'parley-sdk/sign-link';
import * as apps from '../db/apps.ts';
import * as store from '../db/page-sessions.ts';
import type { PagePurpose } from '../db/database.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { isValidUserRef } from '../users/user-ref.ts';
import { registeredReturnUrl } from '../apps/page-settings.ts';

const encoder = new TextEncoder();

/** How far ahead of this server's clock a link's `iat` may be (clocks drift; a link signed further ahead would outlive its lifetime). */
const MAX_CLOCK_DRIFT_SECONDS = 60;

function decode(token: string): LinkClaims {
  let claims: Record<string, unknown>;
  try {
    decodeProtectedHeader(token);
    claims = decodeJwt(token);
  } catch {
    throw new ParleyError('invalidLink');
  }
  const { appId, userRef, scopes, purpose, iat, exp, jti, locale, returnUrl } = claims;
  const wellFormed =
    typeof appId === 'string' &&
    typeof userRef === 'string' &&
    isValidUserRef(userRef) &&
    Array.isArray(scopes) &&
    scopes.every((scope) => typeof scope === 'string') &&
    typeof purpose === 'string' &&
    Number.isFinite(iat) &&
    Number.isFinite(exp) &&
    typeof jti === 'string' &&
    jti !== '' &&
    // Optional; a well-formed tag Parley has no pages in is accepted (the pages fall back).
    (locale === undefined || (typeof locale === 'string' && canonicalLocale(locale) !== undefined)) &&
    (returnUrl === undefined || isReturnUrl(returnUrl));
  if (!wellFormed) throw new ParleyError('invalidLink');
  return claims as unknown as LinkClaims;
}

/**
 * The `locale` claim of a link, read without checking the link: it only picks the
 * language of the pages, so even an error page about a bad link can be in it.
 */
export function linkLocale(token: string | undefined): string | undefined {
  if (!token) return undefined;
  try {
    const { locale } = decodeJwt(token);
    return typeof locale === 'string' ? locale : undefined;
  } catch {
    return undefined;
  }
}

/** A link its app signed: its claims, and its returnUrl when that points at an origin the app registered. */
export interface AuthenticLink {
  claims: LinkClaims;
  /** The scopes the app may grant. */
  allowedScopes: string[];
  returnUrl: string | undefined;
}

/**
 * The first checks of a link: decoded, its app exists, signed with that
 * app's secret. From here on its claims are the app's word, so even an error
 * page about the link may offer its way back.
 */
export async function authenticateLink(deps: Pick<Deps, 'db'>, token: string | undefined): Promise<AuthenticLink> {
  if (!token) throw new ParleyError('missingLink');
  const claims = decode(token);
  const app = await apps.findApp(deps.db, claims.appId);
  if (!app) throw new ParleyError('appNotFound');
  try {
    // HS256 only: `alg: none` and every other algorithm are refused here.
    await compactVerify(token, encoder.encode(app.secret), { algorithms: ['HS256'] });
  } catch {
    throw new ParleyError('invalidLink');
  }
  return {
    claims,
    allowedScopes: app.allowed_scopes.split(' '),
    returnUrl: await registeredReturnUrl(deps, claims.appId, claims.returnUrl),
  };
}

/**
 * The rest of a link's checks (lifetime, purpose, scope, returnUrl, use) on an authentic link for `page`, without consuming it; a
 * returnUrl whose origin the app did not register is refused before the
 * link's use is looked up. Each failure is that check's error.
 */
export async function checkLink(
  deps: Pick<Deps, 'db' | 'clock'>,
  { claims, allowedScopes, returnUrl }: AuthenticLink,
  page: PagePurpose,
): Promise<void> {
  const now = deps.clock.now() / 1000;
  // Expired once more than its lifetime has passed (the interface's words): exp itself still counts.
  if (now > claims.exp) throw new ParleyError('linkExpired');
  // Signed ahead of time, a link would stay valid until long after it was made:
  // more than a minute of clock drift ahead is refused, so no link outlives 16 minutes.
  if (claims.exp - claims.iat > MAX_LINK_LIFETIME_SECONDS || claims.iat > now + MAX_CLOCK_DRIFT_SECONDS)
    throw new ParleyError('invalidLinkLifetime');
  if (claims.purpose !== page) throw new ParleyError('wrongLinkPurpose');
  if (
    claims.scopes.length === 0 ||
    !claims.scopes.every((scope) => scope === LINK_SCOPE && allowedScopes.includes(scope))
  ) {
    throw new ParleyError('forbiddenScope');
  }
  if (claims.returnUrl !== undefined && returnUrl === undefined) throw new ParleyError('returnUrlNotAllowed');
  if (await store.isLinkUsed(deps.db, claims.appId, claims.jti)) throw new ParleyError('linkAlreadyUsed');
}

/**
 * Marks the link used. One insert with (app, `jti`) unique: of two simultaneous
 * uses (even from two processes) exactly one wins; the other gets `Link already
 * used`. Another app's link with the same `jti` is another link.
 */
export async function consumeLink(deps: Pick<Deps, 'db' | 'clock'>, claims: LinkClaims): Promise<void> {
  const inserted = await store.insertUsedLink(deps.db, {
    jti: claims.jti,
    app_id: claims.appId,
    used_at: isoTime(deps.clock.now()),
    expires_at: isoTime(claims.exp * 1000),
  });
  if (!inserted) throw new ParleyError('linkAlreadyUsed');
}
