import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { authenticateAgent } from '../../src/agents/agent-tokens.ts';
import { onboardApp, revokeKey } from '../../src/apps/apps.ts';
import { ParleyError } from '../../src/errors.ts';
import { json, runApiScenarios, seedConnection, setup, type TestContext } from '../helpers.ts';

const seedUser = (t: TestContext) => seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });

const mint = async (t: TestContext, body: object = { userRef: 'u1' }) => {
  const res = await t.request('/api/agent-tokens', { method: 'POST', body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  return (await json(res)) as { token: string; expiresAt: string };
};

const refused = (t: TestContext, token: string) =>
  assert.rejects(authenticateAgent(t.deps, `Bearer ${token}`), (error: unknown) => {
    assert.ok(error instanceof ParleyError);
    assert.equal(error.code, 'invalidAgentToken');
    return true;
  });

describe('POST /api/agent-tokens', () => {
  test('mints a token for one user of the app, lasting 900 s unless asked (at most 3600); only its hash is kept', async () => {
    const t = await setup();
    const { userId } = await seedUser(t);
    const { token, expiresAt } = await mint(t);
    assert.match(token, /^parley_agent_[0-9A-Za-z]{40}$/);
    assert.equal(expiresAt, new Date(t.clock.now() + 900_000).toISOString());
    assert.equal(
      (await mint(t, { userRef: 'u1', expiresInSeconds: 3600 })).expiresAt,
      new Date(t.clock.now() + 3_600_000).toISOString(),
    );
    const rows = await t.deps.db.selectFrom('agent_tokens').selectAll().execute();
    assert.equal(rows.length, 2);
    assert.ok(rows.every((row) => row.user_id === userId && row.api_key_id === t.tenant.keyId));
    assert.ok(!JSON.stringify(rows).includes(token.slice('parley_agent_'.length)), 'the token itself is stored');
    assert.deepEqual(await authenticateAgent(t.deps, `Bearer ${token}`), {
      appId: t.tenant.appId,
      userRef: 'u1',
      userId,
    });
  });

  test('a token is refused once expired, unknown, its user purged or its key revoked; it is no API key', async () => {
    const t = await setup();
    await seedUser(t);
    const expiring = await mint(t, { userRef: 'u1', expiresInSeconds: 60 });
    const purged = await mint(t);
    t.clock.advance(60_000);
    await refused(t, expiring.token);
    await refused(t, `parley_agent_${'x'.repeat(40)}`);
    await refused(t, t.tenant.apiKey);
    const onApi = await t.request('/api/connections?userRef=u1', {
      headers: { Authorization: `Bearer ${purged.token}` },
    });
    assert.deepEqual([onApi.status, await json(onApi)], [401, { error: 'Invalid API key' }]);
    await authenticateAgent(t.deps, `Bearer ${purged.token}`);
    await t.request('/api/purge', { method: 'POST', body: JSON.stringify({ userRef: 'u1' }) });
    await refused(t, purged.token);
    assert.equal(
      (await t.deps.db.selectFrom('agent_tokens').selectAll().execute()).length,
      0,
      'the purged user’s token rows are gone',
    );

    await seedUser(t);
    const revoked = await mint(t);
    await revokeKey(t.deps, t.tenant.appId, t.tenant.keyId);
    await refused(t, revoked.token);
  });

  runApiScenarios(
    {
      seed: async (t) => {
        await seedUser(t);
        await seedConnection(t.deps, { appId: (await onboardApp(t.deps, 'Other')).appId, userRef: 'theirs' });
      },
      after: async (t) => assert.equal((await t.deps.db.selectFrom('agent_tokens').selectAll().execute()).length, 0),
    },
    [
      ...[0, 3601, 1.5, '60', null].map((expiresInSeconds) => ({
        name: `expiresInSeconds ${JSON.stringify(expiresInSeconds)}`,
        request: {
          method: 'POST',
          path: '/api/agent-tokens',
          body: JSON.stringify({ userRef: 'u1', expiresInSeconds }),
        },
        status: 400,
        body: { error: 'Invalid expiresInSeconds parameter' },
      })),
      {
        name: 'without userRef',
        request: { method: 'POST', path: '/api/agent-tokens', body: '{}' },
        status: 400,
        body: { error: 'Missing userRef parameter' },
      },
      {
        name: 'a body that is not a JSON object',
        request: { method: 'POST', path: '/api/agent-tokens', body: '["u1"]' },
        status: 400,
        body: { error: 'Invalid JSON body' },
      },
      {
        name: 'another app’s user',
        request: { method: 'POST', path: '/api/agent-tokens', body: JSON.stringify({ userRef: 'theirs' }) },
        status: 404,
        body: { error: 'User not found' },
      },
      {
        name: 'without a credential',
        request: { method: 'POST', path: '/api/agent-tokens', body: '{"userRef":"u1"}', authorization: null },
        status: 401,
        body: { error: 'Missing Authorization header' },
      },
      {
        name: 'another method',
        request: { path: '/api/agent-tokens' },
        status: 405,
        body: { error: 'Method not allowed' },
        headers: { Allow: 'POST' },
      },
    ],
  );
});
