/**
 * The way back to the app: a link's `returnUrl`, refused unless its origin is
 * one the app registered, offered as "Return to <app>" with `parley_status`
 * on the connect, result, manage and error pages, for /assets/return.js to tell
 * a window.open() opener too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { signLink, type SignLinkOptions } from 'parley-sdk';
import { updateAppPageSettings } from '../../src/apps/page-settings.ts';
import { fixtureBytes, setup, type TestContext } from '../helpers.ts';
import { hiddenField, PageClient } from './page-client.ts';

const RETURN_URL = 'https://acme.example/settings?tab=ai';

async function setupWithOrigins(origins = ['https://acme.example']) {
  const t = await setup();
  await updateAppPageSettings(t.deps, t.tenant.appId, { displayName: 'Acme Notes', returnOrigins: origins });
  return t;
}

async function linkPath(t: TestContext, options: Partial<SignLinkOptions> = {}) {
  const url = new URL(
    await signLink(
      {
        appId: t.tenant.appId,
        userRef: 'u1',
        scopes: ['conversations:read'],
        purpose: 'connect',
        baseUrl: t.deps.config.publicUrl,
        returnUrl: RETURN_URL,
        ...options,
      },
      t.tenant.appSecret,
      t.clock.now(),
    ),
  );
  return { path: url.pathname + url.search, token: url.searchParams.get('token')! };
}

/** The "Return to …" links of a page, as their href, their status and the origin the script posts to. */
function returnLinks(html: string) {
  return [
    ...html.matchAll(
      /<a class="([^"]*)" href="([^"]*)" data-parley-status="([^"]*)"(?: data-parley-connection-id="([^"]*)")? data-parley-origin="([^"]*)"( data-parley-announce)?>([^<]*)<\/a>/g,
    ),
  ].map(([, kind, href, status, connectionId, origin, announce, text]) => ({
    kind,
    href: href!.replace(/&amp;/g, '&'),
    status,
    connectionId,
    origin,
    announce: Boolean(announce),
    text,
  }));
}

const heading = (html: string) => /<h1[^>]*>(.*?)<\/h1>/.exec(html)?.[1];

/** Connects through a link with a returnUrl and imports a file: the browser, and the result page's HTML. */
async function importThroughLink(t: TestContext) {
  const browser = new PageClient(t);
  const { token } = await linkPath(t);
  assert.equal((await browser.post('/start', { token })).status, 303);
  const upload = await (await browser.get('/connect/anthropic')).text();
  const form = new FormData();
  form.set('csrf', hiddenField(upload, 'csrf'));
  form.set('file', new Blob([fixtureBytes('claude-conversations.json') as BlobPart]), 'conversations.json');
  assert.equal((await browser.request('/connect/anthropic', { method: 'POST', body: form })).status, 303);
  return { browser, html: await (await browser.get('/connect/result')).text() };
}

describe('returnUrl', () => {
  test('the connect pages offer to go back as cancelled; a successful import as success, with its connection', async () => {
    const t = await setupWithOrigins();
    const start = await new PageClient(t).get((await linkPath(t)).path);
    const startHtml = await start.text();
    assert.deepEqual(returnLinks(startHtml), [
      {
        kind: 'return-link',
        href: `${RETURN_URL}&parley_status=cancelled`,
        status: 'cancelled',
        connectionId: undefined,
        origin: 'https://acme.example',
        announce: false,
        text: 'Return to Acme Notes',
      },
    ]);
    // The script is a file of Parley's own: the CSP stays as strict as before.
    assert.match(startHtml, /<script src="\/assets\/return\.js" defer><\/script>/);
    assert.match(start.headers.get('content-security-policy')!, /default-src 'none'; script-src 'self';/);

    const { browser, html } = await importThroughLink(t);
    const connectionId = (await (await t.request('/api/conversations?userRef=u1')).json()).connections[0].id;
    assert.deepEqual(returnLinks(html), [
      {
        kind: 'button',
        href: `${RETURN_URL}&parley_status=success&connectionId=${connectionId}`,
        status: 'success',
        connectionId,
        origin: 'https://acme.example',
        announce: true,
        text: 'Return to Acme Notes',
      },
    ]);
    assert.deepEqual(
      returnLinks(await (await browser.get('/connect')).text()).map((link) => link.status),
      ['cancelled'],
    );
  });

  test('a failed import offers the way back as error, without telling the opener yet (the person may try again)', async () => {
    const t = await setupWithOrigins();
    const browser = new PageClient(t);
    assert.equal((await browser.post('/start', { token: (await linkPath(t)).token })).status, 303);
    const form = new FormData();
    form.set('csrf', hiddenField(await (await browser.get('/connect/openai')).text(), 'csrf'));
    form.set('file', new Blob(['not json']), 'conversations.json');
    await browser.request('/connect/openai', { method: 'POST', body: form });
    const links = returnLinks(await (await browser.get('/connect/result')).text());
    assert.deepEqual(
      links.map(({ kind, status, announce, href }) => [kind, status, announce, href]),
      [['return-link', 'error', false, `${RETURN_URL}&parley_status=error`]],
    );
  });

  test('the manage pages offer it as success; their error pages as error', async () => {
    const t = await setupWithOrigins();
    const browser = new PageClient(t);
    assert.equal(
      (await browser.get((await linkPath(t, { purpose: 'manage', returnUrl: 'https://acme.example/' })).path)).status,
      303,
    );
    const home = await (await browser.get('/manage')).text();
    assert.deepEqual(
      returnLinks(home).map(({ href, announce }) => [href, announce]),
      [['https://acme.example/?parley_status=success', false]],
    );
    const missing = await browser.get(`/manage/connections/${crypto.randomUUID()}`);
    assert.equal(missing.status, 404);
    assert.deepEqual(
      returnLinks(await missing.text()).map(({ kind, href, announce }) => [kind, href, announce]),
      [['button', 'https://acme.example/?parley_status=error', true]],
    );
  });

  test('an origin the app did not register: 403 on the page, and never a link to it', async () => {
    const t = await setupWithOrigins(['https://acme.example', 'http://localhost:3000']);
    for (const returnUrl of [
      'https://evil.example/',
      'http://acme.example/settings',
      'https://acme.example:8443/',
      'https://acme.example.evil.example/',
      'http://localhost:3001/',
    ]) {
      for (const purpose of ['connect', 'manage'] as const) {
        const response = await new PageClient(t).get((await linkPath(t, { purpose, returnUrl })).path);
        const html = await response.text();
        assert.equal(response.status, 403, `${purpose} ${returnUrl}`);
        assert.equal(heading(html), 'Invalid returnUrl');
        assert.deepEqual(returnLinks(html), []);
        assert.ok(!html.includes(new URL(returnUrl).host), 'the address is not shown');
        assert.equal(response.headers.get('set-cookie'), null, 'nothing consumed');
      }
    }
    // A registered origin on another path is fine: origins are registered, not URLs.
    assert.equal(
      (await new PageClient(t).get((await linkPath(t, { returnUrl: 'http://localhost:3000/any/path' })).path)).status,
      200,
    );
  });

  test('error pages about an authentic link offer the way back; about a link whose signature fails, never', async () => {
    const t = await setupWithOrigins();
    const { path } = await linkPath(t, { expiresInSeconds: 60 });
    t.clock.advance(61_000);
    const expired = await (await new PageClient(t).get(path)).text();
    assert.equal(heading(expired), 'Link expired');
    assert.deepEqual(
      returnLinks(expired).map(({ kind, status, announce }) => [kind, status, announce]),
      [['button', 'error', true]],
    );

    const now = Math.floor(t.clock.now() / 1000);
    const forged = await new SignJWT({
      appId: t.tenant.appId,
      userRef: 'u1',
      scopes: ['conversations:read'],
      purpose: 'connect',
      jti: 'j',
      returnUrl: RETURN_URL,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode('not the app secret'));
    const invalid = await (await new PageClient(t).get(`/start?token=${forged}`)).text();
    assert.equal(heading(invalid), 'Invalid link');
    assert.deepEqual(returnLinks(invalid), []);
    // A returnUrl that is no http(s) URL makes the link malformed.
    const script = await new SignJWT({
      appId: t.tenant.appId,
      userRef: 'u1',
      scopes: ['conversations:read'],
      purpose: 'connect',
      jti: 'k',
      returnUrl: 'javascript:alert(1)',
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(t.tenant.appSecret));
    const malformed = await new PageClient(t).get(`/start?token=${script}`);
    assert.equal(malformed.status, 401);
    assert.doesNotMatch(await malformed.text(), /javascript:/);
  });

  test('an origin unregistered during the session: the way back disappears from its pages', async () => {
    const t = await setupWithOrigins();
    const browser = new PageClient(t);
    assert.equal((await browser.post('/start', { token: (await linkPath(t)).token })).status, 303);
    assert.equal(returnLinks(await (await browser.get('/connect')).text()).length, 1);
    await updateAppPageSettings(t.deps, t.tenant.appId, { returnOrigins: [] });
    const html = await (await browser.get('/connect')).text();
    assert.deepEqual(returnLinks(html), []);
    assert.doesNotMatch(html, /return\.js/);
  });

  test('a link without returnUrl shows no way back and loads no return script', async () => {
    const t = await setupWithOrigins();
    const html = await (await new PageClient(t).get((await linkPath(t, { returnUrl: undefined })).path)).text();
    assert.equal(heading(html), 'Acme Notes would like to import your AI conversations');
    assert.deepEqual(returnLinks(html), []);
    assert.doesNotMatch(html, /return\.js/);
  });

  test('/assets/return.js is served as a script and posts only to the link’s origin', async () => {
    const t = await setup();
    const response = await t.app.request('/assets/return.js');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
    const script = await response.text();
    // As served (minified, so any names): the target origin is the link's data-parley-origin, never '*'.
    assert.match(script, /\.postMessage\(\w+, ?\w+\.getAttribute\(["']data-parley-origin["']\)\)/);
    assert.doesNotMatch(script, /postMessage\([^)]*["']\*["']/);
  });
});
