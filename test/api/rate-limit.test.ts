import { attachmentStores } from '../../src/attachments/stores.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createApp } from '../../src/app.ts';
import { createKey, onboardApp } from '../../src/apps/apps.ts';
import { parseConfig } from '../../src/config.ts';
import { cryptoRandom, type Deps } from '../../src/deps.ts';
import { createLogger } from '../../src/log.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import type { Db } from '../../src/db/database.ts';
import { readSchema } from '../../src/db/schema-file.ts';
import { FIXED_NOW, fixedClock, json, openTestCounters, openTestDatabase, seedConnection, setup } from '../helpers.ts';
import { Metrics } from '../../src/metrics/metrics.ts';

// FIXED_NOW is 12:00:30, half way through its minute.
const MINUTE_END = Date.parse('2026-03-01T12:01:00.000Z');
const RESET = String(MINUTE_END / 1000);

const rateHeaders = (res: Response) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
  reset: res.headers.get('ratelimit-reset'),
  retryAfter: res.headers.get('retry-after'),
});

async function seeded(env: Record<string, string> = {}) {
  const t = await setup(env);
  const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 2 });
  return { t, connectionId };
}

describe('headers', () => {
  test('every authenticated response of a limited endpoint has them, errors included', async () => {
    const { t, connectionId } = await seeded();
    const paths = [
      '/api/conversations?userRef=u1',
      `/api/conversations?connectionId=${connectionId}`,
      '/api/connections?userRef=u1',
      '/api/conversations?userRef=nobody',
      '/api/conversations',
      `/api/conversations?connectionId=${connectionId}&limit=abc`,
      '/api/conversations?connectionId=not-a-uuid',
    ];
    const seen = [];
    for (const path of paths) {
      const res = await t.request(path);
      seen.push([res.status, rateHeaders(res)]);
    }
    assert.deepEqual(
      seen,
      [200, 200, 200, 404, 400, 400, 404].map((status, i) => [
        status,
        { limit: '60', remaining: String(59 - i), reset: RESET, retryAfter: null },
      ]),
    );
  });

  test('Remaining counts down to 0, then the 61st request is 429 with Retry-After', async () => {
    const { t } = await seeded();
    for (let i = 1; i <= 60; i++) {
      const res = await t.request('/api/conversations?userRef=u1');
      assert.equal(res.status, 200);
      assert.deepEqual(rateHeaders(res), { limit: '60', remaining: String(60 - i), reset: RESET, retryAfter: null });
    }
    const res = await t.request('/api/conversations?userRef=u1');
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(await json(res), { error: 'Rate limit exceeded' });
    assert.deepEqual(rateHeaders(res), { limit: '60', remaining: '0', reset: RESET, retryAfter: '30' });
  });

  test('Retry-After and Reset follow the clock within the minute', async () => {
    const { t } = await seeded({ RATE_LIMIT_PER_MINUTE: '1' });
    assert.equal((await t.request('/api/conversations?userRef=u1')).status, 200);
    const cases = [
      { at: MINUTE_END - 60_000 + 1, retryAfter: '60' },
      { at: MINUTE_END - 29_500, retryAfter: '30' },
      { at: MINUTE_END - 1_000, retryAfter: '1' },
      { at: MINUTE_END - 1, retryAfter: '1' },
    ];
    for (const { at, retryAfter } of cases) {
      t.clock.set(at);
      const res = await t.request('/api/conversations?userRef=u1');
      assert.equal(res.status, 429);
      assert.deepEqual(rateHeaders(res), { limit: '1', remaining: '0', reset: RESET, retryAfter });
    }
  });
});

describe('windows', () => {
  test('the next minute starts a fresh count and the old bucket is deleted', async () => {
    const { t } = await seeded();
    for (let i = 0; i < 61; i++) await t.request('/api/conversations?userRef=u1');
    assert.equal((await t.request('/api/conversations?userRef=u1')).status, 429);

    t.clock.set(MINUTE_END);
    const res = await t.request('/api/conversations?userRef=u1');
    assert.equal(res.status, 200);
    assert.deepEqual(rateHeaders(res), {
      limit: '60',
      remaining: '59',
      reset: String(MINUTE_END / 1000 + 60),
      retryAfter: null,
    });

    const buckets = await (t.deps.counters ?? t.deps.db).selectFrom('rate_buckets').selectAll().execute();
    assert.deepEqual(buckets, [{ app_id: t.tenant.appId, window_start: MINUTE_END, count: 1 }]);
  });

  test('each app has its own counter', async () => {
    const { t } = await seeded();
    const other = await onboardApp(t.deps, 'Other');
    await seedConnection(t.deps, { appId: other.appId, userRef: 'u1' });
    const asOther = () =>
      t.request('/api/conversations?userRef=u1', { headers: { Authorization: `Bearer ${other.apiKey}` } });

    for (let i = 0; i < 60; i++) assert.equal((await t.request('/api/conversations?userRef=u1')).status, 200);
    assert.equal((await t.request('/api/conversations?userRef=u1')).status, 429);

    const first = await asOther();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('ratelimit-remaining'), '59');
    for (let i = 0; i < 59; i++) assert.equal((await asOther()).status, 200);
    assert.equal((await asOther()).status, 429);
  });

  test('all keys of one app and its secret share the counter', async () => {
    const { t } = await seeded({ RATE_LIMIT_PER_MINUTE: '3' });
    const second = await createKey(t.deps, t.tenant.appId);
    const remaining = [];
    for (const credential of [t.tenant.apiKey, second.apiKey, t.tenant.appSecret, second.apiKey]) {
      const res = await t.request('/api/conversations?userRef=u1', {
        headers: { Authorization: `Bearer ${credential}` },
      });
      remaining.push([res.status, res.headers.get('ratelimit-remaining')]);
    }
    assert.deepEqual(remaining, [
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ]);
  });
});

describe('configuration', () => {
  test('RATE_LIMIT_PER_MINUTE is respected', async () => {
    const { t } = await seeded({ RATE_LIMIT_PER_MINUTE: '5' });
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.request('/api/connections?userRef=u1');
      statuses.push([res.status, res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-remaining')]);
    }
    assert.deepEqual(statuses, [
      [200, '5', '4'],
      [200, '5', '3'],
      [200, '5', '2'],
      [200, '5', '1'],
      [200, '5', '0'],
      [429, '5', '0'],
      [429, '5', '0'],
    ]);
  });
});

describe('purge', () => {
  test('is not rate limited and has no RateLimit headers', async () => {
    const { t } = await seeded({ RATE_LIMIT_PER_MINUTE: '1' });
    assert.equal((await t.request('/api/conversations?userRef=u1')).status, 200);
    assert.equal((await t.request('/api/conversations?userRef=u1')).status, 429);
    for (let i = 0; i < 5; i++) {
      const res = await t.request('/api/purge', { method: 'POST', body: JSON.stringify({ userRef: `nobody-${i}` }) });
      assert.deepEqual([res.status, await json(res)], [404, { error: 'User not found' }]);
      assert.deepEqual(rateHeaders(res), { limit: null, remaining: null, reset: null, retryAfter: null });
    }
    const res = await t.request('/api/purge', { method: 'POST', body: JSON.stringify({ userRef: 'u1' }) });
    assert.equal(res.status, 200);
    assert.deepEqual(rateHeaders(res), { limit: null, remaining: null, reset: null, retryAfter: null });
    const buckets = await (t.deps.counters ?? t.deps.db).selectFrom('rate_buckets').select('count').execute();
    assert.deepEqual(buckets, [{ count: 2 }]);
  });
});

describe('concurrency', () => {
  test('200 simultaneous requests: exactly 60 succeed', async () => {
    const { t, connectionId } = await seeded();
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.request(i % 2 ? '/api/conversations?userRef=u1' : `/api/conversations?connectionId=${connectionId}`),
      ),
    );
    const statuses = responses.map((res) => res.status);
    assert.equal(statuses.filter((s) => s === 200).length, 60);
    assert.equal(statuses.filter((s) => s === 429).length, 140);
    // Every count from 59 down to 0 was handed out once: no two requests shared one.
    const remaining = responses
      .filter((res) => res.status === 200)
      .map((res) => Number(res.headers.get('ratelimit-remaining')));
    assert.deepEqual(
      remaining.sort((a, b) => b - a),
      Array.from({ length: 60 }, (_, i) => 59 - i),
    );
  });

  describe('two database connections on one file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-rate-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('share the buckets: 200 requests across both, exactly 60 succeed', async () => {
      const path = join(dir, 'parley.db');
      const clock = fixedClock();
      const config = parseConfig({ DATABASE_PATH: path, LOG_LEVEL: 'silent' });
      const open = async (): Promise<Deps> => {
        const db = await openTestDatabase(path);
        return {
          db,
          attachments: attachmentStores(db, config),
          counters: await openTestCounters(path),
          config,
          clock,
          random: cryptoRandom,
          log: createLogger('silent'),
          metrics: new Metrics(),
        };
      };
      const a = await open();
      const b = await open();
      try {
        const tenant = await onboardApp(a, 'Shared');
        await seedConnection(a, { appId: tenant.appId, userRef: 'u1', count: 1 });
        const apps = [createApp(a), createApp(b)];
        const responses = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            apps[i % 2]!.request('/api/conversations?userRef=u1', {
              headers: { Authorization: `Bearer ${tenant.apiKey}` },
            }),
          ),
        );
        const tally: Record<string, number> = {};
        for (const res of responses) tally[res.status] = (tally[res.status] ?? 0) + 1;
        assert.deepEqual(
          tally,
          { 200: 60, 429: 140 },
          JSON.stringify(
            await Promise.all(responses.filter((r) => r.status !== 200 && r.status !== 429).map((r) => r.text())),
          ),
        );
        // Both connections served some of the 60.
        const byApp = [0, 1].map((k) => responses.filter((res, i) => i % 2 === k && res.status === 200).length);
        assert.ok(byApp[0]! > 0 && byApp[1]! > 0, `split ${byApp}`);
        const bucket = await (b.counters ?? b.db).selectFrom('rate_buckets').selectAll().execute();
        assert.deepEqual(bucket, [{ app_id: tenant.appId, window_start: FIXED_NOW - 30_000, count: 200 }]);
      } finally {
        await a.db.destroy();
        await b.db.destroy();
        await a.counters?.destroy();
        await b.counters?.destroy();
      }
    });

    test('a SQLite file of the version before loses its unused rate_buckets table', {
      skip: Boolean(process.env.PARLEY_TEST_DATABASE_URL) && 'SQLite only: PostgreSQL counts in the database',
    }, async () => {
      const path = join(dir, 'upgraded.db');
      const schema = readSchema();
      const tables = async (db: Db) =>
        (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name = 'rate_buckets'`.execute(db)).rows;
      const previous = openBetterSqlite3(path, schema.slice(0, schema.indexOf('-- version 11\n')));
      assert.deepEqual(await tables(previous), [{ name: 'rate_buckets' }]);
      await previous.destroy();
      const upgraded = openBetterSqlite3(path, schema);
      assert.deepEqual(await tables(upgraded), []);
      await upgraded.destroy();
    });
  });
});
