import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatgptExport } from '../../src/import/chatgpt-export.ts';
import { fixtureJson } from '../helpers.ts';

const normalize = (raw: unknown) => chatgptExport.normalize(raw as Record<string, unknown>);

test('the displayed branch of a conversation with edits and regenerations', () => {
  const [conversation] = fixtureJson('chatgpt-librechat-tree.json');
  assert.deepEqual(normalize(conversation), {
    externalId: 'd5dc5307-6807-41a0-8b04-4acee626eeb7',
    title: 'Assist user with summary',
    updateTime: '2024-05-01T17:37:40.879Z',
    payload: {
      title: 'Assist user with summary',
      messages: [
        { role: 'user', content: 'hi there', timestamp: '2024-05-01T17:37:11.150Z' },
        { role: 'assistant', content: 'Hello! How can I assist you today?', timestamp: '2024-05-01T17:37:11.757Z' },
        // "so cool bro" / "tell me a story" is an edited-away branch; the empty
        // hidden system message and the null root are dropped.
        { role: 'user', content: 'hi again', timestamp: '2024-05-01T17:37:30.906Z' },
        { role: 'assistant', content: "Hey! Welcome back. What's on your mind?", timestamp: '2024-05-01T17:37:31.690Z' },
        { role: 'user', content: 'tell me a joke', timestamp: '2024-05-01T17:37:35.908Z' },
        {
          role: 'assistant',
          content: "Sure, here's one for you:\n\nWhy don't scientists trust atoms?\n\nBecause they make up everything!",
          timestamp: '2024-05-01T17:37:40.598Z',
        },
      ],
    },
  });
});

test('browsing: code calls stay with the assistant, results become tool messages', () => {
  const [conversation] = fixtureJson('chatgpt-librechat-export.json');
  const messages = normalize(conversation)!.payload.messages;
  assert.deepEqual(
    messages.slice(0, 5).map((m) => [m.role, m.content.split('\n')[0]]),
    [
      ['user', 'What is the fuel consumption of vw  transporter with 8 people in l/km'],
      ['assistant', '```'],
      ['tool', '# 【0†Volkswagen Transporter MPG - Actual MPG from 528 Volkswagen ... - Fuelly†www.fuelly.com】'],
      ['assistant', '```'],
      ['tool', '2021 Volkswagen Transporter T6.1 L2H1 2.0 TDI 110HP specs, dimensions'],
    ],
  );
  assert.equal(messages[1]!.content, '```\nsearch("Volkswagen Transporter fuel consumption with 8 people l/km")\n```');
});

test('citation markers become links to the cited page', () => {
  const [conversation] = fixtureJson('chatgpt-librechat-citations.json');
  const answer = normalize(conversation)!.payload.messages.at(-1)!;
  assert.equal(answer.role, 'assistant');
  assert.doesNotMatch(answer.content, /【\d+†source】/);
  assert.match(answer.content, / \[Signal Sciences - Crunchbase Company Profile & Funding\]\(https:\/\/www\.crunchbase\.com\/organization\/signal-sciences\)/);
});

test('an image part becomes a placeholder and hidden context is dropped', () => {
  const conversation = fixtureJson('chatgpt-echomine-golden-images.json');
  const messages = normalize(conversation)!.payload.messages;
  assert.equal(messages[0]!.content, '[image]\nInterpret this painting');
  assert.ok(messages.every((m) => m.role !== 'system'));
});

const node = (id: string, parent: string | null, children: string[], message: Record<string, unknown> | null) => ({ id, parent, children, message });
const msg = (role: string, content: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ author: { role }, content, ...extra });

test('a current_node missing from mapping falls back to the newest leaf; cycles end the walk', () => {
  const mapping = {
    root: node('root', null, ['a'], null),
    a: node('a', 'root', ['b', 'c'], msg('user', { content_type: 'text', parts: ['question'] }, { create_time: 10 })),
    b: node('b', 'a', [], msg('assistant', { content_type: 'text', parts: ['old answer'] }, { create_time: 11 })),
    c: node('c', 'a', [], msg('assistant', { content_type: 'text', parts: ['new answer'] }, { create_time: 12 })),
  };
  const result = normalize({ id: 'x', mapping, current_node: 'gone' })!;
  assert.deepEqual(result.payload.messages.map((m) => m.content), ['question', 'new answer']);
  assert.equal(result.payload.messages[0]!.timestamp, '1970-01-01T00:00:10.000Z');

  const cyclic = {
    a: node('a', 'b', ['b'], msg('user', { content_type: 'text', parts: ['one'] })),
    b: node('b', 'a', ['a'], msg('assistant', { content_type: 'text', parts: ['two'] })),
  };
  assert.deepEqual(normalize({ id: 'y', mapping: cyclic, current_node: 'b' })!.payload.messages.map((m) => m.content), ['one', 'two']);
});

test('content types: reasoning and hidden dropped, code fenced, execution output as tool, unknown kept as text', () => {
  const steps: Array<[string, Record<string, unknown>, Record<string, unknown>?]> = [
    ['system', { content_type: 'text', parts: ['hidden prompt'] }, { metadata: { is_visually_hidden_from_conversation: true } }],
    ['user', { content_type: 'user_editable_context', user_profile: 'x' }],
    ['user', { content_type: 'text', parts: ['Plot it', '', 'please'] }],
    ['assistant', { content_type: 'thoughts', thoughts: [{ summary: 'thinking' }] }],
    ['assistant', { content_type: 'reasoning_recap', content: 'Thought for 3s' }],
    ['assistant', { content_type: 'code', language: 'python', text: 'print(1)' }],
    ['tool', { content_type: 'execution_output', text: '1' }],
    ['assistant', { content_type: 'multimodal_text', parts: [{ content_type: 'image_asset_pointer' }, { content_type: 'audio_transcription', text: 'said' }, { content_type: 'file' }] }],
    ['assistant', { content_type: 'text', parts: ['   '] }],
    ['critic', { content_type: 'some_future_type', text: 'future text' }],
  ];
  const mapping: Record<string, unknown> = {};
  steps.forEach(([role, content, extra], i) => {
    mapping[`n${i}`] = node(`n${i}`, i ? `n${i - 1}` : null, i + 1 < steps.length ? [`n${i + 1}`] : [], msg(role, content, extra));
  });
  // No metadata, no title, no timestamps anywhere: newer exports leave them out.
  const result = normalize({ conversation_id: 'z', mapping, current_node: `n${steps.length - 1}` })!;
  assert.equal(result.title, null);
  assert.equal(result.updateTime, null);
  assert.deepEqual(result.payload, {
    title: '',
    messages: [
      { role: 'user', content: 'Plot it\nplease', timestamp: null },
      { role: 'assistant', content: '```python\nprint(1)\n```', timestamp: null },
      { role: 'tool', content: '1', timestamp: null },
      { role: 'assistant', content: '[image]\nsaid\n[file]', timestamp: null },
      { role: 'assistant', content: 'future text', timestamp: null },
    ],
  });
});

test('no id means unreadable; no mapping means no messages', () => {
  assert.equal(normalize({ title: 'x', mapping: {} }), null);
  const entry = fixtureJson('chatgpt-librechat-modern.json')[1];
  assert.deepEqual(normalize(entry), {
    externalId: '6b0f0d9c-0000-4000-8000-000000000002',
    title: 'Corrupted entry',
    updateTime: '2025-08-24T01:55:00.000Z',
    payload: { title: 'Corrupted entry', messages: [] },
  });
});
