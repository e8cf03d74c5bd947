import { timingSafeEqual } from 'parley-sdk/encoding';
import { sha256Hex } from '../crypto.ts';
import * as store from '../db/apps.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { API_KEY_PREFIX } from './apps.ts';

export interface Caller {
  appId: string;
  /** The API key sent; undefined when it was the app secret. */
  keyId?: string;
  /** The app secret was sent instead of an API key (older integrations). */
  usedAppSecret: boolean;
}

/** The credential of `Authorization: Bearer …`, or the interface's 401. */
export function bearerCredential(authorization: string | undefined): string {
  const credential = /^Bearer +(.*)$/i.exec(authorization ?? '')?.[1]?.trim();
  if (!credential) throw new ParleyError('missingAuthorization');
  return credential;
}

const LAST_USED_RESOLUTION_MS = 60_000;
/** Credentials whose hash is remembered; past this the memory starts afresh. */
const REMEMBERED_HASHES = 1024;

/**
 * Resolves `Authorization: Bearer …` to the calling app, or throws the
 * interface's 401. Every call still reads the key's row (a revoked key is refused
 * at once); only the SHA-256 of recently seen credentials is remembered, as Web
 * Crypto's digest costs more than the rest of a listing request.
 */
export function createAuthenticator(deps: Pick<Deps, 'db' | 'clock' | 'log'>) {
  const hashes = new Map<string, string>();
  const hashOf = async (credential: string) => {
    let hash = hashes.get(credential);
    if (hash === undefined) {
      hash = await sha256Hex(credential);
      if (hashes.size >= REMEMBERED_HASHES) hashes.clear();
      hashes.set(credential, hash);
    }
    return hash;
  };
  return (authorization: string | undefined) => authenticate(deps, authorization, hashOf);
}

async function authenticate(
  deps: Pick<Deps, 'db' | 'clock' | 'log'>,
  authorization: string | undefined,
  hashOf: (credential: string) => Promise<string>,
): Promise<Caller> {
  const credential = bearerCredential(authorization);
  const hash = await hashOf(credential);

  if (credential.startsWith(API_KEY_PREFIX)) {
    const key = await store.findApiKeyByHash(deps.db, hash);
    if (!key || key.revoked_at !== null || !timingSafeEqual(key.key_hash, hash)) throw new ParleyError('invalidApiKey');
    const now = deps.clock.now();
    // Coarse on purpose: one write a minute per key at most, not one per request.
    const notSince = isoTime(now - LAST_USED_RESOLUTION_MS);
    // Not waited for: a write, it may queue behind an import's or a purge's transaction, and the request needs nothing of it.
    if (key.last_used_at === null || key.last_used_at <= notSince) {
      store
        .touchApiKey(deps.db, key.id, isoTime(now), notSince)
        .catch((error) => deps.log.error('api key last use', { error: String(error) }));
    }
    return { appId: key.app_id, keyId: key.id, usedAppSecret: false };
  }

  const app = await store.findAppBySecretHash(deps.db, hash);
  if (!app || !timingSafeEqual(app.secret, credential)) throw new ParleyError('invalidApiKey');
  return { appId: app.id, usedAppSecret: true };
}
