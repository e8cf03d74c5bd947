import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8 } from 'fflate';
import { ASSETS } from '../../dist/assets.ts';
import { concatBytes } from '../../src/bytes.ts';
import { MARKDOWN_PAGE_COST, MARKDOWN_TEXT_COST, markdownCost, pageTexts } from '../../pages/markdown.ts';
import { json, postExport, seedConnection, setup, storedPayload } from '../helpers.ts';
import { openSession } from './page-client.ts';

const LINK_REL = 'noopener noreferrer nofollow';

/**
 * The manage page of one Claude conversation whose messages are `texts`, in turn
 * from the person and the assistant; returns each message's rendered content.
 */
async function renderedMessages(...texts: string[]): Promise<string[]> {
  const t = await setup();
  const chat_messages = texts.map((text, i) => ({
    uuid: `m${i}`,
    sender: i % 2 === 0 ? 'human' : 'assistant',
    text,
    created_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
  }));
  const conversation = { uuid: 'c1', name: 'Markdown', updated_at: '2025-01-01T01:00:00Z', chat_messages };
  const { connectionId } = await json(await postExport(t, strToU8(JSON.stringify([conversation]))));
  const [{ id }] = (await json(await t.request(`/api/conversations?connectionId=${connectionId}`))).conversations;
  const browser = await openSession(t, 'manage');
  const response = await browser.get(`/manage/conversations/${id}`);
  assert.equal(response.status, 200);
  const page = await response.text();
  assert.equal([...page.matchAll(/<h1\b/g)].length, 1, 'the conversation title is the only h1');
  // markdown-it never writes a div, so a content div ends at the first </div>.
  return [...page.matchAll(/<div class="content">([\s\S]*?)<\/div>/g)].map((m) => m[1]!);
}

const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);

describe('messages render as Markdown', () => {
  test('emphasis, strikethrough, lists, headings and line breaks', async () => {
    const [content] = await renderedMessages(
      '# Plan\n\n**bold**, _emphasis_ and ~~gone~~\n\n- one\n- two\n\n1. first\n2. second\n\nline one\nline two',
    );
    assert.equal(
      content,
      [
        '<h2>Plan</h2>',
        '<p><strong>bold</strong>, <em>emphasis</em> and <s>gone</s></p>',
        '<ul>\n<li>one</li>\n<li>two</li>\n</ul>',
        '<ol>\n<li>first</li>\n<li>second</li>\n</ol>',
        '<p>line one<br>\nline two</p>\n',
      ].join('\n'),
    );
  });

  test('heading levels follow the page: never more than one below the heading before them, each message starting under the title', async () => {
    const contents = await renderedMessages('### Steps\n\n##### Detail\n\n## Back up\n\n# Top', '## Next message');
    assert.deepEqual(
      contents.map((content) => [...content.matchAll(/<(h\d)>([^<]*)</g)].map((m) => `${m[1]} ${m[2]}`)),
      [['h2 Steps', 'h3 Detail', 'h3 Back up', 'h2 Top'], ['h2 Next message']],
    );
  });

  test('a table, its columns aligned by class (the CSP refuses style attributes), reachable by Tab as it may scroll', async () => {
    const [content] = await renderedMessages('| Name | Count |\n|:-----|------:|\n| tea | 2 |');
    assert.equal(
      content,
      '<table tabindex="0">\n<thead>\n<tr>\n<th class="align-left">Name</th>\n<th class="align-right">Count</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td class="align-left">tea</td>\n<td class="align-right">2</td>\n</tr>\n</tbody>\n</table>\n',
    );
  });

  test('fenced code keeps its language as a class and a caption, and its text escaped; reachable by Tab as it may scroll', async () => {
    const [content] = await renderedMessages(
      'Try:\n\n```ts\nconst ok: boolean = 1 < 2 && "a" !== \'b\';\n```\n\nand `inline` code.',
    );
    assert.equal(
      content,
      '<p>Try:</p>\n<figure class="code"><figcaption>ts</figcaption><pre tabindex="0"><code class="language-ts">const ok: boolean = 1 &lt; 2 &amp;&amp; &quot;a&quot; !== \'b\';\n</code></pre>\n</figure>\n<p>and <code>inline</code> code.</p>\n',
    );
  });

  test('links, written or bare, open with rel="noopener noreferrer nofollow"', async () => {
    const [content] = await renderedMessages(
      'See [the docs](https://example.com/docs "Docs"), https://example.org/plain, <https://example.net/> or ada@example.com; main.py stays text.',
    );
    assert.equal(
      content,
      `<p>See <a href="https://example.com/docs" title="Docs" rel="${LINK_REL}">the docs</a>, ` +
        `<a href="https://example.org/plain" rel="${LINK_REL}">https://example.org/plain</a>, ` +
        `<a href="https://example.net/" rel="${LINK_REL}">https://example.net/</a> or ` +
        `<a href="mailto:ada@example.com" rel="${LINK_REL}">ada@example.com</a>; main.py stays text.</p>\n`,
    );
  });

  test('an image is a link to it, never loaded; an inline data: image is its alt text', async () => {
    const [content] = await renderedMessages(
      '![a *tracking* pixel](https://tracker.example/p.png) ![chart](data:image/png;base64,iVBORw0KGgo=)',
    );
    assert.equal(
      content,
      `<p><a href="https://tracker.example/p.png" rel="${LINK_REL}">a tracking pixel</a> chart</p>\n`,
    );
  });
});

describe('messages cannot inject markup', () => {
  test('raw HTML shows as the text it is', async () => {
    const [content] = await renderedMessages(
      '<script>alert(1)</script>\n\nhi <img src=x onerror="alert(2)"> <b onclick=alert(3)>bold?</b>\n\n<div>block</div>',
    );
    assert.equal(
      content,
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n' +
        '<p>hi &lt;img src=x onerror=&quot;alert(2)&quot;&gt; &lt;b onclick=alert(3)&gt;bold?&lt;/b&gt;</p>\n' +
        '<p>&lt;div&gt;block&lt;/div&gt;</p>\n',
    );
  });

  test('javascript:, vbscript: and data: links stay text', async () => {
    const hostile = [
      '[a](javascript:alert(1))',
      '[b](JavaScript:alert(1))',
      '[c](  javascript:alert(1) )',
      '[d](java&#115;cript:alert(1))',
      '[e](vbscript:msgbox(1))',
      '[f](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '<javascript:alert(1)>',
      '[g]\n\n[g]: javascript:alert(1)',
      '![h](javascript:alert(1))',
    ];
    const contents = await renderedMessages(...hostile);
    assert.equal(contents.length, hostile.length);
    for (const [i, content] of contents.entries()) assert.deepEqual(hrefs(content), [], `${hostile[i]} → ${content}`);
    assert.equal(contents[0], '<p>[a](javascript:alert(1))</p>\n');
  });

  test('every link in a message carries the rel attribute', async () => {
    const contents = await renderedMessages(
      '[x](https://a.example) and https://b.example',
      '![y](https://c.example/i.png)\n\n[z][ref]\n\n[ref]: https://d.example',
    );
    const links = contents.flatMap((content) => [...content.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]));
    assert.equal(links.length, 4);
    for (const link of links) assert.match(link, new RegExp(` rel="${LINK_REL}"`));
  });
});

/** The manage page of one conversation of `messages`, stored as an import stores it. */
async function conversationPage(messages: Array<{ role: string; content: string; reasoning?: string }>) {
  const t = await setup();
  const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1' });
  const id = crypto.randomUUID();
  const payload = JSON.stringify({ title: 'Long', messages: messages.map((m) => ({ ...m, timestamp: null })) });
  await t.deps.db
    .insertInto('conversations')
    .values({
      id,
      connection_id: connectionId,
      external_id: 'long',
      title: 'Long',
      payload: storedPayload(t.deps.db, payload),
      update_time: '2026-03-01T11:00:00.000Z',
      created_at: '2026-03-01T11:00:00.000Z',
      changed_at: '2026-03-01T11:00:00.000Z',
    })
    .execute();
  const browser = await openSession(t, 'manage');
  const response = await browser.get(`/manage/conversations/${id}`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/html; charset=UTF-8');
  // Read piece by piece: a long page is sent as it is encoded, never all at once.
  const pieces: Uint8Array[] = [];
  for await (const piece of response.body!) pieces.push(piece);
  const page = new TextDecoder().decode(concatBytes(pieces));
  if (page.length > 1024 * 1024) assert.ok(pieces.length > 1, 'a long page comes in pieces');
  return page;
}

/** Each text's div on a page: formatted (Markdown) or plain, and what it holds. */
const texts = (page: string) =>
  [...page.matchAll(/<div class="content( plain)?">([\s\S]*?)<\/div>/g)].map((m) => ({
    formatted: m[1] === undefined,
    html: m[2]!,
  }));

const PLAIN_NOTE = '<p class="muted small">Too long to format here: shown as plain text.</p>';

describe('Markdown has a budget: past it, a text is shown as plain text', () => {
  test('16 MB of `![`: plain text, whole, with a line saying why', async () => {
    const hostile = '!['.repeat(8 * 1024 * 1024);
    const page = await conversationPage([
      { role: 'user', content: hostile },
      { role: 'assistant', content: 'That was **long**.' },
    ]);
    assert.ok(page.includes(`<div class="content plain">${hostile}</div>${PLAIN_NOTE}`));
    assert.deepEqual(texts(page)[1], { formatted: true, html: '<p>That was <strong>long</strong>.</p>\n' });
  });

  test('the plain text is escaped and keeps its line breaks', async () => {
    const long = `<script>alert(1)</script> & **not bold**\n\nline two\n${'x'.repeat(MARKDOWN_TEXT_COST)}`;
    const [shown] = texts(await conversationPage([{ role: 'user', content: long }]));
    assert.deepEqual(shown, {
      formatted: false,
      html: `&lt;script&gt;alert(1)&lt;/script&gt; &amp; **not bold**\n\nline two\n${'x'.repeat(MARKDOWN_TEXT_COST)}`,
    });
    // The stylesheet shows its line breaks as written.
    assert.match(ASSETS['parley.css']!, /\.content\.plain\{white-space:pre-wrap\}/);
  });

  test('a text of MARKDOWN_TEXT_COST is Markdown, one character more is not; reasoning too', async () => {
    // Four asterisks, each costing MARKUP_WEIGHT more than a plain character.
    const text = (cost: number) => `**a** ${'b'.repeat(cost - 6 - 4 * 8)}`;
    assert.equal(markdownCost(text(MARKDOWN_TEXT_COST)), MARKDOWN_TEXT_COST);
    const shown = texts(
      await conversationPage([
        { role: 'user', content: text(MARKDOWN_TEXT_COST) },
        {
          role: 'assistant',
          content: text(MARKDOWN_TEXT_COST + 1),
          reasoning: text(MARKDOWN_TEXT_COST + 1),
        },
      ]),
    );
    assert.deepEqual(
      shown.map((text) => text.formatted),
      [true, false, false],
    );
    assert.match(shown[0]!.html, /^<p><strong>a<\/strong> b+<\/p>\n$/);
  });

  test('hostile Markdown is costed by its markup: 8 KB of `![` is plain, 8 KB of prose is Markdown', async () => {
    const hostile = '!['.repeat(4096);
    const prose = 'A sentence with **one** [link](https://example.com) in it. '.repeat(140).slice(0, 8192);
    assert.ok(markdownCost(hostile) > MARKDOWN_TEXT_COST);
    const shown = texts(
      await conversationPage([
        { role: 'user', content: hostile },
        { role: 'assistant', content: prose },
      ]),
    );
    assert.deepEqual(
      shown.map((text) => text.formatted),
      [false, true],
    );
  });

  test('a page of many texts just under the limit renders MARKDOWN_PAGE_COST of Markdown, the rest plain', async () => {
    const cost = MARKDOWN_TEXT_COST - 4096;
    const messages = Array.from({ length: 12 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `**${i}** ${'x'.repeat(cost - 6 - 4 * 8 - String(i).length)}`,
    }));
    const shown = texts(await conversationPage([...messages, { role: 'user', content: 'And **one** more.' }]));
    const fitting = Math.floor(MARKDOWN_PAGE_COST / cost);
    assert.ok(fitting < 12);
    // A short text after them still fits what is left of the budget.
    assert.deepEqual(
      shown.map((text) => text.formatted),
      [...Array(fitting).fill(true), ...Array(12 - fitting).fill(false), true],
    );
    const rendered = messages.slice(0, fitting).reduce((sum, message) => sum + markdownCost(message.content), 0);
    assert.ok(rendered <= MARKDOWN_PAGE_COST);
    // Plain, but still the whole of each text.
    assert.equal(shown[fitting]!.html, messages[fitting]!.content);
  });

  test('other requests get a turn before more than a text’s worth of Markdown is rendered since the last', async () => {
    const events: string[] = [];
    const show = pageTexts('Code', async () => {
      events.push('turn');
    });
    const third = MARKDOWN_TEXT_COST / 2;
    for (const length of [third, third, MARKDOWN_TEXT_COST + 1, third, third, 100])
      events.push((await show('a'.repeat(length))).formatted ? `markdown ${length}` : `plain ${length}`);
    assert.deepEqual(events, [
      `markdown ${third}`,
      `markdown ${third}`,
      // Plain text costs no turn: escaping is quick whatever the text.
      `plain ${MARKDOWN_TEXT_COST + 1}`,
      'turn',
      `markdown ${third}`,
      `markdown ${third}`,
      'turn',
      'markdown 100',
    ]);
  });
});
