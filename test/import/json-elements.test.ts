import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ExportReader, type SourcedRecord } from '../../src/import/export-reader.ts';
import { EXPORT_FORMATS } from '../../src/import/formats.ts';
import { parseElement } from '../../src/import/json-elements.ts';
import { FIXTURE_NAMES, fixtureBytes, providerOfFixture } from '../helpers.ts';

/** Every record of a document pushed in chunks of `size` bytes, parsed. */
async function readAll(bytes: Uint8Array, size = 7): Promise<unknown[]> {
  const reader = new ExportReader({ maxConversationBytes: 2 ** 26, maxExpandedBytes: 2 ** 32 }, EXPORT_FORMATS);
  const records: SourcedRecord[] = [];
  for (let i = 0; i < bytes.length; i += size) records.push(...(await reader.push(bytes.subarray(i, i + size))));
  records.push(...(await reader.end()));
  const decoder = new TextDecoder();
  return records.map((record) => ('bytes' in record ? parseElement(decoder.decode(record.bytes)) : record.value));
}

const text = (value: string) => new TextEncoder().encode(value);

test('every fixture reads back exactly as JSON.parse sees it, whatever the chunk size', async () => {
  for (const name of FIXTURE_NAMES) {
    const bytes = fixtureBytes(name);
    const parsed = JSON.parse(new TextDecoder().decode(bytes));
    // Grok's export is one object whose `conversations` array is read element by element.
    const expected = Array.isArray(parsed) ? parsed : providerOfFixture(name) === 'xai' ? parsed.conversations : [parsed];
    for (const size of [1, 2, 3, 5, 64, 4096, bytes.length]) {
      assert.deepEqual(await readAll(bytes, size), expected, `${name} in chunks of ${size}`);
    }
  }
});

test('strings with escaped quotes and backslashes across chunk boundaries', async () => {
  const values = [{ a: 'x\\' }, { b: '\\"}]' }, { c: '\\\\\\"' }, 'plain "quoted" \\ string', 12.5e3, true, null, [1, [2, { d: ']' }]]];
  const bytes = text(JSON.stringify(values));
  for (let size = 1; size <= 9; size++) assert.deepEqual(await readAll(bytes, size), values);
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
    ['<html>', 'Invalid export file: the file is not JSON'],
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
  const grok = { projects: [{ id: 'p1', name: 'a "conversations": [' }], conversations: [{ conversation: { id: 'c1' } }, { conversation: { id: 'c2' }, responses: [1, [2]] }], tasks: [], media_posts: [{ x: '}' }] };
  const bytes = text(JSON.stringify(grok, null, 1));
  for (const size of [1, 2, 3, 5, 7, 11, bytes.length]) {
    assert.deepEqual(await readAll(bytes, size), grok.conversations, `chunks of ${size}`);
  }
  assert.deepEqual(await readAll(text('{"conversations" : [ ] }')), []);
  assert.deepEqual(await readAll(text('{"conversations":["one", 2, null]}')), ['one', 2, null]);
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
    for (const size of [1, 4, bytes.length]) assert.deepEqual(await readAll(bytes, size), [document], `${JSON.stringify(document)} in chunks of ${size}`);
  }
});

test('a container cut short or followed by more data is refused', async () => {
  const truncated = 'Invalid export file: the file ends before the JSON document does (truncated?)';
  await assert.rejects(readAll(text('{"conversations":[{"a":1}')), { message: truncated });
  await assert.rejects(readAll(text('{"conversations":[{"a":1}], "tasks": [')), { message: truncated });
  await assert.rejects(readAll(text('{"conversations":[]}]')), { message: 'Invalid export file: unexpected data after the end of the JSON document' });
});
