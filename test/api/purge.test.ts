import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { onboardApp } from '../../src/apps/apps.ts';
import { json, runApiScenarios, seedConnection, setup, type TestContext } from '../helpers.ts';

const purge = (t: TestContext, body: string, headers: Record<string, string> = {}) =>
  t.request('/api/purge', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

async function counts(t: TestContext) {
  const count = async (table: 'users' | 'connections' | 'conversations') =>
    Number(
      (
        await t.deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await count('users'),
    connections: await count('connections'),
    conversations: await count('conversations'),
  };
}

describe('the purge error table', () => {
  const cases: Array<{
    name: string;
    body: (ids: { connectionId: string; otherConnectionId: string }) => string;
    status: number;
    error: string;
  }> = [
    { name: 'a body that is not JSON', body: () => 'userRef=u1', status: 400, error: 'Invalid JSON body' },
    { name: 'an empty body', body: () => '', status: 400, error: 'Invalid JSON body' },
    { name: 'truncated JSON', body: () => '{"userRef": "u1"', status: 400, error: 'Invalid JSON body' },
    { name: 'a JSON array', body: () => '[{"userRef":"u1"}]', status: 400, error: 'Invalid JSON body' },
    { name: 'a JSON string', body: () => '"u1"', status: 400, error: 'Invalid JSON body' },
    { name: 'JSON null', body: () => 'null', status: 400, error: 'Invalid JSON body' },
    { name: 'a JSON number', body: () => '42', status: 400, error: 'Invalid JSON body' },
    { name: 'an empty object', body: () => '{}', status: 400, error: 'Provide exactly one of userRef or connectionId' },
    {
      name: 'both keys',
      body: ({ connectionId }) => JSON.stringify({ userRef: 'u1', connectionId }),
      status: 400,
      error: 'Provide exactly one of userRef or connectionId',
    },
    {
      name: 'a numeric userRef',
      body: () => '{"userRef": 5}',
      status: 400,
      error: 'Provide exactly one of userRef or connectionId',
    },
    {
      name: 'an empty userRef',
      body: () => '{"userRef": ""}',
      status: 400,
      error: 'Provide exactly one of userRef or connectionId',
    },
    {
      name: 'a null userRef',
      body: () => '{"userRef": null}',
      status: 400,
      error: 'Provide exactly one of userRef or connectionId',
    },
    {
      name: 'an empty connectionId',
      body: () => '{"connectionId": ""}',
      status: 400,
      error: 'Provide exactly one of userRef or connectionId',
    },
    {
      name: 'an array as connectionId',
      body: ({ connectionId }) => JSON.stringify({ connectionId: [connectionId] }),
      status: 400,
      error: 'Provide exactly one of userRef or connectionId',
    },
    {
      name: 'only unrelated keys',
      body: () => '{"user": "u1"}',
      status: 400,
      error: 'Provide exactly one of userRef or connectionId',
    },
    { name: 'an unknown user', body: () => '{"userRef": "nobody"}', status: 404, error: 'User not found' },
    {
      name: 'an unknown connection',
      body: () => '{"connectionId": "00000000-0000-4000-8000-000000000000"}',
      status: 404,
      error: 'Connection not found',
    },
    {
      name: 'a connectionId that is not a UUID',
      body: () => '{"connectionId": "nope"}',
      status: 404,
      error: 'Connection not found',
    },
    { name: "another app's user", body: () => '{"userRef": "theirs"}', status: 404, error: 'User not found' },
    {
      name: "another app's connection",
      body: ({ otherConnectionId }) => JSON.stringify({ connectionId: otherConnectionId }),
      status: 404,
      error: 'Connection not found',
    },
  ];

  runApiScenarios(
    {
      seed: async (t) => {
        const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });
        const other = await onboardApp(t.deps, 'Other');
        const { connectionId: otherConnectionId } = await seedConnection(t.deps, {
          appId: other.appId,
          userRef: 'theirs',
          count: 2,
        });
        return { connectionId, otherConnectionId, before: await counts(t) };
      },
      after: async (t, { before }) => assert.deepEqual(await counts(t), before),
    },
    cases.map(({ name, body, status, error }) => ({
      name,
      request: { method: 'POST', path: '/api/purge', headers: { 'Content-Type': 'application/json' }, body },
      status,
      body: { error },
    })),
  );

  test('401 without credentials, and nothing is deleted', async () => {
    const t = await setup();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });
    const before = await counts(t);
    const res = await t.app.request('/api/purge', { method: 'POST', body: '{"userRef":"u1"}' });
    assert.deepEqual([res.status, await json(res)], [401, { error: 'Missing Authorization header' }]);
    const wrong = await purge(t, '{"userRef":"u1"}', { Authorization: 'Bearer parley_nope' });
    assert.deepEqual([wrong.status, await json(wrong)], [401, { error: 'Invalid API key' }]);
    assert.deepEqual(await counts(t), before);
  });
});

describe('purging', () => {
  test('a user: the user, both connections and all their conversations go; others stay', async () => {
    const t = await setup();
    const a = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 7 });
    const b = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', provider: 'anthropic', count: 5 });
    const kept = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u2', count: 4 });
    const other = await onboardApp(t.deps, 'Other');
    const sameRefElsewhere = await seedConnection(t.deps, { appId: other.appId, userRef: 'u1', count: 2 });

    const res = await purge(t, JSON.stringify({ userRef: 'u1' }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(await res.text(), '{"ok":true,"deleted":{"users":1,"connections":2,"conversations":12}}');

    const db = t.deps.db;
    assert.equal((await db.selectFrom('users').where('id', '=', a.userId).selectAll().execute()).length, 0);
    assert.equal(
      (await db.selectFrom('connections').where('id', 'in', [a.connectionId, b.connectionId]).selectAll().execute())
        .length,
      0,
    );
    assert.equal(
      (
        await db
          .selectFrom('conversations')
          .where('connection_id', 'in', [a.connectionId, b.connectionId])
          .selectAll()
          .execute()
      ).length,
      0,
    );
    assert.deepEqual(await counts(t), { users: 2, connections: 2, conversations: 6 });
    const remaining = await db.selectFrom('connections').select('id').orderBy('id').execute();
    assert.deepEqual(
      remaining.map((r) => r.id),
      [kept.connectionId, sameRefElsewhere.connectionId].sort(),
    );

    const gone = await t.request('/api/conversations?userRef=u1');
    assert.deepEqual([gone.status, await json(gone)], [404, { error: 'User not found' }]);
    const again = await purge(t, JSON.stringify({ userRef: 'u1' }));
    assert.deepEqual([again.status, await json(again)], [404, { error: 'User not found' }]);
    assert.equal((await json(await t.request('/api/conversations?userRef=u2'))).connections[0].conversationCount, 4);
  });

  test('a user with no connections', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1' });
    await t.deps.db.deleteFrom('connections').where('id', '=', connectionId).execute();
    const res = await purge(t, JSON.stringify({ userRef: 'u1' }));
    assert.deepEqual(
      [res.status, await json(res)],
      [200, { ok: true, deleted: { users: 1, connections: 0, conversations: 0 } }],
    );
    assert.deepEqual(await counts(t), { users: 0, connections: 0, conversations: 0 });
  });

  test('a connection: it and its conversations go; the user and the other connection stay', async () => {
    const t = await setup();
    const a = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 9 });
    const b = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', provider: 'anthropic', count: 4 });

    const res = await purge(t, JSON.stringify({ connectionId: a.connectionId }));
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '{"ok":true,"deleted":{"users":0,"connections":1,"conversations":9}}');

    assert.deepEqual(await counts(t), { users: 1, connections: 1, conversations: 4 });
    const listing = await json(await t.request('/api/conversations?userRef=u1'));
    assert.deepEqual(
      listing.connections.map((c: { id: string }) => c.id),
      [b.connectionId],
    );
    const gone = await t.request(`/api/conversations?connectionId=${a.connectionId}`);
    assert.deepEqual([gone.status, await json(gone)], [404, { error: 'Connection not found' }]);
    const again = await purge(t, JSON.stringify({ connectionId: a.connectionId }));
    assert.deepEqual([again.status, await json(again)], [404, { error: 'Connection not found' }]);
  });

  test('a revoked connection can be purged', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', status: 'revoked' });
    const res = await purge(t, JSON.stringify({ connectionId }));
    assert.deepEqual(
      [res.status, await json(res)],
      [200, { ok: true, deleted: { users: 0, connections: 1, conversations: 0 } }],
    );
    assert.deepEqual(await counts(t), { users: 1, connections: 0, conversations: 0 });
  });

  test('the Content-Type of the request does not matter; extra keys are ignored', async () => {
    const t = await setup();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });
    const res = await t.request('/api/purge', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: '{"userRef":"u1","note":"x"}',
    });
    assert.deepEqual(
      [res.status, await json(res)],
      [200, { ok: true, deleted: { users: 1, connections: 1, conversations: 1 } }],
    );
  });

  test('the other app purging its own user with the same userRef leaves ours alone', async () => {
    const t = await setup();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'shared', count: 3 });
    const other = await onboardApp(t.deps, 'Other');
    await seedConnection(t.deps, { appId: other.appId, userRef: 'shared', count: 2 });
    const res = await purge(t, JSON.stringify({ userRef: 'shared' }), { Authorization: `Bearer ${other.apiKey}` });
    assert.deepEqual(
      [res.status, await json(res)],
      [200, { ok: true, deleted: { users: 1, connections: 1, conversations: 2 } }],
    );
    const mine = await json(await t.request('/api/conversations?userRef=shared'));
    assert.equal(mine.connections[0].conversationCount, 3);
    assert.deepEqual(await counts(t), { users: 1, connections: 1, conversations: 3 });
  });
});
