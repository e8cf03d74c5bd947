/**
 * MAX_STORED_BYTES_PER_USER and MAX_STORED_BYTES_PER_APP: what an import may
 * leave a user's connections, and an app's, storing — conversation payloads and
 * files, kept per connection in `stored_bytes` (src/import/storage-bounds.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { onboardApp } from '../../src/apps/apps.ts';
import { deleteAttachment } from '../../src/conversations/attachments.ts';
import { deleteConversation, disconnect } from '../../src/conversations/manage.ts';
import {
  databaseBefore,
  expectRefused,
  fixtureBytes,
  json,
  postExport,
  seedApp,
  seedConnection,
  setup,
  type TestContext,
  storedBytes,
} from '../helpers.ts';
import { chatgptPre2025, JPEG } from './attachment-exports.ts';

const CLAUDE = fixtureBytes('claude-conversations.json');
const GROK = fixtureBytes('grok-prod-grok-backend.json');
const USER_FULL = 'Import would exceed the storage limit: MAX_STORED_BYTES_PER_USER';
const APP_FULL = 'Import would exceed the storage limit: MAX_STORED_BYTES_PER_APP';

/** What a connection stores, counted from its rows here: each payload's UTF-8 bytes and each file's size. */
async function countedBytes(t: TestContext, connectionId: string): Promise<number> {
  const payloads = await t.deps.db
    .selectFrom('conversations')
    .select('payload')
    .where('connection_id', '=', connectionId)
    .execute();
  const blobs = await t.deps.db
    .selectFrom('attachment_blobs')
    .select('size')
    .where('connection_id', '=', connectionId)
    .execute();
  return (
    payloads.reduce((sum, { payload }) => sum + Buffer.byteLength(payload ?? ''), 0) +
    blobs.reduce((sum, { size }) => sum + Number(size), 0)
  );
}

async function imported(t: TestContext, file: Uint8Array, userRef = 'u1', contentType = 'application/json') {
  const res = await postExport(t, file, { query: `userRef=${userRef}`, contentType });
  const body = await json(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.connectionId as string;
}

/** What importing `file` alone leaves stored. */
async function sizeOf(file: Uint8Array): Promise<number> {
  const t = await setup();
  return storedBytes(t, await imported(t, file));
}

const attachmentBlobs = async (t: TestContext) =>
  Number(
    (
      await t.deps.db
        .selectFrom('attachment_blobs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('storage bounds', () => {
  test('a connection stores its payloads’ bytes and its files’ sizes, kept up to date by every deletion', async () => {
    const t = await setup();
    const connectionId = await imported(t, CLAUDE);
    const full = await storedBytes(t, connectionId);
    assert.equal(full, await countedBytes(t, connectionId));
    const [withFile] = await t.deps.db
      .selectFrom('attachments')
      .select(['id', 'conversation_id', 'size'])
      .where('connection_id', '=', connectionId)
      .where('blob_id', 'is not', null)
      .execute();
    assert.ok(withFile, 'the fixture holds a stored file');
    const owner = { appId: t.tenant.appId, userRef: 'u1' };
    await deleteAttachment(t.deps, owner, withFile.id);
    assert.equal(await storedBytes(t, connectionId), full - Number(withFile.size));
    await deleteConversation(t.deps, owner, withFile.conversation_id!);
    assert.equal(await storedBytes(t, connectionId), await countedBytes(t, connectionId));
    assert.ok((await storedBytes(t, connectionId)) < full - Number(withFile.size));
    await disconnect(t.deps, owner, connectionId);
    assert.equal(await storedBytes(t, connectionId), 0);
  });

  test('MAX_STORED_BYTES_PER_USER: the import that would pass it is refused and stores nothing; others go on', async () => {
    const [claude, grok] = [await sizeOf(CLAUDE), await sizeOf(GROK)];
    const t = await setup({ MAX_STORED_BYTES_PER_USER: String(claude + grok - 1) });
    const kept = await imported(t, CLAUDE);
    const blobs = await attachmentBlobs(t);
    await expectRefused(t, () => postExport(t, GROK), 413, USER_FULL);
    assert.equal(await attachmentBlobs(t), blobs);
    // Storing no more than it did, the same export again passes; another user has a bound of their own.
    assert.equal((await json(await postExport(t, CLAUDE))).unchanged, 5);
    assert.equal(await storedBytes(t, kept), claude);
    await imported(t, GROK, 'u2');
    // Room made on the manage page counts at once.
    await disconnect(t.deps, { appId: t.tenant.appId, userRef: 'u1' }, kept);
    await imported(t, GROK);
  });

  test('MAX_STORED_BYTES_PER_APP: all the app’s users together; another app’s are not counted', async () => {
    const [claude, grok] = [await sizeOf(CLAUDE), await sizeOf(GROK)];
    const t = await setup({ MAX_STORED_BYTES_PER_USER: '0', MAX_STORED_BYTES_PER_APP: String(claude + grok - 1) });
    await imported(t, CLAUDE, 'u1');
    await expectRefused(t, () => postExport(t, GROK, { query: 'userRef=u2' }), 413, APP_FULL);
    const other = await onboardApp(t.deps, 'Other app');
    const elsewhere = await t.request('/api/ingest-export?userRef=u2', {
      method: 'POST',
      headers: { Authorization: `Bearer ${other.apiKey}`, 'Content-Type': 'application/json' },
      body: GROK as BodyInit,
    });
    assert.equal(elsewhere.status, 200);
  });

  test('a small zip whose file inflates past the bound is refused, and none of its bytes stay', async () => {
    const t = await setup({ MAX_STORED_BYTES_PER_USER: String(256 * 1024) });
    const photo = new Uint8Array(1024 * 1024);
    photo.set(JPEG);
    const files = { ...chatgptPre2025(), 'file-Photo11111111111111111-cat.jpg': photo };
    const zip = zipSync(files, { level: 9 });
    assert.ok(zip.length < 16 * 1024, `${zip.length} bytes`);
    await expectRefused(t, () => postExport(t, zip, { contentType: 'application/zip' }), 413, USER_FULL);
    assert.equal(await attachmentBlobs(t), 0);
    const chunks = await t.deps.db.selectFrom('attachment_chunks').select('blob_id').execute();
    assert.deepEqual(chunks, []);
  });

  test('a database of the version before has each connection’s stored bytes counted by the upgrade', async () => {
    const { db, upgraded } = await databaseBefore(`stored_upgrade_${crypto.randomUUID().replace(/-/g, '')}`, {
      sqlite: 14,
      postgres: 8,
    });
    await seedApp(db, 'a1');
    const clock = { now: () => Date.now() };
    const { connectionId } = await seedConnection({ db, clock }, { appId: 'a1', userRef: 'u1', count: 3 });
    const empty = await seedConnection({ db, clock }, { appId: 'a1', userRef: 'u2' });
    await db
      .insertInto('attachment_blobs')
      .values({
        id: 'b1',
        connection_id: connectionId,
        import_id: null,
        store: 'database',
        sha256: 'x',
        size: 1000,
        content_type: 'image/png',
        source: '',
        created_at: 0,
      })
      .execute();
    await db.destroy();
    const current = await upgraded();
    try {
      const t = { deps: { db: current } } as TestContext;
      assert.equal(await storedBytes(t, connectionId), await countedBytes(t, connectionId));
      assert.ok((await storedBytes(t, connectionId)) > 1000);
      assert.equal(await storedBytes(t, empty.connectionId), 0);
    } finally {
      await current.destroy();
    }
  });
});
