import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createKey, listKeys, revokeKey } from '../../src/apps/apps.ts';
import { isoTime } from '../../src/deps.ts';
import { FIXED_NOW, json, recordWrites, runApiScenarios, seedConnection, setup, type TestContext } from '../helpers.ts';

const LISTING = '/api/conversations?userRef=u1';

const seedUser = (t: TestContext) => seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 2 });

async function withUser() {
  const t = await setup();
  await seedUser(t);
  return t;
}

const get = (t: TestContext, authorization: string | undefined) =>
  t.app.request(LISTING, authorization === undefined ? {} : { headers: { Authorization: authorization } });

describe('401 on the listing endpoints', () => {
  const cases: Array<{ name: string; authorization: (t: TestContext) => string | undefined; error: string }> = [
    { name: 'no Authorization header', authorization: () => undefined, error: 'Missing Authorization header' },
    {
      name: 'a key without the Bearer prefix',
      authorization: (t) => t.tenant.apiKey,
      error: 'Missing Authorization header',
    },
    { name: 'another scheme', authorization: (t) => `Basic ${t.tenant.apiKey}`, error: 'Missing Authorization header' },
    { name: 'Bearer with nothing after it', authorization: () => 'Bearer', error: 'Missing Authorization header' },
    { name: 'Bearer and spaces only', authorization: () => 'Bearer    ', error: 'Missing Authorization header' },
    { name: 'an empty header', authorization: () => '', error: 'Missing Authorization header' },
    {
      name: 'an unknown parley_ key',
      authorization: () => `Bearer parley_${'x'.repeat(40)}`,
      error: 'Invalid API key',
    },
    // The last character changed for another: a random key may already end in the one put there.
    {
      name: 'a key one character off',
      authorization: (t) => `Bearer ${t.tenant.apiKey.slice(0, -1)}${t.tenant.apiKey.endsWith('0') ? '1' : '0'}`,
      error: 'Invalid API key',
    },
    { name: 'the prefix alone', authorization: () => 'Bearer parley_', error: 'Invalid API key' },
    { name: 'a wrong non-parley token', authorization: () => 'Bearer sk-not-a-parley-token', error: 'Invalid API key' },
    { name: 'a credential with a space in it', authorization: () => 'Bearer parley_a b', error: 'Invalid API key' },
    {
      name: 'the app secret with one character changed',
      authorization: (t) => `Bearer ${t.tenant.appSecret.slice(0, -1)}!`,
      error: 'Invalid API key',
    },
  ];
  runApiScenarios(
    { seed: seedUser },
    cases.map(({ name, authorization, error }) => ({
      name,
      request: [LISTING, '/api/connections?userRef=u1', '/api/conversations?connectionId=x'].map((path) => ({
        path,
        authorization,
      })),
      status: 401,
      body: { error },
      headers: { deprecation: null },
    })),
  );

  test('purge answers the same 401s', async () => {
    const t = await withUser();
    for (const { authorization, error } of cases) {
      const header = authorization(t);
      const res = await t.app.request('/api/purge', {
        method: 'POST',
        headers: header === undefined ? {} : { Authorization: header },
        body: JSON.stringify({ userRef: 'u1' }),
      });
      assert.deepEqual([res.status, await json(res)], [401, { error }]);
    }
    // Nothing was deleted by the refused requests.
    assert.equal((await json(await t.request(LISTING))).connections.length, 1);
  });
});

describe('accepted credentials', () => {
  test('an API key, with the scheme in any case and extra spaces', async () => {
    const t = await withUser();
    for (const header of [`Bearer ${t.tenant.apiKey}`, `bearer ${t.tenant.apiKey}`, `Bearer   ${t.tenant.apiKey}`]) {
      const res = await get(t, header);
      assert.equal(res.status, 200, header);
      assert.equal(res.headers.get('deprecation'), null);
      assert.equal((await json(res)).userRef, 'u1');
    }
  });

  test('the app secret still works, with a Deprecation header', async () => {
    const t = await withUser();
    const res = await get(t, `Bearer ${t.tenant.appSecret}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('deprecation') ?? '', /^@\d+$/);
    assert.equal((await json(res)).connections.length, 1);

    // The header stays on error responses of the same request.
    const missing = await t.app.request('/api/conversations?userRef=nobody', {
      headers: { Authorization: `Bearer ${t.tenant.appSecret}` },
    });
    assert.deepEqual([missing.status, await json(missing)], [404, { error: 'User not found' }]);
    assert.match(missing.headers.get('deprecation') ?? '', /^@\d+$/);

    const purge = await t.app.request('/api/purge', {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.tenant.appSecret}` },
      body: JSON.stringify({ userRef: 'u1' }),
    });
    assert.equal(purge.status, 200);
    assert.match(purge.headers.get('deprecation') ?? '', /^@\d+$/);
  });
});

describe('revocation and rotation', () => {
  test('a revoked key is refused at once', async () => {
    const t = await withUser();
    assert.equal((await get(t, `Bearer ${t.tenant.apiKey}`)).status, 200);
    assert.deepEqual(await revokeKey(t.deps, t.tenant.appId, t.tenant.keyId), { ok: true });
    const res = await get(t, `Bearer ${t.tenant.apiKey}`);
    assert.deepEqual([res.status, await json(res)], [401, { error: 'Invalid API key' }]);
    // The app secret is a separate credential and is not revoked with the key.
    assert.equal((await get(t, `Bearer ${t.tenant.appSecret}`)).status, 200);
  });

  test('two keys work side by side; revoking the first leaves the second working', async () => {
    const t = await withUser();
    const second = await createKey(t.deps, t.tenant.appId);
    assert.match(second.apiKey, /^parley_[0-9A-Za-z]{32,}$/);
    assert.notEqual(second.apiKey, t.tenant.apiKey);
    assert.notEqual(second.keyId, t.tenant.keyId);

    for (const key of [t.tenant.apiKey, second.apiKey]) {
      const res = await get(t, `Bearer ${key}`);
      assert.equal(res.status, 200);
      assert.deepEqual((await json(res)).connections.length, 1);
    }

    await revokeKey(t.deps, t.tenant.appId, t.tenant.keyId);
    const old = await get(t, `Bearer ${t.tenant.apiKey}`);
    assert.deepEqual([old.status, await json(old)], [401, { error: 'Invalid API key' }]);
    const current = await get(t, `Bearer ${second.apiKey}`);
    assert.equal(current.status, 200);
    assert.equal((await json(current)).userRef, 'u1');

    const { keys } = await listKeys(t.deps, t.tenant.appId);
    assert.deepEqual(
      keys.map((key) => [key.keyId, key.revokedAt]),
      [
        [t.tenant.keyId, isoTime(FIXED_NOW)],
        [second.keyId, null],
        // Same creation time: listed by id, in SQLite's binary order.
      ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );
  });

  test('revoking a key of another app, or an unknown key, is refused and changes nothing', async () => {
    const t = await withUser();
    const other = await createKey(t.deps, t.tenant.appId);
    await assert.rejects(revokeKey(t.deps, t.tenant.appId, 'key_unknown'), { message: 'Key not found' });
    await assert.rejects(revokeKey(t.deps, 'app_unknown', other.keyId), { message: 'App not found' });
    assert.equal((await get(t, `Bearer ${other.apiKey}`)).status, 200);
  });
});

describe('lastUsedAt', () => {
  const lastUsed = async (t: TestContext, keyId: string) =>
    (await listKeys(t.deps, t.tenant.appId)).keys.find((key) => key.keyId === keyId)?.lastUsedAt;

  /** Records every write of last_used_at, so the test counts writes rather than guessing them. */
  async function countTouches(t: TestContext) {
    const recorded = await recordWrites(t.deps.db, 'api_keys', {
      operations: ['UPDATE'],
      updateOf: 'last_used_at',
      key: 'id',
      value: 'last_used_at',
    });
    return async () => (await recorded()).map(({ key, value }) => ({ key_id: key, at: value }));
  }

  test('is null until first use, then written at most once a minute per key', async () => {
    const t = await withUser();
    const touches = await countTouches(t);
    const second = await createKey(t.deps, t.tenant.appId);
    assert.equal(await lastUsed(t, t.tenant.keyId), null);

    assert.equal((await t.request(LISTING)).status, 200);
    assert.equal(await lastUsed(t, t.tenant.keyId), isoTime(FIXED_NOW));
    assert.equal(await lastUsed(t, second.keyId), null);

    t.clock.advance(59_999);
    for (let i = 0; i < 5; i++) assert.equal((await t.request(LISTING)).status, 200);
    assert.equal(await lastUsed(t, t.tenant.keyId), isoTime(FIXED_NOW));

    t.clock.advance(1);
    assert.equal((await t.request(LISTING)).status, 200);
    assert.equal(await lastUsed(t, t.tenant.keyId), isoTime(FIXED_NOW + 60_000));

    // The other key has its own minute.
    assert.equal((await get(t, `Bearer ${second.apiKey}`)).status, 200);
    assert.equal(await lastUsed(t, second.keyId), isoTime(FIXED_NOW + 60_000));

    // Failed requests (a revoked key) do not touch it; the app secret touches no key.
    t.clock.advance(120_000);
    await revokeKey(t.deps, t.tenant.appId, second.keyId);
    assert.equal((await get(t, `Bearer ${second.apiKey}`)).status, 401);
    assert.equal((await get(t, `Bearer ${t.tenant.appSecret}`)).status, 200);

    assert.deepEqual(await touches(), [
      { key_id: t.tenant.keyId, at: isoTime(FIXED_NOW) },
      { key_id: t.tenant.keyId, at: isoTime(FIXED_NOW + 60_000) },
      { key_id: second.keyId, at: isoTime(FIXED_NOW + 60_000) },
    ]);
  });

  test('a burst of simultaneous first uses writes it once', async () => {
    const t = await setup({ RATE_LIMIT_PER_MINUTE: '1000' });
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1' });
    const touches = await countTouches(t);
    const statuses = await Promise.all(Array.from({ length: 50 }, async () => (await t.request(LISTING)).status));
    assert.deepEqual(new Set(statuses), new Set([200]));
    assert.deepEqual(await touches(), [{ key_id: t.tenant.keyId, at: isoTime(FIXED_NOW) }]);
  });
});

describe('requests that fail authentication', () => {
  test('carry no RateLimit headers and are not counted', async () => {
    const t = await withUser();
    for (const header of [undefined, 'Bearer parley_unknown', `Bearer ${t.tenant.apiKey}x`, 'Token abc']) {
      for (let i = 0; i < 30; i++) {
        const res = await get(t, header);
        assert.equal(res.status, 401);
        assert.equal(res.headers.get('ratelimit-limit'), null);
        assert.equal(res.headers.get('ratelimit-remaining'), null);
        assert.equal(res.headers.get('ratelimit-reset'), null);
        assert.equal(res.headers.get('retry-after'), null);
      }
    }
    const res = await t.request(LISTING);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('ratelimit-remaining'), String(t.deps.config.rateLimitPerMinute - 1));
    const buckets = await (t.deps.counters ?? t.deps.db).selectFrom('rate_buckets').selectAll().execute();
    assert.deepEqual(
      buckets.map((b) => [b.app_id, b.count]),
      [[t.tenant.appId, 1]],
    );
  });
});
