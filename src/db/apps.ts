import type { Insertable } from 'kysely';
import type { ApiKeysTable, AppLogosTable, AppsTable, Db } from './database.ts';
import { fixedSql } from './fixed-sql.ts';

export async function insertApp(
  db: Db,
  app: Omit<AppsTable, 'webhook_url' | 'webhook_secret' | 'display_name' | 'accent_color' | 'privacy_url'>,
  key: Insertable<ApiKeysTable>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('apps').values(app).execute();
    await trx.insertInto('api_keys').values(key).execute();
  });
}

export const findApp = (db: Db, appId: string) =>
  db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();

export const findAppBySecretHash = (db: Db, secretHash: string) =>
  db.selectFrom('apps').select(['id', 'secret']).where('secret_hash', '=', secretHash).executeTakeFirst();

export const listAppsWithActiveKeyCounts = (db: Db) =>
  db
    .selectFrom('apps')
    .leftJoin('api_keys', (join) => join.onRef('api_keys.app_id', '=', 'apps.id').on('api_keys.revoked_at', 'is', null))
    .select(['apps.id', 'apps.name', 'apps.created_at', (eb) => eb.fn.count<number>('api_keys.id').as('keys')])
    .groupBy('apps.id')
    .orderBy('apps.created_at')
    .orderBy('apps.id')
    .execute();

export async function insertApiKey(db: Db, key: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

/** Every API request's first query. */
export async function findApiKeyByHash(db: Db, keyHash: string) {
  const [key] = await fixedSql<Pick<ApiKeysTable, 'id' | 'app_id' | 'key_hash' | 'last_used_at' | 'revoked_at'>>(
    db,
    'SELECT id, app_id, key_hash, last_used_at, revoked_at FROM api_keys WHERE key_hash = ?',
    [keyHash],
  );
  return key;
}

export const listApiKeys = (db: Db, appId: string) =>
  db.selectFrom('api_keys').selectAll().where('app_id', '=', appId).orderBy('created_at').orderBy('id').execute();

/** Records a use at `at` unless one was recorded since `notSince`: one write a minute, even across processes. */
export async function touchApiKey(db: Db, keyId: string, at: string, notSince: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', notSince)]))
    .execute();
}

/** Returns whether a key of that app was found; revoking twice keeps the first time. */
export async function revokeApiKey(db: Db, appId: string, keyId: string, at: string): Promise<boolean> {
  const found = await db
    .selectFrom('api_keys')
    .select('id')
    .where('id', '=', keyId)
    .where('app_id', '=', appId)
    .executeTakeFirst();
  if (!found) return false;
  await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .execute();
  return true;
}

export async function saveWebhookEndpoint(
  db: Db,
  appId: string,
  endpoint: { url: string; secret: string },
): Promise<void> {
  await db
    .updateTable('apps')
    .set({ webhook_url: endpoint.url, webhook_secret: endpoint.secret })
    .where('id', '=', appId)
    .execute();
}

/** The app with what the hosted pages show of it: its brand and whether it has a logo (by the logo's hash, not its bytes). */
export const findAppBrand = (db: Db, appId: string) =>
  db
    .selectFrom('apps')
    .leftJoin('app_logos', 'app_logos.app_id', 'apps.id')
    .select([
      'apps.id',
      'apps.name',
      'apps.display_name',
      'apps.accent_color',
      'apps.privacy_url',
      'app_logos.sha256 as logo_sha256',
    ])
    .where('apps.id', '=', appId)
    .executeTakeFirst();

/**
 * Saves what `app update` changed, in one transaction: the brand's columns, the
 * logo (`null` removes it) and the whole list of return origins.
 */
export async function saveAppPageSettings(
  db: Db,
  appId: string,
  changes: {
    brand: Partial<Pick<AppsTable, 'display_name' | 'accent_color' | 'privacy_url'>>;
    logo?: AppLogosTable | null;
    returnOrigins?: readonly string[];
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (Object.keys(changes.brand).length > 0)
      await trx.updateTable('apps').set(changes.brand).where('id', '=', appId).execute();
    const { logo, returnOrigins } = changes;
    if (logo === null) await trx.deleteFrom('app_logos').where('app_id', '=', appId).execute();
    if (logo) {
      const { app_id: _, ...replacing } = logo;
      await trx
        .insertInto('app_logos')
        .values(logo)
        .onConflict((oc) => oc.column('app_id').doUpdateSet(replacing))
        .execute();
    }
    if (returnOrigins) {
      await trx.deleteFrom('app_return_origins').where('app_id', '=', appId).execute();
      if (returnOrigins.length > 0)
        await trx
          .insertInto('app_return_origins')
          .values(returnOrigins.map((origin) => ({ app_id: appId, origin })))
          .execute();
    }
  });
}

export const findAppLogo = (db: Db, appId: string) =>
  db.selectFrom('app_logos').select(['content_type', 'bytes', 'sha256']).where('app_id', '=', appId).executeTakeFirst();

export async function listReturnOrigins(db: Db, appId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('app_return_origins')
    .select('origin')
    .where('app_id', '=', appId)
    .orderBy('origin')
    .execute();
  return rows.map((row) => row.origin);
}

export async function isReturnOrigin(db: Db, appId: string, origin: string): Promise<boolean> {
  const row = await db
    .selectFrom('app_return_origins')
    .select('origin')
    .where('app_id', '=', appId)
    .where('origin', '=', origin)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes the app row, which cascades to its keys, settings, logo, return
 * origins, users left and webhook outbox, and its used links (no foreign key:
 * they outlive nothing but their expiry otherwise).
 */
export async function deleteApp(db: Db, appId: string): Promise<void> {
  await db.deleteFrom('used_links').where('app_id', '=', appId).execute();
  await db.deleteFrom('apps').where('id', '=', appId).execute();
}
