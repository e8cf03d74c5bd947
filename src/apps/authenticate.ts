import { sha256Hex, timingSafeEqual } from '../crypto.ts';
import * as store from '../db/apps.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { API_KEY_PREFIX } from './apps.ts';

export interface Caller {
  appId: string;
  /** The app secret was sent instead of an API key (older integrations). */
  usedAppSecret: boolean;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves `Authorization: Bearer …` to the calling app, or throws the interface's 401. */
export async function authenticate(deps: Pick<Deps, 'db' | 'clock'>, authorization: string | undefined): Promise<Caller> {
  const credential = /^Bearer +(.*)$/i.exec(authorization ?? '')?.[1]?.trim();
  if (!credential) throw new ApiError('missingAuthorization');
  const hash = await sha256Hex(credential);

  if (credential.startsWith(API_KEY_PREFIX)) {
    const key = await store.findApiKeyByHash(deps.db, hash);
    if (!key || key.revoked_at !== null || !timingSafeEqual(key.key_hash, hash)) throw new ApiError('invalidApiKey');
    const now = deps.clock.now();
    // Coarse on purpose: one write a minute per key at most, not one per request.
    const notSince = isoTime(now - LAST_USED_RESOLUTION_MS);
    if (key.last_used_at === null || key.last_used_at <= notSince) await store.touchApiKey(deps.db, key.id, isoTime(now), notSince);
    return { appId: key.app_id, usedAppSecret: false };
  }

  const app = await store.findAppBySecretHash(deps.db, hash);
  if (!app || !timingSafeEqual(app.secret, credential)) throw new ApiError('invalidApiKey');
  return { appId: app.id, usedAppSecret: true };
}
