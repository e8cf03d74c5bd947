/**
 * /mcp through the official MCP TypeScript client (its Streamable HTTP
 * transport, fetching through app.request): connect with an agent token, list
 * the tools, call each; and what the endpoint refuses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MAX_TOOL_RESULT_BYTES } from '../../src/agents/agent-tools.ts';
import { onboardApp } from '../../src/apps/apps.ts';
import { zipSync } from 'fflate';
import { fixtureBytes, json, postExport, seedConnection, setup, zipFolderFiles, type TestContext } from '../helpers.ts';

const mint = async (t: TestContext, userRef = 'u1', apiKey = t.tenant.apiKey) => {
  const res = await t.app.request('/api/agent-tokens', {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ userRef }),
  });
  assert.equal(res.status, 200);
  return (await json(res)).token as string;
};

async function connect(t: TestContext, token: string) {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('http://parley.test/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: (url, init) => t.app.request(String(url), init) as Promise<Response>,
  });
  await client.connect(transport);
  return client;
}

/** A tool's structured result, asserting its text is the same JSON. */
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const [content] = result.content as Array<{ type: string; text: string }>;
  assert.equal(result.isError, undefined, content?.text);
  assert.deepEqual(JSON.parse(content!.text), result.structuredContent);
  assert.ok(new TextEncoder().encode(content!.text).length <= MAX_TOOL_RESULT_BYTES);
  return result.structuredContent as any;
}

/** A tool error's text. */
async function refused(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
  return (result.content as Array<{ text: string }>)[0]!.text;
}

/** u1 with the Claude fixture (a real-shaped export); another user and another app with conversations of their own. */
async function seeded() {
  const t = await setup();
  const imported = await json(await postExport(t, fixtureBytes('claude-conversations.json')));
  await postExport(t, fixtureBytes('claude-conversations.json'), { query: 'userRef=u2' });
  const other = await onboardApp(t.deps, 'Other app');
  await seedConnection(t.deps, { appId: other.appId, userRef: 'u1', count: 3 });
  return { t, connectionId: imported.connectionId as string };
}

describe('/mcp with the official client', () => {
  test('lists the read-only tools, each with a JSON input schema and a description', async () => {
    const { t } = await seeded();
    const client = await connect(t, await mint(t));
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['search_conversations', 'list_conversations', 'get_conversation', 'list_memories', 'list_projects'],
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.ok(tool.description!.length > 100, tool.name);
      assert.equal(tool.annotations?.readOnlyHint, true);
    }
    assert.deepEqual(tools[0]!.inputSchema.required, ['query']);
    assert.deepEqual(tools[2]!.inputSchema.required, ['id']);
    await client.close();
  });

  test('search, list and get answer the API’s objects of the token’s user only, paged by cursor', async () => {
    const { t, connectionId } = await seeded();
    const client = await connect(t, await mint(t));

    const listed = await call(client, 'list_conversations', {});
    const api = await json(await t.request(`/api/conversations?connectionId=${connectionId}&fields=summary`));
    assert.deepEqual(listed, { conversations: api.conversations, total: 5 });

    const first = await call(client, 'list_conversations', { limit: 2 });
    assert.deepEqual([first.conversations.length, first.total], [2, 5]);
    const second = await call(client, 'list_conversations', { limit: 2, cursor: first.nextCursor });
    assert.deepEqual(
      [...first.conversations, ...second.conversations].map((c: any) => c.id),
      api.conversations.slice(0, 4).map((c: any) => c.id),
    );
    assert.deepEqual((await call(client, 'list_conversations', { connectionId })).total, 5);

    const searched = await call(client, 'search_conversations', { query: 'marathon' });
    const viaApi = await json(
      await t.request(`/api/conversations?connectionId=${connectionId}&q=marathon&fields=summary`),
    );
    assert.deepEqual(searched, { conversations: viaApi.conversations, total: viaApi.total });
    assert.deepEqual(
      searched.conversations.map((c: any) => c.title),
      ['Kilometres in a marathon'],
    );

    const got = await call(client, 'get_conversation', { id: searched.conversations[0].id });
    const whole = await json(await t.request(`/api/conversations/${searched.conversations[0].id}`));
    assert.deepEqual(got, { conversation: whole, firstMessage: 0, messageCount: 2 });
    await client.close();
  });

  test('arguments are checked, and another user’s or a disconnected connection’s data is not there: tool errors the agent can act on', async () => {
    const { t, connectionId } = await seeded();
    const theirs = await json(await t.request('/api/connections?userRef=u2'));
    const theirConversations = await json(
      await t.request(`/api/conversations?connectionId=${theirs.connections[0].id}&limit=1&fields=summary`),
    );
    const client = await connect(t, await mint(t));
    const refusal = (name: string, args: Record<string, unknown>) => refused(client, name, args);
    assert.equal(await refusal('search_conversations', {}), 'query: query is required');
    assert.equal(
      await refusal('search_conversations', { query: 'x'.repeat(201) }),
      'query: query must be at most 200 characters',
    );
    assert.equal(await refusal('list_conversations', { limit: 51 }), 'limit: limit must be at most 50');
    assert.equal(
      await refusal('list_conversations', { updatedSince: 'yesterday' }),
      'updatedSince: Invalid updatedSince parameter',
    );
    assert.match(await refusal('list_conversations', { cursor: 'bm9wZQ' }), /^Invalid cursor/);
    assert.equal(
      await refusal('list_conversations', { connectionId: theirs.connections[0].id }),
      'Connection not found',
    );
    assert.equal(
      await refusal('get_conversation', { id: theirConversations.conversations[0].id }),
      'Conversation not found',
    );
    assert.equal(await refusal('delete_conversation', { id: 'x' }), 'Unknown tool: delete_conversation');

    await t.deps.db.updateTable('connections').set({ status: 'revoked' }).where('id', '=', connectionId).execute();
    assert.equal(await refusal('list_conversations', { connectionId }), 'Connection is revoked');
    assert.deepEqual(await call(client, 'list_conversations', {}), { conversations: [], total: 0 });
    assert.deepEqual(await call(client, 'search_conversations', { query: 'marathon' }), {
      conversations: [],
      total: 0,
    });
    await client.close();
  });

  test('list_memories and list_projects answer the API’s objects of the token’s user’s open connections only, paged by cursor', async () => {
    const t = await setup();
    const importZip = async (folder: string, userRef = 'u1', apiKey = t.tenant.apiKey) => {
      const res = await t.app.request(`/api/ingest-export?userRef=${userRef}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/zip' },
        body: zipSync(zipFolderFiles(folder)) as BodyInit,
      });
      assert.equal(res.status, 200);
      return (await json(res)).connectionId as string;
    };
    // u2, and u1 of another app, have memories and projects of their own.
    const connectionId = await importZip('claude-2026-06-zip');
    await importZip('claude-2026-06-zip', 'u2');
    await importZip('claude-2025-zip', 'u1', (await onboardApp(t.deps, 'Other app')).apiKey);
    const theirs = (await json(await t.request('/api/connections?userRef=u2'))).connections[0].id;
    const viaApi = async (what: 'memories' | 'projects') =>
      (await json(await t.request(`/api/${what}?connectionId=${connectionId}`)))[what];
    const client = await connect(t, await mint(t));

    for (const what of ['memories', 'projects'] as const) {
      const tool = `list_${what}`;
      const ours = await viaApi(what);
      assert.deepEqual(await call(client, tool, {}), { [what]: ours, total: ours.length });
      assert.deepEqual(await call(client, tool, { connectionId }), { [what]: ours, total: ours.length });
      assert.equal(await refused(client, tool, { connectionId: theirs }), 'Connection not found');
      assert.equal(await refused(client, tool, { limit: 0 }), 'limit: limit must be at least 1');
    }
    assert.deepEqual((await viaApi('memories')).length, 3);
    const first = await call(client, 'list_memories', { limit: 2 });
    const second = await call(client, 'list_memories', { limit: 2, cursor: first.nextCursor });
    assert.deepEqual([...first.memories, ...second.memories], await viaApi('memories'));
    assert.equal(second.nextCursor, undefined);

    // Disconnected (kept as revoked, its rows still there): nothing of it is listed.
    await t.deps.db.updateTable('connections').set({ status: 'revoked' }).where('id', '=', connectionId).execute();
    assert.deepEqual(await call(client, 'list_memories', {}), { memories: [], total: 0 });
    assert.deepEqual(await call(client, 'list_projects', {}), { projects: [], total: 0 });
    assert.equal(await refused(client, 'list_memories', { connectionId }), 'Connection is revoked');
    await client.close();
  });

  test('memories and projects longer than a result holds come one a page, cut to fit and saying so', async () => {
    const t = await setup();
    const res = await postExport(t, zipSync(zipFolderFiles('claude-2026-06-zip')), {
      contentType: 'application/zip',
    });
    assert.equal(res.status, 200);
    await t.deps.db
      .updateTable('memories')
      .set({ content: 'word '.repeat(20_000) })
      .execute();
    const client = await connect(t, await mint(t));
    const memories: any[] = [];
    for (let cursor: string | undefined, guard = 0; guard < 10; guard++) {
      const part = await call(client, 'list_memories', cursor ? { cursor } : {});
      memories.push(...part.memories);
      cursor = part.nextCursor;
      if (!cursor) break;
    }
    assert.equal(memories.length, 3);
    for (const memory of memories) assert.match(memory.content, /^word word .*…\[cut: the memory is longer\]$/s);

    const long = 'word '.repeat(20_000);
    await t.deps.db.updateTable('projects').set({ description: long, instructions: long }).execute();
    const [project] = (await call(client, 'list_projects', {})).projects;
    assert.match(project.description, /…\[cut: the description is longer\]$/);
    assert.match(project.instructions, /…\[cut: the instructions are longer\]$/);
    assert.equal(project.knowledge.length, 2);
    await client.close();
  });

  test('a conversation longer than a result holds comes in parts, each within the bound', async () => {
    const { t } = await seeded();
    const text = 'word '.repeat(4000);
    const claude = [
      {
        uuid: 'long',
        name: 'Long one',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
        chat_messages: Array.from({ length: 30 }, (_, i) => ({
          uuid: `m${i}`,
          text: i === 29 ? text.repeat(10) : text,
          content: [{ type: 'text', text: i === 29 ? text.repeat(10) : text }],
          sender: i % 2 ? 'assistant' : 'human',
          created_at: '2026-01-01T00:00:00Z',
        })),
      },
    ];
    await postExport(t, new TextEncoder().encode(JSON.stringify(claude)), { query: 'userRef=u3' });
    const client = await connect(t, await mint(t, 'u3'));
    const [{ id }] = (await call(client, 'list_conversations', {})).conversations;
    const parts: any[] = [];
    for (let cursor: string | undefined, guard = 0; guard < 40; guard++) {
      const part = await call(client, 'get_conversation', { id, ...(cursor ? { cursor } : {}) });
      parts.push(part);
      cursor = part.nextCursor;
      if (!cursor) break;
    }
    const messages = parts.flatMap((part) => part.conversation.payload.messages);
    assert.equal(messages.length, 30);
    assert.ok(parts.length > 1);
    assert.deepEqual(
      parts.map((part) => part.firstMessage),
      parts.map((_, i) => parts.slice(0, i).reduce((sum, p) => sum + p.conversation.payload.messages.length, 0)),
    );
    assert.match(messages[29].content, /…\[cut: the message is longer\]$/);
    await client.close();
  });

  test('tool calls count in the app’s rate limit; listing the tools does not', async () => {
    const t = await setup({ RATE_LIMIT_PER_MINUTE: '2' });
    await postExport(t, fixtureBytes('claude-conversations.json'));
    const client = await connect(t, await mint(t));
    await client.listTools();
    await call(client, 'list_conversations', {});
    await call(client, 'search_conversations', { query: 'marathon' });
    await assert.rejects(client.callTool({ name: 'list_conversations', arguments: {} }), /Rate limit exceeded/);
  });
});

describe('/mcp refuses', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  });
  const post = (t: TestContext, headers: Record<string, string>, body: string = initialize) =>
    t.app.request('/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body,
    });

  test('expired, unknown, purged and API-key credentials: 401 with WWW-Authenticate: Bearer, never logging the token', async () => {
    const t = await setup();
    await postExport(t, fixtureBytes('claude-conversations.json'));
    const token = await mint(t);
    const ok = await post(t, { Authorization: `Bearer ${token}` });
    assert.equal(ok.status, 200);
    const expired = await mint(t);
    t.clock.advance(901_000);
    for (const credential of [expired, `parley_agent_${'x'.repeat(40)}`, t.tenant.apiKey, '']) {
      const res = await post(t, credential ? { Authorization: `Bearer ${credential}` } : {});
      assert.equal(res.status, 401, credential);
      assert.equal(res.headers.get('WWW-Authenticate'), 'Bearer');
    }
    assert.ok(!JSON.stringify(t.logs).includes(token.slice(13)), 'the token is in the log');
    assert.ok(t.logs.some((line) => line.path === '/mcp' && line.appId === t.tenant.appId));
  });

  test('a browser page’s request unless its origin is configured; oversized, malformed and batched bodies with a 4xx', async () => {
    const t = await setup();
    await postExport(t, fixtureBytes('claude-conversations.json'));
    const token = await mint(t);
    const auth = { Authorization: `Bearer ${token}` };
    const fromPage = await post(t, { ...auth, Origin: 'https://evil.example' });
    assert.deepEqual(
      [fromPage.status, await json(fromPage)],
      [403, { error: 'Origin not allowed: set MCP_ALLOWED_ORIGINS' }],
    );
    for (const [body, status] of [
      ['{"jsonrpc":', 400],
      ['[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', 400],
      ['{"jsonrpc":"2.0","id":1}', 400],
      ['"hello"', 400],
      [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } }), 413],
    ] as const) {
      const res = await post(t, auth, body);
      assert.equal(res.status, status, body.slice(0, 60));
    }
    const get = await t.app.request('/mcp', { headers: auth });
    assert.deepEqual([get.status, get.headers.get('Allow')], [405, 'POST']);

    const allowing = await setup({ MCP_ALLOWED_ORIGINS: 'https://app.example' });
    await postExport(allowing, fixtureBytes('claude-conversations.json'));
    const allowed = await post(allowing, {
      Authorization: `Bearer ${await mint(allowing)}`,
      Origin: 'https://app.example',
    });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('Access-Control-Allow-Origin'), 'https://app.example');
  });
});
