import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claudeExport } from '../../src/import/claude-export.ts';
import { fixtureJson } from '../helpers.ts';

const normalize = (raw: unknown) => claudeExport.normalize(raw as Record<string, unknown>);

test('text, tool calls and tool results in the order they happened', () => {
  const [calculator, fetch] = fixtureJson('claude-tools.json');
  assert.deepEqual(normalize(calculator), {
    externalId: '9a1c3e5b-7d2f-4a6c-8e0b-2d4f6a8c1e3b',
    title: 'Converting gallons to litres',
    updateTime: '2025-08-03T10:15:48.726Z',
    payload: {
      title: 'Converting gallons to litres',
      messages: [
        { role: 'user', content: 'How many litres are 5 US gallons?', timestamp: '2025-08-03T10:14:03.118Z' },
        { role: 'assistant', content: "I'll work it out with the calculator.", timestamp: '2025-08-03T10:14:06.540Z' },
        { role: 'tool', content: 'Tool call: calculator\nexpression: 5 * 3.785411784', timestamp: '2025-08-03T10:14:06.540Z' },
        // A tool result in a human turn is a tool message, not the user's.
        { role: 'tool', content: '18.92705892', timestamp: '2025-08-03T10:14:06.902Z' },
        { role: 'assistant', content: '5 US gallons are about 18.93 litres.', timestamp: '2025-08-03T10:14:08.215Z' },
        { role: 'user', content: 'And 5 imperial gallons?', timestamp: '2025-08-03T10:15:40.007Z' },
        { role: 'tool', content: 'Tool call: calculator\nexpression: 5 * 4.54609', timestamp: '2025-08-03T10:15:43.660Z' },
        { role: 'tool', content: '22.73045', timestamp: '2025-08-03T10:15:44.012Z' },
        { role: 'assistant', content: '5 imperial gallons are about 22.73 litres.', timestamp: '2025-08-03T10:15:48.534Z' },
      ],
    },
  });
  // Call, failed result and answer inside one assistant turn keep their order.
  assert.deepEqual(normalize(fetch)!.payload.messages, [
    { role: 'user', content: 'Is status.example.com up right now?', timestamp: '2025-08-05T21:40:18.230Z' },
    { role: 'assistant', content: 'Let me check.', timestamp: '2025-08-05T21:40:30.876Z' },
    { role: 'tool', content: 'Tool call: web_fetch\nurl: https://status.example.com', timestamp: '2025-08-05T21:40:30.876Z' },
    { role: 'tool', content: 'Tool error: Failed to fetch https://status.example.com: the request timed out after 30 seconds', timestamp: '2025-08-05T21:40:30.876Z' },
    {
      role: 'assistant',
      content: "I couldn't reach status.example.com: the request timed out. The site may be down, or it may refuse automated requests; try opening it in your browser.",
      timestamp: '2025-08-05T21:40:30.876Z',
    },
  ]);
});

test('thinking is the reasoning of the answer it precedes; a block type Parley does not know is a placeholder naming it', () => {
  const [conversation] = fixtureJson('claude-thinking.json');
  assert.deepEqual(normalize(conversation), {
    externalId: '5b7d9f1a-3c5e-4a7c-9e1b-6d8f0a2c4e6b',
    title: 'Is 1001 prime?',
    updateTime: '2025-07-21T14:02:37.905Z',
    payload: {
      title: 'Is 1001 prime?',
      messages: [
        { role: 'user', content: 'Is 1001 a prime number?', timestamp: '2025-07-21T14:02:09.933Z' },
        {
          role: 'assistant',
          content: 'No. 1001 = 7 × 11 × 13, so it is not prime.',
          timestamp: '2025-07-21T14:02:21.417Z',
          reasoning: '1001 is odd and does not end in 5. 1001 / 7 = 143, and 143 = 11 × 13. So 1001 = 7 × 11 × 13.',
        },
        // The thinking-only message's thinking goes with the next answer: here the redacted one.
        {
          role: 'assistant',
          content: '[redacted_thinking]',
          timestamp: '2025-07-21T14:02:37.781Z',
          reasoning: 'Maybe the next prime after 1001 would help too: 1009',
        },
      ],
    },
  });
});

test('attachments and files become placeholders with their names', () => {
  const [conversation] = fixtureJson('claude-attachments.json');
  const result = normalize(conversation)!;
  assert.deepEqual([result.externalId, result.title, result.updateTime], ['8d0f2b4c-6e8a-4c0e-a2b4-7f9b1d3e5a7c', 'Checking a lease', '2025-06-30T09:31:05.640Z']);
  assert.deepEqual(
    result.payload.messages.map((m) => [m.role, m.content, m.timestamp]),
    [
      ['user', 'Can you check this lease for anything unusual?\n[attachment: lease-2025.pdf]', '2025-06-30T09:12:45.011Z'],
      [
        'assistant',
        'Nothing unusual: a 12-month term, rent due on the 1st, and pets only with written consent. Get that consent in writing before a pet moves in.',
        '2025-06-30T09:13:30.557Z',
      ],
      ['user', 'Here are photos of the damage that was already there when I moved in.\n[file: hallway.jpg]\n[file: bathroom-tiles.jpg]', '2025-06-30T09:20:02.774Z'],
      ['user', 'And the inventory, with a photo of the meter.\n[attachment: inventory.txt]\n[file: meter.jpg]', '2025-06-30T09:24:15.318Z'],
      // Empty content arrays: the placeholder is all there is.
      ['user', '[file]', '2025-06-30T09:26:40.902Z'],
      ['user', '[attachment: deposit-receipt.txt]', '2025-06-30T09:28:03.440Z'],
      [
        'assistant',
        'Keep the photos, the inventory and the deposit receipt together, and send the landlord a dated copy of the inventory now, so the damage is on record before the tenancy ends.',
        '2025-06-30T09:31:05.419Z',
      ],
    ],
  );
});

test('an empty name is a null title; a file listed as attachment and file shows once', () => {
  const conversations = fixtureJson('claude-conversations.json');
  const untitled = conversations.find((c: any) => c.name === '');
  assert.deepEqual(normalize(untitled), {
    externalId: 'c5d7e9f1-a3b5-4c7d-9e1f-3a5b7c9d1e3f',
    title: null,
    updateTime: '2025-10-11T07:45:20.339Z',
    payload: {
      title: '',
      messages: [
        { role: 'user', content: 'hello', timestamp: '2025-10-11T07:45:03.902Z' },
        { role: 'assistant', content: 'Hello! What can I help you with today?', timestamp: '2025-10-11T07:45:20.201Z' },
      ],
    },
  });
  const postgres = normalize(conversations[1])!;
  assert.equal(postgres.title, 'Speeding up a slow Postgres query');
  assert.deepEqual(
    postgres.payload.messages.map((m) => [m.role, m.timestamp]),
    [
      ['user', '2025-09-20T19:02:41.513Z'],
      ['assistant', '2025-09-20T19:04:09.337Z'],
      ['user', '2025-09-20T19:11:27.650Z'],
      ['assistant', '2025-09-20T19:13:54.981Z'],
    ],
  );
  assert.equal(postgres.payload.messages[0]!.content, 'This query takes eight seconds on a table of two million orders. The plan is attached.\n[attachment: explain.txt]');
});

test('a single conversation object in the claude.ai web shape', () => {
  const conversation = fixtureJson('claude-single-web.json');
  assert.ok(!Array.isArray(conversation));
  assert.deepEqual(normalize(conversation), {
    externalId: 'e4a6c8e0-2b4d-4f6a-8c0e-5a7c9e1b3d5f',
    title: 'Typing up a handwritten recipe card',
    updateTime: '2025-05-17T18:06:12.004Z',
    payload: {
      title: 'Typing up a handwritten recipe card',
      messages: [
        // The photo is in files and again in files_v2: one placeholder.
        { role: 'user', content: 'Can you type up this recipe card? My grandmother wrote it.\n[file: recipe-card.jpg]', timestamp: '2025-05-17T18:04:02.117Z' },
        {
          role: 'assistant',
          content:
            'Here it is:\n\n**Lemon drizzle cake**\n\n- 225 g butter\n- 225 g caster sugar\n- 4 eggs\n- 275 g self-raising flour\n- 1 lemon, zest and juice\n\n' +
            'Bake at 180 °C for 45 minutes, then pour the lemon juice, mixed with sugar, over the warm cake.',
          timestamp: '2025-05-17T18:04:19.845Z',
          // The conversation's model wrote its answers.
          model: 'claude-sonnet-4-20250514',
        },
        { role: 'user', content: 'Could you halve it?', timestamp: '2025-05-17T18:06:01.392Z' },
        {
          role: 'assistant',
          content: 'Halved: 112 g butter, 112 g caster sugar, 2 eggs, 138 g self-raising flour and half a lemon. Bake it in a smaller tin for about 30 minutes.',
          timestamp: '2025-05-17T18:06:11.880Z',
          model: 'claude-sonnet-4-20250514',
        },
      ],
    },
  });
});

test('falls back to `text` when there are no text blocks; no id is unreadable', () => {
  const result = normalize({ uuid: 'c1', name: 'T', chat_messages: [{ sender: 'human', text: 'only text', content: [] }] })!;
  assert.deepEqual(result.payload.messages, [{ role: 'user', content: 'only text', timestamp: null }]);
  assert.equal(normalize({ name: 'no id', chat_messages: [] }), null);
  const errored = normalize({
    uuid: 'c2',
    chat_messages: [{ sender: 'human', content: [{ type: 'tool_result', is_error: true, content: [{ type: 'text', text: 'boom' }] }] }],
  })!;
  assert.deepEqual(errored.payload.messages, [{ role: 'tool', content: 'Tool error: boom', timestamp: null }]);
});
