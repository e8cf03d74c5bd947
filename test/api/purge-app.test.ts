/**
 * Deleting an app (`parley app delete`) leaves nothing of it: no row in any
 * table holding its id, none of its attachment bytes, none of its request
 * counts; another app keeps all of its own. On SQLite, and on PostgreSQL under npm test.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { onboardApp } from '../../src/apps/apps.ts';
import { updateAppPageSettings } from '../../src/apps/page-settings.ts';
import { purgeApp } from '../../src/conversations/purge.ts';
import { saveWebhookEndpoint } from '../../src/db/apps.ts';
import type { Db } from '../../src/db/database.ts';
import { insertPageSession, insertUsedLink } from '../../src/db/page-sessions.ts';
import { countRequest } from '../../src/db/rate-buckets.ts';
import { recordEvent } from '../../src/webhooks/events.ts';
import { attach, attachmentRowCounts, conversationIds, storeBlob, testBytes } from '../attachments/blobs.ts';
import { fixtureBytes, seedConnection, setup, type TestContext } from '../helpers.ts';

/** Every table that holds an app's id, and the column that does. */
const APP_TABLES = [
  ['apps', 'id'],
  ['api_keys', 'app_id'],
  ['users', 'app_id'],
  ['used_links', 'app_id'],
  ['page_sessions', 'app_id'],
  ['webhook_deliveries', 'app_id'],
  ['app_logos', 'app_id'],
  ['app_return_origins', 'app_id'],
] as const;

async function rowsOfApp(t: TestContext, appId: string): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  const count = async (db: Db, table: string, column: string) =>
    Number(
      (
        await db
          .selectFrom(table as 'apps')
          .select((eb) => eb.fn.countAll().as('n'))
          .where(column as 'id', '=', appId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  for (const [table, column] of APP_TABLES) rows[table] = await count(t.deps.db, table, column);
  rows.rate_buckets = await count(t.deps.counters ?? t.deps.db, 'rate_buckets', 'app_id');
  return rows;
}

/** An app with two users (connections, conversations, stored attachments), a page session, a used link, a request count, a delivery, a logo and a return origin. */
async function populate(t: TestContext, appId: string, seed: number) {
  const now = new Date(t.clock.now()).toISOString();
  for (const userRef of ['alice', 'bob']) {
    const { connectionId } = await seedConnection(t.deps, { appId, userRef, count: 2 });
    const [first] = await conversationIds(t.deps.db, connectionId);
    await attach(
      t.deps.db,
      first!,
      await storeBlob(t.deps.db, t.deps.attachments, testBytes(100, seed), { connectionId }),
    );
  }
  await updateAppPageSettings(t.deps, appId, {
    logo: fixtureBytes('acme-notes-logo.png'),
    returnOrigins: ['https://acme.example'],
  });
  await saveWebhookEndpoint(t.deps.db, appId, { url: 'https://hooks.example/parley', secret: 'whsec_x' });
  await recordEvent(t.deps.db, t.deps, appId, 'user.purged', {
    userRef: 'carol',
    users: 1,
    connections: 0,
    conversations: 0,
  });
  await insertUsedLink(t.deps.db, { jti: `jti-${appId}`, app_id: appId, used_at: now, expires_at: now });
  await insertPageSession(t.deps.db, {
    token_hash: `token-${appId}`,
    app_id: appId,
    user_ref: 'alice',
    purpose: 'manage',
    csrf_token: 'csrf',
    last_result: null,
    created_at: now,
    last_seen_at: now,
    link_jti: null,
    return_url: null,
  });
  await countRequest(t.deps.counters ?? t.deps.db, appId, 1);
}

describe('purging an app', () => {
  test('deletes every row of the app and its attachment bytes; another app keeps its own', async () => {
    const t = await setup();
    const other = await onboardApp(t.deps, 'Other app');
    await populate(t, t.tenant.appId, 1);
    await populate(t, other.appId, 2);
    const attachmentsOfBoth = await attachmentRowCounts(t.deps.db);
    const otherBefore = await rowsOfApp(t, other.appId);

    assert.deepEqual(await purgeApp(t.deps, t.tenant.appId), { apps: 1, users: 2, connections: 2, conversations: 4 });

    assert.deepEqual(
      await rowsOfApp(t, t.tenant.appId),
      Object.fromEntries([...APP_TABLES.map(([table]) => table), 'rate_buckets'].map((table) => [table, 0])),
    );
    assert.deepEqual(await rowsOfApp(t, other.appId), otherBefore);
    // The store holds the other app's blob alone: none of the purged app's bytes.
    const half = (n: number | undefined) => (n ?? 0) / 2;
    assert.deepEqual(await attachmentRowCounts(t.deps.db), {
      attachment_blobs: half(attachmentsOfBoth.attachment_blobs),
      attachment_chunks: half(attachmentsOfBoth.attachment_chunks),
      attachments: half(attachmentsOfBoth.attachments),
      attachment_deletions: 0,
    });
  });

  test('an unknown app is refused', async () => {
    const t = await setup();
    await assert.rejects(purgeApp(t.deps, 'app_unknown'), { message: 'App not found' });
  });
});
