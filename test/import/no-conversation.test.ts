/**
 * Nothing is lost silently: an export that is recognised, whose records were read, but
 * that made not one conversation, is `400 Unrecognized export format` — never
 * `200` with zeros — for every provider; one readable conversation beside such
 * records imports, the others counted as skipped.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { expectRefused, json, postExport, rowCounts, setup } from '../helpers.ts';

const asJson = (value: unknown) => strToU8(JSON.stringify(value));
const csv = (rows: string[]) => strToU8(['Conversation,Time,Author,Message', ...rows].join('\r\n'));

/** Per provider: an export of records it recognises but cannot make a conversation of, and one readable record to add. */
const EXPORTS = [
  {
    provider: 'openai',
    unreadable: asJson([{ title: 'no id', mapping: {}, create_time: 1_700_000_000 }]),
    withOneReadable: asJson([
      { title: 'no id', mapping: {}, create_time: 1_700_000_000 },
      { id: 'c1', title: 'ok', mapping: {}, create_time: 1_700_000_000 },
    ]),
  },
  {
    provider: 'anthropic',
    unreadable: asJson([
      { name: 'no id', chat_messages: [] },
      { name: 'nor this', chat_messages: [] },
    ]),
    withOneReadable: asJson([
      { name: 'no id', chat_messages: [] },
      { uuid: 'c1', name: 'ok', chat_messages: [{ sender: 'human', text: 'hi' }] },
    ]),
  },
  {
    provider: 'deepseek',
    unreadable: asJson([{ title: 'no id', inserted_at: '2025-01-01T00:00:00+08:00', mapping: {} }]),
    withOneReadable: asJson([
      { title: 'no id', inserted_at: '2025-01-01T00:00:00+08:00', mapping: {} },
      { id: 'c1', title: 'ok', inserted_at: '2025-01-01T00:00:00+08:00', mapping: {} },
    ]),
  },
  {
    provider: 'xai',
    unreadable: asJson({ conversations: [{ conversation: { title: 'no id' }, responses: [] }] }),
    withOneReadable: asJson({
      conversations: [
        { conversation: { title: 'no id' }, responses: [] },
        { conversation: { id: 'c1', title: 'ok' }, responses: [] },
      ],
    }),
  },
  {
    provider: 'google',
    // An answer without a prompt: text the reader cannot place.
    unreadable: asJson([
      {
        header: 'Gemini Apps',
        title: 'Used Gemini Apps',
        time: '2025-08-01T10:00:00Z',
        products: ['Gemini Apps'],
        safeHtmlItem: [{ html: '<p>An answer</p>' }],
      },
    ]),
    withOneReadable: asJson([
      {
        header: 'Gemini Apps',
        title: 'Used Gemini Apps',
        time: '2025-08-01T10:00:00Z',
        products: ['Gemini Apps'],
        safeHtmlItem: [{ html: '<p>An answer</p>' }],
      },
      { header: 'Gemini Apps', title: 'Prompted Hello', time: '2025-08-01T09:00:00Z', products: ['Gemini Apps'] },
    ]),
  },
  {
    provider: 'microsoft',
    unreadable: csv(['Chat,not a time,Human,Hello', 'Chat,,AI,Hi']),
    withOneReadable: csv(['Chat,not a time,Human,Hello', 'Chat,2026-01-10T08:00:00,Human,Hello again']),
  },
];

for (const { provider, unreadable, withOneReadable } of EXPORTS) {
  test(`${provider}: records read but no conversation made is 400 Unrecognized export format, with or without the provider named; one readable beside them imports`, async () => {
    const t = await setup();
    for (const query of ['userRef=u1', `userRef=u1&provider=${provider}`]) {
      await expectRefused(t, () => postExport(t, unreadable, { query }), 400, 'Unrecognized export format');
    }
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
    const response = await postExport(t, withOneReadable);
    const body = await json(response);
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.deepEqual([body.provider, body.created, body.skipped], [provider, 1, 1]);
  });
}

test('a Gemini export of only feedback and bookkeeping entries is no export either', async () => {
  const t = await setup();
  const entry = (title: string) => ({
    header: 'Gemini Apps',
    title,
    time: '2025-08-01T10:00:00Z',
    products: ['Gemini Apps'],
  });
  const bookkeeping = asJson([
    entry('Gave feedback: Good response'),
    entry('Selected preferred draft'),
    entry('Used Gemini Apps'),
  ]);
  await expectRefused(t, () => postExport(t, bookkeeping), 400, 'Unrecognized export format');
  const zip = zipSync({ 'Takeout/My Activity/Gemini Apps/My Activity.json': bookkeeping });
  await expectRefused(
    t,
    () => postExport(t, zip, { contentType: 'application/zip' }),
    400,
    'Unrecognized export format',
  );
});

test('an empty export with its provider named is still a user with no conversations', async () => {
  const t = await setup();
  const body = await json(await postExport(t, asJson([]), { query: 'userRef=u1&provider=anthropic' }));
  assert.deepEqual([body.provider, body.created, body.skipped, body.conversationCount], ['anthropic', 0, 0, 0]);
});

test('records no format knows are held until one is recognised: up to 16 MiB of them, then the file is no export', async () => {
  const t = await setup();
  const unknown = (chars: number) => ({ notes: 'x'.repeat(chars) });
  const conversation = { id: 'c1', title: 'ok', mapping: {}, create_time: 1_700_000_000 };
  const held = await json(await postExport(t, asJson([unknown(8 * 1024 * 1024), conversation])));
  assert.deepEqual([held.provider, held.created, held.skipped], ['openai', 1, 1]);
  await expectRefused(
    t,
    () =>
      postExport(t, asJson([unknown(9 * 1024 * 1024), unknown(9 * 1024 * 1024), conversation]), {
        query: 'userRef=u2',
      }),
    400,
    'Unrecognized export format',
  );
});
