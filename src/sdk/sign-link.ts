/**
 * Signs a link to Parley's hosted connect or manage page for one of your users.
 * Runs on any runtime with Web Crypto (Node 20+, Deno, Bun, edge workers); keep the
 * app secret on your server.
 *
 *   const url = await signLink({ appId, userRef: 'user-42', scopes: ['conversations:read'], purpose: 'connect' }, appSecret);
 */
import * as v from 'valibot';
import { base64Url } from '../crypto.ts';
import { isValidUserRef, MAX_USER_REF_LENGTH } from '../users/user-ref.ts';

export const MAX_LINK_LIFETIME_SECONDS = 900;
export const LINK_SCOPE = 'conversations:read';
const DEFAULT_BASE_URL = 'http://localhost:8787';

const SignLinkOptionsSchema = v.object({
  appId: v.pipe(v.string('appId must be a string'), v.minLength(1, 'appId must not be empty')),
  userRef: v.pipe(
    v.string('userRef must be a string'),
    v.minLength(1, 'userRef must not be empty'),
    v.check(isValidUserRef, `userRef must be at most ${MAX_USER_REF_LENGTH} characters`),
  ),
  scopes: v.custom<[typeof LINK_SCOPE]>(
    (value) => Array.isArray(value) && value.length === 1 && value[0] === LINK_SCOPE,
    `scopes must be ["${LINK_SCOPE}"]`,
  ),
  purpose: v.picklist(['connect', 'manage'], 'purpose must be "connect" or "manage"'),
  expiresInSeconds: v.optional(
    v.pipe(
      v.number('expiresInSeconds must be a number'),
      v.integer('expiresInSeconds must be a whole number'),
      v.minValue(1, `expiresInSeconds must be from 1 to ${MAX_LINK_LIFETIME_SECONDS}`),
      v.maxValue(MAX_LINK_LIFETIME_SECONDS, `expiresInSeconds must be from 1 to ${MAX_LINK_LIFETIME_SECONDS}`),
    ),
    MAX_LINK_LIFETIME_SECONDS,
  ),
  baseUrl: v.optional(v.pipe(v.string('baseUrl must be a string'), v.url('baseUrl must be an absolute URL'))),
});

export type SignLinkOptions = v.InferInput<typeof SignLinkOptionsSchema>;

export interface LinkClaims {
  appId: string;
  userRef: string;
  scopes: string[];
  purpose: 'connect' | 'manage';
  iat: number;
  exp: number;
  jti: string;
}

const encoder = new TextEncoder();
const base64UrlJson = (value: unknown) => base64Url(encoder.encode(JSON.stringify(value)));

function defaultBaseUrl(): string {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.PUBLIC_URL || DEFAULT_BASE_URL;
}

/**
 * Returns `{baseUrl}/start?token=…` (connect) or `{baseUrl}/manage?token=…`, an
 * HS256 JWT valid for `expiresInSeconds` (default and maximum 900) and usable once.
 * `now` (ms) is for tests.
 */
export async function signLink(options: SignLinkOptions, appSecret: string, now: number = Date.now()): Promise<string> {
  const result = v.safeParse(SignLinkOptionsSchema, options);
  if (!result.success) throw new TypeError(`signLink: ${result.issues[0].message}`);
  if (typeof appSecret !== 'string' || appSecret.length === 0) throw new TypeError('signLink: appSecret must be a non-empty string');
  const { appId, userRef, scopes, purpose, expiresInSeconds, baseUrl = defaultBaseUrl() } = result.output;

  const iat = Math.floor(now / 1000);
  const claims: LinkClaims = { appId, userRef, scopes, purpose, iat, exp: iat + expiresInSeconds, jti: crypto.randomUUID() };
  const signingInput = `${base64UrlJson({ alg: 'HS256', typ: 'JWT' })}.${base64UrlJson(claims)}`;
  const key = await crypto.subtle.importKey('raw', encoder.encode(appSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(signingInput)));
  const page = purpose === 'connect' ? 'start' : 'manage';
  return `${baseUrl.replace(/\/+$/, '')}/${page}?token=${signingInput}.${base64Url(signature)}`;
}
