import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json, seedConnection, setup } from '../helpers.ts';

test('healthz and a listing round trip', async () => {
  const t = await setup();
  const health = await t.app.request('/healthz');
  assert.deepEqual(await json(health), { ok: true, version: '0.1.0' });
  const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });
  const res = await t.request(`/api/conversations?connectionId=${connectionId}&limit=2`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json');
  const body = await json(res);
  assert.equal(body.total, 3);
  assert.deepEqual(body.conversations.map((c: any) => c.external_id), ['ext-0', 'ext-1']);
  const users = await t.request('/api/conversations?userRef=u1');
  assert.equal((await json(users)).connections[0].id, connectionId);
  assert.equal(users.headers.get('ratelimit-remaining'), '58');
  const err = await t.request('/api/conversations?userRef=nobody');
  assert.equal(err.status, 404);
  assert.equal(err.headers.get('ratelimit-remaining'), '57');
  assert.deepEqual(await json(err), { error: 'User not found' });
  const missing = await t.app.request('/api/conversations?userRef=nobody');
  assert.deepEqual([missing.status, await json(missing)], [401, { error: 'Missing Authorization header' }]);
  assert.equal(missing.headers.get('ratelimit-limit'), null);
  const nope = await t.request('/api/purge');
  assert.equal(nope.status, 405);
  assert.equal(nope.headers.get('allow'), 'POST');
});
