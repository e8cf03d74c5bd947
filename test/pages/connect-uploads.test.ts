/**
 * The connect page's resumable uploads (/connect/uploads): tus under the page
 * session, its CSRF token in a header; an upload is its session's alone; the
 * page's import names it with `upload=<id>`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { claudeConversations, rowsIn, setup, type TestContext } from '../helpers.ts';
import { hiddenField, openSession, type PageClient } from './page-client.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
const OCTETS = { ...TUS, 'Content-Type': 'application/offset+octet-stream' };

/** A browser in a connect session of its own, and that session's CSRF token as its upload page carries it. */
async function connectSession(t: TestContext) {
  const browser = await openSession(t, 'connect');
  return { browser, csrf: hiddenField(await (await browser.get('/connect/anthropic')).text(), 'csrf') };
}

const create = (browser: PageClient, csrf: string, length: number) =>
  browser.request('/connect/uploads', {
    method: 'POST',
    headers: { ...TUS, 'Upload-Length': String(length), 'Parley-CSRF': csrf },
  });

const patch = (browser: PageClient, csrf: string, path: string, offset: number, body: Uint8Array) =>
  browser.request(path, {
    method: 'PATCH',
    headers: { ...OCTETS, 'Upload-Offset': String(offset), 'Parley-CSRF': csrf },
    body: body as BodyInit,
  });

const head = (browser: PageClient, csrf: string, path: string) =>
  browser.request(path, { method: 'HEAD', headers: { ...TUS, 'Parley-CSRF': csrf } });

/** A session's upload of `bytes`, sent in two parts; its path. */
async function uploaded(browser: PageClient, csrf: string, bytes: Uint8Array) {
  const created = await create(browser, csrf, bytes.length);
  assert.equal(created.status, 201);
  const path = created.headers.get('Location')!;
  assert.match(path, /^\/connect\/uploads\/[0-9a-f-]{36}$/);
  const half = Math.floor(bytes.length / 2);
  assert.equal((await patch(browser, csrf, path, 0, bytes.subarray(0, half))).status, 204);
  const done = await patch(browser, csrf, path, half, bytes.subarray(half));
  assert.equal(done.status, 204);
  assert.equal(done.headers.get('Upload-Offset'), String(bytes.length));
  return path;
}

const exportBytes = () => new TextEncoder().encode(JSON.stringify(claudeConversations(3)));

describe('the connect page’s resumable uploads', () => {
  test('sent in parts under the page session, then imported with upload=<id>; nothing of it stays', async () => {
    const t = await setup();
    const { browser, csrf } = await connectSession(t);
    const path = await uploaded(browser, csrf, exportBytes());
    const id = path.split('/').pop()!;
    const imported = await browser.post(`/connect/anthropic?upload=${id}`, { csrf, timeZone: 'Europe/Berlin' });
    assert.equal(imported.status, 303);
    assert.equal(imported.headers.get('location'), '/connect/result');
    const result = await (await browser.get('/connect/result')).text();
    assert.match(result, /3 conversations from Claude are now available to Test app\./);
    assert.equal((await head(browser, csrf, path)).status, 404);
    assert.equal(await rowsIn(t.deps.db, 'uploads'), 0);
    assert.equal(await rowsIn(t.deps.db, 'upload_parts'), 0);
  });

  test('an upload is its session’s: another session, an API key, a missing CSRF token get nothing of it', async () => {
    const t = await setup();
    const { browser, csrf } = await connectSession(t);
    const path = await uploaded(browser, csrf, exportBytes());
    const id = path.split('/').pop()!;

    const { browser: other, csrf: otherCsrf } = await connectSession(t);
    assert.equal((await head(other, otherCsrf, path)).status, 404);
    assert.equal((await patch(other, otherCsrf, path, 0, new Uint8Array(1))).status, 404);
    const foreign = await other.post(`/connect/anthropic?upload=${id}`, { csrf: otherCsrf });
    assert.equal(foreign.status, 404);
    assert.match(await foreign.text(), /Upload not found/);

    // The app's API key reaches only the uploads made with it.
    const byKey = await t.request(`/api/uploads/${id}`, { method: 'HEAD', headers: TUS });
    assert.equal(byKey.status, 404);
    const imported = await t.request(`/api/ingest-export?userRef=u1&upload=${id}`, { method: 'POST' });
    assert.equal(imported.status, 404);

    // The session's cookie without its token: a cross-site request.
    assert.equal((await head(browser, '', path)).status, 403);
    assert.equal((await create(browser, 'forged', 10)).status, 403);
    // A session's page does not reach an upload made with the API key either.
    const byApi = await t.request('/api/uploads', { method: 'POST', headers: { ...TUS, 'Upload-Length': '10' } });
    assert.equal((await head(browser, csrf, byApi.headers.get('Location')!.replace('/api/', '/connect/'))).status, 404);

    assert.equal((await head(browser, csrf, path)).status, 200);
    // Without a session, none of it.
    assert.equal((await t.app.request(path, { method: 'HEAD', headers: { ...TUS, 'Parley-CSRF': csrf } })).status, 401);
  });

  test('an upload names the session’s user (a purge removes it) and goes when the session ends', async () => {
    const t = await setup();
    const { browser, csrf } = await connectSession(t);
    await uploaded(browser, csrf, exportBytes());
    const row = await t.deps.db.selectFrom('uploads').select('user_ref').executeTakeFirstOrThrow();
    assert.equal(row.user_ref, 'u1');
    t.clock.advance(25 * 3_600_000);
    assert.equal((await browser.get('/connect')).status, 401);
    assert.equal(await rowsIn(t.deps.db, 'uploads'), 0);
    assert.equal(await rowsIn(t.deps.db, 'upload_parts'), 0);
    assert.equal(await rowsIn(t.deps.db, 'attachment_blobs'), 0);
  });

  test('an import of an upload not yet complete is an error page, and the upload stays to be finished', async () => {
    const t = await setup();
    const { browser, csrf } = await connectSession(t);
    const created = await create(browser, csrf, 100);
    const path = created.headers.get('Location')!;
    assert.equal((await patch(browser, csrf, path, 0, new Uint8Array(10))).status, 204);
    const early = await browser.post(`/connect/anthropic?upload=${path.split('/').pop()}`, { csrf });
    assert.equal(early.status, 409);
    assert.match(await early.text(), /Upload not complete/);
    assert.equal((await head(browser, csrf, path)).headers.get('Upload-Offset'), '10');
  });

  test('a file the import refuses goes at once: the result page asks for another, and nothing of it stays', async () => {
    const t = await setup();
    const { browser, csrf } = await connectSession(t);
    const path = await uploaded(browser, csrf, new TextEncoder().encode('{"not": "an export"}'));
    const refused = await browser.post(`/connect/anthropic?upload=${path.split('/').pop()}`, { csrf });
    assert.equal(refused.headers.get('location'), '/connect/result');
    assert.equal((await browser.get('/connect/result')).status, 400);
    assert.equal((await head(browser, csrf, path)).status, 404);
    assert.equal(await rowsIn(t.deps.db, 'uploads'), 0);
    assert.equal(await rowsIn(t.deps.db, 'attachment_blobs'), 0);
  });

  test('a file of another service than the one chosen stays, for the one click that imports it as that one', async () => {
    const t = await setup();
    const { browser, csrf } = await connectSession(t);
    const path = await uploaded(browser, csrf, exportBytes());
    const id = path.split('/').pop();
    const refused = await browser.post(`/connect/openai?upload=${id}`, { csrf });
    assert.equal(refused.headers.get('location'), '/connect/result');
    assert.equal((await head(browser, csrf, path)).status, 200);
    assert.equal(
      (await browser.post(`/connect/anthropic?upload=${id}`, { csrf })).headers.get('location'),
      '/connect/result',
    );
    assert.match(await (await browser.get('/connect/result')).text(), /3 conversations from Claude/);
  });
});
