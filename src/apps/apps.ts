import { LINK_SCOPE } from 'parley-sdk';
import { base64Url } from 'parley-sdk/encoding';
import { randomBase62, sha256Hex } from '../crypto.ts';
import * as store from '../db/apps.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';

type AppsDeps = Pick<Deps, 'db' | 'clock' | 'random'>;

export const API_KEY_PREFIX = 'parley_';

const newKeyId = (deps: AppsDeps) => `key_${randomBase62(deps.random.bytes, 16)}`;

async function newApiKey(deps: AppsDeps, appId: string) {
  const apiKey = API_KEY_PREFIX + randomBase62(deps.random.bytes, 40);
  const row = {
    id: newKeyId(deps),
    app_id: appId,
    key_hash: await sha256Hex(apiKey),
    start: apiKey.slice(0, 12),
    created_at: isoTime(deps.clock.now()),
    last_used_at: null,
    revoked_at: null,
  };
  return { apiKey, row };
}

/** Onboards an app; the secret and first key are returned here and never again. */
export async function onboardApp(deps: AppsDeps, name: string) {
  const appId = `app_${randomBase62(deps.random.bytes, 20)}`;
  const appSecret = base64Url(deps.random.bytes(32));
  const { apiKey, row } = await newApiKey(deps, appId);
  await store.insertApp(
    deps.db,
    {
      id: appId,
      name,
      secret: appSecret,
      secret_hash: await sha256Hex(appSecret),
      allowed_scopes: LINK_SCOPE,
      created_at: row.created_at,
    },
    row,
  );
  return { appId, appSecret, apiKey, keyId: row.id };
}

export async function listApps(deps: Pick<Deps, 'db'>) {
  const apps = await store.listAppsWithActiveKeyCounts(deps.db);
  return {
    apps: apps.map((app) => ({ appId: app.id, name: app.name, createdAt: app.created_at, keys: Number(app.keys) })),
  };
}

export async function requireApp(deps: Pick<Deps, 'db'>, appId: string) {
  const app = await store.findApp(deps.db, appId);
  if (!app) throw new ParleyError('appNotFound');
  return app;
}

export async function createKey(deps: AppsDeps, appId: string) {
  await requireApp(deps, appId);
  const { apiKey, row } = await newApiKey(deps, appId);
  await store.insertApiKey(deps.db, row);
  return { keyId: row.id, apiKey };
}

export async function listKeys(deps: Pick<Deps, 'db'>, appId: string) {
  await requireApp(deps, appId);
  const keys = await store.listApiKeys(deps.db, appId);
  return {
    keys: keys.map((key) => ({
      keyId: key.id,
      start: key.start,
      createdAt: key.created_at,
      lastUsedAt: key.last_used_at,
      revokedAt: key.revoked_at,
    })),
  };
}

export async function revokeKey(deps: AppsDeps, appId: string, keyId: string) {
  await requireApp(deps, appId);
  if (!(await store.revokeApiKey(deps.db, appId, keyId, isoTime(deps.clock.now()))))
    throw new ParleyError('keyNotFound');
  return { ok: true as const };
}
