import { base64Url } from './encoding.ts';

export const MAX_LINK_LIFETIME_SECONDS = 900;
export const LINK_SCOPE = 'conversations:read';
export const MAX_USER_REF_LENGTH = 1024;
export const MAX_RETURN_URL_LENGTH = 2048;

export interface SignLinkOptions {
  appId: string;
  /** Your identifier for the person: 1 to 1,024 characters. */
  userRef: string;
  scopes: [typeof LINK_SCOPE];
  /** `connect` opens the connect page, `manage` the page to review and delete data. */
  purpose: 'connect' | 'manage';
  /** 1 to 900; 900 when left out. */
  expiresInSeconds?: number;
  /** Where Parley is served, such as `https://parley.example.com`: its PUBLIC_URL. Required, and never read from your environment. */
  baseUrl: string;
  /**
   * The pages' language, a BCP 47 tag such as `de` or `zh-CN`; carried canonicalised.
   * A language Parley has no pages in falls back to the browser's, else English.
   */
  locale?: string;
  /**
   * Where the pages offer to send the person back to (an absolute http(s) URL), with
   * `parley_status` and `connectionId` added. Its origin must be one your app registered
   * (`app update --return-origin`), or the pages refuse the link.
   */
  returnUrl?: string;
}

/** What a signed link's token carries. */
export interface LinkClaims {
  appId: string;
  userRef: string;
  scopes: string[];
  purpose: 'connect' | 'manage';
  iat: number;
  exp: number;
  jti: string;
  /** A canonical BCP 47 tag, when the link chose the pages' language. */
  locale?: string;
  /** Where the pages offer to return to. */
  returnUrl?: string;
}

/** Whether a userRef has 1 to 1,024 characters (code points, as SQL's length() counts them). */
export function isValidUserRef(value: string): boolean {
  if (value === '') return false;
  // Cheap for every normal value: code points never outnumber UTF-16 units.
  if (value.length <= MAX_USER_REF_LENGTH) return true;
  let count = 0;
  for (const _ of value) if (++count > MAX_USER_REF_LENGTH) return false;
  return true;
}

/** `value` as a canonical BCP 47 language tag (`zh-cn` → `zh-CN`); undefined when it is not a well-formed one. */
export function canonicalLocale(value: string): string | undefined {
  try {
    const [tag] = Intl.getCanonicalLocales(value);
    return tag;
  } catch {
    return undefined;
  }
}

function isAbsoluteUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** Whether a returnUrl is an absolute http(s) URL of at most 2,048 characters (it rides in the link). */
export function isReturnUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_RETURN_URL_LENGTH) return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The first thing wrong with the options, as the TypeError's message says it; undefined when none is. */
function problemWith(options: SignLinkOptions): string | undefined {
  const { appId, userRef, scopes, purpose, expiresInSeconds, baseUrl, locale, returnUrl } = (options ??
    {}) as Partial<SignLinkOptions>;
  if (typeof appId !== 'string') return 'appId must be a string';
  if (appId === '') return 'appId must not be empty';
  if (typeof userRef !== 'string') return 'userRef must be a string';
  if (userRef === '') return 'userRef must not be empty';
  if (!isValidUserRef(userRef)) return `userRef must be at most ${MAX_USER_REF_LENGTH} characters`;
  if (!Array.isArray(scopes) || scopes.length !== 1 || scopes[0] !== LINK_SCOPE)
    return `scopes must be ["${LINK_SCOPE}"]`;
  if (purpose !== 'connect' && purpose !== 'manage') return 'purpose must be "connect" or "manage"';
  if (expiresInSeconds !== undefined) {
    if (typeof expiresInSeconds !== 'number' || Number.isNaN(expiresInSeconds))
      return 'expiresInSeconds must be a number';
    if (!Number.isInteger(expiresInSeconds)) return 'expiresInSeconds must be a whole number';
    if (expiresInSeconds < 1 || expiresInSeconds > MAX_LINK_LIFETIME_SECONDS)
      return `expiresInSeconds must be from 1 to ${MAX_LINK_LIFETIME_SECONDS}`;
  }
  if (baseUrl === undefined)
    return 'baseUrl is required: the address Parley is served at, such as "https://parley.example.com"';
  if (typeof baseUrl !== 'string') return 'baseUrl must be a string';
  if (!isAbsoluteUrl(baseUrl)) return 'baseUrl must be an absolute URL';
  if (locale !== undefined) {
    if (typeof locale !== 'string') return 'locale must be a string';
    if (canonicalLocale(locale) === undefined) return 'locale must be a BCP 47 language tag, such as "de" or "zh-CN"';
  }
  if (returnUrl !== undefined && !isReturnUrl(returnUrl))
    return `returnUrl must be an absolute http(s) URL of at most ${MAX_RETURN_URL_LENGTH} characters`;
  return undefined;
}

const encoder = new TextEncoder();
const base64UrlJson = (value: unknown) => base64Url(encoder.encode(JSON.stringify(value)));

/**
 * Signs a link to Parley's hosted connect or manage page for one of your users:
 * `{baseUrl}/start?token=…` (connect) or `{baseUrl}/manage?token=…`, an HS256 JWT
 * valid for `expiresInSeconds` and usable once, its pages in `locale` when given, offering
 * a way back to `returnUrl` when given. Keep the app secret on your server. Bad options
 * throw a TypeError saying which. `now` (ms) is for tests.
 *
 *   const url = await signLink({ appId, userRef: 'user-42', scopes: ['conversations:read'], purpose: 'connect', baseUrl: 'https://parley.example.com' }, appSecret);
 */
export async function signLink(options: SignLinkOptions, appSecret: string, now: number = Date.now()): Promise<string> {
  const problem = problemWith(options);
  if (problem) throw new TypeError(`signLink: ${problem}`);
  if (!nonEmptyString(appSecret)) throw new TypeError('signLink: appSecret must be a non-empty string');
  const { appId, userRef, purpose, expiresInSeconds = MAX_LINK_LIFETIME_SECONDS, baseUrl, locale, returnUrl } = options;

  const iat = Math.floor(now / 1000);
  const claims: LinkClaims = {
    appId,
    userRef,
    scopes: [LINK_SCOPE],
    purpose,
    iat,
    exp: iat + expiresInSeconds,
    jti: crypto.randomUUID(),
  };
  if (locale !== undefined) claims.locale = canonicalLocale(locale)!;
  if (returnUrl !== undefined) claims.returnUrl = returnUrl;
  const signingInput = `${base64UrlJson({ alg: 'HS256', typ: 'JWT' })}.${base64UrlJson(claims)}`;
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(appSecret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(signingInput)));
  const page = purpose === 'connect' ? 'start' : 'manage';
  return `${baseUrl.replace(/\/+$/, '')}/${page}?token=${signingInput}.${base64Url(signature)}`;
}
