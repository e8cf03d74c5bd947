/**
 * /mcp black-box: the official MCP client over real HTTP against the server
 * as `npm start` serves it (the esbuild bundle, the MCP SDK inside it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { onboardApp } from '../src/apps/apps.ts';
import { openBetterSqlite3 } from '../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../src/deps.ts';
import { startServer } from './conformance/server.ts';
import { fixtureBytes } from './helpers.ts';

test('the official MCP client lists the tools and calls each against the running server', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-mcp-'));
  const databasePath = join(dir, 'parley.db');
  const db = openBetterSqlite3(databasePath);
  const tenant = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Acme Notes');
  await db.destroy();
  const server = await startServer('node', { databasePath });
  try {
    const api = (path: string, init: RequestInit) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
      });
    const imported = await api('/api/ingest-export?userRef=u1', {
      method: 'POST',
      body: fixtureBytes('claude-conversations.json') as BodyInit,
    });
    assert.equal(imported.status, 200);
    const { token } = await (await api('/api/agent-tokens', { method: 'POST', body: '{"userRef":"u1"}' })).json();

    const client = new Client({ name: 'black-box-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['search_conversations', 'list_conversations', 'get_conversation'],
    );
    const listed = (await client.callTool({ name: 'list_conversations', arguments: { limit: 2 } }))
      .structuredContent as { conversations: Array<{ id: string }>; total: number; nextCursor: string };
    assert.deepEqual([listed.conversations.length, listed.total, typeof listed.nextCursor], [2, 5, 'string']);
    const searched = (await client.callTool({ name: 'search_conversations', arguments: { query: 'postgres' } }))
      .structuredContent as { conversations: Array<{ id: string; title: string }> };
    assert.deepEqual(
      searched.conversations.map((c) => c.title),
      ['Speeding up a slow Postgres query'],
    );
    const got = (await client.callTool({ name: 'get_conversation', arguments: { id: searched.conversations[0]!.id } }))
      .structuredContent as { conversation: { payload: { messages: unknown[] } }; messageCount: number };
    assert.equal(got.conversation.payload.messages.length, got.messageCount);
    await client.close();
    assert.ok(!server.logs.join('\n').includes(token.slice(13)), 'the token is in the log');
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
