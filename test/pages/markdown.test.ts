import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8 } from 'fflate';
import { json, postExport, setup } from '../helpers.ts';
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
