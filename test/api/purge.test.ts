import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { onboardApp } from '../../src/apps/apps.ts';
import { beginImport, discardAbandonedImports, isImportRefused, refuseImportsFor } from '../../src/db/imports.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import {
  claudeConversations,
  fixtureBytes,
  form,
  heldUpload,
  json,
  postExport,
  rowCounts,
  runApiScenarios,
  seedConnection,
  setup,
  type TestContext,
} from '../helpers.ts';

const purge = (t: TestContext, body: string, headers: Record<string, string> = {}) =>
  t.request('/api/purge', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

/** How many rows `table` holds. */
const rowsOf = async (
  t: TestContext,
  table: 'users' | 'connections' | 'conversations' | 'attachment_blobs' | 'imports' | 'import_purges',
) =>
  Number(
    (
      await t.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function counts(t: TestContext) {
  return {
    users: await rowsOf(t, 'users'),
    connections: await rowsOf(t, 'connections'),
    conversations: await rowsOf(t, 'conversations'),
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

const claudeExport = (count: number, from = 0) =>
  new TextEncoder().encode(JSON.stringify(claudeConversations(count, from)));

/** The events the app's outbox holds, by type. */
const events = async (t: TestContext) =>
  (await t.deps.db.selectFrom('webhook_deliveries').select('event_type').orderBy('seq').execute()).map(
    (row) => row.event_type,
  );

/** What an import leaves besides users, connections and conversations: staged rows and blobs, and its rows as under way. */
async function importLeftovers(t: TestContext) {
  return {
    ...(await rowCounts(t.deps)),
    blobs: await rowsOf(t, 'attachment_blobs'),
    imports: await rowsOf(t, 'imports'),
    importPurges: await rowsOf(t, 'import_purges'),
  };
}

const PURGED = { error: 'Import refused: data of this user was purged while the file was uploading' };

/**
 * An import that began before a purge of its user (or of one of their
 * connections) must not commit after it: it would bring back what was purged.
 * The connect page's session ends with the purge; the API's import is refused
 * by the purge's mark on it (src/db/imports.ts).
 */
describe('a purge while an import of the user is under way', () => {
  async function withEndpoint() {
    // Three imports held open at once in one test.
    const t = await setup({ MAX_CONCURRENT_IMPORTS: '3' });
    await setWebhookEndpoint(t.deps, t.tenant.appId, 'https://hooks.example.com/parley');
    return t;
  }

  /** Nothing of the user's, nor of the refused import. */
  const NOTHING_LEFT = {
    users: 0,
    connections: 0,
    conversations: 0,
    staged: 0,
    blobs: 0,
    imports: 0,
    importPurges: 0,
  };

  const cases: Array<{ name: string; before(t: TestContext): Promise<unknown>; events: string[] }> = [
    {
      name: 'the import writing into a connection of its own',
      before: (t) => seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 2 }),
      events: ['user.purged'],
    },
    {
      name: 'a re-import staging for their connection',
      before: (t) => postExport(t, claudeExport(120)).then((res) => assert.equal(res.status, 200)),
      events: ['connection.created', 'connection.synced', 'user.purged'],
    },
  ];
  for (const { name, before, events: expected } of cases) {
    test(`of the user: ${name} answers 410, and nothing of it stays`, async () => {
      const t = await withEndpoint();
      await before(t);
      const upload = heldUpload(t, claudeExport(150, 60));
      await upload.askedForMore;
      assert.equal((await purge(t, JSON.stringify({ userRef: 'u1' }))).status, 200);
      upload.release();
      const answer = await upload.response;
      assert.deepEqual([answer.status, await json(answer)], [410, PURGED]);
      assert.equal((await t.request('/api/connections?userRef=u1')).status, 404);
      assert.deepEqual(await importLeftovers(t), NOTHING_LEFT);
      assert.deepEqual(await events(t), expected);
    });
  }

  test('of a form that names its user after its file: refused once it names them', async () => {
    const t = await withEndpoint();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 2 });
    const request = new Request('http://parley.test/', {
      method: 'POST',
      body: form({}, { bytes: claudeExport(150), type: 'application/json' }, { userRef: 'u1' }),
    });
    const body = new Uint8Array(await request.arrayBuffer());
    const fieldAfter = Buffer.from(body).lastIndexOf('\r\n--', Buffer.from(body).indexOf('name="userRef"'));
    const upload = heldUpload(t, body.subarray(0, fieldAfter), {
      query: '',
      contentType: request.headers.get('content-type')!,
      tail: body.subarray(fieldAfter),
    });
    await upload.askedForMore;
    assert.equal((await purge(t, JSON.stringify({ userRef: 'u1' }))).status, 200);
    upload.release();
    const answer = await upload.response;
    assert.deepEqual([answer.status, await json(answer)], [410, PURGED]);
    assert.deepEqual(await importLeftovers(t), NOTHING_LEFT);
    assert.deepEqual(await events(t), ['user.purged']);
  });

  test('of one of the user’s connections: every import of theirs under way is refused, as their page sessions end', async () => {
    const t = await withEndpoint();
    const openai = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 2 });
    const first = await json(await postExport(t, claudeExport(120)));
    const other = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', provider: 'xai', count: 3 });
    const uploads = [
      // Into the purged connection: named, and the user's open one of the file's provider.
      heldUpload(t, claudeExport(150, 60), { query: `userRef=u1&connectionId=${first.connectionId}` }),
      heldUpload(t, claudeExport(150, 60)),
    ];
    for (const upload of uploads) await upload.askedForMore;
    assert.equal((await purge(t, JSON.stringify({ connectionId: first.connectionId }))).status, 200);
    // Into another connection of the user's: refused too, as the connect page would be.
    const later = heldUpload(t, fixtureBytes('grok-prod-grok-backend.json'));
    await later.askedForMore;
    assert.equal((await purge(t, JSON.stringify({ connectionId: openai.connectionId }))).status, 200);
    for (const upload of [...uploads, later]) {
      upload.release();
      const answer = await upload.response;
      assert.deepEqual([answer.status, await json(answer)], [410, PURGED]);
    }
    const listed = await json(await t.request('/api/connections?userRef=u1'));
    assert.deepEqual(
      listed.connections.map((c: { id: string; conversationCount: number }) => [c.id, c.conversationCount]),
      [[other.connectionId, 3]],
    );
    assert.deepEqual(await importLeftovers(t), {
      users: 1,
      connections: 1,
      conversations: 3,
      staged: 0,
      blobs: 0,
      imports: 0,
      importPurges: 0,
    });
    assert.deepEqual(await events(t), [
      'connection.created',
      'connection.synced',
      'connection.purged',
      'connection.purged',
    ]);
  });

  test('maintenance forgets, with its marks, an import that died under way 24 hours ago', async () => {
    const t = await setup();
    const now = t.clock.now();
    await beginImport(t.deps.db, { id: 'dead', app_id: t.tenant.appId, created_at: now - 25 * 3_600_000 }, undefined);
    await beginImport(
      t.deps.db,
      { id: 'running', app_id: t.tenant.appId, created_at: now - 60_000 },
      { userRef: 'u1' },
    );
    await refuseImportsFor(t.deps.db, t.tenant.appId, 'u1');
    // A mark of an import that had just ended as the purge marked it.
    await t.deps.db.insertInto('import_purges').values({ import_id: 'ended', user_ref: 'u1' }).execute();
    await discardAbandonedImports(t.deps.db, now - 24 * 3_600_000);
    assert.deepEqual(await t.deps.db.selectFrom('import_purges').selectAll().execute(), [
      { import_id: 'running', user_ref: 'u1' },
    ]);
    assert.equal(await isImportRefused(t.deps.db, 'running', 'u1'), true);
    assert.equal(await isImportRefused(t.deps.db, 'running', 'u2'), false);
  });

  test('of another user, or of another app’s user of the same ref, the import commits', async () => {
    const t = await setup();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u2', count: 1 });
    const other = await onboardApp(t.deps, 'Other');
    await seedConnection(t.deps, { appId: other.appId, userRef: 'u1', count: 1 });
    const upload = heldUpload(t, claudeExport(150));
    await upload.askedForMore;
    assert.equal((await purge(t, JSON.stringify({ userRef: 'u2' }))).status, 200);
    const elsewhere = await purge(t, JSON.stringify({ userRef: 'u1' }), { Authorization: `Bearer ${other.apiKey}` });
    assert.equal(elsewhere.status, 200);
    upload.release();
    const answer = await upload.response;
    assert.equal(answer.status, 200);
    assert.equal((await json(answer)).created, 150);
    assert.deepEqual((await importLeftovers(t)).imports, 0);
  });
});
