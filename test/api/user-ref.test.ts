/**
 * `userRef` is 1 to 1,024 characters wherever it is taken: longer is
 * `400 Invalid userRef parameter` and changes nothing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { signLink } from 'parley-sdk';
import { json, postExport, rowCounts, seedConnection, setup, type TestContext } from '../helpers.ts';

const LONGEST = 'u'.repeat(1024);
const TOO_LONG = 'u'.repeat(1025);
/** 1,024 characters that JavaScript counts as 2,048 UTF-16 units: still valid. */
const LONGEST_IN_EMOJI = '😀'.repeat(1024);

const EXPORT = JSON.stringify([{ uuid: 'c1', name: 'Hello', chat_messages: [{ sender: 'human', text: 'hi' }] }]);
const INVALID = { error: 'Invalid userRef parameter' };

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  data.set('file', new Blob([EXPORT], { type: 'application/json' }), 'conversations.json');
  return data;
}

async function expectAnswer(t: TestContext, response: Promise<Response>, status: number, body: unknown) {
  const before = await rowCounts(t.deps);
  const answer = await response;
  assert.equal(answer.status, status);
  assert.deepEqual(await json(answer), body);
  assert.deepEqual(await rowCounts(t.deps), before);
}

describe('userRef length', () => {
  test('listing connections: over 1,024 characters is invalid, 1,024 is looked up', async () => {
    const t = await setup();
    for (const path of ['/api/conversations', '/api/connections']) {
      await expectAnswer(t, t.request(`${path}?userRef=${TOO_LONG}`), 400, INVALID);
      await expectAnswer(t, t.request(`${path}?userRef=${LONGEST}`), 404, { error: 'User not found' });
      await expectAnswer(t, t.request(`${path}?userRef=${encodeURIComponent(LONGEST_IN_EMOJI)}`), 404, {
        error: 'User not found',
      });
    }
  });

  test('ingest: in the query or the form, over 1,024 characters writes nothing', async () => {
    const t = await setup();
    await expectAnswer(
      t,
      postExport(t, new TextEncoder().encode(EXPORT), { query: `userRef=${TOO_LONG}` }),
      400,
      INVALID,
    );
    await expectAnswer(
      t,
      t.request('/api/ingest-export', { method: 'POST', body: form({ userRef: TOO_LONG }) }),
      400,
      INVALID,
    );
    // Checked in the order the API's errors take: the content type first, then userRef, then the size.
    await expectAnswer(
      t,
      postExport(t, new Uint8Array(10), { query: `userRef=${TOO_LONG}`, contentType: 'image/png' }),
      415,
      { error: 'Unsupported content type' },
    );
    const small = await setup({ MAX_EXPORT_BYTES: '10' });
    await expectAnswer(
      small,
      postExport(small, new TextEncoder().encode(EXPORT), { query: `userRef=${TOO_LONG}` }),
      400,
      INVALID,
    );

    for (const userRef of [LONGEST, LONGEST_IN_EMOJI]) {
      const imported = await json(
        await postExport(t, new TextEncoder().encode(EXPORT), { query: `userRef=${encodeURIComponent(userRef)}` }),
      );
      assert.deepEqual([imported.userRef, imported.created], [userRef, 1]);
      const listed = await json(await t.request(`/api/conversations?userRef=${encodeURIComponent(userRef)}`));
      assert.equal(listed.userRef, userRef);
    }
  });

  test('purge: over 1,024 characters is invalid; 1,024 purges', async () => {
    const t = await setup();
    await seedConnection(t.deps, { appId: t.tenant.appId, userRef: LONGEST, count: 2 });
    const purge = (userRef: string) => t.request('/api/purge', { method: 'POST', body: JSON.stringify({ userRef }) });
    await expectAnswer(t, purge(TOO_LONG), 400, INVALID);
    const purged = await purge(LONGEST);
    assert.deepEqual(await json(purged), { ok: true, deleted: { users: 1, connections: 1, conversations: 2 } });
  });

  test('signed links: signLink refuses a longer userRef, and the pages refuse a link carrying one', async () => {
    const t = await setup();
    const options = {
      appId: t.tenant.appId,
      scopes: ['conversations:read'] as ['conversations:read'],
      purpose: 'connect' as const,
      baseUrl: t.deps.config.publicUrl,
    };
    await assert.rejects(signLink({ ...options, userRef: TOO_LONG }, t.tenant.appSecret), {
      name: 'TypeError',
      message: 'signLink: userRef must be at most 1024 characters',
    });
    assert.match(await signLink({ ...options, userRef: LONGEST_IN_EMOJI }, t.tenant.appSecret), /\/start\?token=/);

    const now = Math.floor(t.clock.now() / 1000);
    const token = await new SignJWT({
      appId: t.tenant.appId,
      userRef: TOO_LONG,
      scopes: ['conversations:read'],
      purpose: 'connect',
      jti: 'j1',
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(t.tenant.appSecret));
    const page = await t.app.request(`/start?token=${token}`);
    assert.equal(page.status, 401);
    assert.match(await page.text(), /<h1[^>]*>Invalid link<\/h1>/);
  });
});
