/**
 * `GET /`: a small page for whoever runs the server — what it is, its version,
 * where to look — with no data and no login.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { VERSION } from '../../src/app.ts';
import { seedConnection, setup } from '../helpers.ts';

describe('GET /', () => {
  test('is an HTML page naming Parley and its version, linking to /healthz and /openapi.json and naming the README', async () => {
    const t = await setup();
    const res = await t.app.request('/');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=UTF-8');
    const html = await res.text();
    assert.match(html, /^<!doctype html>/);
    assert.match(html, new RegExp(`<title>Parley ${VERSION.replaceAll('.', '\\.')}</title>`));
    assert.deepEqual(
      [...html.matchAll(/href="(\/[^"]*)"/g)].map((match) => match[1]),
      ['/assets/favicon.svg', '/assets/parley.css', '/healthz', '/openapi.json'],
    );
    assert.match(html, /README\.md/);
    assert.match(html, /parley --help/);
  });

  test('shows no data and sets no cookie, with a key or without', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'user-42', count: 1 });
    const anonymous = await t.app.request('/');
    const withKey = await t.request('/');
    const html = await anonymous.text();
    assert.equal(await withKey.text(), html, 'the same page for everyone');
    for (const secret of [t.tenant.appId, 'user-42', connectionId]) assert.ok(!html.includes(secret), secret);
    assert.equal(anonymous.headers.get('set-cookie'), null);
    assert.equal(anonymous.headers.get('cache-control'), 'no-store');
    assert.match(anonymous.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  });

  test("answers GET only: POST / is the API's JSON 404", async () => {
    const t = await setup();
    const res = await t.app.request('/', { method: 'POST' });
    assert.deepEqual([res.status, await res.json()], [404, { error: 'Not found' }]);
  });
});
