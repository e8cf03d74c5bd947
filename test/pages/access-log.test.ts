/**
 * The access log: every read of a person's data through the API and /mcp is
 * counted per user, day and channel; the manage page says the last 30 days in
 * plain words; a purge and maintenance remove the counts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { deleteOldAccess } from '../../src/users/access-log.ts';
import { fixtureBytes, json, postExport, seedAttachment, setup, type TestContext } from '../helpers.ts';
import { openSession } from './page-client.ts';

const DAY_MS = 86_400_000;

/** The user's counts, once the writes no request waits for have landed (`reads` in all: `expected`). */
async function accessRows(t: TestContext, expected: number) {
  for (let tries = 0; ; tries++) {
    const rows = await t.deps.db
      .selectFrom('access_log')
      .select(['day', 'channel', 'reads', 'searches'])
      .orderBy('day')
      .orderBy('channel')
      .execute();
    if (rows.reduce((sum, row) => sum + Number(row.reads), 0) >= expected || tries > 200) return rows;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Reads through the API: a listing, a search, one conversation and an attachment. */
async function readThroughApi(t: TestContext, connectionId: string) {
  const { conversations } = await json(await t.request(`/api/conversations?connectionId=${connectionId}`));
  await t.request(`/api/conversations?connectionId=${connectionId}&q=marathon&fields=summary`);
  await t.request(`/api/conversations/${conversations[0].id}`);
  return conversations[0].id as string;
}

async function agentSearches(t: TestContext, times: number) {
  const { token } = await json(
    await t.request('/api/agent-tokens', { method: 'POST', body: JSON.stringify({ userRef: 'u1' }) }),
  );
  const client = new Client({ name: 'acme-assistant', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://parley.test/mcp'), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: (url, init) => t.app.request(String(url), init) as Promise<Response>,
    }),
  );
  await client.listTools();
  for (let i = 0; i < times; i++) await client.callTool({ name: 'search_conversations', arguments: { query: 'rail' } });
  for (const name of ['list_conversations', 'list_memories', 'list_projects'])
    await client.callTool({ name, arguments: {} });
  await client.close();
}

describe('the access log', () => {
  test('counts the API’s reads and the assistant’s tool calls per day and channel; the manage page says them', async () => {
    const t = await setup();
    const { connectionId } = await json(await postExport(t, fixtureBytes('claude-conversations.json')));
    const conversationId = await readThroughApi(t, connectionId);
    const attachment = await seedAttachment(t.deps, {
      conversationId,
      name: 'a.png',
      contentType: 'image/png',
      bytes: new Uint8Array([1, 2, 3]),
    });
    assert.equal((await t.request(`/api/attachments/${attachment.id}`)).status, 200);
    // Its memories and projects are read too.
    await t.request(`/api/memories?connectionId=${connectionId}`);
    await t.request(`/api/projects?connectionId=${connectionId}`);
    // Not reads of conversations: the connections listing and a refused request.
    await t.request('/api/connections?userRef=u1');
    await t.request('/api/conversations/unknown');
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    assert.deepEqual(await accessRows(t, 6), [{ day: today, channel: 'api', reads: 6, searches: 1 }]);

    t.clock.advance(DAY_MS);
    await readThroughApi(t, connectionId);
    await agentSearches(t, 12);
    const tomorrow = new Date(t.clock.now()).toISOString().slice(0, 10);
    assert.deepEqual(await accessRows(t, 6 + 3 + 15), [
      { day: today, channel: 'api', reads: 6, searches: 1 },
      { day: tomorrow, channel: 'agent', reads: 15, searches: 12 },
      { day: tomorrow, channel: 'api', reads: 3, searches: 1 },
    ]);

    const browser = await openSession(t, 'manage');
    const page = await (await browser.get('/manage')).text();
    assert.match(page, /Who read your conversations/);
    assert.match(
      page,
      /In the last 30 days, Test app(&#39;|')s server read your conversations on 2 days\. Test app(&#39;|')s assistant read them 15 times, searching them 12 times\./,
    );
  });

  test('kept 90 days, and gone with a purge of the user', async () => {
    const t = await setup();
    const { connectionId } = await json(await postExport(t, fixtureBytes('claude-conversations.json')));
    await readThroughApi(t, connectionId);
    assert.equal((await accessRows(t, 3)).length, 1);
    t.clock.advance(31 * DAY_MS);
    const browser = await openSession(t, 'manage');
    assert.match(
      await (await browser.get('/manage')).text(),
      /neither Test app nor its assistant read your conversations/,
    );
    t.clock.advance(58 * DAY_MS);
    await deleteOldAccess(t.deps);
    assert.equal((await accessRows(t, 3)).length, 1, 'kept for 90 days');
    t.clock.advance(2 * DAY_MS);
    await deleteOldAccess(t.deps);
    assert.equal((await accessRows(t, 0)).length, 0, 'deleted after 90 days');

    await readThroughApi(t, connectionId);
    assert.equal((await accessRows(t, 3)).length, 1);
    await t.request('/api/purge', { method: 'POST', body: JSON.stringify({ userRef: 'u1' }) });
    assert.equal((await accessRows(t, 0)).length, 0, 'a purge removes them');
  });
});
