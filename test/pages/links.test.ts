import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { createApp as onboardApp } from '../../src/apps/apps.ts';
import { signLink, type SignLinkOptions } from '../../sdk/src/sign-link.ts';
import * as atDecidedPath from '../../src/sdk/sign-link.ts';
import { setup, type TestContext } from '../helpers.ts';
import { hiddenField, PageClient } from './page-client.ts';

const SCOPES: ['conversations:read'] = ['conversations:read'];

async function link(t: TestContext, options: Partial<SignLinkOptions> = {}, secret = t.tenant.appSecret) {
  const url = await signLink({ appId: t.tenant.appId, userRef: 'u1', scopes: SCOPES, purpose: 'connect', ...options }, secret, t.clock.now());
  const parsed = new URL(url);
  return { url, path: parsed.pathname + parsed.search, token: parsed.searchParams.get('token')! };
}

/** A token signed by hand, for claims signLink refuses to produce. */
function handSigned(t: TestContext, claims: Record<string, unknown>, { alg = 'HS256', secret = t.tenant.appSecret } = {}) {
  const iat = Math.floor(t.clock.now() / 1000);
  return new SignJWT({ appId: t.tenant.appId, userRef: 'u1', scopes: SCOPES, purpose: 'connect', jti: crypto.randomUUID(), iat, exp: iat + 900, ...claims })
    .setProtectedHeader({ alg, typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}

const base64Url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function expectErrorPage(response: Response, status: number, heading: string) {
  const html = await response.text();
  assert.equal(response.status, status, html.slice(0, 400));
  assert.match(response.headers.get('content-type')!, /^text\/html/);
  assert.match(html, new RegExp(`<h1 id="error-title">${heading}</h1>`));
  assert.match(html, /<p>[^<]*(app|link)[^<]*<\/p>/, 'says what to do');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.match(response.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
}

describe('signLink', () => {
  test('is exported at the path decisions §9 names, src/sdk/sign-link.ts: the SDK’s own', () => {
    assert.equal(atDecidedPath.signLink, signLink);
    assert.equal(atDecidedPath.MAX_LINK_LIFETIME_SECONDS, 900);
  });

  test('returns the page URL with an HS256 JWT carrying the claims', async () => {
    const t = await setup({ PUBLIC_URL: 'https://parley.example/' });
    const { url, token } = await link(t, { baseUrl: 'https://parley.example/', expiresInSeconds: 60 });
    assert.match(url, /^https:\/\/parley\.example\/start\?token=[\w-]+\.[\w-]+\.[\w-]+$/);
    const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    assert.deepEqual(header, { alg: 'HS256', typ: 'JWT' });
    assert.deepEqual(Object.keys(payload), ['appId', 'userRef', 'scopes', 'purpose', 'iat', 'exp', 'jti']);
    assert.equal(payload.exp - payload.iat, 60);
    const manage = await link(t, { purpose: 'manage', baseUrl: 'https://parley.example' });
    assert.match(manage.url, /^https:\/\/parley\.example\/manage\?token=/);
    const defaults = await signLink({ appId: 'a', userRef: 'u', scopes: SCOPES, purpose: 'connect' }, 's');
    const claims = JSON.parse(Buffer.from(new URL(defaults).searchParams.get('token')!.split('.')[1]!, 'base64url').toString());
    assert.equal(claims.exp - claims.iat, 900);
  });

  test('refuses bad options with a clear message', async () => {
    const good: SignLinkOptions = { appId: 'app_x', userRef: 'u', scopes: SCOPES, purpose: 'connect' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ scopes: ['admin'] }, 'signLink: scopes must be ["conversations:read"]'],
      [{ scopes: [] }, 'signLink: scopes must be ["conversations:read"]'],
      [{ purpose: 'delete' }, 'signLink: purpose must be "connect" or "manage"'],
      [{ expiresInSeconds: 901 }, 'signLink: expiresInSeconds must be from 1 to 900'],
      [{ expiresInSeconds: 0 }, 'signLink: expiresInSeconds must be from 1 to 900'],
      [{ expiresInSeconds: 1.5 }, 'signLink: expiresInSeconds must be a whole number'],
      [{ userRef: '' }, 'signLink: userRef must not be empty'],
      [{ appId: 5 }, 'signLink: appId must be a string'],
      [{ baseUrl: 'not a url' }, 'signLink: baseUrl must be an absolute URL'],
    ];
    for (const [change, message] of cases) {
      await assert.rejects(signLink({ ...good, ...change } as SignLinkOptions, 'secret'), { name: 'TypeError', message });
    }
    await assert.rejects(signLink(good, ''), { message: 'signLink: appSecret must be a non-empty string' });
  });
});

describe('link verification, in the order of decisions §9', () => {
  test('each failure is an HTML page with its status, message and advice', async () => {
    const t = await setup();
    const other = await onboardApp(t.deps, 'Other');
    const valid = await link(t);
    const [h, p, s] = valid.token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const cases: Array<[string, string, number, string]> = [
      ['no token', '/start', 400, 'Missing link'],
      ['not a JWT', '/start?token=hello', 401, 'Invalid link'],
      ['unknown app', `/start?token=${(await link(t, { appId: 'app_missing' })).token}`, 404, 'App not found'],
      ['another app’s secret', `/start?token=${(await link(t, {}, other.appSecret)).token}`, 401, 'Invalid link'],
      ['tampered payload', `/start?token=${h}.${base64Url({ ...claims, userRef: 'someone-else' })}.${s}`, 401, 'Invalid link'],
      ['alg none', `/start?token=${base64Url({ alg: 'none', typ: 'JWT' })}.${p}.`, 401, 'Invalid link'],
      ['HS512', `/start?token=${await handSigned(t, {}, { alg: 'HS512' })}`, 401, 'Invalid link'],
      ['missing claims', `/start?token=${await handSigned(t, { jti: undefined })}`, 401, 'Invalid link'],
      ['lifetime over 900 s', `/start?token=${await new SignJWT({ appId: t.tenant.appId, userRef: 'u1', scopes: SCOPES, purpose: 'connect', jti: 'j' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(Math.floor(t.clock.now() / 1000)).setExpirationTime(Math.floor(t.clock.now() / 1000) + 901).sign(new TextEncoder().encode(t.tenant.appSecret))}`, 403, 'Invalid link lifetime'],
      ['manage link on /start', `/start?token=${(await link(t, { purpose: 'manage' })).token}`, 400, 'Wrong link purpose'],
      ['connect link on /manage', `/manage?token=${valid.token}`, 400, 'Wrong link purpose'],
      ['forbidden scope', `/start?token=${await handSigned(t, { scopes: ['conversations:write'] })}`, 403, 'Forbidden scope'],
      ['no scope', `/start?token=${await handSigned(t, { scopes: [] })}`, 403, 'Forbidden scope'],
    ];
    for (const [name, path, status, heading] of cases) {
      await test(name, async () => expectErrorPage(await t.app.request(path), status, heading));
    }
  });

  test('a link signed more than 60 s ahead of the clock is Invalid link lifetime, however short its lifetime', async () => {
    const t = await setup();
    const now = Math.floor(t.clock.now() / 1000);
    for (const [ahead, status] of [[60, 200], [61, 403], [10 * 365 * 86_400, 403]] as const) {
      const token = await handSigned(t, { iat: now + ahead, exp: now + ahead + 900 });
      const response = await t.app.request(`/start?token=${token}`);
      if (status === 200) assert.equal(response.status, 200, `${ahead} s ahead`);
      else await expectErrorPage(response, 403, 'Invalid link lifetime');
    }
  });

  test('absurd times in the claims are refused with a 4xx, never a 500 (fuzzed)', async () => {
    const t = await setup();
    const now = Math.floor(t.clock.now() / 1000);
    const times: unknown[] = [1e308, -1e308, -1, 0, now, now + 900, now - 900, 8.64e15, 8.64e15 + 1, 2 ** 53, -(2 ** 53), 0.5, now + 0.5, '1e308', 'NaN', 'Infinity', '', null, true, [], {}, [now], { $numberLong: String(now) }];
    // A fixed seed: the same cases every run, and a failure names its claims.
    let seed = 27;
    const pick = () => times[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % times.length];
    const cases = Array.from({ length: 200 }, () => ({ iat: pick(), exp: pick() }));
    cases.push({ iat: 1e308, exp: 1e308 }, { iat: -1e308, exp: now + 10 }, { iat: now, exp: 1e308 });
    for (const claims of cases) {
      const token = await handSigned(t, claims);
      for (const response of [await t.app.request(`/start?token=${token}`), await new PageClient(t).post('/start', { token })]) {
        const allowed = response.status < 500 && (response.status >= 400 || [200, 303].includes(response.status));
        assert.ok(allowed, `${JSON.stringify(claims)}: ${response.status}`);
        await response.body?.cancel();
      }
    }
  });

  test('expiry: valid through exp, Link expired once more than the lifetime has passed', async () => {
    const t = await setup();
    const { path } = await link(t, { expiresInSeconds: 60 });
    t.clock.advance(60_000);
    assert.equal((await t.app.request(path)).status, 200);
    t.clock.advance(1);
    await expectErrorPage(await t.app.request(path), 403, 'Link expired');
  });

  test('a link preview consumes nothing; the click does, once', async () => {
    const t = await setup();
    const { path, token } = await link(t);
    for (let i = 0; i < 2; i++) {
      const preview = await t.app.request(path);
      assert.equal(preview.status, 200);
      assert.equal(hiddenField(await preview.text(), 'token'), token);
    }
    const browser = new PageClient(t);
    const click = await browser.post('/start', { token });
    assert.equal(click.status, 303);
    assert.equal(click.headers.get('location'), '/connect');
    await expectErrorPage(await t.app.request(path), 403, 'Link already used');
    await expectErrorPage(await new PageClient(t).post('/start', { token }), 403, 'Link already used');
  });

  test('of 20 simultaneous uses of one link exactly one wins', async () => {
    const t = await setup();
    const { token } = await link(t);
    const responses = await Promise.all(Array.from({ length: 20 }, () => new PageClient(t).post('/start', { token })));
    assert.deepEqual(responses.map((r) => r.status).sort(), [303, ...Array(19).fill(403)]);
    const manage = await link(t, { purpose: 'manage' });
    const opened = await Promise.all(Array.from({ length: 20 }, () => t.app.request(manage.path)));
    assert.deepEqual(opened.map((r) => r.status).sort(), [303, ...Array(19).fill(403)]);
  });

  test('the token never reaches the logs', async () => {
    const t = await setup();
    const { path, token } = await link(t);
    await t.app.request(path);
    await new PageClient(t).post('/start', { token });
    const logged = JSON.stringify(t.logs);
    assert.ok(!logged.includes(token.split('.')[2]!), 'signature logged');
    assert.ok(t.logs.some((line) => line.path === '/start' && line.status === 200));
  });
});
