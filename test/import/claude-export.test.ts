import assert from 'node:assert/strict';
import { test } from 'node:test';
import { zipSync } from 'fflate';
import { claudeExport } from '../../src/import/formats/claude.ts';
import { conversationItem } from '../../src/import/worker/conversation-reader.ts';
import { fixtureBytes, fixtureJson, json, postExport, setup, zipFolderFiles } from '../helpers.ts';

/** The conversation as the reader makes it, without its files (attachments.test.ts checks those). */
const normalize = (raw: unknown) => {
  const conversation = claudeExport.normalize(raw as Record<string, unknown>, new Map());
  if (!conversation) return conversation;
  const { attachments, ...rest } = conversation;
  return rest;
};

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
        {
          role: 'tool',
          content: 'Tool call: calculator\nexpression: 5 * 3.785411784',
          timestamp: '2025-08-03T10:14:06.540Z',
        },
        // A tool result in a human turn is a tool message, not the user's.
        { role: 'tool', content: '18.92705892', timestamp: '2025-08-03T10:14:06.902Z' },
        { role: 'assistant', content: '5 US gallons are about 18.93 litres.', timestamp: '2025-08-03T10:14:08.215Z' },
        { role: 'user', content: 'And 5 imperial gallons?', timestamp: '2025-08-03T10:15:40.007Z' },
        {
          role: 'tool',
          content: 'Tool call: calculator\nexpression: 5 * 4.54609',
          timestamp: '2025-08-03T10:15:43.660Z',
        },
        { role: 'tool', content: '22.73045', timestamp: '2025-08-03T10:15:44.012Z' },
        {
          role: 'assistant',
          content: '5 imperial gallons are about 22.73 litres.',
          timestamp: '2025-08-03T10:15:48.534Z',
        },
      ],
    },
  });
  // Call, failed result and answer inside one assistant turn keep their order.
  assert.deepEqual(normalize(fetch)!.payload.messages, [
    { role: 'user', content: 'Is status.example.com up right now?', timestamp: '2025-08-05T21:40:18.230Z' },
    { role: 'assistant', content: 'Let me check.', timestamp: '2025-08-05T21:40:30.876Z' },
    {
      role: 'tool',
      content: 'Tool call: web_fetch\nurl: https://status.example.com',
      timestamp: '2025-08-05T21:40:30.876Z',
    },
    {
      role: 'tool',
      content: 'Tool error: Failed to fetch https://status.example.com: the request timed out after 30 seconds',
      timestamp: '2025-08-05T21:40:30.876Z',
    },
    {
      role: 'assistant',
      content:
        "I couldn't reach status.example.com: the request timed out. The site may be down, or it may refuse automated requests; try opening it in your browser.",
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
  assert.deepEqual(
    [result.externalId, result.title, result.updateTime],
    ['8d0f2b4c-6e8a-4c0e-a2b4-7f9b1d3e5a7c', 'Checking a lease', '2025-06-30T09:31:05.640Z'],
  );
  assert.deepEqual(
    result.payload.messages.map((m) => [m.role, m.content, m.timestamp]),
    [
      [
        'user',
        'Can you check this lease for anything unusual?\n[attachment: lease-2025.pdf]',
        '2025-06-30T09:12:45.011Z',
      ],
      [
        'assistant',
        'Nothing unusual: a 12-month term, rent due on the 1st, and pets only with written consent. Get that consent in writing before a pet moves in.',
        '2025-06-30T09:13:30.557Z',
      ],
      [
        'user',
        'Here are photos of the damage that was already there when I moved in.\n[file: hallway.jpg]\n[file: bathroom-tiles.jpg]',
        '2025-06-30T09:20:02.774Z',
      ],
      [
        'user',
        'And the inventory, with a photo of the meter.\n[attachment: inventory.txt]\n[file: meter.jpg]',
        '2025-06-30T09:24:15.318Z',
      ],
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
  assert.equal(
    postgres.payload.messages[0]!.content,
    'This query takes eight seconds on a table of two million orders. The plan is attached.\n[attachment: explain.txt]',
  );
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
        {
          role: 'user',
          content: 'Can you type up this recipe card? My grandmother wrote it.\n[file: recipe-card.jpg]',
          timestamp: '2025-05-17T18:04:02.117Z',
        },
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
          content:
            'Halved: 112 g butter, 112 g caster sugar, 2 eggs, 138 g self-raising flour and half a lemon. Bake it in a smaller tin for about 30 minutes.',
          timestamp: '2025-05-17T18:06:11.880Z',
          model: 'claude-sonnet-4-20250514',
        },
      ],
    },
  });
});

test('falls back to `text` when there are no text blocks; no id is unreadable', () => {
  const result = normalize({
    uuid: 'c1',
    name: 'T',
    chat_messages: [{ sender: 'human', text: 'only text', content: [] }],
  })!;
  assert.deepEqual(result.payload.messages, [{ role: 'user', content: 'only text', timestamp: null }]);
  assert.equal(normalize({ name: 'no id', chat_messages: [] }), null);
  const errored = normalize({
    uuid: 'c2',
    chat_messages: [
      {
        sender: 'human',
        content: [{ type: 'tool_result', is_error: true, content: [{ type: 'text', text: 'boom' }] }],
      },
    ],
  })!;
  assert.deepEqual(errored.payload.messages, [{ role: 'tool', content: 'Tool error: boom', timestamp: null }]);
});

test('out of order (2024): by created_at, the person first at equal times; a paste-only first message stays; by the parent chain where there is one', () => {
  const [sourdough, iceland, proverb] = fixtureJson('claude-2024-out-of-order.json');
  // The array holds the answers before the questions; the first message is only a pasted text (an attachment without a name).
  assert.deepEqual(normalize(sourdough), {
    externalId: '3e1f5a7c-9b2d-4f6e-8a0c-1d3f5b7e9a00',
    title: 'Sourdough starter log',
    updateTime: '2024-06-11T08:21:03.556Z',
    payload: {
      title: 'Sourdough starter log',
      messages: [
        { role: 'user', content: '[attachment]', timestamp: '2024-06-11T08:14:02.318Z' },
        {
          role: 'assistant',
          content:
            'Your log looks healthy: a starter that doubles in six hours on day 3 is ahead of schedule. Keep feeding it once a day at room temperature.',
          timestamp: '2024-06-11T08:14:21.904Z',
        },
        {
          role: 'user',
          content: 'Should I feed it twice a day once it is in the fridge?',
          timestamp: '2024-06-11T08:20:45.100Z',
        },
        {
          role: 'assistant',
          content: 'No: in the fridge once a week is enough. Take it out the evening before you bake and feed it then.',
          timestamp: '2024-06-11T08:21:03.556Z',
        },
      ],
    },
  });
  // A question and its answer stamped alike, the answer first in the array; an empty name.
  assert.deepEqual(normalize(iceland), {
    externalId: '4f2a6b8d-0c3e-4a7f-9b1d-2e4a6c8f0b10',
    title: null,
    updateTime: '2024-07-02T17:44:49.230Z',
    payload: {
      title: '',
      messages: [
        { role: 'user', content: 'What should I pack for Iceland in March?', timestamp: '2024-07-02T17:40:12.000Z' },
        {
          role: 'assistant',
          content:
            'Layers: a thermal base, a fleece and a waterproof shell, plus a hat and gloves. Days are around 12 hours long in March.',
          timestamp: '2024-07-02T17:40:12.000Z',
        },
        {
          role: 'user',
          content: 'Are these boots good enough?\n[file: boots.jpg]',
          timestamp: '2024-07-02T17:44:30.512Z',
        },
        {
          role: 'assistant',
          content:
            'They look waterproof with a good tread, so yes for trails; add microspikes if you go onto glaciers or icy paths.',
          timestamp: '2024-07-02T17:44:49.230Z',
        },
      ],
    },
  });
  // The first answer is stamped before its question: the chain, not the times, says the order.
  assert.deepEqual(
    normalize(proverb)!.payload.messages.map((m) => [m.role, m.timestamp]),
    [
      ['user', '2024-08-19T12:00:05.118Z'],
      ['assistant', '2024-08-19T12:00:04.990Z'],
      ['user', '2024-08-19T12:01:10.004Z'],
      ['assistant', '2024-08-19T12:01:22.660Z'],
    ],
  );
});

test('the parent chain: from current_leaf_message_uuid, else from the newest message no other names as parent; a cycle ends the walk', () => {
  const message = (uuid: string, parent: string, created_at: string, sender = 'assistant') => ({
    uuid,
    parent_message_uuid: parent,
    created_at,
    sender,
    text: uuid,
  });
  const ROOT = '00000000-0000-4000-8000-000000000000';
  // "a2" was regenerated as "b2"; the person went on from "a2" and "a3" is the newest message.
  const chat_messages = [
    message('a1', ROOT, '2025-01-01T10:00:00Z', 'human'),
    message('b2', 'a1', '2025-01-01T10:02:00Z'),
    message('a3', 'a2', '2025-01-01T10:03:00Z', 'human'),
    message('a2', 'a1', '2025-01-01T10:01:00Z'),
  ];
  const contents = (raw: unknown) => normalize(raw)!.payload.messages.map((m) => m.content);
  assert.deepEqual(contents({ uuid: 'c', chat_messages }), ['a1', 'a2', 'a3']);
  assert.deepEqual(contents({ uuid: 'c', chat_messages, current_leaf_message_uuid: 'b2' }), ['a1', 'b2']);
  // A leaf the conversation names but the file does not hold: the newest leaf.
  assert.deepEqual(contents({ uuid: 'c', chat_messages, current_leaf_message_uuid: 'gone' }), ['a1', 'a2', 'a3']);
  const cycle = [message('x', 'y', '2025-01-01T10:00:00Z'), message('y', 'x', '2025-01-01T10:01:00Z')];
  assert.deepEqual(contents({ uuid: 'c', chat_messages: cycle, current_leaf_message_uuid: 'y' }), ['x', 'y']);
});

test('2026 blocks: thinking as reasoning, a json_block create_file as fenced code, str_replace as a diff, files shown and read as lines, a voice note, search results and citations', () => {
  const [quiz] = fixtureJson('claude-2026-artifacts.json');
  const quizApp =
    "import { useState } from 'react';\n\nconst QUESTIONS = [\n  { q: 'Capital of Norway?', a: 'Oslo' },\n  { q: 'Largest planet?', a: 'Jupiter' },\n];\n\n" +
    'export default function Quiz() {\n  const [i, setI] = useState(0);\n  if (i === QUESTIONS.length) return <p>Done! 🎉</p>;\n' +
    '  return <button onClick={() => setI(i + 1)}>{QUESTIONS[i].q}</button>;\n}';
  const first = '2026-03-10T00:22:31.870Z';
  const second = '2026-03-10T00:25:40.912Z';
  assert.deepEqual(normalize(quiz), {
    externalId: '019cd2a0-0e6b-7f1a-8d10-3a6c0b9e1f00',
    title: 'Tiny React quiz',
    updateTime: '2026-03-10T00:25:41.150Z',
    payload: {
      title: 'Tiny React quiz',
      messages: [
        {
          role: 'user',
          content: 'Make me a tiny quiz app in React, like the sketch.\n[file: 1773102082181_image.png]',
          timestamp: '2026-03-10T00:21:22.503Z',
        },
        {
          role: 'assistant',
          content:
            "I'll read the frontend skill first, then build it as one component.\n\nViewed: /mnt/skills/public/frontend-design/SKILL.md",
          timestamp: first,
          reasoning: 'A quiz with two questions, one button per question, and a done message at the end.',
        },
        {
          role: 'tool',
          content: '# Frontend design\nPrefer one self-contained component per artifact.',
          timestamp: first,
        },
        // The language is the json_block's (parsed a second time, its escaped emoji read back), not the extension's.
        { role: 'assistant', content: `**quiz_app.jsx**\n\n\`\`\`javascript\n${quizApp}\n\`\`\``, timestamp: first },
        { role: 'tool', content: 'File created successfully: /mnt/user-data/outputs/quiz_app.jsx', timestamp: first },
        { role: 'assistant', content: 'Presented: quiz_app.jsx', timestamp: first },
        // present_files' result names the file by its display name.
        { role: 'tool', content: '[file: quiz app]', timestamp: first },
        {
          role: 'assistant',
          content:
            'Here it is: [quiz_app.jsx](computer:///mnt/user-data/outputs/quiz_app.jsx). Click through the questions to finish.',
          timestamp: first,
        },
        // A voice note: its transcript is the person's message.
        {
          role: 'user',
          content: 'Can you make it say Well done instead, and is Jupiter really the largest?',
          timestamp: '2026-03-10T00:25:02.331Z',
        },
        {
          role: 'assistant',
          content: '**quiz_app.jsx**\n\n```diff\n-return <p>Done! 🎉</p>;\n+return <p>Well done! 🎉</p>;\n```',
          timestamp: second,
          reasoning: 'Swap the done text, then check the planet sizes with a search.',
        },
        {
          role: 'tool',
          content: 'Successfully replaced string in /mnt/user-data/outputs/quiz_app.jsx',
          timestamp: second,
        },
        {
          role: 'tool',
          content: 'Tool call: web_search\nquery: largest planet in the solar system',
          timestamp: second,
        },
        {
          role: 'tool',
          content:
            '- [Jupiter - NASA Science](https://science.example.gov/jupiter/)\n- [Planet sizes compared](https://astro.example.org/planet-sizes)',
          timestamp: second,
        },
        {
          role: 'assistant',
          content:
            'Done: the quiz now ends with Well done. And yes, Jupiter is the largest planet, eleven times as wide as Earth.\n\n- [Jupiter - NASA Science](https://science.example.gov/jupiter/)',
          timestamp: second,
        },
      ],
    },
  });
});

test('legacy artifacts: create as fenced code under its title, update as a diff named by the title it was created with, rewrite; tool input strings keep their line breaks', () => {
  const [, haiku] = fixtureJson('claude-2026-artifacts.json');
  const page =
    '<!DOCTYPE html>\n<html>\n<head><title>Haiku</title></head>\n<body>\n  <h1>Old pond</h1>\n  <p>A frog jumps in,<br>the sound of water.</p>\n</body>\n</html>';
  const [first, second, third] = ['2025-01-14T21:03:58.640Z', '2025-01-14T21:05:40.118Z', '2025-01-14T21:07:19.551Z'];
  assert.deepEqual(normalize(haiku)!.payload.messages, [
    {
      role: 'user',
      content: "Make a web page showing Basho's frog haiku.\n[attachment: haiku-notes.txt]",
      timestamp: '2025-01-14T21:03:40.220Z',
    },
    {
      role: 'assistant',
      content: `Here is a simple page.\n\n**Frog haiku page**\n\n\`\`\`html\n${page}\n\`\`\``,
      timestamp: first,
    },
    { role: 'tool', content: 'OK', timestamp: first },
    { role: 'assistant', content: 'Open it in any browser.', timestamp: first },
    {
      role: 'user',
      content: 'Make the heading dark red, and count the syllables.',
      timestamp: '2025-01-14T21:05:12.875Z',
    },
    {
      role: 'assistant',
      content: '**Frog haiku page**\n\n```diff\n-  <h1>Old pond</h1>\n+  <h1 style="color: darkred">Old pond</h1>\n```',
      timestamp: second,
    },
    { role: 'tool', content: 'OK', timestamp: second },
    {
      role: 'tool',
      content:
        "Tool call: repl\ncode:\nconst lines = ['fu-ru-i-ke-ya', 'ka-wa-zu-to-bi-ko-mu', 'mi-zu-no-o-to'];\nconsole.log(lines.map((l) => l.split('-').length));",
      timestamp: second,
    },
    { role: 'tool', content: '{"status":"success","logs":["[ 5, 7, 5 ]"]}', timestamp: second },
    {
      role: 'assistant',
      content: 'The heading is dark red now, and the Japanese original counts 5, 7 and 5 syllables.',
      timestamp: second,
    },
    { role: 'user', content: 'Start over with an autumn haiku in Markdown.', timestamp: '2025-01-14T21:07:02.330Z' },
    {
      role: 'assistant',
      content:
        '**Autumn haiku**\n\n```markdown\n# Autumn\n\nOn a withered branch\na crow has settled —\nautumn evening.\n```',
      timestamp: third,
    },
    { role: 'tool', content: 'OK', timestamp: third },
  ]);
});

test('a file without display_content takes its language from its extension; code holding a fence gets a longer one; an unknown block with text keeps it', () => {
  const result = normalize({
    uuid: 'c3',
    chat_messages: [
      {
        sender: 'assistant',
        content: [
          {
            type: 'tool_use',
            name: 'create_file',
            input: { path: '/mnt/user-data/outputs/notes.md', file_text: 'Use:\n```sh\nls\n```\n' },
          },
          { type: 'tool_use', name: 'analysis', input: { steps: ['a', 'b'], depth: 2 } },
          { type: 'app_pairing_content', text: 'Paired with Google Drive' },
          { type: 'app_pairing_content' },
        ],
      },
    ],
  })!;
  assert.deepEqual(result.payload.messages, [
    { role: 'assistant', content: '**notes.md**\n\n````md\nUse:\n```sh\nls\n```\n````', timestamp: null },
    { role: 'tool', content: 'Tool call: analysis\nsteps: [\n  "a",\n  "b"\n]\ndepth: 2', timestamp: null },
    { role: 'assistant', content: 'Paired with Google Drive\n[app_pairing_content]', timestamp: null },
  ]);
});

test('the 2026 category zip (conversations-000.zip: conversations.json alone, no users.json) imports as the bare file does', async () => {
  const t = await setup();
  const files = zipFolderFiles('claude-zip');
  assert.deepEqual(Object.keys(files), ['conversations.json']);
  const fromZip = await json(await postExport(t, zipSync(files), { contentType: 'application/zip' }));
  assert.deepEqual([fromZip.provider, fromZip.created, fromZip.skipped], ['anthropic', 2, 0]);
  const bare = await json(await postExport(t, fixtureBytes('claude-2026-artifacts.json')));
  assert.deepEqual([bare.connectionId, bare.created, bare.unchanged], [fromZip.connectionId, 0, 2]);
});

test('a lone surrogate in thinking is stored as U+FFFD, as in the content', () => {
  const raw = JSON.parse(
    String.raw`{"uuid":"c4","chat_messages":[{"sender":"assistant","content":[{"type":"thinking","thinking":"half \ud800 pair"},{"type":"text","text":"ok \udc00"}]}]}`,
  );
  const item = conversationItem(normalize(raw)!, { seq: 0, source: '', hash: null });
  assert.deepEqual(JSON.parse(item.payload).messages, [
    { role: 'assistant', content: 'ok \ufffd', timestamp: null, reasoning: 'half \ufffd pair' },
  ]);
});

test('thinking before a tool call goes with the answer after its result, even when the result comes in a human turn', () => {
  const at = (second: number) => `2025-02-01T10:00:0${second}Z`;
  const result = normalize({
    uuid: 'c5',
    chat_messages: [
      { sender: 'human', created_at: at(0), text: 'What is 2 + 2?', content: [] },
      {
        sender: 'assistant',
        created_at: at(1),
        content: [
          { type: 'thinking', thinking: 'Use the calculator.' },
          { type: 'tool_use', name: 'calculator', input: { expression: '2 + 2' } },
        ],
      },
      {
        sender: 'human',
        created_at: at(2),
        content: [{ type: 'tool_result', content: [{ type: 'text', text: '4' }] }],
      },
      { sender: 'assistant', created_at: at(3), content: [{ type: 'text', text: 'It is 4.' }] },
      { sender: 'human', created_at: at(4), text: 'Thanks', content: [] },
      { sender: 'assistant', created_at: at(5), content: [{ type: 'thinking', thinking: 'Nothing to add.' }] },
    ],
  })!;
  const time = (second: number) => `2025-02-01T10:00:0${second}.000Z`;
  assert.deepEqual(result.payload.messages, [
    { role: 'user', content: 'What is 2 + 2?', timestamp: time(0) },
    { role: 'tool', content: 'Tool call: calculator\nexpression: 2 + 2', timestamp: time(1) },
    { role: 'tool', content: '4', timestamp: time(2) },
    { role: 'assistant', content: 'It is 4.', timestamp: time(3), reasoning: 'Use the calculator.' },
    { role: 'user', content: 'Thanks', timestamp: time(4) },
    // Thinking that no answer follows, and no answer since the person spoke: an empty answer of its own keeps it.
    { role: 'assistant', content: '', timestamp: time(5), reasoning: 'Nothing to add.' },
  ]);
});
