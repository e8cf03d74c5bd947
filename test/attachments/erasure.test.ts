/**
 * Deleting people's data deletes their attachment bytes, with either store:
 * a conversation's deletion (a blob goes with the last attachment showing it),
 * a disconnect, a purge of a user (through the API) or of a connection, and a
 * failed import's staged blobs (a writer aborted, a blob written then dropped).
 * The database store's chunk rows go in the same transaction; S3 objects once
 * the deletion queue has run. Afterwards nothing is readable. On SQLite, and on
 * PostgreSQL under npm test.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CHUNK_BYTES } from '../../src/attachments/database-store.ts';
import { deleteQueuedObjects } from '../../src/attachments/object-deletions.ts';
import type { AttachmentStoreName } from '../../src/db/database.ts';
import { deleteConversation, disconnect } from '../../src/conversations/manage.ts';
import { purgeConnection } from '../../src/conversations/purge.ts';
import { seedConnection, setup, type TestContext } from '../helpers.ts';
import { startS3, type S3TestServer } from '../s3-server.ts';
import { attach, attachmentRowCounts, blobRow, conversationIds, readAll, storeBlob, testBytes } from './blobs.ts';

const USER = 'alice';

for (const kind of ['database', 's3'] as const satisfies AttachmentStoreName[]) {
  describe(`with the ${kind} store, deleting data deletes its attachment bytes`, () => {
    let s3: S3TestServer;
    before(async () => {
      s3 = await startS3();
    });
    after(() => s3.stop());

    /**
     * A tenant whose user has a connection of three conversations: the first shows
     * blob `only` and an attachment not stored, the second and third both show blob
     * `shared`. Blobs span several chunks.
     */
    async function scenario(prefix: string) {
      const t = await setup(kind === 's3' ? s3.env(prefix) : {});
      assert.equal(t.deps.attachments.name, kind);
      const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: USER, count: 3 });
      const conversations = await conversationIds(t.deps.db, connectionId);
      const bytes = { only: testBytes(CHUNK_BYTES + 17, 1), shared: testBytes(2 * CHUNK_BYTES + 5, 2) };
      const only = await storeBlob(t.deps.db, t.deps.attachments, bytes.only, { connectionId });
      const shared = await storeBlob(t.deps.db, t.deps.attachments, bytes.shared, { connectionId });
      await attach(t.deps.db, conversations[0]!, only);
      await attach(t.deps.db, conversations[0]!, null);
      await attach(t.deps.db, conversations[1]!, shared);
      await attach(t.deps.db, conversations[2]!, shared);
      return { t, prefix, connectionId, conversations, blobs: { only, shared }, bytes };
    }

    /** What the server does within its deletion period: the queued objects deleted. */
    async function deletionTaskRuns(t: TestContext) {
      const objects = t.deps.attachments.objects;
      if (objects) assert.equal((await deleteQueuedObjects(t.deps, objects)).failed, 0);
    }

    async function assertReadable(t: TestContext, blobId: string, bytes: Uint8Array) {
      const row = await t.deps.db
        .selectFrom('attachment_blobs')
        .select('store')
        .where('id', '=', blobId)
        .executeTakeFirst();
      assert.equal(row?.store, kind);
      assert.ok(Buffer.from(await readAll(t.deps.attachments.forBlob(kind).read(blobId))).equals(bytes));
    }

    /** Neither the blob's row nor any of its bytes, in the database or the bucket. */
    async function assertGone(t: TestContext, prefix: string, blobId: string) {
      const row = await t.deps.db
        .selectFrom('attachment_blobs')
        .select('id')
        .where('id', '=', blobId)
        .executeTakeFirst();
      assert.equal(row, undefined);
      const store = t.deps.attachments.forBlob(kind);
      if (kind === 'database') {
        assert.equal((await readAll(store.read(blobId))).length, 0);
      } else {
        await assert.rejects(readAll(store.read(blobId)), /404 NoSuchKey/);
        assert.ok(!(await s3.objectKeys(prefix)).includes(`${prefix}/${blobId}`));
      }
    }

    /** Nothing of the attachments left anywhere, queue included. */
    async function assertNothingLeft(t: TestContext, prefix: string) {
      assert.deepEqual(await attachmentRowCounts(t.deps.db), {
        attachment_blobs: 0,
        attachment_chunks: 0,
        attachments: 0,
        attachment_deletions: 0,
      });
      assert.deepEqual(await s3.objectKeys(prefix), []);
      assert.deepEqual(s3.openUploads(), []);
    }

    test("a conversation's deletion deletes the bytes no other attachment shows", async () => {
      const { t, prefix, conversations, blobs, bytes } = await scenario('conversation');
      const owner = { appId: t.tenant.appId, userRef: USER };
      await deleteConversation(t.deps, owner, conversations[0]!);
      await deletionTaskRuns(t);
      await assertGone(t, prefix, blobs.only);
      await assertReadable(t, blobs.shared, bytes.shared);

      await deleteConversation(t.deps, owner, conversations[1]!);
      await deletionTaskRuns(t);
      await assertReadable(t, blobs.shared, bytes.shared);

      await deleteConversation(t.deps, owner, conversations[2]!);
      await deletionTaskRuns(t);
      await assertGone(t, prefix, blobs.shared);
      await assertNothingLeft(t, prefix);
    });

    test('a disconnect deletes the bytes of every conversation', async () => {
      const { t, prefix, connectionId, blobs } = await scenario('disconnect');
      await disconnect(t.deps, { appId: t.tenant.appId, userRef: USER }, connectionId);
      if (kind === 's3') assert.equal((await attachmentRowCounts(t.deps.db)).attachment_deletions, 2);
      await deletionTaskRuns(t);
      for (const blobId of Object.values(blobs)) await assertGone(t, prefix, blobId);
      await assertNothingLeft(t, prefix);
    });

    test("a user's purge, through the API, deletes the bytes", async () => {
      const { t, prefix, blobs } = await scenario('purge-user');
      const res = await t.request('/api/purge', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ userRef: USER }),
      });
      assert.equal(res.status, 200);
      await deletionTaskRuns(t);
      for (const blobId of Object.values(blobs)) await assertGone(t, prefix, blobId);
      await assertNothingLeft(t, prefix);
    });

    test("a connection's purge deletes the bytes", async () => {
      const { t, prefix, connectionId, blobs } = await scenario('purge-connection');
      await purgeConnection(t.deps, t.tenant.appId, connectionId);
      await deletionTaskRuns(t);
      for (const blobId of Object.values(blobs)) await assertGone(t, prefix, blobId);
      await assertNothingLeft(t, prefix);
    });

    test("a failed import's staged blobs leave no bytes: one whose writer aborted, one written and then dropped", async () => {
      const t = await setup(kind === 's3' ? s3.env('failed-import') : {});
      const staged = { importId: 'import-1' };
      const aborted = await blobRow(t.deps.db, t.deps.attachments, staged);
      const writer = t.deps.attachments.create(aborted);
      // More than a part for S3, several chunks for the database: a multipart upload is open.
      await writer.write(testBytes(9 * 1024 * 1024, 3));
      await writer.abort();
      const written = await storeBlob(t.deps.db, t.deps.attachments, testBytes(CHUNK_BYTES + 3, 4), staged);
      await assertReadable(t, written, testBytes(CHUNK_BYTES + 3, 4));
      // What the failed import does with its staged rows.
      await t.deps.db.deleteFrom('attachment_blobs').where('import_id', '=', 'import-1').execute();
      await deletionTaskRuns(t);
      await assertGone(t, 'failed-import', aborted);
      await assertGone(t, 'failed-import', written);
      await assertNothingLeft(t, 'failed-import');
    });
  });
}
