import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ExportScanner, type SourcedRecord } from '../../src/import/scanning/export-scanner.ts';
import { EXPORT_FORMATS } from '../../src/import/formats/registry.ts';
import { BYTES_PER_VALUE, parseElement } from '../../src/import/scanning/json-elements.ts';
import { FIXTURE_NAMES, fixtureBytes } from '../helpers.ts';

/** What an ExportScanner hands on of a document pushed in chunks of `size` bytes. */
async function scanned(bytes: Uint8Array, size: number, maxConversationBytes: number): Promise<SourcedRecord[]> {
  const records: SourcedRecord[] = [];
  const reader = new ExportScanner(
    { maxConversationBytes, maxExpandedBytes: 2 ** 32, maxAttachmentBytes: 2 ** 32, maxExportRecords: 2 ** 32 },
    EXPORT_FORMATS,
    (batch) => void records.push(...batch),
  );
  for (let i = 0; i < bytes.length; i += size) await reader.push(bytes.subarray(i, i + size));
  await reader.end();
  return records;
}

/** Every record of a document pushed in chunks of `size` bytes, parsed; elements in a row not objects as their count (what is not read: notReadOf). */
async function readAll(bytes: Uint8Array, size = 7, maxConversationBytes = 2 ** 26): Promise<unknown[]> {
  const decoder = new TextDecoder();
  const read: unknown[] = [];
  for (const record of await scanned(bytes, size, maxConversationBytes)) {
    const last = read.at(-1);
    if ('notRead' in record) continue;
    if (!('notObjects' in record))
      read.push(
        'bytes' in record ? parseElement(decoder.decode(record.bytes)) : 'value' in record ? record.value : undefined,
      );
    else if (last && typeof last === 'object' && 'notObjects' in last)
      (last as { notObjects: number }).notObjects += record.notObjects;
    else read.push({ notObjects: record.notObjects });
  }
  return read;
}

const text = (value: string) => new TextEncoder().encode(value);

test('every fixture reads back exactly as JSON.parse sees it, whatever the chunk size', async () => {
  for (const name of FIXTURE_NAMES) {
    const bytes = fixtureBytes(name);
    const parsed = JSON.parse(new TextDecoder().decode(bytes));
    // Grok's and Perplexity's exports are one object whose `conversations` array is read element by element
    // (unless it names `metadata` first: the Perplexity Thread Exporter's one thread).
    const expected = Array.isArray(parsed)
      ? parsed
      : Array.isArray(parsed.conversations) && parsed.metadata === undefined
        ? parsed.conversations
        : [parsed];
    for (const size of [1, 2, 3, 5, 64, 4096, bytes.length]) {
      assert.deepEqual(await readAll(bytes, size), expected, `${name} in chunks of ${size}`);
    }
  }
});

test('strings with escaped quotes and backslashes across chunk boundaries; elements not objects counted in a row', async () => {
  const objects = [{ a: 'x\\' }, { b: '\\"}]' }, { c: '\\\\\\"' }];
  const others = ['plain "quoted" \\ string', 12.5e3, true, null, [1, [2, { d: ']' }]]];
  const bytes = text(JSON.stringify([...objects, ...others, { e: others }, '"', 0]));
  for (let size = 1; size <= 9; size++)
    assert.deepEqual(await readAll(bytes, size), [
      ...objects,
      { notObjects: others.length },
      { e: others },
      { notObjects: 2 },
    ]);
});

test('an element not an object is checked as JSON.parse checks it, though it is never sent on', async () => {
  for (const element of ['tru', '01', '"\\x"', '[1,]'])
    await assert.rejects(readAll(text(`[{"a":1},${element}]`)), /^Error: Invalid export file: /, element);
});

test('whitespace, a byte order mark and an empty array', async () => {
  assert.deepEqual(await readAll(text('\ufeff \n [ \n {"a" : 1} ,\r\n\t{"b":2} ] \n')), [{ a: 1 }, { b: 2 }]);
  assert.deepEqual(await readAll(text('[]')), []);
  assert.deepEqual(await readAll(text(' { "one": [1] } ')), [{ one: [1] }]);
});

test('broken documents are refused with the reason', async () => {
  const cases: Array<[string, string]> = [
    ['', 'Invalid export file: the file is empty'],
    ['   ', 'Invalid export file: the file is empty'],
    ['[{"a":1}', 'Invalid export file: the file ends before the JSON document does (truncated?)'],
    ['[{"a":"unterminated', 'Invalid export file: the file ends before the JSON document does (truncated?)'],
    ['[{"a":1},', 'Invalid export file: the file ends before the JSON document does (truncated?)'],
    ['{"a":1', 'Invalid export file: the file ends before the JSON document does (truncated?)'],
    ['[1 2]', 'Invalid export file: expected "," or "]" between conversations'],
    ['[]x', 'Invalid export file: unexpected data after the end of the JSON document'],
    ['{"a":1}{"b":2}', 'Invalid export file: unexpected data after the end of the JSON document'],
    // A tag starts an HTML page: only Meta AI's conversations page is read.
    [
      '<html>',
      'Invalid export file: the file is an HTML page with no conversation Parley reads (of HTML, Parley reads Meta AI’s your_ai_conversations.html)',
    ],
    ['hello', 'Invalid export file: the file is not JSON'],
    ['"just a string"', 'Unrecognized export format'],
    ['42', 'Unrecognized export format'],
  ];
  for (const [input, message] of cases) {
    await assert.rejects(readAll(text(input)), { message }, JSON.stringify(input));
  }
  await assert.rejects(readAll(text('[{"a":1},]')), /^Error: Invalid export file: /);
  await assert.rejects(readAll(text('[{"a":tru}]')), /^Error: Invalid export file: /);
});

test('an array under the top-level key "conversations" is read element by element; the rest of the object is skipped', async () => {
  const grok = {
    projects: [{ id: 'p1', name: 'a "conversations": [' }],
    conversations: [{ conversation: { id: 'c1' } }, { conversation: { id: 'c2' }, responses: [1, [2]] }],
    tasks: [],
    media_posts: [{ x: '}' }],
  };
  const bytes = text(JSON.stringify(grok, null, 1));
  for (const size of [1, 2, 3, 5, 7, 11, bytes.length]) {
    assert.deepEqual(await readAll(bytes, size), grok.conversations, `chunks of ${size}`);
  }
  assert.deepEqual(await readAll(text('{"conversations" : [ ] }')), []);
  assert.deepEqual(await readAll(text('{"conversations":["one", 2, null]}')), [{ notObjects: 3 }]);
});

test('a top-level object without such an array is one element, "conversations" elsewhere included', async () => {
  for (const document of [
    { title: 'conversations', mapping: {} },
    { conversations: { not: 'an array' } },
    { nested: { conversations: [1, 2] } },
    { 'conversations\\u0000': [1] },
    { conversationsX: [1], x: 'conversations' },
  ]) {
    const bytes = text(JSON.stringify(document));
    for (const size of [1, 4, bytes.length])
      assert.deepEqual(await readAll(bytes, size), [document], `${JSON.stringify(document)} in chunks of ${size}`);
  }
});

test('an object naming "metadata" before its "conversations" array is one element: a thread whose turns the array holds', async () => {
  const thread = {
    metadata: { thread_id: 't1', conversations: 'not the key' },
    conversations: [{ uuid: 'e1', query: 'q', answer: 'a' }, { uuid: 'e2' }],
  };
  const bytes = text(JSON.stringify(thread, null, 1));
  for (const size of [1, 3, 7, bytes.length])
    assert.deepEqual(await readAll(bytes, size), [thread], `chunks of ${size}`);
  // Named after the array, too late: the array's elements went on as they came.
  const late = { conversations: [{ a: 1 }], metadata: {} };
  assert.deepEqual(await readAll(text(JSON.stringify(late))), late.conversations);
});

test('a container cut short or followed by more data is refused', async () => {
  const truncated = 'Invalid export file: the file ends before the JSON document does (truncated?)';
  await assert.rejects(readAll(text('{"conversations":[{"a":1}')), { message: truncated });
  await assert.rejects(readAll(text('{"conversations":[{"a":1}], "tasks": [')), { message: truncated });
  await assert.rejects(readAll(text('{"conversations":[]}]')), {
    message: 'Invalid export file: unexpected data after the end of the JSON document',
  });
});

test('a record holds at most one value per BYTES_PER_VALUE of the byte bound, counted as it is read, however it is chunked', async () => {
  const maxValues = 100;
  const maxConversationBytes = maxValues * BYTES_PER_VALUE;
  // Counted: every opening bracket, comma and colon outside strings, below the record's own bracket.
  const zeros = (count: number) => `[${Array(count).fill(0).join(',')}]`;
  // A colon and a comma each, less one comma; an even count ends on `[0]`.
  const members = (values: number) => {
    const count = Math.ceil(values / 2);
    return Array.from({ length: count }, (_, i) => `"k${i}":${values % 2 === 0 && i === count - 1 ? '[0]' : '0'}`).join(
      ',',
    );
  };
  const records: Array<[string, (values: number) => string]> = [
    // A colon, `[`, then count - 1 commas.
    ['an array in an element', (values) => `[{"v":${zeros(values - 1)}}]`],
    [
      'empty objects in an element',
      (values) =>
        `[[${Array(Math.ceil(values / 2))
          .fill('{}')
          .join(',')}${values % 2 ? '' : ',0'}]]`,
    ],
    ['members of a file that is one object', (values) => `{${members(values)}}`],
    ['an array in a file that is one object', (values) => `{"v":${zeros(values - 1)}}`],
    [
      'commas, colons and brackets in strings, which count for nothing',
      (values) => `[{"s":"${',:{['.repeat(200)}","v":${zeros(values - 3)}}]`,
    ],
  ];
  for (const [name, record] of records) {
    const fits = text(record(maxValues));
    const over = text(record(maxValues + 1));
    assert.ok(over.length < maxConversationBytes / 2, `${name}: far fewer bytes than the bound`);
    for (const size of [1, 3, 64, 100, over.length]) {
      assert.equal((await readAll(fits, size, maxConversationBytes)).length, 1, `${name} in chunks of ${size}`);
      await assert.rejects(
        readAll(over, size, maxConversationBytes),
        { message: 'Export file too large: MAX_CONVERSATION_BYTES' },
        `${name} in chunks of ${size}`,
      );
    }
  }
});

test('each record has its own count of values, and what is skipped after a container counts for none', async () => {
  const maxConversationBytes = 10 * BYTES_PER_VALUE;
  // A colon, `[` and eight commas.
  const ten = `{"v":[${Array(9).fill(0).join(',')}]}`;
  const many = `[${Array(1000).fill('{}').join(',')}]`;
  for (const size of [1, 5, 64]) {
    assert.equal((await readAll(text(`[${Array(50).fill(ten).join(',')}]`), size, maxConversationBytes)).length, 50);
    assert.equal(
      (await readAll(text(`{"conversations":[${ten},${ten}],"projects":${many}}`), size, maxConversationBytes)).length,
      2,
    );
  }
});

/** What a document pushed in chunks of `size` bytes holds that is not read, in the order it was counted. */
async function notReadOf(bytes: Uint8Array, size = 7, maxConversationBytes = 2 ** 26) {
  return (await scanned(bytes, size, maxConversationBytes)).flatMap((record) =>
    'notRead' in record ? [record.notRead] : [],
  );
}

test('Grok’s projects, tasks and media posts are counted wherever they stand, whatever the chunk size; an empty array or another value counts nothing', async () => {
  const grok = {
    tasks: [{ id: 't1', prompt: 'a "tasks": [1, 2] ]' }, 'x', 3, null, [[], {}]],
    projects: { not: 'an array' },
    conversations: [{ conversation: { id: 'c1', tasks: [1, 2] } }],
    media_posts: [{ id: 'm1', prompt: '\\"]' }, { id: 'm2' }],
    other: { projects: [1, 2, 3] },
    project: [1],
  };
  for (const indent of [0, 1]) {
    const bytes = text(JSON.stringify(grok, null, indent));
    for (const size of [1, 2, 3, 5, 7, 64, bytes.length]) {
      const where = `indent ${indent}, chunks of ${size}`;
      assert.deepEqual(await readAll(bytes, size), grok.conversations, where);
      assert.deepEqual(
        await notReadOf(bytes, size),
        [
          { provider: 'xai', what: 'tasks', count: 5 },
          { provider: 'xai', what: 'media posts', count: 2 },
        ],
        where,
      );
    }
  }
  assert.deepEqual(await notReadOf(text('{"projects":[],"tasks":[ ],"conversations":[],"media_posts":[]}')), []);
  assert.deepEqual(await notReadOf(text('{"conversations":[],"projects":"none","tasks":7,"media_posts":{}}')), []);
  // Within an array's element, or in an object read whole (the Thread Exporter's), such a key is only a key.
  const thread = { metadata: { thread_id: 't1' }, tasks: [1, 2], conversations: [{ uuid: 'e1' }] };
  assert.deepEqual(await notReadOf(text(JSON.stringify(thread))), []);
  assert.deepEqual(await readAll(text(JSON.stringify(thread))), [thread]);
  assert.deepEqual(await notReadOf(text('[{"tasks":[1,2]}]')), []);
});

test('an array counted is never held: one far over the byte and value bounds before the conversations reads, and so does one cut short after them not', async () => {
  const maxConversationBytes = 10 * BYTES_PER_VALUE;
  const many = `[${Array(1000).fill('{"id":"p","name":"a project"}').join(',')}]`;
  const conversation = '{"conversation":{"id":"c1"},"responses":[]}';
  for (const size of [1, 5, 64, 4096]) {
    const document = text(`{"media_posts":${many},"projects":${many},"conversations":[${conversation}]}`);
    assert.deepEqual(await readAll(document, size, maxConversationBytes), [JSON.parse(conversation)]);
    assert.deepEqual(await notReadOf(document, size, maxConversationBytes), [
      { provider: 'xai', what: 'media posts', count: 1000 },
      { provider: 'xai', what: 'projects', count: 1000 },
    ]);
  }
  await assert.rejects(readAll(text(`{"conversations":[${conversation}],"tasks":[{},`)), {
    message: 'Invalid export file: the file ends before the JSON document does (truncated?)',
  });
});
