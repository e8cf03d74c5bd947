/**
 * /mcp black-box: the official MCP client and the MCP Inspector's command-line
 * mode over real HTTP against the server as `npm start` serves it (the esbuild
 * bundle, the MCP SDK inside it), holding real-shaped exports: ChatGPT's zip,
 * and Claude's with memories and a project.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { zipSync } from 'fflate';
import { onboardApp } from '../src/apps/apps.ts';
import { openBetterSqlite3 } from '../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../src/deps.ts';
import { inheritedEnv, ROOT, type RunningServer, startServer } from './conformance/server.ts';
import { zipFolderFiles } from './helpers.ts';

const run = promisify(execFile);
const INSPECTOR = join(ROOT, 'node_modules/.bin/mcp-inspector');

describe('/mcp of the running server holding real-shaped exports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-mcp-'));
  let server: RunningServer;
  let token: string;

  before(async () => {
    const databasePath = join(dir, 'parley.db');
    const db = openBetterSqlite3(databasePath);
    const tenant = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Acme Notes');
    await db.destroy();
    server = await startServer('node', { databasePath });
    const api = (path: string, body: BodyInit, contentType: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': contentType },
        body,
      });
    for (const folder of ['chatgpt-zip', 'claude-2026-06-zip']) {
      const imported = await api(
        '/api/ingest-export?userRef=u1',
        zipSync(zipFolderFiles(folder)) as BodyInit,
        'application/zip',
      );
      assert.equal(imported.status, 200, await imported.clone().text());
    }
    ({ token } = await (await api('/api/agent-tokens', '{"userRef":"u1"}', 'application/json')).json());
  });

  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the official MCP client lists the five tools and calls each', async () => {
    const client = new Client({ name: 'black-box-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['search_conversations', 'list_conversations', 'get_conversation', 'list_memories', 'list_projects'],
    );
    const called = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })).structuredContent as any;
    const listed = await called('list_conversations', { limit: 2 });
    assert.deepEqual([listed.conversations.length, listed.total, typeof listed.nextCursor], [2, 4, 'string']);
    const searched = await called('search_conversations', { query: 'eggs' });
    assert.deepEqual(
      searched.conversations.map((c: { title: string }) => c.title),
      ['Soft-boiled eggs'],
    );
    const got = await called('get_conversation', { id: searched.conversations[0].id });
    assert.equal(got.conversation.payload.messages.length, got.messageCount);
    assert.equal((await called('list_memories', {})).total, 3);
    assert.deepEqual(
      (await called('list_projects', {})).projects.map((p: { knowledge: unknown[] }) => p.knowledge.length > 0),
      [true],
    );
    await client.close();
    assert.ok(!server.logs.join('\n').includes(token.slice(13)), 'the token is in the log');
  });

  test('the MCP Inspector’s command-line mode lists the tools, searches and reads a conversation', {
    skip: existsSync(INSPECTOR) ? false : 'the MCP Inspector is not installed (a dev dependency: npm ci)',
  }, async () => {
    // Its own files (catalog, client config) go to the test's folder, not the home directory.
    const env = {
      ...inheritedEnv(),
      HOME: dir,
      MCP_CATALOG_PATH: join(dir, 'mcp.json'),
      MCP_CLIENT_CONFIG_PATH: join(dir, 'client.json'),
    };
    const inspector = async (...args: string[]) => {
      const { stdout } = await run(
        INSPECTOR,
        [
          '--cli',
          `${server.url}/mcp`,
          '--transport',
          'http',
          '--header',
          `Authorization: Bearer ${token}`,
          '--format',
          'json',
          ...args,
        ],
        { env },
      );
      // `--format json`: one object, the answer as `result`.
      return JSON.parse(stdout).result;
    };
    const { tools } = await inspector('--method', 'tools/list');
    assert.deepEqual(
      tools.map((tool: { name: string }) => tool.name),
      ['search_conversations', 'list_conversations', 'get_conversation', 'list_memories', 'list_projects'],
    );
    const called = (name: string, argument: string) =>
      inspector('--method', 'tools/call', '--tool-name', name, '--tool-arg', argument);
    const searched = await called('search_conversations', 'query=eggs');
    assert.deepEqual(
      searched.structuredContent.conversations.map((c: { title: string }) => c.title),
      ['Soft-boiled eggs'],
    );
    const id = searched.structuredContent.conversations[0].id;
    const got = await called('get_conversation', `id=${id}`);
    assert.equal(got.structuredContent.conversation.title, 'Soft-boiled eggs');
    assert.deepEqual(JSON.parse(got.content[0].text), got.structuredContent);
  });
});
