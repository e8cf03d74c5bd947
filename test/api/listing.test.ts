import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { onboardApp } from '../../src/apps/apps.ts';
import { refreshConversationCount } from '../../src/db/connections.ts';
import { isoTime } from '../../src/deps.ts';
import {
  conversationPages,
  FIXED_NOW,
  fixtureJson,
  json,
  postExport,
  runApiScenarios,
  seedConnection,
  setup,
  storedPayload,
  type TestContext,
} from '../helpers.ts';

const UNKNOWN_CONNECTION = '00000000-0000-4000-8000-000000000000';

/** A user u1 with one connection of three conversations. */
const seedUser = (t: TestContext) => seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });

describe('list connections: the interface error table', () => {
  for (const base of ['/api/conversations', '/api/connections']) {
    describe(base, () => {
      runApiScenarios({ seed: seedUser }, [
        { name: 'without userRef', request: { path: base }, status: 400, body: { error: 'Missing userRef parameter' } },
        {
          name: 'with an empty userRef',
          request: { path: `${base}?userRef=` },
          status: 400,
          body: { error: 'Missing userRef parameter' },
        },
        {
          name: 'without a header',
          request: { path: `${base}?userRef=u1`, authorization: null },
          status: 401,
          body: { error: 'Missing Authorization header' },
        },
        {
          name: 'without the Bearer prefix',
          request: { path: `${base}?userRef=u1`, authorization: 'parley_abc' },
          status: 401,
          body: { error: 'Missing Authorization header' },
        },
        {
          name: 'with a wrong key',
          request: { path: `${base}?userRef=u1`, authorization: 'Bearer parley_wrong' },
          status: 401,
          body: { error: 'Invalid API key' },
        },
        {
          name: 'for an unknown user',
          request: { path: `${base}?userRef=nobody` },
          status: 404,
          body: { error: 'User not found' },
        },
        {
          name: 'for a userRef differing only in case',
          request: { path: `${base}?userRef=U1` },
          status: 404,
          body: { error: 'User not found' },
        },
      ]);
    });
  }

  test('429 after the limit', async () => {
    const t = await setup({ RATE_LIMIT_PER_MINUTE: '2' });
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1' });
    assert.equal((await t.request('/api/conversations?userRef=u1')).status, 200);
    assert.equal((await t.request('/api/conversations?userRef=u1')).status, 200);
    const res = await t.request('/api/conversations?userRef=u1');
    assert.deepEqual([res.status, await json(res)], [429, { error: 'Rate limit exceeded' }]);
  });
});

describe('list conversations: the interface error table', () => {
  runApiScenarios({ seed: seedUser }, [
    {
      name: 'without connectionId (paging parameters given)',
      request: { path: '/api/conversations?limit=10' },
      status: 400,
      body: { error: 'Missing connectionId parameter' },
    },
    {
      name: 'without connectionId (offset given)',
      request: { path: '/api/conversations?offset=10' },
      status: 400,
      body: { error: 'Missing connectionId parameter' },
    },
    {
      name: 'with an empty connectionId',
      request: { path: '/api/conversations?connectionId=' },
      status: 400,
      body: { error: 'Missing connectionId parameter' },
    },
    {
      name: 'without a header',
      request: { path: `/api/conversations?connectionId=${UNKNOWN_CONNECTION}`, authorization: null },
      status: 401,
      body: { error: 'Missing Authorization header' },
    },
    {
      name: 'without the Bearer prefix',
      request: { path: `/api/conversations?connectionId=${UNKNOWN_CONNECTION}`, authorization: 'Token x' },
      status: 401,
      body: { error: 'Missing Authorization header' },
    },
    {
      name: 'with a wrong key',
      request: { path: `/api/conversations?connectionId=${UNKNOWN_CONNECTION}`, authorization: 'Bearer nope' },
      status: 401,
      body: { error: 'Invalid API key' },
    },
    {
      name: 'for an unknown connection',
      request: { path: `/api/conversations?connectionId=${UNKNOWN_CONNECTION}` },
      status: 404,
      body: { error: 'Connection not found' },
    },
    {
      name: 'for a connectionId that is not a UUID',
      request: { path: '/api/conversations?connectionId=not-a-uuid' },
      status: 404,
      body: { error: 'Connection not found' },
    },
    {
      name: 'for a SQL-looking connectionId',
      request: { path: `/api/conversations?connectionId=${encodeURIComponent("' OR 1=1 --")}` },
      status: 404,
      body: { error: 'Connection not found' },
    },
  ]);

  test('429 after the limit', async () => {
    const t = await setup({ RATE_LIMIT_PER_MINUTE: '1' });
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });
    assert.equal((await t.request(`/api/conversations?connectionId=${connectionId}`)).status, 200);
    const res = await t.request(`/api/conversations?connectionId=${connectionId}`);
    assert.deepEqual([res.status, await json(res)], [429, { error: 'Rate limit exceeded' }]);
  });
});

describe('limit and offset', () => {
  const invalid: Array<{ query: string; error: string }> = [
    { query: 'limit=abc', error: 'Invalid limit parameter' },
    { query: 'limit=-1', error: 'Invalid limit parameter' },
    { query: 'limit=1.5', error: 'Invalid limit parameter' },
    { query: 'limit=0', error: 'Invalid limit parameter' },
    { query: 'limit=', error: 'Invalid limit parameter' },
    { query: 'limit=1e2', error: 'Invalid limit parameter' },
    { query: 'limit=%2B3', error: 'Invalid limit parameter' },
    { query: 'limit=%203', error: 'Invalid limit parameter' },
    { query: 'limit=0x10', error: 'Invalid limit parameter' },
    { query: 'offset=abc', error: 'Invalid offset parameter' },
    { query: 'offset=-1', error: 'Invalid offset parameter' },
    { query: 'offset=1.5', error: 'Invalid offset parameter' },
    { query: 'offset=', error: 'Invalid offset parameter' },
    { query: 'offset=1e2', error: 'Invalid offset parameter' },
    { query: 'offset=%2B3', error: 'Invalid offset parameter' },
  ];
  runApiScenarios(
    { seed: seedUser },
    invalid.map(({ query, error }) => ({
      name: query,
      request: { path: ({ connectionId }) => `/api/conversations?connectionId=${connectionId}&${query}` },
      status: 400,
      body: { error },
    })),
  );

  const valid: Array<{ query: string; limit: number; offset: number; returned: number }> = [
    { query: '', limit: 50, offset: 0, returned: 50 },
    { query: 'limit=1', limit: 1, offset: 0, returned: 1 },
    { query: 'limit=100', limit: 100, offset: 0, returned: 100 },
    { query: 'limit=101', limit: 100, offset: 0, returned: 100 },
    { query: 'limit=500', limit: 100, offset: 0, returned: 100 },
    { query: 'limit=99999999999999999999', limit: 100, offset: 0, returned: 100 },
    { query: 'offset=0', limit: 50, offset: 0, returned: 50 },
    { query: 'offset=100', limit: 50, offset: 100, returned: 20 },
    { query: 'limit=007&offset=010', limit: 7, offset: 10, returned: 7 },
    { query: 'offset=120', limit: 50, offset: 120, returned: 0 },
    { query: 'offset=5000', limit: 50, offset: 5000, returned: 0 },
    // Past what a double holds exactly: the largest it does, still past the end.
    { query: 'offset=99999999999999999999', limit: 50, offset: Number.MAX_SAFE_INTEGER, returned: 0 },
  ];
  for (const { query, limit, offset, returned } of valid) {
    test(`${query || 'no parameters'} → limit ${limit}, offset ${offset}, ${returned} returned`, async () => {
      const t = await setup();
      const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 120 });
      const res = await t.request(`/api/conversations?connectionId=${connectionId}${query ? `&${query}` : ''}`);
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.deepEqual(
        [body.total, body.limit, body.offset, body.conversations.length],
        [120, limit, offset, returned],
      );
      assert.deepEqual(
        body.conversations.map((c: { external_id: string }) => c.external_id),
        Array.from({ length: returned }, (_, i) => `ext-${offset + i}`),
      );
    });
  }
});

describe('response shapes', () => {
  test('connections: exactly the interface fields, and the userRef echoed', async () => {
    const t = await setup();
    const userRef = 'ünïcode user & co/42';
    const { connectionId } = await seedConnection(t.deps, {
      appId: t.tenant.appId,
      userRef,
      count: 2,
      capturedAt: FIXED_NOW - 3_600_000,
    });
    const empty = await seedConnection(t.deps, {
      appId: t.tenant.appId,
      userRef,
      provider: 'anthropic',
      status: 'needs_reauth',
      capturedAt: FIXED_NOW - 7_200_000,
    });
    const res = await t.request(`/api/conversations?userRef=${encodeURIComponent(userRef)}`);
    assert.equal(res.status, 200);
    assert.deepEqual(await json(res), {
      connections: [
        {
          id: connectionId,
          provider: 'openai',
          status: 'active',
          capturedAt: isoTime(FIXED_NOW - 3_600_000),
          lastSyncAt: isoTime(FIXED_NOW),
          conversationCount: 2,
          memoryCount: 0,
          projectCount: 0,
        },
        {
          id: empty.connectionId,
          provider: 'anthropic',
          status: 'needs_reauth',
          capturedAt: isoTime(FIXED_NOW - 7_200_000),
          lastSyncAt: null,
          conversationCount: 0,
          memoryCount: 0,
          projectCount: 0,
        },
      ],
      userRef,
    });
  });

  test('a user whose connections were all removed has an empty list', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1' });
    await t.deps.db.deleteFrom('connections').where('id', '=', connectionId).execute();
    const res = await t.request('/api/connections?userRef=u1');
    assert.deepEqual([res.status, await json(res)], [200, { connections: [], userRef: 'u1' }]);
  });

  test('conversations: exactly the interface fields, payload as an object', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 2 });
    const ids = await t.deps.db
      .selectFrom('conversations')
      .select(['id', 'external_id'])
      .orderBy('external_id')
      .execute();
    const res = await t.request(`/api/conversations?connectionId=${connectionId}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(await json(res), {
      conversations: [0, 1].map((i) => ({
        id: ids[i]!.id,
        external_id: `ext-${i}`,
        title: `Conversation ${i}`,
        payload: {
          title: `Conversation ${i}`,
          messages: [{ role: 'user', content: `Message ${i}`, timestamp: null, attachments: [] }],
        },
        update_time: isoTime(FIXED_NOW - i * 60_000),
      })),
      total: 2,
      limit: 50,
      offset: 0,
    });
  });

  test('null title and payload stay null; text that needs escaping round-trips', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1' });
    const tricky = 'quote " backslash \\ newline \n tab \t unicode ☃ \u2028 </script>';
    const payload = {
      title: tricky,
      messages: [{ role: 'assistant', content: tricky, timestamp: '2026-01-01T00:00:00.000Z' }],
    };
    await t.deps.db
      .insertInto('conversations')
      .values([
        {
          id: 'a-null',
          connection_id: connectionId,
          external_id: 'null-one',
          title: null,
          payload: null,
          update_time: null,
          created_at: isoTime(FIXED_NOW),
          changed_at: isoTime(FIXED_NOW),
        },
        {
          id: 'b-tricky',
          connection_id: connectionId,
          external_id: tricky,
          title: tricky,
          payload: storedPayload(t.deps.db, JSON.stringify(payload)),
          update_time: isoTime(FIXED_NOW),
          created_at: isoTime(FIXED_NOW),
          changed_at: isoTime(FIXED_NOW),
        },
      ])
      .execute();
    await refreshConversationCount(t.deps.db, connectionId);
    const body = await json(await t.request(`/api/conversations?connectionId=${connectionId}`));
    assert.deepEqual(body.conversations, [
      {
        id: 'b-tricky',
        external_id: tricky,
        title: tricky,
        payload: { ...payload, messages: payload.messages.map((message) => ({ ...message, attachments: [] })) },
        update_time: isoTime(FIXED_NOW),
      },
      { id: 'a-null', external_id: 'null-one', title: null, payload: null, update_time: null },
    ]);
    assert.equal(body.total, 2);
  });
});

describe('ordering', () => {
  test('connections: capturedAt newest first, then id', async () => {
    const t = await setup();
    // One open connection per provider and user: each of these is another provider's.
    const providers: Record<string, string> = {
      c: 'anthropic',
      a: 'google',
      b: 'microsoft',
      z: 'xai',
      old: 'deepseek',
    };
    const insert = (id: string, capturedAt: number, status: 'active' | 'revoked' = 'active') =>
      t.deps.db
        .insertInto('connections')
        .values({
          id,
          user_id: userId,
          provider: providers[id]!,
          status,
          captured_at: isoTime(capturedAt),
          last_sync_at: null,
          conversation_count: 0,
        })
        .execute();
    const { userId } = await seedConnection(t.deps, {
      appId: t.tenant.appId,
      userRef: 'u1',
      capturedAt: FIXED_NOW - 1_000,
    });
    await insert('c', FIXED_NOW);
    await insert('a', FIXED_NOW);
    await insert('b', FIXED_NOW, 'revoked');
    await insert('z', FIXED_NOW + 5_000);
    await insert('old', FIXED_NOW - 86_400_000);
    const body = await json(await t.request('/api/conversations?userRef=u1'));
    const ids = body.connections.map((c: { id: string }) => c.id);
    assert.deepEqual(ids.slice(0, 4), ['z', 'a', 'b', 'c']);
    assert.equal(ids.length, 6);
    assert.equal(ids[5], 'old');
    assert.equal(body.connections[2].status, 'revoked');
  });

  test('conversations: update_time newest first, nulls last, then id', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1' });
    const row = (id: string, updateTime: string | null) => ({
      id,
      connection_id: connectionId,
      external_id: `x-${id}`,
      title: id,
      payload: null,
      update_time: updateTime,
      created_at: isoTime(FIXED_NOW),
      changed_at: isoTime(FIXED_NOW),
    });
    await t.deps.db
      .insertInto('conversations')
      .values([
        row('n2', null),
        row('m', '2026-02-01T00:00:00.000Z'),
        row('n1', null),
        row('e3', '2026-02-10T00:00:00.000Z'),
        row('e1', '2026-02-10T00:00:00.000Z'),
        row('e2', '2026-02-10T00:00:00.000Z'),
        row('old', '2020-01-01T00:00:00.000Z'),
        row('new', '2026-03-01T00:00:00.000Z'),
      ])
      .execute();
    await refreshConversationCount(t.deps.db, connectionId);
    const expected = ['new', 'e1', 'e2', 'e3', 'm', 'old', 'n1', 'n2'];
    const all = await json(await t.request(`/api/conversations?connectionId=${connectionId}`));
    assert.deepEqual(
      all.conversations.map((c: { id: string }) => c.id),
      expected,
    );
    assert.equal(all.total, 8);
    // The order is the same when pages split the ties.
    const paged = (await conversationPages(t, connectionId, 3)).flatMap((page) => page.conversations);
    assert.deepEqual(
      paged.map((c: { id: string }) => c.id),
      expected,
    );
  });
});

describe('pagination', () => {
  for (const limit of [1, 7, 50, 100]) {
    test(`walking 237 conversations with limit ${limit} sees each exactly once`, async () => {
      const t = await setup({ RATE_LIMIT_PER_MINUTE: '100000' });
      const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 237 });
      await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', provider: 'anthropic', count: 5 });
      const pages = await conversationPages(t, connectionId, limit);
      assert.equal(pages.length, Math.ceil(237 / limit));
      for (const [i, page] of pages.entries())
        assert.deepEqual(
          [page.total, page.limit, page.offset, page.conversations.length],
          [237, limit, i * limit, Math.min(limit, 237 - i * limit)],
        );
      assert.deepEqual(
        pages.flatMap((page) => page.conversations.map((c: { external_id: string }) => c.external_id)),
        Array.from({ length: 237 }, (_, i) => `ext-${i}`),
      );
    });
  }

  test('a client asking for 500 and stepping by the echoed limit misses nothing', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 237 });
    const pages = await conversationPages(t, connectionId, 500);
    assert.deepEqual(
      pages.map((page) => page.limit),
      [100, 100, 100],
    );
    assert.equal(new Set(pages.flatMap((page) => page.conversations.map((c: { id: string }) => c.id))).size, 237);
  });

  test('an empty connection is one empty last page', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1' });
    const res = await t.request(`/api/conversations?connectionId=${connectionId}`);
    assert.deepEqual(await json(res), { conversations: [], total: 0, limit: 50, offset: 0 });
  });
});

describe('isolation between apps', () => {
  async function twoApps() {
    const t = await setup();
    const other = await onboardApp(t.deps, 'Other app');
    const asOther = (path: string) => t.request(path, { headers: { Authorization: `Bearer ${other.apiKey}` } });
    return { t, other, asOther };
  }

  test("another app's key cannot see the user or the connection", async () => {
    const { t, asOther } = await twoApps();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });
    for (const path of ['/api/conversations?userRef=u1', '/api/connections?userRef=u1']) {
      const res = await asOther(path);
      assert.deepEqual([res.status, await json(res)], [404, { error: 'User not found' }]);
    }
    const res = await asOther(`/api/conversations?connectionId=${connectionId}`);
    assert.deepEqual([res.status, await json(res)], [404, { error: 'Connection not found' }]);
    // The owner still sees both.
    assert.equal((await t.request(`/api/conversations?connectionId=${connectionId}`)).status, 200);
  });

  test('the same userRef in two apps is two users', async () => {
    const { t, other, asOther } = await twoApps();
    const mine = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'shared', count: 2 });
    const theirs = await seedConnection(t.deps, {
      appId: other.appId,
      userRef: 'shared',
      provider: 'anthropic',
      count: 4,
    });
    assert.notEqual(mine.userId, theirs.userId);

    const a = await json(await t.request('/api/conversations?userRef=shared'));
    const b = await json(await asOther('/api/conversations?userRef=shared'));
    assert.deepEqual(
      a.connections.map((c: { id: string; conversationCount: number }) => [c.id, c.conversationCount]),
      [[mine.connectionId, 2]],
    );
    assert.deepEqual(
      b.connections.map((c: { id: string; conversationCount: number }) => [c.id, c.conversationCount]),
      [[theirs.connectionId, 4]],
    );

    const crossed = await t.request(`/api/conversations?connectionId=${theirs.connectionId}`);
    assert.deepEqual([crossed.status, await json(crossed)], [404, { error: 'Connection not found' }]);
    assert.equal((await json(await asOther(`/api/conversations?connectionId=${theirs.connectionId}`))).total, 4);
  });
});

describe('special cases', () => {
  test("listing a revoked connection's conversations is allowed", async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', status: 'revoked' });
    const res = await t.request(`/api/conversations?connectionId=${connectionId}`);
    assert.deepEqual([res.status, await json(res)], [200, { conversations: [], total: 0, limit: 50, offset: 0 }]);
    const connections = await json(await t.request('/api/conversations?userRef=u1'));
    assert.equal(connections.connections[0].status, 'revoked');
  });

  test('given both userRef and connectionId, /api/conversations lists the conversations', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 2 });
    const body = await json(await t.request(`/api/conversations?userRef=u1&connectionId=${connectionId}`));
    assert.deepEqual([body.total, body.conversations.length, body.connections], [2, 2, undefined]);
  });

  test('/api/connections is the same operation as /api/conversations?userRef=', async () => {
    const t = await setup();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });
    await seedConnection(t.deps, {
      appId: t.tenant.appId,
      userRef: 'u1',
      provider: 'anthropic',
      capturedAt: FIXED_NOW - 1,
    });
    const a = await t.request('/api/conversations?userRef=u1');
    const b = await t.request('/api/connections?userRef=u1');
    assert.equal(b.status, 200);
    assert.equal(b.headers.get('content-type'), 'application/json');
    assert.deepEqual(await json(b), await json(a));
  });

  test('/api/connections shares the rate counter with /api/conversations', async () => {
    const t = await setup({ RATE_LIMIT_PER_MINUTE: '4' });
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });
    const remaining = [];
    for (const path of [
      '/api/connections?userRef=u1',
      '/api/conversations?userRef=u1',
      `/api/conversations?connectionId=${connectionId}`,
      '/api/connections?userRef=u1',
    ]) {
      const res = await t.request(path);
      assert.equal(res.status, 200);
      remaining.push(res.headers.get('ratelimit-remaining'));
    }
    assert.deepEqual(remaining, ['3', '2', '1', '0']);
    for (const path of ['/api/connections?userRef=u1', '/api/conversations?userRef=u1']) {
      const res = await t.request(path);
      assert.deepEqual([res.status, await json(res)], [429, { error: 'Rate limit exceeded' }]);
    }
  });
});

describe('updatedSince', () => {
  const exportOf = (conversations: unknown[]) => new TextEncoder().encode(JSON.stringify(conversations));
  const since = (t: TestContext, connectionId: string, instant: string, paging = '') =>
    t.request(`/api/conversations?connectionId=${connectionId}&updatedSince=${encodeURIComponent(instant)}${paging}`);

  test('only what Parley stored or changed after the instant, by its own clock; same order, paging and total', async () => {
    const t = await setup();
    const first = fixtureJson('claude-conversations.json');
    const { connectionId } = await json(await postExport(t, exportOf(first)));
    const importedAt = t.clock.now();
    t.clock.advance(60_000);
    // One title changed (its provider update_time kept), one conversation new, the rest as they were.
    const second = [
      ...first.map((c: any, i: number) => (i === 1 ? { ...c, name: 'Renamed' } : c)),
      { ...first[2], uuid: 'new-one' },
    ];
    const reimport = await json(await postExport(t, exportOf(second)));
    assert.deepEqual([reimport.created, reimport.updated, reimport.unchanged], [1, 1, 4]);
    const secondAt = t.clock.now();

    const all = await json(await t.request(`/api/conversations?connectionId=${connectionId}`));
    const changed = all.conversations.filter((c: { external_id: string }) =>
      [first[1].uuid, 'new-one'].includes(c.external_id),
    );
    assert.deepEqual(await json(await since(t, connectionId, isoTime(importedAt))), {
      conversations: changed,
      total: 2,
      limit: 50,
      offset: 0,
    });
    assert.deepEqual(
      (await json(await since(t, connectionId, isoTime(importedAt - 1)))).total,
      6,
      'everything, from before the first import',
    );
    assert.deepEqual(await json(await since(t, connectionId, isoTime(secondAt))), {
      conversations: [],
      total: 0,
      limit: 50,
      offset: 0,
    });
    // The same instant with an offset, and paging through the two.
    const offsetForm = '2026-03-01T13:00:30+01:00';
    assert.equal(Date.parse(offsetForm), importedAt);
    const pages = [
      await json(await since(t, connectionId, offsetForm, '&limit=1')),
      await json(await since(t, connectionId, offsetForm, '&limit=1&offset=1')),
    ];
    assert.deepEqual(
      pages.flatMap((page) => page.conversations),
      changed,
    );
    assert.deepEqual(
      pages.map((page) => page.total),
      [2, 2],
    );

    // Re-importing the same file changes nothing, so a poll after it sees nothing.
    t.clock.advance(60_000);
    await postExport(t, exportOf(second));
    assert.equal((await json(await since(t, connectionId, isoTime(secondAt)))).total, 0);
  });

  test('every ISO 8601 form: without an offset the time is UTC, a date alone is its first instant', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });
    // Seeded at the fixed clock's instant: 2026-03-01T12:00:30Z.
    const cases: Array<[string, number]> = [
      ['2026-03-01', 1],
      ['2026-03-02', 0],
      ['2026-03-01T12:00Z', 1],
      ['2026-03-01T12:01Z', 0],
      ['2026-03-01T12:00:29', 1],
      ['2026-03-01T12:00:30.000001', 0],
      ['2026-03-01t12:00:29z', 1],
      ['2026-03-01T13:00:29+01', 1],
      ['2026-03-01T13:00:31+0100', 0],
      ['2026-03-01T06:30:29,5-05:30', 1],
    ];
    assert.equal(isoTime(t.clock.now()), '2026-03-01T12:00:30.000Z');
    for (const [value, total] of cases) {
      const res = await since(t, connectionId, value);
      assert.equal(res.status, 200, value);
      assert.equal((await json(res)).total, total, value);
    }
  });

  test('a bad value is 400 Invalid updatedSince parameter', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });
    for (const value of [
      '',
      'yesterday',
      '2026-02-30',
      '2026-13-01T00:00:00Z',
      '2026-03-01T25:00:00Z',
      '1772366430000',
      '2026-03-01T12:00:00 01:00',
      '2026-03-01T12:00:00+1:00',
      '03/01/2026',
    ]) {
      const res = await since(t, connectionId, value);
      assert.equal(res.status, 400, value);
      assert.deepEqual(await json(res), { error: 'Invalid updatedSince parameter' }, value);
    }
  });
});

describe('GET /api/conversations/{id}: one conversation', () => {
  test('answers the conversation as the listing gives it, counted by the rate limit', async () => {
    const t = await setup({ RATE_LIMIT_PER_MINUTE: '2' });
    const { connectionId } = await seedUser(t);
    const [listed] = (await json(await t.request(`/api/conversations?connectionId=${connectionId}&limit=1`)))
      .conversations;
    const res = await t.request(`/api/conversations/${listed.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('RateLimit-Remaining'), '0');
    assert.deepEqual(await json(res), listed);
    assert.equal((await t.request(`/api/conversations/${listed.id}`)).status, 429);
  });

  runApiScenarios(
    {
      seed: async (t) => {
        const other = await onboardApp(t.deps, 'Other app');
        const { connectionId } = await seedConnection(t.deps, { appId: other.appId, userRef: 'u1', count: 1 });
        const mine = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });
        // A conversation left in a revoked connection: a disconnect deletes them, but the answer must not depend on it.
        await t.deps.db
          .updateTable('connections')
          .set({ status: 'revoked' })
          .where('id', '=', mine.connectionId)
          .execute();
        const idOf = async (id: string) =>
          (
            await t.deps.db
              .selectFrom('conversations')
              .select('id')
              .where('connection_id', '=', id)
              .executeTakeFirstOrThrow()
          ).id;
        return { otherApps: await idOf(connectionId), revoked: await idOf(mine.connectionId) };
      },
    },
    [
      {
        name: 'another app’s conversation',
        request: { path: (s) => `/api/conversations/${s.otherApps}` },
        status: 404,
        body: { error: 'Conversation not found' },
      },
      {
        name: 'an unknown id',
        request: { path: `/api/conversations/${UNKNOWN_CONNECTION}` },
        status: 404,
        body: { error: 'Conversation not found' },
      },
      {
        name: 'a conversation of a revoked connection',
        request: { path: (s) => `/api/conversations/${s.revoked}` },
        status: 409,
        body: { error: 'Connection is revoked' },
      },
      {
        name: 'without a credential',
        request: { path: (s) => `/api/conversations/${s.revoked}`, authorization: null },
        status: 401,
        body: { error: 'Missing Authorization header' },
      },
      {
        name: 'another method',
        request: { method: 'DELETE', path: (s) => `/api/conversations/${s.revoked}` },
        status: 405,
        body: { error: 'Method not allowed' },
        headers: { Allow: 'GET' },
      },
    ],
  );
});

describe('GET /api/conversations?fields=summary', () => {
  test('answers each conversation without its payload, with its message count, in the same order and paging', async () => {
    const t = await setup();
    const { connectionId } = await seedUser(t);
    const full = await json(await t.request(`/api/conversations?connectionId=${connectionId}&limit=2&offset=1`));
    const res = await t.request(`/api/conversations?connectionId=${connectionId}&limit=2&offset=1&fields=summary`);
    assert.equal(res.status, 200);
    assert.deepEqual(await json(res), {
      ...full,
      conversations: full.conversations.map(({ payload, ...rest }: any) => ({
        ...rest,
        message_count: payload.messages.length,
      })),
    });
    const searched = await json(
      await t.request(`/api/conversations?connectionId=${connectionId}&q=conversation%202&fields=summary`),
    );
    assert.deepEqual(
      searched.conversations.map((c: any) => [c.title, c.message_count]),
      [['Conversation 2', 1]],
    );
  });

  runApiScenarios({ seed: seedUser }, [
    {
      name: 'an unknown form',
      request: { path: (s) => `/api/conversations?connectionId=${s.connectionId}&fields=titles` },
      status: 400,
      body: { error: 'Invalid fields parameter' },
    },
  ]);
});
