/**
 * What an upload may expand to, and how unreadable archives are answered: through
 * the API and the connect page alike, every refusal writes nothing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { startNodeImportWorker } from '../../src/runtime/node-workers.ts';
import { ExportScanner, type SourcedRecord } from '../../src/import/scanning/export-scanner.ts';
import { EXPORT_FORMATS } from '../../src/import/formats/registry.ts';
import { BYTES_PER_VALUE } from '../../src/import/scanning/json-elements.ts';
import { expectRefused, json, longChatgptConversation, postExport, rowCounts, setup, streamedZip } from '../helpers.ts';
import { hiddenField, openSession } from '../pages/page-client.ts';

const NOTHING = { users: 0, connections: 0, conversations: 0, staged: 0 };
/** One reason, never a message wrapped in another. */
const ONE_REASON = /^Invalid export file: (?!.*Invalid export file)./;

/** A ChatGPT conversation whose JSON is exactly `bytes` long, padded in its title. */
function conversationOfSize(id: string, bytes: number): string {
  const frame = JSON.stringify({ id, title: '', mapping: {} });
  return frame.replace('"title":""', `"title":"${'a'.repeat(bytes - frame.length)}"`);
}

const exportOf = (...conversations: string[]) => strToU8(`[${conversations.join(',')}]`);

/** `element` `count` times, for an export's top-level array. */
const times = (element: string, count: number) => Array<string>(count).fill(element);

/** The zip: `[` then `0,` a million times then `0]` (after one conversation, with `first`): a few kilobytes. */
const millionZeros = (first = '') =>
  zipSync({ 'conversations.json': strToU8(`[${first}${'0,'.repeat(1_000_000)}0]`) }, { level: 9 });

const TOO_MANY_RECORDS = 'Export file too large: MAX_EXPORT_RECORDS';

describe('MAX_CONVERSATION_BYTES', () => {
  test('a conversation over the limit is 413 with the limit named, in JSON, a single object and a zip', async () => {
    const t = await setup({ MAX_CONVERSATION_BYTES: '1000' });
    const over = conversationOfSize('big', 1001);
    const message = 'Export file too large: MAX_CONVERSATION_BYTES';
    await expectRefused(t, () => postExport(t, exportOf(conversationOfSize('small', 200), over)), 413, message);
    await expectRefused(t, () => postExport(t, strToU8(over)), 413, message);
    await expectRefused(
      t,
      () => postExport(t, zipSync({ 'conversations.json': exportOf(over) }), { contentType: 'application/zip' }),
      413,
      message,
    );
  });

  test('a conversation of exactly the limit imports', async () => {
    const t = await setup({ MAX_CONVERSATION_BYTES: '1000' });
    const body = await json(
      await postExport(t, exportOf(conversationOfSize('a', 1000), conversationOfSize('b', 1000))),
    );
    assert.deepEqual([body.created, body.conversationCount], [2, 2]);
  });

  test('a conversation of more values than the limit allows (one per BYTES_PER_VALUE bytes) is 413, though its bytes are far fewer; a long real conversation imports', async () => {
    const t = await setup();
    const maxValues = t.deps.config.maxConversationBytes / BYTES_PER_VALUE;
    const message = 'Export file too large: MAX_CONVERSATION_BYTES';
    // Each `{},` or `0,` is a value JSON.parse spends tens of bytes on.
    const emptyObjects = strToU8(
      `[{"id":"dense","title":"Dense","mapping":{},"v":[${'{},'.repeat(maxValues / 2)}{}]}]`,
    );
    const zeros = strToU8(`[{"id":"zeros","title":"Zeros","mapping":{},"v":[${'0,'.repeat(maxValues)}0]}]`);
    for (const body of [emptyObjects, zeros]) {
      assert.ok(body.length < t.deps.config.maxConversationBytes / 8, `${body.length} bytes`);
      await expectRefused(t, () => postExport(t, body), 413, message);
      await expectRefused(
        t,
        () => postExport(t, zipSync({ 'conversations.json': body }), { contentType: 'application/zip' }),
        413,
        message,
      );
    }
    const long = longChatgptConversation(5_000);
    assert.ok(long.values > 250_000 && long.values < maxValues / 3, `${long.values} values`);
    const imported = await json(await postExport(t, long.bytes));
    assert.deepEqual([imported.created, imported.skipped], [1, 0]);
  });

  test('a small zip whose one conversation expands far past the limit is stopped while inflating', async () => {
    const t = await setup({ MAX_CONVERSATION_BYTES: String(1024 * 1024) });
    // About 20 KB that inflate to 32 MB, sent as one chunk: read whole, it would be 32 MB at once.
    const bomb = zipSync({ 'conversations.json': strToU8(`[${conversationOfSize('bomb', 32 * 1024 * 1024)}]`) });
    assert.ok(bomb.length < 64 * 1024, `${bomb.length} bytes`);
    await expectRefused(
      t,
      () => postExport(t, bomb, { contentType: 'application/zip' }),
      413,
      'Export file too large: MAX_CONVERSATION_BYTES',
    );
  });
});

test('into a connection that holds conversations the worker reads the upload itself: the same limits, the same refusals', async () => {
  for (const worker of ['in this thread', 'a Node worker thread']) {
    const t = await setup({ MAX_CONVERSATION_BYTES: '1000', MAX_EXPANDED_BYTES: '3000', MAX_EXPORT_RECORDS: '8' });
    if (worker !== 'in this thread') t.deps.importWorker = startNodeImportWorker;
    const stored = exportOf(conversationOfSize('a', 900), conversationOfSize('b', 900));
    assert.equal((await json(await postExport(t, stored))).created, 2, worker);
    const before = await rowCounts(t.deps);
    const over = exportOf(conversationOfSize('a', 900), conversationOfSize('big', 1001));
    const zip = (bytes: Uint8Array) =>
      postExport(t, zipSync({ 'conversations.json': bytes }), { contentType: 'application/zip' });
    await expectRefused(t, () => postExport(t, over), 413, 'Export file too large: MAX_CONVERSATION_BYTES');
    await expectRefused(t, () => zip(over), 413, 'Export file too large: MAX_CONVERSATION_BYTES');
    await expectRefused(
      t,
      () => zip(exportOf(...['a', 'b', 'c', 'd'].map((id) => conversationOfSize(id, 900)))),
      413,
      'Export file too large: MAX_EXPANDED_BYTES',
    );
    await expectRefused(t, () => zip(exportOf(conversationOfSize('a', 900), ...times('0', 8))), 413, TOO_MANY_RECORDS);
    await expectRefused(
      t,
      () => postExport(t, stored.subarray(0, -1)),
      400,
      /^Invalid export file: the file ends before/,
    );
    assert.deepEqual(await rowCounts(t.deps), before, `${worker}: nothing written`);
    const again = await json(await zip(stored));
    assert.deepEqual([again.created, again.unchanged], [0, 2], `${worker}: the zip's bytes are the stored ones`);
  }
});

/** Reads the zip in one chunk, as a first import does, counting the event loop's turns meanwhile; the records and the turns. */
async function scannedWithTurns(zip: Uint8Array): Promise<{ records: SourcedRecord[]; turns: number }> {
  const records: SourcedRecord[] = [];
  const reader = new ExportScanner(
    {
      maxConversationBytes: 1024 * 1024,
      maxExpandedBytes: 2 ** 32,
      maxAttachmentBytes: 2 ** 32,
      maxExportRecords: 2 ** 32,
    },
    EXPORT_FORMATS,
    (batch) => void records.push(...batch),
  );
  let turns = 0;
  let reading = true;
  const turn = () => {
    turns++;
    if (reading) setImmediate(turn);
  };
  setImmediate(turn);
  await reader.push(zip);
  await reader.end();
  reading = false;
  return { records, turns };
}

test('a zip that expands a thousandfold lets the event loop turn while one chunk of it is inflated, so other requests are served meanwhile', async () => {
  const megabytes = 16;
  const bomb = zipSync({ 'conversations.json': strToU8(`[${' '.repeat(megabytes * 1024 * 1024)}]`) }, { level: 9 });
  assert.ok(bomb.length < 64 * 1024, `${bomb.length} bytes: one chunk`);
  const { turns } = await scannedWithTurns(bomb);
  // Without turns in between, the chunk would be read whole before the first.
  assert.ok(turns >= megabytes / 2, `${turns} turns`);
});

test('millions of tiny elements in a Grok array Parley does not keep, in a few kilobytes of zip, are counted as they pass: nothing held, the event loop turning', async () => {
  const elements = 2_000_000;
  const json = `{"conversations":[],"tasks":[${Array(elements).fill('{}').join(',')}]}`;
  const bomb = zipSync({ 'prod-grok-backend.json': strToU8(json) }, { level: 9 });
  assert.ok(bomb.length < 64 * 1024, `${bomb.length} bytes: one chunk`);
  const { records, turns } = await scannedWithTurns(bomb);
  // One count, not a record per element.
  assert.deepEqual(records, [
    { source: 'prod-grok-backend.json', notRead: { provider: 'xai', what: 'tasks', count: elements } },
  ]);
  assert.ok(turns >= json.length / (4 * 1024 * 1024), `${turns} turns`);
});

describe('MAX_EXPANDED_BYTES', () => {
  test('an archive expanding past the limit is 413 with the limit named, counted over every file read', async () => {
    const t = await setup({ MAX_EXPANDED_BYTES: '10000' });
    const part = (n: number) => exportOf(...Array.from({ length: 8 }, (_, i) => conversationOfSize(`c${n}-${i}`, 500)));
    assert.ok(part(0).length < 5000 && part(0).length * 3 > 10000);
    const files = {
      'conversations-000.json': part(0),
      'conversations-001.json': part(1),
      'conversations-002.json': part(2),
    };
    await expectRefused(
      t,
      () => postExport(t, zipSync(files), { contentType: 'application/zip' }),
      413,
      'Export file too large: MAX_EXPANDED_BYTES',
    );
    await expectRefused(
      t,
      () => postExport(t, streamedZip(files), { contentType: 'application/zip' }),
      413,
      'Export file too large: MAX_EXPANDED_BYTES',
    );
    // Files that are not read (media, HTML views) do not count; the two files read fit.
    const fits = await json(
      await postExport(
        t,
        zipSync({
          'conversations-000.json': part(0),
          'conversations-001.json': part(1),
          'chat.html': new Uint8Array(50_000),
        }),
        { contentType: 'application/zip' },
      ),
    );
    assert.equal(fits.created, 16);
  });

  test('a plain JSON upload is bounded by MAX_EXPORT_BYTES alone', async () => {
    const t = await setup({ MAX_EXPANDED_BYTES: '1000' });
    const body = await json(await postExport(t, exportOf(conversationOfSize('a', 900), conversationOfSize('b', 900))));
    assert.equal(body.created, 2);
  });
});

describe('MAX_EXPORT_RECORDS', () => {
  test('an upload of more records than the limit is 413 with the limit named, whatever they are; one of the limit imports, what is no conversation skipped', async () => {
    const t = await setup({ MAX_EXPORT_RECORDS: '100' });
    const conversation = conversationOfSize('a', 200);
    const zip = (files: Record<string, Uint8Array>) =>
      postExport(t, zipSync(files), { contentType: 'application/zip' });
    const csv = (rows: number) =>
      strToU8(
        ['Conversation,Time,Author,Message', ...times('Chat,2026-01-10T08:00:00Z,user,hello', rows)].join('\r\n'),
      );
    for (const element of ['0', 'null', '"text"', '[]', '{}']) {
      await expectRefused(
        t,
        () => postExport(t, exportOf(conversation, ...times(element, 100))),
        413,
        TOO_MANY_RECORDS,
      );
      const fits = await json(
        await postExport(t, exportOf(conversation, ...times(element, 99)), { query: `userRef=${element}` }),
      );
      assert.deepEqual([fits.created, fits.skipped], [1, 99], element);
    }
    await expectRefused(t, () => postExport(t, csv(101), { contentType: 'text/csv' }), 413, TOO_MANY_RECORDS);
    // A zip's files count too, read or not.
    await expectRefused(
      t,
      () => zip({ 'conversations.json': exportOf(conversation, ...times('0', 98)), 'chat.html': strToU8('<html>') }),
      413,
      TOO_MANY_RECORDS,
    );
    const zipped = await json(
      await zip({
        'conversations.json': exportOf(conversation, ...times('0', 96)),
        'library_files.json': strToU8('[0]'),
      }),
    );
    // Two files and 98 elements; what is not a conversation in a file that lists files is no skipped conversation.
    assert.deepEqual([zipped.created, zipped.skipped], [1, 96]);
  });

  test('the zip of the issue, a million zeros in a few kilobytes with or without a conversation first, is 413 at the default limit', async () => {
    const t = await setup();
    assert.equal(t.deps.config.maxExportRecords, 250_000);
    for (const bomb of [millionZeros(), millionZeros(`${conversationOfSize('a', 200)},`)]) {
      assert.ok(bomb.length < 3000, `${bomb.length} bytes`);
      await expectRefused(t, () => postExport(t, bomb, { contentType: 'application/zip' }), 413, TOO_MANY_RECORDS);
    }
  });

  test('elements of a Grok array Parley only counts are records too: a million in a few kilobytes is 413 at the default limit', async () => {
    const t = await setup();
    const tasks = `[${Array(1_000_000).fill('{}').join(',')}]`;
    const bomb = zipSync({ 'prod-grok-backend.json': strToU8(`{"conversations":[],"tasks":${tasks}}`) }, { level: 9 });
    assert.ok(bomb.length < 8000, `${bomb.length} bytes`);
    await expectRefused(t, () => postExport(t, bomb, { contentType: 'application/zip' }), 413, TOO_MANY_RECORDS);
  });
});

describe('the connect page answers the limits as the API does', () => {
  test('an archive over any limit shows why, with status 413, and imports nothing', async () => {
    const t = await setup({ MAX_CONVERSATION_BYTES: '1000', MAX_EXPANDED_BYTES: '3000', MAX_EXPORT_RECORDS: '500' });
    const browser = await openSession(t, 'connect');
    const csrf = hiddenField(await (await browser.get('/connect/openai')).text(), 'csrf');
    const cases: Array<[Uint8Array, string]> = [
      [
        zipSync({ 'conversations.json': exportOf(conversationOfSize('big', 2000)) }),
        'One conversation in this file is too large to import',
      ],
      [
        zipSync({
          'conversations.json': exportOf(...Array.from({ length: 5 }, (_, i) => conversationOfSize(`c${i}`, 900))),
        }),
        'This file is too large to import here',
      ],
      [
        zipSync({ 'conversations.json': exportOf(conversationOfSize('a', 200), ...times('0', 1000)) }),
        'This file is too large to import here',
      ],
    ];
    for (const [file, message] of cases) {
      const form = new FormData();
      form.set('csrf', csrf);
      form.set('file', new Blob([file as BlobPart], { type: 'application/zip' }), 'export.zip');
      assert.equal((await browser.request('/connect/openai', { method: 'POST', body: form })).status, 303);
      const result = await browser.get('/connect/result');
      const html = await result.text();
      assert.equal(result.status, 413);
      assert.ok(html.includes(`<h1 id="result-title">${message}</h1>`), html);
      assert.deepEqual(await rowCounts(t.deps), NOTHING);
    }
  });
});

describe('unreadable archives', () => {
  /** mulberry32, seeded: the same garbage every run. */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };

  test('a zip signature followed by garbage is an invalid export with one reason, whatever the length', async () => {
    const t = await setup();
    const next = random(10);
    for (const length of [0, 1, 10, 26, 30, 100, 1000, 100_000]) {
      const body = new Uint8Array(4 + length);
      body.set([0x50, 0x4b, 0x03, 0x04]);
      for (let i = 4; i < body.length; i++) body[i] = Math.floor(next() * 256);
      await expectRefused(t, () => postExport(t, body, { contentType: 'application/zip' }), 400, ONE_REASON);
    }
  });

  test('bad JSON inside a zip gives the JSON reason once, not wrapped in a zip reason', async () => {
    const t = await setup();
    for (const zip of [
      zipSync({ 'conversations.json': strToU8('[{"mapping": {}, "id": tru}]') }),
      streamedZip({ 'conversations.json': strToU8('[{"mapping": {}, "id": tru}]') }),
    ]) {
      await expectRefused(
        t,
        () => postExport(t, zip, { contentType: 'application/zip' }),
        400,
        /^Invalid export file: (?!.*(Invalid export file|zip))./,
      );
    }
    const truncatedJson = zipSync({ 'conversations.json': strToU8('[{"mapping": {}, "id": "a"}') });
    await expectRefused(
      t,
      () => postExport(t, truncatedJson, { contentType: 'application/zip' }),
      400,
      'Invalid export file: the file ends before the JSON document does (truncated?)',
    );
  });

  test('a zip cut short, or its directory lost, is invalid; a complete zip without conversations is unrecognised', async () => {
    const t = await setup();
    const whole = zipSync({ 'conversations.json': exportOf(conversationOfSize('a', 300)) });
    await expectRefused(
      t,
      () => postExport(t, whole.subarray(0, whole.length - 10), { contentType: 'application/zip' }),
      400,
      'Invalid export file: the zip is damaged or cut short (no end of central directory)',
    );
    await expectRefused(
      t,
      () => postExport(t, zipSync({}), { contentType: 'application/zip' }),
      400,
      'Unrecognized export format',
    );
    await expectRefused(
      t,
      () => postExport(t, zipSync({ 'user.json': strToU8('{}') }), { contentType: 'application/zip' }),
      400,
      'Unrecognized export format',
    );
  });
});

describe('lone surrogates', () => {
  test('become U+FFFD once, the same in title, payload.title and messages (their content, model and reasoning)', async () => {
    const t = await setup();
    const file =
      String.raw`[{"id":"s1","title":"bad \ud800 title","mapping":{"n":{"id":"n","parent":null,"children":[],"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["lone \udc00 low and \ud83d\ude00 pair"]}}},` +
      String.raw`"r":{"id":"r","parent":"n","message":{"author":{"role":"assistant"},"content":{"content_type":"reasoning_recap","content":"thought \ud800"}}},` +
      String.raw`"a":{"id":"a","parent":"r","message":{"author":{"role":"assistant"},"metadata":{"model_slug":"gpt \udfff"},"content":{"content_type":"text","parts":["answer"]}}}}}]`;
    const { connectionId } = await json(await postExport(t, strToU8(file)));
    const [conversation] = (await json(await t.request(`/api/conversations?connectionId=${connectionId}`)))
      .conversations;
    assert.equal(conversation.title, 'bad \ufffd title');
    assert.equal(conversation.payload.title, 'bad \ufffd title');
    assert.equal(conversation.payload.messages[0].content, 'lone \ufffd low and \u{1f600} pair');
    assert.deepEqual(conversation.payload.messages[1], {
      role: 'assistant',
      content: 'answer',
      timestamp: null,
      model: 'gpt \ufffd',
      reasoning: 'thought \ufffd',
      attachments: [],
    });
    const stored = await t.deps.db.selectFrom('conversations').select(['title', 'payload']).executeTakeFirstOrThrow();
    assert.equal(stored.title, 'bad \ufffd title');
    const storedText =
      typeof stored.payload === 'string'
        ? stored.payload
        : new TextDecoder().decode(stored.payload as unknown as Uint8Array);
    assert.doesNotMatch(storedText, /\\ud[89a-f]/i);
  });
});

describe('U+0000', () => {
  test('in an id becomes U+FFFD, on either database', async () => {
    const t = await setup();
    const file = String.raw`[{"id":"nul\u0000id","title":"Title","mapping":{"n":{"id":"n","parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["text"]}}}}}]`;
    const { connectionId } = await json(await postExport(t, strToU8(file)));
    const [conversation] = (await json(await t.request(`/api/conversations?connectionId=${connectionId}`)))
      .conversations;
    assert.deepEqual([conversation.external_id, conversation.title], ['nul\ufffdid', 'Title']);
  });

  test('in a title, a message and its reasoning becomes U+FFFD, on either database', async () => {
    const t = await setup();
    const file =
      String.raw`[{"id":"nul-text","title":"A\u0000B","mapping":{` +
      String.raw`"n":{"id":"n","parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["before\u0000after"]}}},` +
      String.raw`"r":{"id":"r","parent":"n","message":{"author":{"role":"assistant"},"content":{"content_type":"reasoning_recap","content":"thought\u0000"}}},` +
      `"a":{"id":"a","parent":"r","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["answer"]}}}},"current_node":"a"}]`;
    const { connectionId } = await json(await postExport(t, strToU8(file)));
    const [conversation] = (await json(await t.request(`/api/conversations?connectionId=${connectionId}`)))
      .conversations;
    assert.deepEqual(
      [
        conversation.title,
        conversation.payload.title,
        conversation.payload.messages.map((m: { content: string; reasoning?: string }) => [m.content, m.reasoning]),
      ],
      [
        'A\ufffdB',
        'A\ufffdB',
        [
          ['before\ufffdafter', undefined],
          ['answer', 'thought\ufffd'],
        ],
      ],
    );
  });
});

describe('limits on grouped exports', () => {
  const csv = (rows: string[][]) =>
    strToU8(['Conversation,Time,Author,Message', ...rows.map((row) => row.join(','))].join('\r\n'));

  test('one CSV row over MAX_CONVERSATION_BYTES is 413', async () => {
    const t = await setup({ MAX_CONVERSATION_BYTES: '1000' });
    const body = csv([['Long', '2026-01-10T08:00:00Z', 'user', 'x'.repeat(1200)]]);
    await expectRefused(
      t,
      () => postExport(t, body, { contentType: 'text/csv' }),
      413,
      'Export file too large: MAX_CONVERSATION_BYTES',
    );
  });

  test('rows that group into a conversation over MAX_CONVERSATION_BYTES are 413; the same rows spread over conversations import', async () => {
    const t = await setup({ MAX_CONVERSATION_BYTES: '1000' });
    const minute = (n: number) => new Date(Date.UTC(2026, 0, 10, 8, n)).toISOString();
    const oneConversation = csv(Array.from({ length: 6 }, (_, i) => ['Chat', minute(i), 'user', 'y'.repeat(200)]));
    await expectRefused(
      t,
      () => postExport(t, oneConversation, { contentType: 'text/csv' }),
      413,
      'Export file too large: MAX_CONVERSATION_BYTES',
    );
    const sixConversations = csv(
      Array.from({ length: 6 }, (_, i) => [`Chat ${i}`, minute(i), 'user', 'y'.repeat(200)]),
    );
    assert.equal((await json(await postExport(t, sixConversations, { contentType: 'text/csv' }))).created, 6);
  });
});
