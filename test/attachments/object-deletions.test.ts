/**
 * The S3 deletion queue: the trigger queues the object of every S3 blob whose
 * row is deleted; a pass deletes the objects, then their rows; an object whose
 * deletion fails stays queued and goes on a later pass; the queue is in the
 * database, so a restart loses none; one instance at a time works it (a lease);
 * the server's background work runs it. On SQLite, and on PostgreSQL under npm test.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { deleteQueuedObjects, runObjectDeletions } from '../../src/attachments/object-deletions.ts';
import { s3Store } from '../../src/attachments/s3-store.ts';
import { startBackgroundWork } from '../../src/background.ts';
import type { Db } from '../../src/db/database.ts';
import { FIXED_NOW, openTestDatabase, seedConnection, setup } from '../helpers.ts';
import { startS3, type S3TestServer } from '../s3-server.ts';
import { readAll, storeBlob, testBytes } from './blobs.ts';

const queued = async (db: Db) =>
  (await db.selectFrom('attachment_deletions').select('blob_id').orderBy('blob_id').execute()).map(
    (row) => row.blob_id,
  );

describe('the S3 deletion queue', () => {
  let s3: S3TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'parley-deletions-'));
  before(async () => {
    s3 = await startS3();
  });
  after(async () => {
    await s3.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A tenant whose new blobs go to S3 under `prefix`, with a connection holding `count` of them. */
  async function withBlobs(prefix: string, count: number, databasePath?: string) {
    const t = await setup(s3.env(prefix), databasePath ? { databasePath } : {});
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u' });
    const blobIds: string[] = [];
    for (let i = 0; i < count; i++)
      blobIds.push(await storeBlob(t.deps.db, t.deps.attachments, testBytes(1000 + i, i + 1), { connectionId }));
    return { t, connectionId, blobIds: blobIds.sort() };
  }

  test("deleting S3 blobs' rows queues their objects; a pass deletes the objects, then the rows", async () => {
    const { t, blobIds } = await withBlobs('pass', 40);
    assert.equal(t.deps.attachments.name, 's3');
    assert.equal((await s3.objectKeys('pass')).length, 40);
    await t.deps.db.deleteFrom('attachment_blobs').execute();
    assert.deepEqual(await queued(t.deps.db), blobIds);
    assert.deepEqual(await deleteQueuedObjects(t.deps, t.deps.attachments.objects!), { deleted: 40, failed: 0 });
    assert.deepEqual(await s3.objectKeys('pass'), []);
    assert.deepEqual(await queued(t.deps.db), []);
    for (const blobId of blobIds.slice(0, 3))
      await assert.rejects(readAll(t.deps.attachments.forBlob('s3').read(blobId)), /404 NoSuchKey/);
  });

  test('an object whose deletion fails stays queued, and a later pass deletes it', async () => {
    const { t, blobIds } = await withBlobs('retried', 3);
    await t.deps.db.deleteFrom('attachment_blobs').execute();
    // Credentials the server refuses: every deletion fails.
    const refused = s3Store(s3.config('retried', { wrongSecret: true }));
    assert.deepEqual(await deleteQueuedObjects(t.deps, refused), { deleted: 0, failed: 3 });
    assert.deepEqual(await queued(t.deps.db), blobIds);
    assert.equal((await s3.objectKeys('retried')).length, 3);
    const warning = t.logs.find((line) => line.event === 'attachment objects not deleted');
    assert.equal(warning?.failed, 3);
    assert.match(String(warning?.error), /403 SignatureDoesNotMatch/);

    assert.deepEqual(await deleteQueuedObjects(t.deps, t.deps.attachments.objects!), { deleted: 3, failed: 0 });
    assert.deepEqual(await queued(t.deps.db), []);
    assert.deepEqual(await s3.objectKeys('retried'), []);
  });

  test('the queue outlives the process: after a restart the objects are deleted', async () => {
    const path = join(dir, 'restart.db');
    const { t, blobIds } = await withBlobs('restart', 2, path);
    await t.deps.db.deleteFrom('attachment_blobs').execute();
    await t.deps.db.destroy();

    const restarted = await openTestDatabase(path);
    try {
      assert.deepEqual(await queued(restarted), blobIds);
      const objects = s3Store(s3.config('restart'));
      await deleteQueuedObjects({ db: restarted, log: t.deps.log }, objects);
      assert.deepEqual(await queued(restarted), []);
      assert.deepEqual(await s3.objectKeys('restart'), []);
    } finally {
      await restarted.destroy();
    }
  });

  test('one instance at a time works the queue: the lease holder', async () => {
    const { t } = await withBlobs('lease', 2);
    await t.deps.db.deleteFrom('attachment_blobs').execute();
    const objects = t.deps.attachments.objects!;
    const clock = { now: () => FIXED_NOW };
    const instance = (holder: string) =>
      runObjectDeletions({ ...t.deps, clock }, objects, holder, 30_000, new AbortController().signal);
    await t.deps.db
      .insertInto('leases')
      .values({ name: 'attachment-deletions', holder: 'other', expires_at: FIXED_NOW + 1 })
      .execute();
    await instance('this');
    assert.equal((await queued(t.deps.db)).length, 2);
    await instance('other');
    assert.deepEqual(await queued(t.deps.db), []);
    assert.deepEqual(await s3.objectKeys('lease'), []);
  });

  test("the server's background work deletes queued objects, and none without ATTACHMENTS_URL", async () => {
    const { t, blobIds } = await withBlobs('background', 2);
    await t.deps.db.deleteFrom('attachment_blobs').execute();
    const background = startBackgroundWork(t.deps, { objectDeletionMs: 20, maintenanceMs: 3_600_000 });
    try {
      while ((await queued(t.deps.db)).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await background.stop();
    }
    assert.deepEqual(await s3.objectKeys('background'), []);
    await assert.rejects(readAll(t.deps.attachments.forBlob('s3').read(blobIds[0]!)), /404 NoSuchKey/);

    // A database-store server leaves the queue as it is, for one that names the bucket.
    const plain = await setup();
    assert.equal(plain.deps.attachments.objects, undefined);
    await plain.deps.db.insertInto('attachment_deletions').values({ blob_id: 'blob-x' }).execute();
    const work = startBackgroundWork(plain.deps, { objectDeletionMs: 20, maintenanceMs: 3_600_000 });
    await work.stop();
    assert.deepEqual(await queued(plain.deps.db), ['blob-x']);
  });
});
