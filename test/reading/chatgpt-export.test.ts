import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatgptExport } from '../../src/import/formats/chatgpt.ts';
import { fixtureJson } from '../helpers.ts';

/** The conversation as the reader makes it, without what attachments.test.ts checks (its files and node ids). */
const normalize = (raw: unknown) => {
  const conversation = chatgptExport.normalize(raw as Record<string, unknown>, new Map());
  if (!conversation) return conversation;
  const { attachments, messageIds, ...rest } = conversation;
  return rest;
};

test('the displayed branch of a conversation with edits and regenerations', () => {
  const [conversation] = fixtureJson('chatgpt-branches.json');
  assert.deepEqual(normalize(conversation), {
    externalId: '5e0c9a7b-2f41-4d6a-8b3e-91c0d4a7f2e6',
    title: 'Feeding a sourdough starter',
    updateTime: '2024-06-08T09:52:03.507Z',
    payload: {
      title: 'Feeding a sourdough starter',
      messages: [
        // The null root and the empty hidden system message are dropped.
        {
          role: 'user',
          content: 'How often should I feed a sourdough starter that lives on the counter?',
          timestamp: '2024-06-08T09:50:05.320Z',
        },
        {
          role: 'assistant',
          content:
            'Once a day is the usual rhythm at room temperature: discard all but a spoonful, then feed it equal weights of flour and water. If your kitchen is warm and it peaks within a few hours, feed it twice a day.',
          timestamp: '2024-06-08T09:50:11.904Z',
          model: 'gpt-4o',
        },
        // "What about in the fridge?" and its interrupted answer were edited away.
        {
          role: 'user',
          content: 'And if I keep it in the fridge between bakes?',
          timestamp: '2024-06-08T09:51:28.442Z',
        },
        // The first answer, not the newer regenerated one: current_node names it.
        {
          role: 'assistant',
          content:
            'Then once a week is plenty. Take it out the night before you bake, feed it, and let it get bubbly on the counter before you use it.',
          timestamp: '2024-06-08T09:51:30.015Z',
          model: 'gpt-4o',
        },
      ],
    },
  });
});

test('browsing: code calls stay with the assistant, results become tool messages', () => {
  const [browsing, plain] = fixtureJson('chatgpt-browsing.json');
  assert.deepEqual(normalize(browsing), {
    externalId: 'a4d2f8c6-3e1b-4a9d-b7c5-2e8f0a6d4c1b',
    title: 'Lisbon to Porto by train',
    updateTime: '2024-01-15T09:44:31.240Z',
    payload: {
      title: 'Lisbon to Porto by train',
      messages: [
        {
          role: 'user',
          content: 'How long is the train from Lisbon to Porto, and do I need to book ahead?',
          timestamp: '2024-01-15T09:44:02.665Z',
        },
        {
          role: 'assistant',
          content: '```\nsearch("Lisbon to Porto train journey time booking")\n```',
          timestamp: '2024-01-15T09:44:11.302Z',
          model: 'gpt-4',
        },
        {
          role: 'tool',
          content:
            '# 【0†Lisbon – Porto timetable | Rail Example†rail.example.org】\nAlfa Pendular and Intercidades trains run between Lisboa Santa Apolónia and Porto Campanhã about every hour.\n' +
            '# 【1†Booking trains in Portugal†travel.example.com】\nSeats on the faster trains often sell out on Friday evenings.',
          timestamp: '2024-01-15T09:44:11.304Z',
        },
        {
          role: 'assistant',
          content: '```\nmclick([0, 1])\n```',
          timestamp: '2024-01-15T09:44:11.309Z',
          model: 'gpt-4',
        },
        {
          role: 'tool',
          content:
            'Lisbon – Porto timetable | Rail Example\nhttps://rail.example.org/timetable/lisboa-porto\nThe Alfa Pendular takes 2 h 49 min; the Intercidades takes about 3 h 15 min.',
          timestamp: '2024-01-15T09:44:11.312Z',
        },
        {
          role: 'tool',
          content:
            'Booking trains in Portugal\nhttps://travel.example.com/portugal/booking\nTickets go on sale 60 days ahead, and cost less when bought early.',
          timestamp: '2024-01-15T09:44:11.318Z',
        },
        {
          role: 'assistant',
          content:
            'The fastest train, the Alfa Pendular, takes about 2 hours 50 minutes; the Intercidades takes about 3¼ hours. You do not have to book, but seats on Friday evenings sell out and early tickets are cheaper, so book a few days ahead if you can.',
          timestamp: '2024-01-15T09:44:11.327Z',
          model: 'gpt-4',
        },
      ],
    },
  });
  assert.deepEqual(normalize(plain)!.payload.messages, [
    {
      role: 'user',
      content: 'Give me a regex that matches dates like 2024-01-14.',
      timestamp: '2024-01-14T10:42:11.209Z',
    },
    {
      role: 'assistant',
      content:
        'Use `^\\d{4}-\\d{2}-\\d{2}$`. It checks the shape only, so 2024-13-40 matches too: parse the date afterwards if you need a real one.',
      timestamp: '2024-01-14T10:42:20.774Z',
      model: 'gpt-4',
    },
  ]);
});

test('citation markers become links to the cited page, or go when it names none', () => {
  const [conversation] = fixtureJson('chatgpt-citations.json');
  const result = normalize(conversation)!;
  assert.deepEqual(
    [result.externalId, result.title, result.updateTime],
    ['c8e6a4b2-1d3f-4c5e-8a7b-9d1f3e5a7c9b', 'Library opening hours', '2024-02-20T09:31:59.602Z'],
  );
  assert.deepEqual(
    result.payload.messages.map((m) => [m.role, m.timestamp]),
    [
      ['user', '2024-02-20T09:31:43.886Z'],
      ['assistant', '2024-02-20T09:31:50.117Z'],
      ['tool', '2024-02-20T09:31:50.119Z'],
      ['assistant', '2024-02-20T09:31:50.125Z'],
    ],
  );
  assert.equal(
    result.payload.messages.at(-1)!.content,
    'The central library opens at 12:00 on Sundays and closes at 17:00 [Opening hours – Central Library](https://library.example.org/hours). ' +
      'A local news item says that from March it opens an hour earlier, at 11:00 [Library to open earlier on Sundays](https://news.example.net/library-sunday-hours). ' +
      'It is closed on public holidays.',
  );
});

test('2025 export: editable contexts are dropped; thoughts and the recap are the reasoning of the answer after them', () => {
  const [conversation] = fixtureJson('chatgpt-reasoning-and-context.json');
  assert.deepEqual(normalize(conversation), {
    externalId: '68b9c3a4-1f2e-8007-a5d3-7c9e2b4f6a18',
    title: 'Splitting a bill three ways',
    updateTime: '2025-09-04T16:31:08.930Z',
    payload: {
      title: 'Splitting a bill three ways',
      messages: [
        {
          role: 'user',
          content: 'Dinner came to €87.60 and we want to tip 10%. How much does each of the three of us pay?',
          timestamp: '2025-09-04T16:30:12.418Z',
        },
        {
          role: 'assistant',
          content: '€32.12 each: €87.60 plus 10% is €96.36, and a third of that is €32.12.',
          timestamp: '2025-09-04T16:30:19.774Z',
          model: 'gpt-5-thinking',
          reasoning: 'Adding the tip and splitting\n87.60 × 1.10 = 96.36, and 96.36 / 3 = 32.12.\n\nThought for 5s',
        },
        { role: 'user', content: 'Round it up to whole euros.', timestamp: '2025-09-04T16:31:01.205Z' },
        {
          role: 'assistant',
          content: '€33 each. That comes to €99, which adds €2.64 to the tip.',
          timestamp: '2025-09-04T16:31:08.512Z',
          model: 'gpt-5-thinking',
        },
      ],
    },
  });
});

test('a single conversation object: image parts become placeholders named by their attachments, the empty message and hidden context are dropped', () => {
  const conversation = fixtureJson('chatgpt-single-image.json');
  assert.ok(!Array.isArray(conversation));
  assert.deepEqual(normalize(conversation), {
    externalId: '6845c0de-7a31-8005-9e2b-4c7d1f3a5b88',
    title: 'Is this plant safe for cats?',
    updateTime: '2025-06-14T08:36:46.355Z',
    payload: {
      title: 'Is this plant safe for cats?',
      messages: [
        {
          role: 'user',
          content: '[image: IMG_4471.jpeg]\nWhat plant is this, and is it safe for my cat?',
          timestamp: '2025-06-14T08:35:16.047Z',
        },
        {
          role: 'assistant',
          content:
            'It looks like a spider plant (Chlorophytum comosum). Spider plants are not toxic to cats, though some cats like to chew the leaves and may get a mildly upset stomach.',
          timestamp: '2025-06-14T08:35:21.285Z',
          model: 'gpt-4o',
        },
        {
          role: 'user',
          content: '[image: IMG_4472.jpeg]\n[image: IMG_4475.jpeg]\nAnd these two?',
          timestamp: '2025-06-14T08:36:27.619Z',
        },
        {
          role: 'assistant',
          content:
            'The first is a peace lily, which is toxic to cats: keep it out of reach. The second is a Boston fern, which is safe.',
          timestamp: '2025-06-14T08:36:34.803Z',
          model: 'gpt-4o',
        },
      ],
    },
  });
});

test('a single conversation object: code is fenced with its language, its output is a tool message', () => {
  const conversation = fixtureJson('chatgpt-single-code.json');
  assert.ok(!Array.isArray(conversation));
  assert.deepEqual(normalize(conversation), {
    externalId: '6752f1a0-5b3c-8005-8d7e-2f4a6c8e0b1d',
    title: 'Average daily steps',
    updateTime: '2024-12-06T17:00:31.662Z',
    payload: {
      title: 'Average daily steps',
      messages: [
        {
          role: 'user',
          content:
            'My step counts last week were 8412, 10230, 6051, 7788, 12004, 5320 and 9511. What was my daily average?',
          timestamp: '2024-12-06T17:00:07.260Z',
        },
        {
          role: 'assistant',
          content: '```python\nsteps = [8412, 10230, 6051, 7788, 12004, 5320, 9511]\nsum(steps) / len(steps)\n```',
          timestamp: '2024-12-06T17:00:12.734Z',
          model: 'gpt-4o',
        },
        { role: 'tool', content: '8473.714285714286', timestamp: '2024-12-06T17:00:13.058Z' },
        {
          role: 'assistant',
          content: 'Your daily average was about 8,474 steps.',
          timestamp: '2024-12-06T17:00:14.390Z',
          model: 'gpt-4o',
        },
      ],
    },
  });
});

test('code held in parts is fenced with its text; a message that is an image itself is [image], its file an attachment', () => {
  const conversation = fixtureJson('chatgpt-code-parts-and-image.json');
  assert.deepEqual(normalize(conversation), {
    externalId: '67d2a1b0-4c3e-8005-9a1b-2c3d4e5f6a7b',
    title: 'Receipt total',
    updateTime: '2025-03-13T10:36:16.000Z',
    payload: {
      title: 'Receipt total',
      messages: [
        { role: 'user', content: '[image: receipt-march.png]', timestamp: '2025-03-13T10:35:01.500Z' },
        {
          role: 'user',
          content: 'Add up the three amounts on this receipt, please.',
          timestamp: '2025-03-13T10:35:03.250Z',
        },
        {
          role: 'assistant',
          content: '```python\namounts = [12.40, 7.95, 23.10]\nround(sum(amounts), 2)\n```',
          timestamp: '2025-03-13T10:35:09.750Z',
          model: 'gpt-4o',
        },
        { role: 'tool', content: '43.45', timestamp: '2025-03-13T10:35:10.500Z' },
        {
          role: 'assistant',
          content: 'The three amounts come to 43.45.',
          timestamp: '2025-03-13T10:35:12.000Z',
          model: 'gpt-4o',
        },
        { role: 'user', content: '[image]', timestamp: '2025-03-13T10:36:10.000Z' },
        {
          role: 'assistant',
          content: '```\ntotal = 43.45 + 18.20\nprint(total)\n```',
          timestamp: '2025-03-13T10:36:15.500Z',
          model: 'gpt-4o',
        },
      ],
    },
  });
  assert.deepEqual(chatgptExport.normalize(conversation, new Map())?.attachments, [
    {
      messageIndex: 0,
      ref: 'file-R8sTq2Vw9XyZ4aBcD1eF3g',
      fileId: 'file-R8sTq2Vw9XyZ4aBcD1eF3g',
      name: 'receipt-march.png',
      contentType: null,
      size: 284113,
      kind: 'image',
    },
  ]);
});

const node = (id: string, parent: string | null, children: string[], message: Record<string, unknown> | null) => ({
  id,
  parent,
  children,
  message,
});
const msg = (role: string, content: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  author: { role },
  content,
  ...extra,
});

test('a current_node missing from mapping falls back to the newest leaf; cycles end the walk', () => {
  const mapping = {
    root: node('root', null, ['a'], null),
    a: node('a', 'root', ['b', 'c'], msg('user', { content_type: 'text', parts: ['question'] }, { create_time: 10 })),
    b: node('b', 'a', [], msg('assistant', { content_type: 'text', parts: ['old answer'] }, { create_time: 11 })),
    c: node('c', 'a', [], msg('assistant', { content_type: 'text', parts: ['new answer'] }, { create_time: 12 })),
  };
  const result = normalize({ id: 'x', mapping, current_node: 'gone' })!;
  assert.deepEqual(
    result.payload.messages.map((m) => m.content),
    ['question', 'new answer'],
  );
  assert.equal(result.payload.messages[0]!.timestamp, '1970-01-01T00:00:10.000Z');

  const cyclic = {
    a: node('a', 'b', ['b'], msg('user', { content_type: 'text', parts: ['one'] })),
    b: node('b', 'a', ['a'], msg('assistant', { content_type: 'text', parts: ['two'] })),
  };
  assert.deepEqual(
    normalize({ id: 'y', mapping: cyclic, current_node: 'b' })!.payload.messages.map((m) => m.content),
    ['one', 'two'],
  );
});

test('content types: hidden dropped, reasoning on the next answer, code fenced, execution output as tool, unknown parts and types named', () => {
  const steps: Array<[string, Record<string, unknown>, Record<string, unknown>?]> = [
    [
      'system',
      { content_type: 'text', parts: ['hidden prompt'] },
      { metadata: { is_visually_hidden_from_conversation: true } },
    ],
    ['user', { content_type: 'user_editable_context', user_profile: 'x' }],
    ['user', { content_type: 'text', parts: ['Plot it', '', 'please'] }],
    ['assistant', { content_type: 'thoughts', thoughts: [{ summary: 'thinking' }] }],
    ['assistant', { content_type: 'reasoning_recap', content: 'Thought for 3s' }],
    ['assistant', { content_type: 'code', language: 'python', text: 'print(1)' }],
    ['tool', { content_type: 'execution_output', text: '1' }],
    ['tool', { content_type: 'execution_output', text: '' }],
    [
      'assistant',
      {
        content_type: 'multimodal_text',
        parts: [
          { content_type: 'image_asset_pointer' },
          { content_type: 'audio_transcription', text: 'said' },
          { content_type: 'audio_asset_pointer' },
          { content_type: 'file' },
        ],
      },
    ],
    ['assistant', { content_type: 'text', parts: ['   '] }],
    ['critic', { content_type: 'some_future_type', text: 'future text' }],
    ['assistant', { content_type: 'app_pairing_content', apps: [] }],
  ];
  const mapping: Record<string, unknown> = {};
  steps.forEach(([role, content, extra], i) => {
    mapping[`n${i}`] = node(
      `n${i}`,
      i ? `n${i - 1}` : null,
      i + 1 < steps.length ? [`n${i + 1}`] : [],
      msg(role, content, extra),
    );
  });
  // No metadata, no title, no timestamps anywhere: newer exports leave them out.
  const result = normalize({ conversation_id: 'z', mapping, current_node: `n${steps.length - 1}` })!;
  assert.equal(result.title, null);
  assert.equal(result.updateTime, null);
  assert.deepEqual(result.payload, {
    title: '',
    messages: [
      { role: 'user', content: 'Plot it\nplease', timestamp: null },
      {
        role: 'assistant',
        content: '```python\nprint(1)\n```',
        timestamp: null,
        reasoning: 'thinking\n\nThought for 3s',
      },
      { role: 'tool', content: '1', timestamp: null },
      { role: 'assistant', content: '[image]\nsaid\n[audio]\n[file]', timestamp: null },
      { role: 'assistant', content: 'future text', timestamp: null },
      { role: 'assistant', content: '[unknown content: app_pairing_content]', timestamp: null },
    ],
  });
});

test('no id means unreadable; no mapping, or one with nothing to show, means no messages', () => {
  assert.equal(normalize({ title: 'x', mapping: {} }), null);
  assert.deepEqual(normalize({ id: 'm', title: 'No mapping', update_time: 1757090102 })!.payload, {
    title: 'No mapping',
    messages: [],
  });
  const entry = fixtureJson('chatgpt-reasoning-and-context.json')[1];
  assert.deepEqual(normalize(entry), {
    externalId: '68b9c5d0-3a4b-8007-b1c2-9e8f7a6b5c4d',
    title: 'Packing list',
    updateTime: '2025-09-05T16:35:02.447Z',
    payload: { title: 'Packing list', messages: [] },
  });
});

test('2026 slim shard: the chain from current_node without children, thoughts as reasoning, private-use markup as links, a canvas, voice and named files', () => {
  const [sourdough, plants] = fixtureJson('chatgpt-2026-shard.json');
  assert.deepEqual(normalize(sourdough), {
    externalId: '6a9c1409-7d10-83e8-a8d8-7f933546ba2f',
    title: 'Sourdough schedule for a workday',
    updateTime: '2026-08-22T14:03:11.802Z',
    payload: {
      title: 'Sourdough schedule for a workday',
      messages: [
        // An attachment with no part of its own: a line naming it.
        {
          role: 'user',
          content:
            'I work 9 to 6. Can you plan a sourdough bake around that? My starter notes are attached.\n[file: starter-notes.pdf]',
          timestamp: '2026-08-22T13:55:46.635Z',
        },
        // The thoughts (stamped 20 ms before the question) and the recap are this answer's reasoning.
        // The cite span is its content reference's `alt`, the url span a link, the canvas its body
        // under its title; no private-use character is left. `auto` names no model: the message's slug.
        {
          role: 'assistant',
          content:
            'Mix the levain before work and shape in the evening; the fridge does the waiting. ([King Arthur Baking](https://www.kingarthurbaking.com/blog/cold-retard))\n\n' +
            "Timings follow [King Arthur's guide to cold retarding](https://www.kingarthurbaking.com/blog/cold-retard).\n\n" +
            '**Workday sourdough plan**\n\n- 07:00 feed the starter\n- 18:30 mix and autolyse\n- 21:30 shape, then into the fridge\n- 07:00 bake straight from the fridge\n\n' +
            'Ask if you want it as a checklist.',
          timestamp: '2026-08-22T13:55:59.210Z',
          model: 'gpt-5-5-thinking',
          reasoning:
            'Reading the starter notes\n\nFitting the bake around work hours\nA levain built at 7:00 peaks around 13:00 at 24 °C; a cold retard fits the evening.\n\nThought for 12s',
        },
        {
          role: 'user',
          content: 'What if my kitchen is cold, like eighteen degrees?\n[audio]',
          timestamp: '2026-08-22T14:02:40.118Z',
        },
        {
          role: 'assistant',
          content:
            'Then feed it at 6:00 instead, with warm water, and give the dough an extra hour before shaping.\n[audio]',
          timestamp: '2026-08-22T14:02:44.507Z',
          model: 'gpt-5-5',
        },
        {
          role: 'user',
          content: '[image: crumb.jpg]\nHere is the crumb from last time. Too dense?',
          timestamp: '2026-08-22T14:03:02.944Z',
        },
        // current_node, not the regenerated sibling ("It looks fine to me.").
        {
          role: 'assistant',
          content: 'A little: the tight holes mean it was underproofed. Give it the extra hour.',
          timestamp: '2026-08-22T14:03:11.802Z',
          model: 'gpt-5-5',
        },
      ],
    },
  });
  // The hidden system node is dropped; an image no attachment names is `[image]`; the entity span
  // is its name, a filecite span without a content reference goes; the conversation's default model.
  assert.deepEqual(normalize(plants)!.payload.messages, [
    { role: 'user', content: '[image]\nIs this one safe for cats?', timestamp: '2026-08-23T13:52:00.020Z' },
    {
      role: 'assistant',
      content:
        'That is a Calathea, which is safe for cats. See the [ASPCA plant list](https://www.aspca.org/pet-care/animal-poison-control/cats-plant-list)',
      timestamp: '2026-08-23T13:52:11.903Z',
      model: 'gpt-5-6-mini',
    },
  ]);
});

test('no current_node and no children: the latest leaf’s chain, all nine visible messages in chain order', () => {
  const [conversation] = fixtureJson('chatgpt-no-current-node.json');
  const assistant = (content: string, timestamp: string) => ({
    role: 'assistant',
    content,
    timestamp,
    model: 'gpt-5-6',
  });
  const user = (content: string, timestamp: string) => ({ role: 'user', content, timestamp });
  assert.deepEqual(normalize(conversation), {
    externalId: '6a7f0c12-3e45-8a91-b2c3-d4e5f6a7b8c9',
    title: 'Learning to juggle three balls',
    updateTime: '2026-08-06T07:46:52.500Z',
    payload: {
      title: 'Learning to juggle three balls',
      messages: [
        user('I want to learn to juggle three balls. Where do I start?', '2026-08-06T07:40:00.635Z'),
        // Stamped before the question it answers: the chain decides the order, not the time.
        assistant(
          'Start with one ball: toss it from hand to hand in an arc that peaks just above eye level.',
          '2026-08-06T07:40:00.615Z',
        ),
        user('Done that for a week. Next?', '2026-08-06T07:42:00.500Z'),
        // "Add a second ball." is an older leaf, regenerated away.
        assistant(
          'Two balls in one hand: throw the second when the first reaches its peak.',
          '2026-08-06T07:42:11.750Z',
        ),
        user('My throws keep drifting forward.', '2026-08-06T07:44:00.000Z'),
        assistant(
          'Stand facing a wall, almost touching it: the wall stops the drift and teaches a straight plane.',
          '2026-08-06T07:44:06.125Z',
        ),
        user('And the third ball?', '2026-08-06T07:45:00.000Z'),
        assistant(
          'Hold two in your stronger hand. Throw from it, then throw from the other hand as the first ball peaks, then again.',
          '2026-08-06T07:45:05.875Z',
        ),
        user('Got three catches in a row!', '2026-08-06T07:46:52.500Z'),
      ],
    },
  });
});

test('the fallback leaf: named by no node as parent, the latest, ties to the last in the file; metadata.parent_id and children are not the tree', () => {
  const slim = (parent: string | null, text: string, time: number, metadata: Record<string, unknown> = {}) => ({
    parent,
    message: msg(
      text.startsWith('Q') ? 'user' : 'assistant',
      { content_type: 'text', parts: [text] },
      { create_time: time, metadata },
    ),
  });
  const mapping = {
    root: { parent: null, message: null },
    q: slim('root', 'Q1', 10),
    // Equally new leaves: the later in the file wins.
    first: slim('q', 'first answer', 12, { parent_id: 'second' }),
    second: slim('q', 'second answer', 12, { parent_id: 'missing-node' }),
    older: slim('q', 'older answer', 11),
  };
  assert.deepEqual(
    normalize({ id: 't', mapping })!.payload.messages.map((m) => m.content),
    ['Q1', 'second answer'],
  );
  // `children` naming a node is ignored: only `parent` links count.
  const withChildren = { ...mapping, q: { ...mapping.q, children: ['older'] } };
  assert.deepEqual(
    normalize({ id: 't', mapping: withChildren, current_node: null })!.payload.messages.map((m) => m.content),
    ['Q1', 'second answer'],
  );
  // Every node a parent (a cycle): the newest node, its chain up to where it loops.
  const cyclic = { a: slim('b', 'Q a', 1), b: slim('a', 'b', 2) };
  assert.deepEqual(
    normalize({ id: 'c', mapping: cyclic })!.payload.messages.map((m) => m.content),
    ['Q a', 'b'],
  );
});

test('older canvases: a create_textdoc call shows the document under its name, an update a line naming it', () => {
  const call = (recipient: string, text: string) =>
    msg(
      'assistant',
      { content_type: 'code', language: 'json', text },
      { recipient, metadata: { model_slug: 'gpt-4o' } },
    );
  const mapping = {
    u: node('u', null, [], msg('user', { content_type: 'text', parts: ['Write a haiku about rain'] })),
    c: node(
      'c',
      'u',
      [],
      call(
        'canmore.create_textdoc',
        JSON.stringify({
          name: 'Rain haiku',
          type: 'document',
          content: 'Soft rain on the roof\nthe kettle hums in reply\nboth of us waiting',
        }),
      ),
    ),
    r: node(
      'r',
      'c',
      [],
      msg('tool', { content_type: 'text', parts: ["Successfully created text document 'Rain haiku'"] }),
    ),
    e: node(
      'e',
      'r',
      [],
      call(
        'canmore.update_textdoc',
        JSON.stringify({ updates: [{ pattern: 'kettle', multiple: false, replacement: 'teapot' }] }),
      ),
    ),
  };
  assert.deepEqual(normalize({ id: 'canvas', mapping, current_node: 'e' })!.payload.messages, [
    { role: 'user', content: 'Write a haiku about rain', timestamp: null },
    {
      role: 'assistant',
      content: '**Rain haiku**\n\n```\nSoft rain on the roof\nthe kettle hums in reply\nboth of us waiting\n```',
      timestamp: null,
      model: 'gpt-4o',
    },
    { role: 'tool', content: "Successfully created text document 'Rain haiku'", timestamp: null },
    { role: 'assistant', content: '[canvas edited: Rain haiku]', timestamp: null, model: 'gpt-4o' },
  ]);
});
