/**
 * The database store: a blob's bytes as chunk rows of CHUNK_BYTES (the last
 * shorter), whatever sizes they arrive in; reads whole or of any range, chunk
 * borders included; an empty blob; an abort leaves no chunk. On SQLite, and on
 * PostgreSQL under npm test.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CHUNK_BYTES, databaseStore } from '../../src/attachments/database-store.ts';
import type { Db } from '../../src/db/database.ts';
import { seedConnection, setup } from '../helpers.ts';
import { attachmentRowCounts, blobRow, readAll, storeBlob, testBytes, writeInPieces } from './blobs.ts';

describe('the database store', () => {
  let db: Db;
  let connectionId: string;
  before(async () => {
    const t = await setup();
    db = t.deps.db;
    ({ connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u' }));
  });
  after(() => db.destroy());

  const chunkSizes = async (blobId: string) =>
    (
      await db
        .selectFrom('attachment_chunks')
        .select(['seq', 'start_byte', 'bytes'])
        .where('blob_id', '=', blobId)
        .orderBy('seq')
        .execute()
    ).map((row) => [row.seq, Number(row.start_byte), row.bytes.length]);

  test('bytes written in odd pieces are kept in whole chunks and read back whole', async () => {
    const store = databaseStore(db);
    const bytes = testBytes(2 * CHUNK_BYTES + 12_345, 7);
    const blobId = await blobRow(db, store, { importId: 'import-1' });
    await writeInPieces(store, blobId, bytes, [1, 7, 65_537, 999_983, 3 * CHUNK_BYTES]);
    assert.deepEqual(await chunkSizes(blobId), [
      [0, 0, CHUNK_BYTES],
      [1, CHUNK_BYTES, CHUNK_BYTES],
      [2, 2 * CHUNK_BYTES, 12_345],
    ]);
    assert.ok(Buffer.from(await readAll(store.read(blobId))).equals(bytes));
  });

  test('a range is read from the chunks it spans, across their borders', async () => {
    const store = databaseStore(db);
    const bytes = testBytes(3 * CHUNK_BYTES + 10, 3);
    const blobId = await storeBlob(db, store, bytes, { connectionId });
    const ranges = [
      [0, 1],
      [CHUNK_BYTES - 1, CHUNK_BYTES + 1],
      [CHUNK_BYTES, 2 * CHUNK_BYTES],
      [CHUNK_BYTES - 5, 3 * CHUNK_BYTES + 5],
      [17, bytes.length],
      [bytes.length - 1, bytes.length],
      [3 * CHUNK_BYTES, 3 * CHUNK_BYTES + 10],
    ];
    for (const [start, end] of ranges) {
      const read = await readAll(store.read(blobId, { start: start!, end: end! }));
      assert.ok(Buffer.from(read).equals(bytes.subarray(start, end)), `bytes ${start}-${end}`);
    }
    // Past the end, or empty: nothing.
    assert.equal((await readAll(store.read(blobId, { start: bytes.length, end: bytes.length + 9 }))).length, 0);
    assert.equal((await readAll(store.read(blobId, { start: 40, end: 40 }))).length, 0);
    // A range past the end is cut at it.
    const tail = await readAll(store.read(blobId, { start: bytes.length - 3, end: bytes.length + 100 }));
    assert.ok(Buffer.from(tail).equals(bytes.subarray(bytes.length - 3)));
  });

  test('a chunk is as long as its piece of the blob, not as the buffer the piece came in', async () => {
    const store = databaseStore(db);
    const buffer = testBytes(CHUNK_BYTES * 2, 5);
    const blobId = await blobRow(db, store, { importId: 'import-1' });
    await writeInPieces(store, blobId, buffer.subarray(10, 10 + CHUNK_BYTES + 3));
    assert.deepEqual(await chunkSizes(blobId), [
      [0, 0, CHUNK_BYTES],
      [1, CHUNK_BYTES, 3],
    ]);
    assert.ok(Buffer.from(await readAll(store.read(blobId))).equals(buffer.subarray(10, 10 + CHUNK_BYTES + 3)));
  });

  test('an empty blob is one empty chunk, read as no bytes', async () => {
    const store = databaseStore(db);
    const blobId = await storeBlob(db, store, new Uint8Array(0), { connectionId });
    assert.deepEqual(await chunkSizes(blobId), [[0, 0, 0]]);
    assert.equal((await readAll(store.read(blobId))).length, 0);
    assert.equal((await readAll(store.read(blobId, { start: 0, end: 10 }))).length, 0);
  });

  test('an abort removes what was written; the row, not the store, then decides', async () => {
    const store = databaseStore(db);
    const counted = await attachmentRowCounts(db);
    const blobId = await blobRow(db, store, { importId: 'import-1' });
    const writer = store.create(blobId);
    await writer.write(testBytes(2 * CHUNK_BYTES + 100));
    assert.equal((await chunkSizes(blobId)).length, 2);
    await writer.abort();
    assert.deepEqual(await chunkSizes(blobId), []);
    assert.equal((await readAll(store.read(blobId))).length, 0);
    await db.deleteFrom('attachment_blobs').where('id', '=', blobId).execute();
    assert.deepEqual(await attachmentRowCounts(db), counted);
  });

  test("deleting a blob's row deletes its chunks (and queues nothing: only S3 objects are queued)", async () => {
    const store = databaseStore(db);
    const blobId = await storeBlob(db, store, testBytes(CHUNK_BYTES + 1), { connectionId });
    await db.deleteFrom('attachment_blobs').where('id', '=', blobId).execute();
    assert.deepEqual(await chunkSizes(blobId), []);
    assert.equal((await attachmentRowCounts(db)).attachment_deletions, 0);
  });
});
