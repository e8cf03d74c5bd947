/**
 * The S3 store against a real S3-compatible server (test/s3-server.ts): a blob
 * smaller than a part is one object PUT, a larger one a multipart upload; reads
 * whole and by range; an abort leaves neither an object nor an open upload;
 * deletion; a refused signature is an error that says so.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { objectUrl, PART_BYTES, s3Store } from '../src/attachments/s3-store.ts';
import { startS3, type S3TestServer } from './s3-server.ts';
import { readAll, testBytes, writeInPieces } from './attachments/blobs.ts';

describe('the S3 store', () => {
  let s3: S3TestServer;
  before(async () => {
    s3 = await startS3();
  });
  after(() => s3.stop());

  test('a blob of several parts, written in odd pieces, is one object read back whole and by ranges', async () => {
    const store = s3Store(s3.config('round-trip'));
    const bytes = testBytes(2 * PART_BYTES + 12_345, 11);
    await writeInPieces(store, 'blob-1', bytes, [1, 999_983, 65_537, 3 * PART_BYTES]);
    assert.deepEqual(await s3.objectKeys('round-trip'), ['round-trip/blob-1']);
    assert.deepEqual(s3.openUploads(), []);
    assert.ok(Buffer.from(await readAll(store.read('blob-1'))).equals(bytes));
    // Not [0, 1]: s3rver answers `bytes=0-0` with the whole object (which the store refuses to pass on as the range).
    for (const [start, end] of [
      [0, 2],
      [PART_BYTES - 5, PART_BYTES + 5],
      [PART_BYTES, 2 * PART_BYTES],
      [17, bytes.length],
      [bytes.length - 1, bytes.length],
    ]) {
      const read = await readAll(store.read('blob-1', { start: start!, end: end! }));
      assert.ok(Buffer.from(read).equals(bytes.subarray(start, end)), `bytes ${start}-${end}`);
    }
    assert.equal((await readAll(store.read('blob-1', { start: 9, end: 9 }))).length, 0);
  });

  test('a blob of exactly one part, a small one, and an empty one', async () => {
    const store = s3Store(s3.config('sizes'));
    const cases = { whole: testBytes(PART_BYTES, 2), small: testBytes(1000, 3), empty: new Uint8Array(0) };
    for (const [blobId, bytes] of Object.entries(cases)) await writeInPieces(store, blobId, bytes, [4096]);
    assert.deepEqual((await s3.objectKeys('sizes')).sort(), ['sizes/empty', 'sizes/small', 'sizes/whole']);
    for (const [blobId, bytes] of Object.entries(cases))
      assert.ok(Buffer.from(await readAll(store.read(blobId))).equals(bytes), blobId);
    assert.deepEqual(s3.openUploads(), []);
  });

  test('a reader that stops early ends the download', async () => {
    const store = s3Store(s3.config('early'));
    await writeInPieces(store, 'blob', testBytes(3 * 1024 * 1024, 4));
    for await (const chunk of store.read('blob')) {
      assert.ok(chunk.length > 0);
      break;
    }
    // The server still answers: nothing was left hanging.
    assert.equal((await readAll(store.read('blob', { start: 0, end: 10 }))).length, 10);
  });

  test('an abort leaves nothing: not during a multipart upload, nor before the first part, nor after close', async () => {
    const store = s3Store(s3.config('aborted'));
    const multipart = store.create('multipart');
    // Three parts: the third waits for the first to be in, so the upload has started.
    await multipart.write(testBytes(3 * PART_BYTES + 100, 5));
    assert.equal(s3.openUploads().length, 1);
    await multipart.abort();
    assert.deepEqual(s3.openUploads(), []);

    const small = store.create('small');
    await small.write(testBytes(100, 6));
    await small.abort();

    const closed = store.create('closed');
    await closed.write(testBytes(100, 7));
    await closed.close();
    assert.deepEqual(await s3.objectKeys('aborted'), ['aborted/closed']);
    await closed.abort();

    assert.deepEqual(await s3.objectKeys('aborted'), []);
    assert.deepEqual(s3.openUploads(), []);
    for (const blobId of ['multipart', 'small', 'closed'])
      await assert.rejects(readAll(store.read(blobId)), /S3 GET of aborted\/\w+ failed: 404 NoSuchKey/);
  });

  test('delete removes the object; deleting one that is gone is done too', async () => {
    const store = s3Store(s3.config('deleted'));
    await writeInPieces(store, 'blob', testBytes(5000, 8));
    await store.delete('blob');
    assert.deepEqual(await s3.objectKeys('deleted'), []);
    await assert.rejects(readAll(store.read('blob')), /404 NoSuchKey/);
    await store.delete('blob');
  });

  test('a request the server refuses fails with what S3 said, and the upload can still be aborted', async () => {
    const refused = s3Store(s3.config('refused', { wrongSecret: true }));
    const writer = refused.create('blob');
    await writer.write(testBytes(10, 9));
    await assert.rejects(writer.close(), /S3 PUT of refused\/blob failed: 403 SignatureDoesNotMatch/);
    await assert.rejects(refused.delete('blob'), /403 SignatureDoesNotMatch/);
    const multipart = refused.create('large');
    await assert.rejects(
      (async () => {
        for (let i = 0; i < 3; i++) await multipart.write(testBytes(PART_BYTES, 10 + i));
      })(),
      /S3 multipart upload start of refused\/large failed: 403 SignatureDoesNotMatch/,
    );
    assert.deepEqual(await s3.objectKeys('refused'), []);
  });

  test('objects are addressed path-style at an endpoint, virtual-hosted at AWS', () => {
    const key = 'attachments/a b+c';
    assert.equal(
      objectUrl({ bucket: 'media', region: 'auto', endpoint: 'https://acct.r2.example.com' }, key),
      'https://acct.r2.example.com/media/attachments/a%20b%2Bc',
    );
    assert.equal(
      objectUrl({ bucket: 'media', region: 'eu-west-1', endpoint: undefined }, key),
      'https://media.s3.eu-west-1.amazonaws.com/attachments/a%20b%2Bc',
    );
    assert.equal(
      objectUrl({ bucket: 'media.example.com', region: 'us-east-1', endpoint: undefined }, key),
      'https://s3.us-east-1.amazonaws.com/media.example.com/attachments/a%20b%2Bc',
    );
  });
});
