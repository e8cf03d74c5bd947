import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claudeExport } from '../../src/import/claude-export.ts';
import { fixtureJson } from '../helpers.ts';

const normalize = (raw: unknown) => claudeExport.normalize(raw as Record<string, unknown>);

test('text, tool calls and tool results in the order they happened', () => {
  const [conversation] = fixtureJson('claude-echomine-tool-messages.json');
  const result = normalize(conversation)!;
  assert.equal(result.externalId, 'tool-conv-001');
  assert.equal(result.title, 'Code Execution with Tools');
  assert.equal(result.updateTime, '2025-11-01T09:05:30.000Z');
  assert.equal(result.payload.title, 'Code Execution with Tools');
  assert.deepEqual(
    result.payload.messages.map((m) => [m.role, m.timestamp]),
    [
      ['user', '2025-11-01T09:00:05.000Z'],
      ['assistant', '2025-11-01T09:01:15.000Z'],
      ['tool', '2025-11-01T09:01:15.000Z'],
      ['tool', '2025-11-01T09:01:20.000Z'],
      ['assistant', '2025-11-01T09:02:00.000Z'],
      ['tool', '2025-11-01T09:02:00.000Z'],
      ['tool', '2025-11-01T09:02:05.000Z'],
      ['assistant', '2025-11-01T09:02:30.000Z'],
    ],
  );
  const contents = result.payload.messages.map((m) => m.content);
  assert.equal(contents[0], 'Can you write a Python script to calculate fibonacci numbers and save it to a file?');
  assert.equal(contents[1], "I'll create a Python script for calculating Fibonacci numbers and save it to a file.");
  assert.match(contents[2]!, /^Tool call: write_file\n\{\n {2}"path": "fibonacci.py",/);
  assert.equal(contents[3], 'File written successfully to fibonacci.py (285 bytes)');
  assert.equal(contents[5], 'Tool call: execute_code\n{\n  "language": "python",\n  "code": "exec(open(\'fibonacci.py\').read())"\n}');
  assert.equal(contents[6], '[0, 1, 1, 2, 3, 5, 8, 13, 21, 34]');
});

test('thinking is dropped, and a message of only thinking disappears', () => {
  const [conversation] = fixtureJson('claude-echomine-thinking.json');
  assert.deepEqual(normalize(conversation)!.payload.messages, [
    { role: 'assistant', content: 'Here is my answer.', timestamp: '2025-10-01T18:00:01.000Z' },
  ]);
});

test('attachments and files become placeholders with their names', () => {
  const [conversation] = fixtureJson('claude-echomine-attachments.json');
  assert.deepEqual(
    normalize(conversation)!.payload.messages.map((m) => m.content),
    [
      'Please review this document\n[attachment: report.pdf]',
      'Here are my files\n[file: data.csv]\n[file: image.png]',
      'Document and file together\n[attachment: notes.txt]\n[file: backup.zip]',
      '[file]',
      '[attachment: uploaded.pdf]',
      'Analyze this document for me\n[attachment: analysis.docx]',
    ],
  );
});

test('an empty name is a null title; a single conversation object (web shape) reads too', () => {
  const untitled = fixtureJson('claude-echomine-sample.json').find((c: any) => c.name === '');
  assert.equal(normalize(untitled)!.title, null);
  const bakery = normalize(fixtureJson('claude-osteele-bakery.json'))!;
  assert.equal(bakery.externalId, '8006a434-8b0b-43df-8e6d-c0a7aeb2e6b3');
  assert.equal(bakery.updateTime, '2024-10-29T16:02:16.623Z');
  assert.deepEqual(bakery.payload.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  assert.match(bakery.payload.messages[0]!.content, /^Make an interactive visualization[^\n]*\n\[file: image\]$/);
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
