import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { isPostgres, json, runApiScenarios, seedConnection, setup, type TestContext } from '../helpers.ts';

const packageVersion: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

describe('unknown paths', () => {
  const paths = [
    '/index.html',
    '/api',
    '/api/',
    '/api/nope',
    '/api/conversation',
    '/api/conversations/',
    '/api/purge/all',
    '/healthz/extra',
    '/API/conversations',
    '/favicon.ico',
  ];
  runApiScenarios(
    {},
    paths.map((path) => ({
      name: path,
      request: [{ path }, { path, authorization: null }, { method: 'POST', path, body: '{}' }],
      status: 404,
      body: { error: 'Not found' },
    })),
  );
});

describe('wrong methods', () => {
  const cases = [
    ...['POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) => [
      { method, path: '/api/conversations?userRef=u1', allow: 'GET' },
      { method, path: '/api/connections?userRef=u1', allow: 'GET' },
    ]),
    ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ method, path: '/api/purge', allow: 'POST' })),
  ];
  runApiScenarios(
    {
      seed: (t) => seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 }),
      after: async (t) => {
        // Nothing was deleted or counted.
        const listing = await t.request('/api/conversations?userRef=u1');
        assert.equal((await json(listing)).connections.length, 1);
        // Only the listing itself was counted.
        assert.equal(listing.headers.get('ratelimit-remaining'), String(t.deps.config.rateLimitPerMinute - 1));
      },
    },
    cases.map(({ method, path, allow }) => {
      const body = method === 'GET' ? undefined : JSON.stringify({ userRef: 'u1' });
      return {
        name: `${method} ${path}`,
        request: [
          { method, path, body },
          { method, path, body, authorization: null },
        ],
        status: 405,
        body: { error: 'Method not allowed' },
        headers: { allow },
      };
    }),
  );
});

describe('unexpected errors', () => {
  async function failing(t: TestContext, path: string, init?: RequestInit) {
    const res = await t.request(path, init);
    assert.equal(res.status, 500);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { error: 'Internal server error' });
    assert.doesNotMatch(text, /stack|sqlite|\bat\b/i);
    return res;
  }

  test('a closed database: JSON 500, one error log line with the details', async () => {
    const t = await setup();
    await t.deps.db.destroy();
    await failing(t, '/api/conversations?userRef=u1');
    const errors = t.logs.filter((line) => line.level === 'error');
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.event, 'unhandled');
    assert.equal(errors[0]!.path, '/api/conversations');
    assert.match(String(errors[0]!.error), /destroyed/);
    const requests = t.logs.filter((line) => line.event === 'request');
    assert.deepEqual(
      requests.map((line) => [line.method, line.path, line.status]),
      [['GET', '/api/conversations', 500]],
    );
  });

  test('a missing table: JSON 500 on the listing, healthz still fine', async () => {
    const t = await setup();
    await sql`DROP TABLE rate_buckets`.execute(t.deps.counters ?? t.deps.db);
    await failing(t, '/api/conversations?userRef=u1');
    const health = await t.app.request('/healthz');
    assert.equal(health.status, 200);
    const errors = t.logs.filter((line) => line.level === 'error');
    assert.equal(errors.length, 1);
    // SQLite's words, or PostgreSQL's.
    assert.match(String(errors[0]!.error), /no such table: rate_buckets|relation "rate_buckets" does not exist/);
  });

  test('a failing purge: JSON 500 and one error log line', async () => {
    const t = await setup();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });
    // PostgreSQL drops a table others refer to (attachments) only with the references: CASCADE.
    await sql`DROP TABLE conversations ${isPostgres(t.deps.db) ? sql`CASCADE` : sql``}`.execute(t.deps.db);
    await failing(t, '/api/purge', { method: 'POST', body: '{"userRef":"u1"}' });
    assert.equal(t.logs.filter((line) => line.level === 'error').length, 1);
  });

  test('healthz over a closed database is a JSON 500', async () => {
    const t = await setup();
    await t.deps.db.destroy();
    const res = await t.app.request('/healthz');
    assert.deepEqual(
      [res.status, res.headers.get('content-type'), await json(res)],
      [500, 'application/json', { error: 'Internal server error' }],
    );
  });
});

describe('request logs', () => {
  test('one JSON line per request with method, path without query, status, duration and appId', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });
    await t.request(`/api/conversations?connectionId=${connectionId}&limit=5`);
    await t.request('/api/connections?userRef=u1');
    await t.app.request('/api/conversations?userRef=u1');
    await t.request('/api/purge', { method: 'POST', body: '{"userRef":"nobody"}' });
    await t.request('/api/purge');
    await t.app.request('/healthz');
    await t.request('/nope?x=1');

    const requests = t.logs.filter((line) => line.event === 'request');
    assert.equal(requests.length, 7);
    assert.deepEqual(
      requests.map(({ method, path, status, appId }) => ({ method, path, status, appId })),
      [
        { method: 'GET', path: '/api/conversations', status: 200, appId: t.tenant.appId },
        { method: 'GET', path: '/api/connections', status: 200, appId: t.tenant.appId },
        { method: 'GET', path: '/api/conversations', status: 401, appId: undefined },
        { method: 'POST', path: '/api/purge', status: 404, appId: t.tenant.appId },
        { method: 'GET', path: '/api/purge', status: 405, appId: undefined },
        { method: 'GET', path: '/healthz', status: 200, appId: undefined },
        { method: 'GET', path: '/nope', status: 404, appId: undefined },
      ],
    );
    for (const line of requests) {
      assert.equal(line.level, 'info');
      assert.equal(typeof line.time, 'string');
      assert.equal(typeof line.durationMs, 'number');
      assert.ok((line.durationMs as number) >= 0);
      assert.deepEqual(
        Object.keys(line).filter(
          (key) => !['time', 'level', 'event', 'method', 'path', 'status', 'durationMs', 'appId'].includes(key),
        ),
        [],
      );
    }
  });

  test('never contain keys, secrets or userRef values', async () => {
    const t = await setup({ RATE_LIMIT_PER_MINUTE: '3' });
    const userRef = 'person-7f3a9c@example.com';
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef, count: 2 });
    const q = encodeURIComponent(userRef);
    await t.request(`/api/conversations?userRef=${q}`);
    await t.request(`/api/connections?userRef=${q}`);
    await t.request(`/api/conversations?userRef=${q}`, { headers: { Authorization: `Bearer ${t.tenant.appSecret}` } });
    await t.request(`/api/conversations?userRef=${q}`); // 429
    await t.request(`/api/conversations?userRef=${q}`, { headers: { Authorization: `Bearer ${t.tenant.apiKey}x` } });
    await t.request(`/api/conversations?userRef=${q}`, { headers: { Authorization: t.tenant.apiKey } });
    await t.request('/api/purge', { method: 'POST', body: JSON.stringify({ userRef: `${userRef}-unknown` }) });
    await t.request('/api/purge', { method: 'POST', body: JSON.stringify({ connectionId }) });
    await t.request('/api/purge', { method: 'POST', body: JSON.stringify({ userRef }) });
    await t.deps.db.destroy();
    await t.request(`/api/conversations?userRef=${q}`);

    assert.equal(t.logs.filter((line) => line.event === 'request').length, 10);
    const everything = t.logs.map((line) => JSON.stringify(line)).join('\n');
    for (const secret of [
      t.tenant.apiKey,
      t.tenant.apiKey.slice(7),
      t.tenant.appSecret,
      userRef,
      q,
      'Message 0',
      'Conversation 1',
    ]) {
      assert.ok(!everything.includes(secret), `a log line contains ${secret}`);
    }
  });
});

describe('healthz', () => {
  test('answers ok and the package version, without credentials', async () => {
    const t = await setup();
    const res = await t.app.request('/healthz');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(await res.text(), JSON.stringify({ ok: true, version: packageVersion }));
    assert.match(packageVersion, /^\d+\.\d+\.\d+$/);
    assert.equal(res.headers.get('ratelimit-limit'), null);
  });
});
