/**
 * Deep nesting where an import turns an export's values into text is a 400 with
 * its reason, never a 500 (src/import/formats/nesting.ts): a Claude tool call's
 * input, a Gemini entry (staged as JSON to be grouped), a Gemini answer's HTML.
 * A deep value no reader turns into text is imported past.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8 } from 'fflate';
import { checkHtmlNesting, jsonText, MAX_NESTING_DEPTH } from '../../src/import/formats/nesting.ts';
import { expectRefused, fixtureJson, json, postExport, setup } from '../helpers.ts';

const TOO_DEEP = `Invalid export file: a value is nested more than ${MAX_NESTING_DEPTH} levels deep`;

/** `{"a":{"a":…1…}}`, `depth` objects deep, as JSON text: written out, never through JSON.stringify. */
const nestedText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/**
 * A fixture with the string value "DEEP" at `place` (a function that puts it in
 * the parsed fixture) replaced by `deep`, as text: the file an attacker writes.
 */
function exportWith(fixture: string, place: (parsed: any) => void, deep: string): Uint8Array {
  const parsed = fixtureJson(fixture);
  place(parsed);
  const text = JSON.stringify(parsed);
  assert.equal(text.split('"DEEP"').length, 2, 'one place');
  return new TextEncoder().encode(text.replace('"DEEP"', deep));
}

/** The Claude tools fixture's first conversation, its first tool call's input replaced. */
const claudeToolInput = (deep: string) =>
  exportWith(
    'claude-tools.json',
    (conversations) => {
      conversations.length = 1;
      const call = conversations[0].chat_messages
        .flatMap((message: any) => message.content)
        .find((block: any) => block.type === 'tool_use');
      call.input = { expression: 'DEEP' };
    },
    deep,
  );

const gemini = (place: (entries: any[]) => void, deep: string) => exportWith('gemini-my-activity.json', place, deep);

describe('deep nesting', () => {
  test('a Claude tool call’s input nested 20,000 deep (a 120 KB file) is 400, and nothing is stored', async () => {
    const t = await setup();
    const file = claudeToolInput(nestedText(20_000));
    assert.ok(file.length > 100_000 && file.length < 140_000, `${file.length} bytes`);
    await expectRefused(t, () => postExport(t, file), 400, TOO_DEEP);
  });

  test('a tool call’s input as deep as the bound is stored, compact where indenting would multiply it', async () => {
    const t = await setup();
    const answer = await json(await postExport(t, claudeToolInput(nestedText(MAX_NESTING_DEPTH))));
    assert.equal(answer.created, 1);
    const [conversation] = (
      await json(await t.request(`/api/conversations?connectionId=${answer.connectionId}&limit=1`))
    ).conversations;
    const call = conversation.payload.messages.find((message: any) => message.content.startsWith('Tool call:'));
    assert.equal(call.content, `Tool call: calculator\nexpression: ${nestedText(MAX_NESTING_DEPTH)}`);
  });

  test('a Gemini entry nested 20,000 deep is 400: entries are staged as JSON to be grouped', async () => {
    const t = await setup();
    const file = gemini((entries) => (entries[0].details = 'DEEP'), nestedText(20_000));
    await expectRefused(t, () => postExport(t, file), 400, TOO_DEEP);
  });

  test('a Gemini answer of 20,000 nested elements, or of 300 left open, is 400; void elements nest nothing', async () => {
    const t = await setup();
    for (const html of [`${'<div>'.repeat(20_000)}x${'</div>'.repeat(20_000)}`, `${'<b>'.repeat(300)}x`]) {
      const file = gemini((entries) => (entries[0].safeHtmlItem[0].html = 'DEEP'), JSON.stringify(html));
      await expectRefused(t, () => postExport(t, file), 400, TOO_DEEP);
    }
    const flat = `<p>${'line<br>'.repeat(1000)}<img src="a.png"><hr/></p>`;
    const file = gemini((entries) => (entries[0].safeHtmlItem[0].html = 'DEEP'), JSON.stringify(flat));
    assert.equal((await postExport(t, file)).status, 200);
  });

  test('Le Chat: a message nested 20,000 deep is 400 (messages are staged as JSON to be grouped); Meta AI: a label tree or a page nested 20,000 deep is 400', async () => {
    const t = await setup();
    const [message] = fixtureJson('mistral-zip/chat-a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d.json');
    const deepDict = `${'{"label":"x","dict":['.repeat(20_000)}${']}'.repeat(20_000)}`;
    const deepPage = `<table><tr><td>${'<div>'.repeat(20_000)}x${'</div>'.repeat(20_000)}</td></tr></table>`;
    for (const [bytes, contentType] of [
      [
        strToU8(`[${JSON.stringify({ ...message, extra: 'DEEP' }).replace('"DEEP"', nestedText(20_000))}]`),
        'application/json',
      ],
      [strToU8(`{"label_values":[${deepDict}]}`), 'application/json'],
      [strToU8(deepPage), 'text/html'],
    ] as const)
      await expectRefused(t, () => postExport(t, bytes, { contentType }), 400, TOO_DEEP);
  });

  const ignored: Array<[string, (parsed: any) => void]> = [
    ['ChatGPT', (conversation) => (conversation.extra = 'DEEP')],
    ['DeepSeek', (conversations) => (conversations[0].extra = 'DEEP')],
    ['Grok', (grok) => (grok.conversations[0].response_extra = 'DEEP')],
    ['Claude', (conversations) => (conversations[0].extra = 'DEEP')],
  ];
  const fixtures: Record<string, string> = {
    ChatGPT: 'chatgpt-single-code.json',
    DeepSeek: 'deepseek-conversations.json',
    Grok: 'grok-prod-grok-backend.json',
    Claude: 'claude-tools.json',
  };
  for (const [name, place] of ignored) {
    test(`${name}: a value nested 20,000 deep that no reader shows is imported past`, async () => {
      const t = await setup();
      const res = await postExport(t, exportWith(fixtures[name]!, place, nestedText(20_000)));
      assert.equal(res.status, 200, await res.text());
    });
  }
});

describe('jsonText and checkHtmlNesting', () => {
  test('nested exactly as deep as the bound passes, one level more is refused', () => {
    const at = JSON.parse(nestedText(MAX_NESTING_DEPTH));
    assert.equal(jsonText(at), nestedText(MAX_NESTING_DEPTH));
    assert.throws(() => jsonText(JSON.parse(nestedText(MAX_NESTING_DEPTH + 1))), { message: TOO_DEEP });
    assert.throws(() => jsonText([JSON.parse(nestedText(MAX_NESTING_DEPTH))]), { message: TOO_DEEP });
    checkHtmlNesting(`${'<i>'.repeat(MAX_NESTING_DEPTH)}x`);
    assert.throws(() => checkHtmlNesting(`${'<i>'.repeat(MAX_NESTING_DEPTH + 1)}x`), { message: TOO_DEEP });
    // Closed, elements nest no deeper than their tags do at once.
    checkHtmlNesting(`${'<i>'.repeat(200)}x${'</I>'.repeat(200)}`.repeat(100));
  });

  test('indented two spaces a level as a person reads it, unless that would more than triple the text', () => {
    assert.equal(jsonText({ k: [1, 2], s: 'x' }, true), '{\n  "k": [\n    1,\n    2\n  ],\n  "s": "x"\n}');
    assert.equal(jsonText({ k: [1, 2] }), '{"k":[1,2]}');
    assert.equal(jsonText(JSON.parse(nestedText(40)), true), nestedText(40));
  });
});
