import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { signLink, type SignLinkOptions } from 'parley-sdk';
import { onboardApp } from '../../src/apps/apps.ts';
import * as atDecidedPath from '../../src/sdk/sign-link.ts';
import { insertUsedLink, isLinkUsed } from '../../src/db/page-sessions.ts';
import { databaseBefore, NAVIGATION, setup, type TestContext } from '../helpers.ts';
import { hiddenField, PageClient } from './page-client.ts';

const SCOPES: ['conversations:read'] = ['conversations:read'];

async function link(t: TestContext, options: Partial<SignLinkOptions> = {}, secret = t.tenant.appSecret) {
  const url = await signLink(
    {
      appId: t.tenant.appId,
      userRef: 'u1',
      scopes: SCOPES,
      purpose: 'connect',
      baseUrl: t.deps.config.publicUrl,
      ...options,
    },
    secret,
    t.clock.now(),
  );
  const parsed = new URL(url);
  return { url, path: parsed.pathname + parsed.search, token: parsed.searchParams.get('token')! };
}

/** A token signed by hand, for claims signLink refuses to produce. */
function handSigned(
  t: TestContext,
  claims: Record<string, unknown>,
  { alg = 'HS256', secret = t.tenant.appSecret } = {},
) {
  const iat = Math.floor(t.clock.now() / 1000);
  return new SignJWT({
    appId: t.tenant.appId,
    userRef: 'u1',
    scopes: SCOPES,
    purpose: 'connect',
    jti: crypto.randomUUID(),
    iat,
    exp: iat + 900,
    ...claims,
  })
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
  test('is exported at its public path, src/sdk/sign-link.ts: the SDK’s own', () => {
    assert.equal(atDecidedPath.signLink, signLink);
    assert.equal(atDecidedPath.MAX_LINK_LIFETIME_SECONDS, 900);
  });

  test('returns the page URL with an HS256 JWT carrying the claims', async () => {
    const t = await setup({ PUBLIC_URL: 'https://parley.example/' });
    const { url, token } = await link(t, { baseUrl: 'https://parley.example/', expiresInSeconds: 60 });
    assert.match(url, /^https:\/\/parley\.example\/start\?token=[\w-]+\.[\w-]+\.[\w-]+$/);
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    assert.deepEqual(header, { alg: 'HS256', typ: 'JWT' });
    assert.deepEqual(Object.keys(payload), ['appId', 'userRef', 'scopes', 'purpose', 'iat', 'exp', 'jti']);
    assert.equal(payload.exp - payload.iat, 60);
    const manage = await link(t, { purpose: 'manage', baseUrl: 'https://parley.example' });
    assert.match(manage.url, /^https:\/\/parley\.example\/manage\?token=/);
    const defaults = await signLink(
      { appId: 'a', userRef: 'u', scopes: SCOPES, purpose: 'connect', baseUrl: 'https://parley.example' },
      's',
    );
    const claims = JSON.parse(
      Buffer.from(new URL(defaults).searchParams.get('token')!.split('.')[1]!, 'base64url').toString(),
    );
    assert.equal(claims.exp - claims.iat, 900);
  });

  test('refuses bad options with a clear message', async () => {
    const good: SignLinkOptions = {
      appId: 'app_x',
      userRef: 'u',
      scopes: SCOPES,
      purpose: 'connect',
      baseUrl: 'https://parley.example',
    };
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
      // Never PUBLIC_URL from the environment: that is the customer's own address, not Parley's.
      [
        { baseUrl: undefined },
        'signLink: baseUrl is required: the address Parley is served at, such as "https://parley.example.com"',
      ],
      [
        { returnUrl: 'javascript:alert(1)' },
        'signLink: returnUrl must be an absolute http(s) URL of at most 2048 characters',
      ],
      [{ returnUrl: '/done' }, 'signLink: returnUrl must be an absolute http(s) URL of at most 2048 characters'],
      [
        { returnUrl: `https://acme.example/${'x'.repeat(2048)}` },
        'signLink: returnUrl must be an absolute http(s) URL of at most 2048 characters',
      ],
    ];
    for (const [change, message] of cases) {
      await assert.rejects(signLink({ ...good, ...change } as SignLinkOptions, 'secret'), {
        name: 'TypeError',
        message,
      });
    }
    await assert.rejects(signLink(good, ''), { message: 'signLink: appSecret must be a non-empty string' });
  });
});

describe('link verification, check by check in order', () => {
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
      [
        'tampered payload',
        `/start?token=${h}.${base64Url({ ...claims, userRef: 'someone-else' })}.${s}`,
        401,
        'Invalid link',
      ],
      ['alg none', `/start?token=${base64Url({ alg: 'none', typ: 'JWT' })}.${p}.`, 401, 'Invalid link'],
      ['HS512', `/start?token=${await handSigned(t, {}, { alg: 'HS512' })}`, 401, 'Invalid link'],
      ['missing claims', `/start?token=${await handSigned(t, { jti: undefined })}`, 401, 'Invalid link'],
      [
        'lifetime over 900 s',
        `/start?token=${await new SignJWT({
          appId: t.tenant.appId,
          userRef: 'u1',
          scopes: SCOPES,
          purpose: 'connect',
          jti: 'j',
        })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuedAt(Math.floor(t.clock.now() / 1000))
          .setExpirationTime(Math.floor(t.clock.now() / 1000) + 901)
          .sign(new TextEncoder().encode(t.tenant.appSecret))}`,
        403,
        'Invalid link lifetime',
      ],
      [
        'manage link on /start',
        `/start?token=${(await link(t, { purpose: 'manage' })).token}`,
        400,
        'Wrong link purpose',
      ],
      ['connect link on /manage', `/manage?token=${valid.token}`, 400, 'Wrong link purpose'],
      [
        'forbidden scope',
        `/start?token=${await handSigned(t, { scopes: ['conversations:write'] })}`,
        403,
        'Forbidden scope',
      ],
      ['no scope', `/start?token=${await handSigned(t, { scopes: [] })}`, 403, 'Forbidden scope'],
    ];
    for (const [name, path, status, heading] of cases) {
      await test(name, async () => expectErrorPage(await t.app.request(path), status, heading));
    }
  });

  test('a link signed more than 60 s ahead of the clock is Invalid link lifetime, however short its lifetime', async () => {
    const t = await setup();
    const now = Math.floor(t.clock.now() / 1000);
    for (const [ahead, status] of [
      [60, 200],
      [61, 403],
      [10 * 365 * 86_400, 403],
    ] as const) {
      const token = await handSigned(t, { iat: now + ahead, exp: now + ahead + 900 });
      const response = await t.app.request(`/start?token=${token}`);
      if (status === 200) assert.equal(response.status, 200, `${ahead} s ahead`);
      else await expectErrorPage(response, 403, 'Invalid link lifetime');
    }
  });

  test('absurd times in the claims are refused with a 4xx, never a 500 (fuzzed)', async () => {
    const t = await setup();
    const now = Math.floor(t.clock.now() / 1000);
    const times: unknown[] = [
      1e308,
      -1e308,
      -1,
      0,
      now,
      now + 900,
      now - 900,
      8.64e15,
      8.64e15 + 1,
      2 ** 53,
      -(2 ** 53),
      0.5,
      now + 0.5,
      '1e308',
      'NaN',
      'Infinity',
      '',
      null,
      true,
      [],
      {},
      [now],
      { $numberLong: String(now) },
    ];
    // A fixed seed: the same cases every run, and a failure names its claims.
    let seed = 27;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return times[seed % times.length];
    };
    const cases = Array.from({ length: 200 }, () => ({ iat: pick(), exp: pick() }));
    cases.push({ iat: 1e308, exp: 1e308 }, { iat: -1e308, exp: now + 10 }, { iat: now, exp: 1e308 });
    for (const claims of cases) {
      const token = await handSigned(t, claims);
      for (const response of [
        await t.app.request(`/start?token=${token}`),
        await new PageClient(t).post('/start', { token }),
      ]) {
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
    const opened = await Promise.all(Array.from({ length: 20 }, () => new PageClient(t).get(manage.path)));
    assert.deepEqual(opened.map((r) => r.status).sort(), [303, ...Array(19).fill(403)]);
  });

  test('a jti is its app’s: another app’s link with the same jti neither uses it up nor is refused for it', async () => {
    const t = await setup();
    const other = await onboardApp(t.deps, 'Other app');
    const jti = crypto.randomUUID();
    const mine = await handSigned(t, { jti });
    const theirs = await handSigned(t, { jti, appId: other.appId }, { secret: other.appSecret });
    const browser = new PageClient(t);
    assert.equal((await browser.post('/start', { token: theirs })).status, 303);
    // The other app's session, opened by a link with this jti, is not this link's session either.
    const mineOpened = await browser.post('/start', { token: mine });
    assert.equal(mineOpened.status, 303);
    assert.match(mineOpened.headers.get('set-cookie')!, /^parley_connect=/, 'a session of its own');
    for (const token of [mine, theirs])
      await expectErrorPage(await new PageClient(t).post('/start', { token }), 403, 'Link already used');
  });

  test('a database of the version before keeps its used links, each now its app’s', async () => {
    const { db, upgraded } = await databaseBefore(`links_upgrade_${crypto.randomUUID().replace(/-/g, '')}`, {
      sqlite: 14,
      postgres: 8,
    });
    const used = {
      jti: 'j1',
      app_id: 'a1',
      used_at: '2026-03-01T12:00:00.000Z',
      expires_at: '2026-03-01T12:15:00.000Z',
    };
    await db.insertInto('used_links').values(used).execute();
    await db.destroy();
    const current = await upgraded();
    try {
      assert.deepEqual(await current.selectFrom('used_links').selectAll().execute(), [used]);
      assert.equal(await isLinkUsed(current, 'a1', 'j1'), true);
      assert.equal(await isLinkUsed(current, 'a2', 'j1'), false);
      assert.equal(await insertUsedLink(current, { ...used, app_id: 'a2' }), true);
      assert.equal(await insertUsedLink(current, used), false);
    } finally {
      await current.destroy();
    }
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

describe('previews never use up a manage link', () => {
  // What a chat app's unfurler, a mail scanner or curl sends: no Fetch Metadata, or not a top-level document.
  const notNavigations: Array<[string, Record<string, string>]> = [
    ['Slackbot', { 'User-Agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' }],
    ['curl', { 'User-Agent': 'curl/8.5.0', Accept: '*/*' }],
    ['a fetch() from a page', { 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' }],
    ['a frame', { 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' }],
    ['a prefetch', { 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'document' }],
  ];

  test('any GET but a person’s navigation shows one Open button and consumes nothing; the button does', async () => {
    const t = await setup();
    const { path, token } = await link(t, { purpose: 'manage' });
    for (const [name, headers] of notNavigations) {
      const preview = await t.app.request(path, { headers });
      const html = await preview.text();
      assert.equal(preview.status, 200, name);
      assert.equal(preview.headers.get('set-cookie'), null, name);
      assert.match(html, /<h1 id="open-title">Your conversations shared with Test app<\/h1>/);
      assert.equal(hiddenField(html, 'token'), token);
      assert.deepEqual(
        [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]),
        ['Open'],
        'one button',
      );
      assert.match(html, /<form method="post" action="\/manage">/);
    }
    const browser = new PageClient(t);
    const open = await browser.post('/manage', { token });
    assert.equal(open.status, 303);
    assert.equal(open.headers.get('location'), '/manage');
    assert.equal((await browser.get('/manage')).status, 200);
    // Used now, by the button: a preview or another browser learns so.
    await expectErrorPage(await t.app.request(path), 403, 'Link already used');
    await expectErrorPage(await new PageClient(t).post('/manage', { token }), 403, 'Link already used');
  });

  test('a person’s navigation (Sec-Fetch-Mode navigate, Sec-Fetch-Dest document) consumes and redirects at once', async () => {
    const t = await setup();
    const { path } = await link(t, { purpose: 'manage' });
    const navigation = await t.app.request(path, { headers: NAVIGATION });
    assert.equal(navigation.status, 303);
    assert.equal(navigation.headers.get('location'), '/manage');
    assert.match(navigation.headers.get('set-cookie')!, /^parley_manage=/);
    await expectErrorPage(await t.app.request(path, { headers: NAVIGATION }), 403, 'Link already used');
  });

  test('a HEAD consumes nothing, even with a navigation’s headers (anyone can send them); the GET still does', async () => {
    const t = await setup();
    const { path } = await link(t, { purpose: 'manage' });
    const head = await t.app.request(path, { method: 'HEAD', headers: NAVIGATION });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('set-cookie'), null);
    const navigation = await t.app.request(path, { headers: NAVIGATION });
    assert.equal(navigation.status, 303);
    assert.match(navigation.headers.get('set-cookie')!, /^parley_manage=/);
  });

  test('the Open button checks the link as the page does, and a bad one opens nothing', async () => {
    const t = await setup();
    await expectErrorPage(await new PageClient(t).post('/manage', {}), 400, 'Missing link');
    await expectErrorPage(
      await new PageClient(t).post('/manage', { token: (await link(t)).token }),
      400,
      'Wrong link purpose',
    );
    const { token } = await link(t, { purpose: 'manage', expiresInSeconds: 60 });
    t.clock.advance(61_000);
    await expectErrorPage(await new PageClient(t).post('/manage', { token }), 403, 'Link expired');
  });

  test('the connect flow is unchanged: even a navigation only shows the page, Continue consumes', async () => {
    const t = await setup();
    const { path, token } = await link(t);
    for (const headers of [NAVIGATION, {}]) {
      const page = await t.app.request(path, { headers });
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('set-cookie'), null);
    }
    assert.equal((await new PageClient(t).post('/start', { token })).status, 303);
  });
});

describe('Back is harmless', () => {
  test('connect: the browser whose session this link opened goes back to its session; any other still gets Link already used', async () => {
    const t = await setup();
    const { path, token } = await link(t);
    const browser = new PageClient(t);
    assert.equal((await browser.post('/start', { token })).status, 303);
    for (const again of [() => browser.get(path), () => browser.post('/start', { token })]) {
      const back = await again();
      assert.equal(back.status, 303);
      assert.equal(back.headers.get('location'), '/connect');
      assert.equal(back.headers.get('set-cookie'), null, 'the same session, not a new one');
    }
    assert.equal((await browser.get('/connect')).status, 200);
    await expectErrorPage(await new PageClient(t).get(path), 403, 'Link already used');
    // Past the link's 15 minutes, within the session's 30 idle ones: still back to the session.
    t.clock.advance(20 * 60_000);
    assert.equal((await browser.get(path)).headers.get('location'), '/connect');
    await expectErrorPage(await new PageClient(t).get(path), 403, 'Link expired');
  });

  test('manage: the same, by navigation and by the Open button', async () => {
    const t = await setup();
    const { path, token } = await link(t, { purpose: 'manage' });
    const browser = new PageClient(t);
    assert.equal((await browser.get(path)).status, 303);
    for (const back of [await browser.get(path), await browser.post('/manage', { token })]) {
      assert.equal(back.status, 303);
      assert.equal(back.headers.get('location'), '/manage');
    }
    await expectErrorPage(await new PageClient(t).get(path), 403, 'Link already used');
  });

  test('only the very link: a session opened by another link, or another purpose’s session, does not count', async () => {
    const t = await setup();
    const first = await link(t, { purpose: 'manage' });
    const second = await link(t, { purpose: 'manage' });
    const browser = new PageClient(t);
    const other = new PageClient(t);
    assert.equal((await browser.get(first.path)).status, 303);
    assert.equal((await other.get(second.path)).status, 303);
    // browser's session was opened by the first link, not the second.
    await expectErrorPage(await browser.get(second.path), 403, 'Link already used');

    const connect = await link(t);
    assert.equal((await browser.post('/start', { token: connect.token })).status, 303);
    // The connect session's link, shown to the manage page: its purpose is checked first.
    await expectErrorPage(await browser.get(`/manage?token=${connect.token}`), 400, 'Wrong link purpose');
  });
});
