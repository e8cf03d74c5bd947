import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { onboardApp } from '../../src/apps/apps.ts';
import {
  conversationPages,
  FIXED_NOW,
  NAVIGATION,
  fixtureBytes,
  fixtureJson,
  json,
  postExport,
  rowCounts,
  seedConnection,
  setup,
  type TestContext,
} from '../helpers.ts';
import { EXPORT_FORMATS } from '../../src/import/formats/registry.ts';
import { PROVIDER_GUIDES } from '../../pages/providers.ts';
import { ConnectStartPage } from '../../pages/connect-pages.tsx';
import { ProviderMark } from '../../pages/provider-marks.tsx';
import { messagesFor } from '../../pages/i18n/locales.ts';
import { MessagesContext } from '../../pages/i18n/messages-context.ts';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { hiddenField, openSession, PageClient, pageLink } from './page-client.ts';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function upload(browser: PageClient, provider: string, csrf: string | undefined, file: Uint8Array) {
  const form = new FormData();
  if (csrf !== undefined) form.set('csrf', csrf);
  form.set('file', new Blob([file as BlobPart]), 'export.json');
  return browser.request(`/connect/${provider}`, { method: 'POST', body: form });
}

const headings = (html: string) => [...html.matchAll(/<h1[^>]*>(.*?)<\/h1>/g)].map((m) => m[1]);

describe('sessions', () => {
  test('the cookie is HttpOnly and SameSite=Lax, Secure behind https, and the URL loses the token', async () => {
    const t = await setup();
    const url = await pageLink(t, 'manage');
    const response = await t.app.request(url.pathname + url.search, { headers: NAVIGATION });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/manage');
    assert.match(response.headers.get('set-cookie')!, /^parley_manage=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const secure = await setup({ PUBLIC_URL: 'https://parley.example' });
    const secureUrl = await pageLink(secure, 'manage');
    assert.match(
      (await secure.app.request(secureUrl.pathname + secureUrl.search, { headers: NAVIGATION })).headers.get(
        'set-cookie',
      )!,
      /; Secure/,
    );
  });

  test('a session ends after 30 idle minutes; activity keeps it alive', async () => {
    const t = await setup();
    const browser = await openSession(t, 'manage');
    t.clock.advance(29 * 60_000);
    assert.equal((await browser.get('/manage')).status, 200);
    t.clock.advance(29 * 60_000);
    assert.equal((await browser.get('/manage')).status, 200);
    t.clock.advance(30 * 60_000);
    const expired = await browser.get('/manage/delete-all');
    assert.equal(expired.status, 401);
    assert.deepEqual(headings(await expired.text()), ['Session expired']);
  });

  test('a connect session reaches only connect pages, a manage session only manage pages', async () => {
    const t = await setup();
    const connect = await openSession(t, 'connect');
    assert.equal((await connect.get('/connect')).status, 200);
    assert.equal((await connect.get('/manage/delete-all')).status, 401);
    const manage = await openSession(t, 'manage');
    assert.equal((await manage.get('/connect')).status, 401);
    assert.equal((await manage.get('/manage')).status, 200);
    assert.equal((await new PageClient(t).get('/connect/openai')).status, 401);
    const noLink = await new PageClient(t).get('/manage');
    assert.equal(noLink.status, 400);
    assert.deepEqual(headings(await noLink.text()), ['Missing link']);
  });

  test('every page has the security headers and loads no inline script', async () => {
    const t = await setup();
    const browser = await openSession(t, 'connect');
    for (const path of ['/connect', '/connect/openai', '/connect/anthropic']) {
      const response = await browser.get(path);
      const html = await response.text();
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.match(
        response.headers.get('content-security-policy')!,
        /default-src 'none'; script-src 'self'.*frame-ancestors 'none'/,
      );
      for (const script of html.match(/<script[^>]*>/g) ?? [])
        assert.match(script, / src="\/assets\/(page|upload)\.js"/);
      assert.doesNotMatch(html, / on[a-z]+=|style=/);
    }
    const css = await t.app.request('/assets/parley.css');
    assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
    for (const name of ['upload', 'page']) {
      const script = await t.app.request(`/assets/${name}.js`);
      assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    }
  });
});

describe('connect', () => {
  test('the start page says what is imported, who sees it, how to review and delete it; the privacy policy when the app has one', async () => {
    const t = await setup();
    const url = await pageLink(t, 'connect', 'u1', t.tenant.appId, t.tenant.appSecret, 'de');
    const start = await (await t.app.request(url.pathname + url.search)).text();
    const trust = /<section class="card trust"[\s\S]*?<\/section>/.exec(start)![0].replace(/<[^>]+>/g, '|');
    for (const text of [
      'Was importiert wird',
      'Nur die Unterhaltungen in der Exportdatei',
      'Wer sie sieht',
      'Test app und du.',
      'Ansehen und löschen',
      'Jederzeit auf der Seite, auf der Test app',
    ]) {
      assert.ok(trust.includes(text), text);
    }
    assert.doesNotMatch(start, /Datenschutzerklärung/, 'no policy link without a policy');

    const render = (privacyPolicyUrl?: string) =>
      renderToString(
        h(
          MessagesContext.Provider,
          { value: messagesFor('en') },
          h(ConnectStartPage, { appName: 'Acme Notes', token: 't', privacyPolicyUrl }),
        ),
      );
    assert.match(
      render('https://acme.example/privacy'),
      /How Acme Notes uses your data: <a href="https:\/\/acme.example\/privacy" rel="noopener noreferrer">Acme Notes’s privacy policy<\/a>/,
    );
    assert.doesNotMatch(render(), /privacy policy/);
  });

  test('upload through the same import as the API; results shown after a redirect; re-upload works', async () => {
    const t = await setup();
    const browser = await openSession(t, 'connect', 'carol');
    const page = await (await browser.get('/connect/anthropic')).text();
    assert.deepEqual(headings(page), ['Import from Claude']);
    const csrf = hiddenField(page, 'csrf');
    const posted = await upload(browser, 'anthropic', csrf, fixtureBytes('claude-conversations.json'));
    assert.deepEqual([posted.status, posted.headers.get('location')], [303, '/connect/result']);
    const result = await (await browser.get('/connect/result')).text();
    assert.match(result, /5 conversations from Claude are now available to Test app/);
    const { connections } = await json(await t.request('/api/conversations?userRef=carol'));
    assert.deepEqual(
      connections.map((c: any) => [c.provider, c.conversationCount]),
      [['anthropic', 5]],
    );

    await upload(browser, 'anthropic', csrf, fixtureBytes('claude-conversations.json'));
    const again = await (await browser.get('/connect/result')).text();
    assert.deepEqual(headings(again), ['Nothing new in this Claude export']);
  });

  test('a purge ends the user’s page sessions: no upload afterwards, nor one that was arriving as it ran', async () => {
    const t = await setup();
    const file = fixtureBytes('claude-conversations.json');
    for (const target of ['user', 'connection'] as const) {
      const browser = await openSession(t, 'connect', 'dora');
      const csrf = hiddenField(await (await browser.get('/connect/anthropic')).text(), 'csrf');
      assert.equal((await upload(browser, 'anthropic', csrf, file)).status, 303);
      const { connections } = await json(await t.request('/api/conversations?userRef=dora'));
      // Opened before the purge; its upload arrives while the purge runs.
      const arriving = await openSession(t, 'connect', 'dora');
      const arrivingCsrf = hiddenField(await (await arriving.get('/connect/anthropic')).text(), 'csrf');
      const form = new FormData();
      form.set('csrf', arrivingCsrf);
      form.set('file', new Blob([file as BlobPart]), 'export.json');
      const encoded = new Response(form);
      const contentType = encoded.headers.get('content-type')!;
      const bytes = new Uint8Array(await encoded.arrayBuffer());
      // The head goes at once; the rest is asked for only once the route reads on
      // (its session resumed), and sent once the purge is done.
      let reading!: () => void;
      const readOn = new Promise<void>((resolve) => (reading = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(bytes.subarray(0, 200)),
        async pull(controller) {
          reading();
          await released;
          controller.enqueue(bytes.subarray(200));
          controller.close();
        },
      });
      const upload2 = arriving.request('/connect/anthropic', {
        method: 'POST',
        body,
        headers: { 'Content-Type': contentType },
        duplex: 'half',
      } as RequestInit);
      await readOn;
      const purge = target === 'user' ? { userRef: 'dora' } : { connectionId: connections[0].id };
      assert.equal((await t.request('/api/purge', { method: 'POST', body: JSON.stringify(purge) })).status, 200);
      release();
      assert.equal((await upload2).status, 401, target);
      assert.equal((await upload(browser, 'anthropic', csrf, file)).status, 401, target);
      assert.equal((await browser.get('/connect')).status, 401, target);
      assert.equal((await t.request('/api/conversations?userRef=dora')).status, target === 'user' ? 404 : 200, target);
      if (target === 'connection')
        assert.deepEqual((await json(await t.request('/api/conversations?userRef=dora'))).connections, []);
      await t.request('/api/purge', { method: 'POST', body: JSON.stringify({ userRef: 'dora' }) });
    }
  });

  test('every provider the importer reads is offered, each with its steps and the files it takes', async () => {
    const t = await setup();
    const browser = await openSession(t, 'connect');
    const choose = await (await browser.get('/connect')).text();
    const offered = [...choose.matchAll(/<a class="choice" href="\/connect\/([a-z]+)">/g)].map((m) => m[1]);
    assert.deepEqual([...offered].sort(), EXPORT_FORMATS.map((format) => format.provider).sort());
    for (const guide of PROVIDER_GUIDES) {
      const response = await browser.get(`/connect/${guide.id}`);
      const html = await response.text();
      assert.equal(response.status, 200, guide.id);
      assert.deepEqual(headings(html), [`Import from ${guide.name}`]);
      assert.ok(
        guide.steps.length >= 3 && guide.steps.every((step) => html.includes(`<li>${escapeHtml(step)}</li>`)),
        guide.id,
      );
      assert.ok(html.includes(`Export file (${guide.files})`) && html.includes(`accept="${guide.accept}"`), guide.id);
    }
    assert.equal((await browser.get('/connect/gemini')).status, 404);
  });

  test('the page sends the browser’s zone before the file: Duck.ai’s times are read in it, an unknown zone as UTC', async () => {
    const t = await setup();
    const browser = await openSession(t, 'connect', 'dora');
    const page = await (await browser.get('/connect/duckduckgo')).text();
    // Filled in by the upload script, and before the file so that the import knows it as it reads.
    assert.ok(page.indexOf('<input type="hidden" name="timeZone" value=""/>') < page.indexOf('name="file"'));
    const firstTimes = async (timeZone: string) => {
      const form = new FormData();
      form.set('csrf', hiddenField(page, 'csrf'));
      form.set('timeZone', timeZone);
      form.set('file', new Blob([fixtureBytes('duckai-cast-iron.txt') as BlobPart]), 'duck.ai_2026-06-22_00-04-30.txt');
      const posted = await browser.request('/connect/duckduckgo', { method: 'POST', body: form });
      assert.equal(posted.status, 303);
      const { connections } = await json(await t.request('/api/conversations?userRef=dora'));
      const { conversations } = await json(await t.request(`/api/conversations?connectionId=${connections[0].id}`));
      return conversations[0].payload.messages[0].timestamp;
    };
    assert.equal(await firstTimes('America/Toronto'), '2026-06-22T03:58:58.000Z');
    assert.equal(await firstTimes('Nowhere/Atlantis'), '2026-06-21T23:58:58.000Z');
  });

  test('an upload without the form token is refused and imports nothing', async () => {
    const t = await setup();
    const browser = await openSession(t, 'connect');
    for (const csrf of [undefined, 'forged']) {
      const response = await upload(browser, 'openai', csrf, fixtureBytes('chatgpt-branches.json'));
      assert.equal(response.status, 403);
      assert.deepEqual(headings(await response.text()), ['Invalid form token']);
    }
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
    assert.equal((await browser.get('/connect/gemini')).status, 404);
  });
});

describe('manage', () => {
  async function seeded() {
    const t = await setup();
    const claude = fixtureJson('claude-conversations.json');
    claude[0].name = '<script>alert("x")</script> & more';
    await postExport(t, strToU8(JSON.stringify(claude)), { query: 'userRef=u1' });
    await postExport(t, fixtureBytes('chatgpt-branches.json'), { query: 'userRef=u1' });
    await postExport(t, fixtureBytes('chatgpt-branches.json'), { query: 'userRef=someone-else' });
    const { connections } = await json(await t.request('/api/conversations?userRef=u1'));
    const claudeConnection = connections.find((c: any) => c.provider === 'anthropic');
    const list = await json(await t.request(`/api/conversations?connectionId=${claudeConnection.id}`));
    return { t, claudeConnection, conversations: list.conversations as any[] };
  }

  test('lists connections, pages conversations newest first, shows messages escaped', async () => {
    const { t, claudeConnection, conversations } = await seeded();
    t.clock.advance(2 * 3_600_000);
    const browser = await openSession(t, 'manage');
    const home = await (await browser.get('/manage')).text();
    const rows = [
      ...home.matchAll(
        /<li class="connection"><a href="\/manage\/connections\/[^"]+">.*?<strong>(.*?)<\/strong><span class="muted small">(.*?)<\/span>/g,
      ),
    ].map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, '')]);
    assert.deepEqual(rows.sort(), [
      ['ChatGPT', '1 conversation · updated 2 hr. ago'],
      ['Claude', '5 conversations · updated 2 hr. ago'],
    ]);
    const list = await (await browser.get(`/manage/connections/${claudeConnection.id}`)).text();
    const titles = [...list.matchAll(/<a href="\/manage\/conversations\/[^"]+">(.*?)<\/a>/g)].map((m) => m[1]);
    assert.deepEqual(
      titles,
      conversations.map((c) =>
        (c.title ?? 'Untitled conversation').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;'),
      ),
    );
    const scripted = conversations.find((c) => c.title?.startsWith('<script>'));
    const page = await (await browser.get(`/manage/conversations/${scripted.id}`)).text();
    assert.ok(!page.includes('<script>alert'), 'title is escaped');
    assert.match(page, /&lt;script>alert\(&quot;x&quot;\)&lt;\/script> &amp; more/);
    assert.match(page, /<li class="message user">/);
    assert.match(page, /<li class="message assistant">/);
    assert.match(page, /<time dateTime="2025-09-14T08:20:12.307Z">2025-09-14 08:20 UTC<\/time>/i);
  });

  test('an answer’s reasoning is folded in <details> before it, as the assistants show it, its model beside its time', async () => {
    const t = await setup();
    const { connectionId } = await json(
      await postExport(t, fixtureBytes('chatgpt-reasoning-and-context.json'), { query: 'userRef=u1' }),
    );
    const list = await json(await t.request(`/api/conversations?connectionId=${connectionId}`));
    const bill = list.conversations.find((c: any) => c.title === 'Splitting a bill three ways');
    const browser = await openSession(t, 'manage');
    const page = await (await browser.get(`/manage/conversations/${bill.id}`)).text();
    const answer = page.slice(
      page.indexOf('<li class="message assistant">'),
      page.indexOf('</li>', page.indexOf('<li class="message assistant">')),
    );
    assert.match(answer, /<span class="model"> · gpt-5-thinking<\/span>/);
    assert.match(
      answer,
      /<\/p><details class="reasoning"><summary>Reasoning<\/summary><div class="content"><p>Adding the tip and splitting<br>\n87\.60 × 1\.10 = 96\.36, and 96\.36 \/ 3 = 32\.12\.<\/p>\n<p>Thought for 5s<\/p>\n?<\/div><\/details><div class="content"><p>€32\.12 each: .*<\/p>\n?<\/div>$/s,
    );
    assert.equal(page.match(/<details/g)?.length, 1, 'only the answer with reasoning has it');
  });

  test('a tool’s long output shows its first lines, the rest folded in <details>; a short one is shown whole', async () => {
    const t = await setup();
    const claude = fixtureJson('claude-tools.json');
    const status = claude.find((c: any) => c.name === 'Is the status page up?');
    const result = status.chat_messages[1].content.find((block: any) => block.type === 'tool_result');
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1} <b>`);
    result.content = [{ type: 'text', text: lines.join('\n') }];
    const { connectionId } = await json(await postExport(t, strToU8(JSON.stringify(claude)), { query: 'userRef=u1' }));
    const list = await json(await t.request(`/api/conversations?connectionId=${connectionId}`));
    const browser = await openSession(t, 'manage');
    const page = await (
      await browser.get(`/manage/conversations/${list.conversations.find((c: any) => c.title === status.name).id}`)
    ).text();
    const tools = [...page.matchAll(/<li class="message tool">(.*?)<\/li>/gs)].map((m) => m[1]!);
    const folded = tools.filter((tool) => tool.includes('<details class="tool-output">'));
    assert.equal(folded.length, 1, 'only the long output is folded');
    assert.match(
      folded[0]!,
      /<details class="tool-output"><summary><span class="output-head">Tool error: line 1 &lt;b>\nline 2 &lt;b>\nline 3 &lt;b>\nline 4 &lt;b>\nline 5 &lt;b><\/span><span class="output-more">Show all 40 lines<\/span><\/summary><div class="content"><p>Tool error: line 1 &lt;b&gt;<br>\n/,
    );
    assert.match(folded[0]!, /line 40 &lt;b&gt;<\/p>\n<\/div><\/details>$/);
    // The call itself, a line, stays as it was.
    assert.ok(tools.some((tool) => !tool.includes('<details') && tool.includes('<div class="content">')));
  });

  test('each provider has a mark of its own, named for a screen reader', async () => {
    const marks = PROVIDER_GUIDES.map(({ id, name }) => {
      const svg = renderToString(h(ProviderMark, { provider: id }));
      assert.match(
        svg,
        new RegExp(
          `^<svg class="provider-icon" viewBox="0 0 24 24" role="img" aria-label="${name}" focusable="false">`,
        ),
      );
      assert.ok(!svg.includes('<text'), `${id} has a drawn mark, not a letter`);
      return svg.replace(/aria-label="[^"]*"/, '');
    });
    assert.equal(new Set(marks).size, PROVIDER_GUIDES.length, 'no two marks alike');
    // One the pages do not know gets its letter, and its name.
    assert.match(renderToString(h(ProviderMark, { provider: 'acme' })), /aria-label="acme".*<text [^>]*>a<\/text>/);
  });

  test('pages through many conversations 20 at a time', async () => {
    const t = await setup();
    const many = Array.from({ length: 45 }, (_, i) => ({
      uuid: `c${i}`,
      name: `Chat ${i}`,
      updated_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
      chat_messages: [],
    }));
    const { connectionId } = await json(await postExport(t, strToU8(JSON.stringify(many))));
    const browser = await openSession(t, 'manage');
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const html = await (await browser.get(`/manage/connections/${connectionId}?page=${page}`)).text();
      seen.push(...[...html.matchAll(/">(Chat \d+)<\/a>/g)].map((m) => m[1]!));
      assert.match(html, new RegExp(`Page ${page} of 3`));
    }
    assert.deepEqual(seen, many.map((c) => c.name).reverse());
  });

  test('a page number from an edited URL is answered, never a 500: past the end is an empty page, nonsense is page 1', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });
    const browser = await openSession(t, 'manage', 'u1');
    for (const page of ['99999999999999999999', '1e300', '-5', 'abc']) {
      const listing = await browser.get(`/manage/connections/${connectionId}?page=${page}`);
      assert.equal(listing.status, 200, page);
      const search = await browser.get(`/manage?q=Conversation&page=${page}`);
      assert.equal(search.status, 200, page);
    }
    assert.equal(t.logs.filter((line) => line.level === 'error').length, 0);
  });

  test('a body that is not a form is refused like an empty form: no link, no form token', async () => {
    const t = await setup();
    const garbage = { method: 'POST', headers: { 'Content-Type': 'multipart/form-data; boundary=x' }, body: 'garbage' };
    const start = await t.app.request('/start', garbage);
    assert.equal(start.status, 400);
    assert.deepEqual(headings(await start.text()), ['Missing link']);
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 2 });
    const browser = await openSession(t, 'manage', 'u1');
    const deleteAll = await browser.request('/manage/delete-all', garbage);
    assert.equal(deleteAll.status, 403);
    assert.equal((await json(await t.request('/api/conversations?userRef=u1'))).connections[0].conversationCount, 2);
    assert.equal(t.logs.filter((line) => line.level === 'error').length, 0);
  });

  test('page requests are logged with their app once a link or session names it', async () => {
    const t = await setup();
    const browser = await openSession(t, 'manage');
    await browser.get('/manage');
    await new PageClient(t).get('/manage');
    const requests = t.logs
      .filter((line) => line.event === 'request')
      .map(({ method, path, status, appId }) => ({ method, path, status, appId }));
    assert.deepEqual(requests, [
      { method: 'GET', path: '/manage', status: 303, appId: t.tenant.appId },
      { method: 'GET', path: '/manage', status: 200, appId: t.tenant.appId },
      { method: 'GET', path: '/manage', status: 400, appId: undefined },
    ]);
  });

  test('delete one conversation, disconnect, delete all — each behind a confirmation with a form token', async () => {
    const { t, claudeConnection, conversations } = await seeded();
    const browser = await openSession(t, 'manage');
    const target = conversations[1];

    const confirm = await (await browser.get(`/manage/conversations/${target.id}/delete`)).text();
    assert.deepEqual(headings(confirm), ['Delete this conversation?']);
    // What an import brought stays deleted; a disconnect or "Delete all" starts afresh, and does not say so.
    const staysDeleted = 'Importing the same export again later will not bring it back';
    assert.ok(confirm.includes(staysDeleted));
    const csrf = hiddenField(confirm, 'csrf');
    const forged = await browser.post(`/manage/conversations/${target.id}/delete`, { csrf: 'nope' });
    assert.equal(forged.status, 403);
    assert.equal((await json(await t.request(`/api/conversations?connectionId=${claudeConnection.id}`))).total, 5);

    const deleted = await browser.post(`/manage/conversations/${target.id}/delete`, { csrf });
    assert.equal(
      deleted.headers.get('location'),
      `/manage/connections/${claudeConnection.id}?notice=conversation-deleted`,
    );
    assert.match(await (await browser.get(deleted.headers.get('location')!)).text(), /The conversation was deleted\./);
    const after = await json(await t.request(`/api/conversations?connectionId=${claudeConnection.id}`));
    assert.equal(after.total, 4);
    assert.ok(!after.conversations.some((c: any) => c.id === target.id));

    const disconnect = await (await browser.get(`/manage/connections/${claudeConnection.id}/disconnect`)).text();
    assert.ok(!disconnect.includes(staysDeleted));
    const disconnected = await browser.post(`/manage/connections/${claudeConnection.id}/disconnect`, { csrf });
    assert.equal(disconnected.headers.get('location'), '/manage?notice=disconnected');
    const { connections } = await json(await t.request('/api/conversations?userRef=u1'));
    assert.deepEqual(
      connections.find((c: any) => c.id === claudeConnection.id),
      { ...claudeConnection, status: 'revoked', conversationCount: 0 },
    );
    assert.equal((await browser.get(`/manage/connections/${claudeConnection.id}/disconnect`)).status, 409);

    const all = await browser.post('/manage/delete-all', { csrf });
    assert.equal(all.headers.get('location'), '/manage?notice=all-deleted');
    assert.equal((await t.request('/api/conversations?userRef=u1')).status, 404);
    const afterAll = await (await browser.get('/manage?notice=all-deleted')).text();
    assert.match(afterAll, /Everything was deleted/);
    assert.match(
      afterAll,
      /2 connections and 1 conversation were deleted\. Test app holds none of your conversations now\./,
    );
    assert.doesNotMatch(afterAll, /no conversations have been imported/);
    assert.equal(
      (await json(await t.request('/api/conversations?userRef=someone-else'))).connections.length,
      1,
      'other users untouched',
    );
    assert.equal((await browser.post('/manage/delete-all', { csrf })).status, 303, 'deleting nothing is fine');
    assert.match(
      await (await browser.get('/manage?notice=all-deleted')).text(),
      /0 connections and 0 conversations were deleted/,
    );
  });

  test('a session reaches only its own user of its own app', async () => {
    const { t } = await seeded();
    const stranger = await json(await t.request('/api/conversations?userRef=someone-else'));
    const strangerConnection = stranger.connections[0].id;
    const strangerConversation = (await json(await t.request(`/api/conversations?connectionId=${strangerConnection}`)))
      .conversations[0].id;
    const other = await onboardApp(t.deps, 'Other app');
    const sameRefOtherApp = await openSession(t, 'manage', 'someone-else', other.appId, other.appSecret);
    const browser = await openSession(t, 'manage');
    const csrf = hiddenField(await (await browser.get('/manage/delete-all')).text(), 'csrf');
    for (const client of [browser, sameRefOtherApp]) {
      assert.equal((await client.get(`/manage/connections/${strangerConnection}`)).status, 404);
      assert.equal((await client.get(`/manage/conversations/${strangerConversation}`)).status, 404);
    }
    assert.equal((await browser.post(`/manage/conversations/${strangerConversation}/delete`, { csrf })).status, 404);
    assert.equal((await browser.post(`/manage/connections/${strangerConnection}/disconnect`, { csrf })).status, 404);
    assert.equal((await json(await t.request(`/api/conversations?connectionId=${strangerConnection}`))).total, 1);
  });
});

describe('download my data', () => {
  /** Every conversation of a connection as the API pages them, in the API's shape. */
  const everyConversationOf = async (t: TestContext, connectionId: string) =>
    (await conversationPages(t, connectionId, 100)).flatMap((page) => page.conversations);
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  /** The zip's members, and its JSON file (the download as it always was). */
  async function unzipped(response: Response) {
    const members = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const text = strFromU8(members['parley-data-2026-03-01.json']!);
    return { members, text, file: JSON.parse(text) };
  }

  test('one zip: a JSON file with every connection and conversation of the person, across many pages, and nothing of anyone else', async () => {
    const t = await setup();
    const u1 = { appId: t.tenant.appId, userRef: 'u1' };
    // 250 and 200: the reads cross pages of 200, one of them ending exactly on a page.
    await seedConnection(t.deps, { ...u1, provider: 'openai', count: 250, capturedAt: FIXED_NOW - 3_000 });
    await seedConnection(t.deps, { ...u1, provider: 'deepseek', count: 200, capturedAt: FIXED_NOW - 2_000 });
    const claude = fixtureJson('claude-conversations.json');
    claude[0].name = 'Quotes " and \\ backslashes, <b>tags</b>, emoji 🙂 and ünïcödé';
    await postExport(t, strToU8(JSON.stringify(claude)), { query: 'userRef=u1' });
    const { connectionId: revokedId } = await seedConnection(t.deps, {
      ...u1,
      provider: 'xai',
      count: 3,
      capturedAt: FIXED_NOW - 1_000,
    });
    const strangers = [
      await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u2', count: 3 }),
      await seedConnection(t.deps, { appId: (await onboardApp(t.deps, 'Other app')).appId, userRef: 'u1', count: 3 }),
    ];

    const browser = await openSession(t, 'manage');
    // Disconnecting deletes a connection's conversations and keeps it as revoked: so does the file.
    const csrf = hiddenField(await (await browser.get(`/manage/connections/${revokedId}/disconnect`)).text(), 'csrf');
    assert.equal((await browser.post(`/manage/connections/${revokedId}/disconnect`, { csrf })).status, 303);

    const home = await (await browser.get('/manage')).text();
    assert.match(
      home,
      /<h2 id="download-title">Download your data<\/h2>\s*<p>One zip file with everything Test app holds for you/,
    );
    assert.match(home, /<a class="button" href="\/manage\/download" download>Download my data<\/a>/);

    const response = await browser.get('/manage/download');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/zip');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="parley-data-2026-03-01.zip"');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.ok(response.body instanceof ReadableStream);
    const { members, text, file } = await unzipped(response);
    // The JSON, then the one file of theirs: the paste the Claude export holds.
    const [paste] = (await t.deps.db.selectFrom('attachments').select(['id', 'name']).execute()).map(
      ({ id, name }) => `attachments/${id}-${name}`,
    );
    assert.deepEqual(Object.keys(members), ['parley-data-2026-03-01.json', paste]);

    assert.deepEqual(Object.keys(file), ['userRef', 'exportedAt', 'connections']);
    assert.equal(file.userRef, 'u1');
    assert.equal(file.exportedAt, '2026-03-01T12:00:30.000Z');
    // The connections as the API lists them, in its order, each with every one of its conversations as the API pages them.
    const { connections } = await json(await t.request('/api/conversations?userRef=u1'));
    assert.deepEqual(
      file.connections.map(({ conversations, memories, projects, ...connection }: any) => connection),
      connections,
    );
    assert.ok(file.connections.every((c: any) => c.memories.length === 0 && c.projects.length === 0));
    assert.deepEqual(
      connections.map((c: any) => [c.provider, c.status, c.conversationCount]),
      [
        ['anthropic', 'active', 5],
        ['xai', 'revoked', 0],
        ['deepseek', 'active', 200],
        ['openai', 'active', 250],
      ],
    );
    for (const [i, connection] of connections.entries()) {
      const downloaded = file.connections[i].conversations;
      assert.equal(new Set(downloaded.map((c: any) => c.id)).size, connection.conversationCount, connection.provider);
      assert.deepEqual(
        [...downloaded].sort(byId),
        (await everyConversationOf(t, connection.id)).sort(byId),
        connection.provider,
      );
    }
    assert.deepEqual(Object.keys(file.connections[0].conversations[0]), [
      'id',
      'external_id',
      'title',
      'payload',
      'update_time',
    ]);
    assert.ok(
      file.connections[0].conversations.some(
        (c: any) => c.title === claude[0].name && c.payload.title === claude[0].name,
      ),
    );
    for (const stranger of strangers) assert.ok(!text.includes(stranger.connectionId));
  });

  test('a person with nothing imported gets a file with no connections, and the page offers no button', async () => {
    const t = await setup();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u2', count: 3 });
    const browser = await openSession(t, 'manage');
    assert.doesNotMatch(await (await browser.get('/manage')).text(), /\/manage\/download/);
    const response = await browser.get('/manage/download');
    assert.equal(response.status, 200);
    assert.deepEqual((await unzipped(response)).file, {
      userRef: 'u1',
      exportedAt: '2026-03-01T12:00:30.000Z',
      connections: [],
    });
  });

  test('only a live manage session downloads', async () => {
    const t = await setup();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });
    const manage = await openSession(t, 'manage');
    const refused = async (client: PageClient) => {
      const response = await client.get('/manage/download');
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('content-type'), 'text/html; charset=UTF-8');
      assert.equal(response.headers.get('content-disposition'), null);
      return headings(await response.text());
    };
    // A browser that never opened a manage session is not told one expired.
    assert.deepEqual(await refused(new PageClient(t)), ['Open this page from the app']);
    assert.deepEqual(await refused(await openSession(t, 'connect')), ['Open this page from the app']);
    assert.equal((await manage.get('/manage/download')).status, 200);
    t.clock.advance(30 * 60_000);
    assert.deepEqual(await refused(manage), ['Session expired']);
  });

  test('a download that fails half-way breaks off instead of ending as a valid file, and is logged', async () => {
    const t = await setup();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });
    const browser = await openSession(t, 'manage');
    const response = await browser.get('/manage/download');
    assert.equal(response.status, 200);
    await t.deps.db.destroy();
    await assert.rejects(response.text());
    assert.deepEqual(
      t.logs.filter((line) => line.event === 'download failed').map((line) => line.appId),
      [t.tenant.appId],
    );
  });
});
