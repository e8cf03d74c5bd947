/**
 * What an ExportScanner holds while it reads: records go on in bounded batches,
 * each once the one before was taken; elements that are not objects are counted,
 * not sent; a zip's members never read are dropped as they stream.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { strToU8, zipSync } from 'fflate';
import {
  ExportScanner,
  MAX_BATCH_RECORDS,
  type ReadLimits,
  type SourcedRecord,
} from '../../src/import/scanning/export-scanner.ts';
import { EXPORT_FORMATS } from '../../src/import/formats/registry.ts';
import { RecordBatcher } from '../../src/import/worker/record-batcher.ts';
import { withCompressionMethod } from '../helpers.ts';

const LIMITS: ReadLimits = {
  maxConversationBytes: 2 ** 26,
  maxExpandedBytes: 2 ** 32,
  maxAttachmentBytes: 2 ** 32,
  maxExportRecords: 2 ** 32,
};

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** `[` then `element,` `count` times then `element]`, in a zip: a few kilobytes, pushed in one chunk. */
const tinyRecords = (element: string, count: number) =>
  zipSync({ 'conversations.json': strToU8(`[${`${element},`.repeat(count)}${element}]`) }, { level: 9 });

test('records go on in batches of at most MAX_BATCH_RECORDS, hashed, however many one chunk of a zip completes', async () => {
  const count = 10 * MAX_BATCH_RECORDS;
  const zip = tinyRecords('{}', count - 1);
  assert.ok(zip.length < 64 * 1024, `${zip.length} bytes: one chunk`);
  const sizes: number[] = [];
  const batcher = new RecordBatcher({ limits: LIMITS, known: [], knownBlobs: [] }, ({ records }) => {
    assert.ok(records.every((record) => 'text' in record && record.text === '{}' && record.hash !== ''));
    sizes.push(records.length);
  });
  await batcher.push(zip);
  await batcher.end();
  assert.equal(Math.max(...sizes), MAX_BATCH_RECORDS);
  assert.equal(
    sizes.reduce((sum, size) => sum + size, 0),
    count,
  );
});

test('the scanner reads on only once the batch it handed on is taken', async () => {
  const taken: SourcedRecord[][] = [];
  let release = () => {};
  const scanner = new ExportScanner(LIMITS, EXPORT_FORMATS, (records) => {
    taken.push(records);
    return new Promise<void>((resolve) => (release = resolve));
  });
  let pushed = false;
  const pushing = scanner.push(tinyRecords('{}', 5 * MAX_BATCH_RECORDS)).then(() => (pushed = true));
  for (let batch = 1; !pushed; batch++) {
    for (let i = 0; i < 20; i++) await turn();
    if (pushed) break;
    assert.equal(taken.length, batch, 'one batch waits, nothing more is made');
    release();
  }
  await pushing;
  assert.equal(taken.length, 6);
});

test('elements that are not objects are counted where they are found, never one record each', async () => {
  const records: SourcedRecord[] = [];
  const scanner = new ExportScanner(LIMITS, EXPORT_FORMATS, (batch) => void records.push(...batch));
  const zeros = 1_000_000;
  await scanner.push(tinyRecords('0', zeros - 1));
  await scanner.end();
  assert.ok(records.length < 100, `${records.length} records`);
  assert.equal(
    records.reduce((sum, record) => sum + ('notObjects' in record ? record.notObjects : 0), 0),
    zeros,
  );
});

test('elements that are not objects are checked as JSON, together: a bad one among a hundred thousand is refused', async () => {
  for (const bad of ['nope', '01', '"open', '[1,]']) {
    const scanner = new ExportScanner(LIMITS, EXPORT_FORMATS, () => {});
    const json = `[${'0,'.repeat(50_000)}${bad},${'"a",'.repeat(50_000)}0]`;
    await assert.rejects(
      (async () => {
        await scanner.push(strToU8(json));
        await scanner.end();
      })(),
      /Invalid export file/,
      bad,
    );
  }
});

test('more records than maxExportRecords are refused at the first over: elements, not objects, and files of zips alike', async () => {
  const refusal = { message: 'Export file too large: MAX_EXPORT_RECORDS' };
  const read = async (bytes: Uint8Array, maxExportRecords: number) => {
    const scanner = new ExportScanner({ ...LIMITS, maxExportRecords }, EXPORT_FORMATS, () => {});
    await scanner.push(bytes);
    await scanner.end();
  };
  for (const element of ['{}', '0', '[]', '"x"']) {
    // 100 elements.
    const document = strToU8(`[${`${element},`.repeat(99)}${element}]`);
    await read(document, 100);
    await assert.rejects(read(document, 99), refusal, element);
  }
  // Three files, each counted, read or not; the one read holds one element.
  const zip = zipSync({
    'conversations.json': strToU8('[{}]'),
    'chat.html': strToU8('<html>'),
    'user.json': strToU8('{}'),
  });
  await read(zip, 4);
  await assert.rejects(read(zip, 3), refusal);
});

/** The garbage collector, for a test that checks what is still held. */
function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

test('a member never read is dropped as it streams, whatever its compression method, even one Parley cannot inflate', async () => {
  const gc = collectGarbage();
  const chunkBytes = 1024 * 1024;
  const chunks = 24;
  for (const method of [0, 8, 99]) {
    const zip = withCompressionMethod(
      zipSync(
        {
          'conversations.json': strToU8('[{"id":"a","mapping":{}}]'),
          'unread.bin': [new Uint8Array(chunks * chunkBytes).fill(7), { level: 0 }],
          'conversations-001.json': strToU8('[{"id":"b","mapping":{}}]'),
        },
        { level: 0 },
      ),
      'unread.bin',
      method,
    );
    const records: SourcedRecord[] = [];
    const scanner = new ExportScanner(LIMITS, EXPORT_FORMATS, (batch) => void records.push(...batch));
    // Each chunk in a buffer of its own, as a server reads them: one still held is one the zip's reading keeps.
    const pushed: Array<WeakRef<ArrayBuffer>> = [];
    for (let at = 0; at < zip.length; at += chunkBytes) {
      const chunk = zip.slice(at, at + chunkBytes);
      pushed.push(new WeakRef(chunk.buffer));
      await scanner.push(chunk);
    }
    await turn();
    gc();
    // The last chunk or two stay, as the end of the zip is looked for in them.
    const held = pushed.filter((buffer) => buffer.deref() !== undefined).length;
    assert.ok(held <= 2, `method ${method}: ${held} of ${pushed.length} chunks still held`);
    await scanner.end();
    assert.deepEqual(
      records.map((record) => record.source),
      ['conversations.json', 'conversations-001.json'],
      `method ${method}: the members after it are read`,
    );
  }
});

test('a member to read in a compression method Parley cannot inflate is refused, after an unread member of that method too', async () => {
  const read = async (files: Record<string, Uint8Array>, methods: Record<string, number>) => {
    const zip = zipSync(files, { level: 0 });
    for (const [member, method] of Object.entries(methods)) withCompressionMethod(zip, member, method);
    const scanner = new ExportScanner(LIMITS, EXPORT_FORMATS, () => {});
    await scanner.push(zip);
    await scanner.end();
  };
  const conversations = strToU8('[{"id":"a","mapping":{}}]');
  const refusal = { message: 'Invalid export file: conversations.json uses a compression method Parley cannot read' };
  await assert.rejects(read({ 'conversations.json': conversations }, { 'conversations.json': 99 }), refusal);
  await assert.rejects(
    read(
      { 'unread.bin': strToU8('x'.repeat(1000)), 'conversations.json': conversations },
      { 'unread.bin': 99, 'conversations.json': 99 },
    ),
    refusal,
  );
});

test("fflate's list of the members it met is kept to the two it reads, however many members the zip holds", async () => {
  const files: Record<string, Uint8Array> = { 'conversations.json': strToU8('[{"id":"a","mapping":{}}]') };
  for (let i = 0; i < 2000; i++) files[`view-${i}.html`] = new Uint8Array(0);
  const scanner = new ExportScanner(LIMITS, EXPORT_FORMATS, () => {});
  await scanner.push(zipSync(files));
  // fflate's own field (see forgetEarlierMembers): adding to the front of a list as long as the zip's members made reading quadratic.
  const { unzip } = (scanner as unknown as { input: { unzip: { k: unknown[] } } }).input;
  assert.ok(unzip.k.length <= 2, `${unzip.k.length} lists`);
  await scanner.end();
});
