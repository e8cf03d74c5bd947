import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { inheritedEnv, nodeEntry, ROOT, startServer, type RunningServer } from '../conformance/server.ts';

const run = promisify(execFile);
const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

describe('the real server, started with npm start, over HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-server-'));
  const databasePath = join(dir, 'data', 'parley.db');
  let server: RunningServer;
  let apiKey: string;

  before(async () => {
    // The README's command itself; its script `exec`s node, so npm passes SIGTERM on.
    server = await startServer('npm-start', { databasePath });
    // Onboard with the CLI on the same file while the server runs.
    const { stdout } = await run(process.execPath, [nodeEntry(), 'app', 'create', '--name', 'Black box'], {
      cwd: ROOT,
      env: { ...inheritedEnv(), DATABASE_PATH: databasePath, PUBLIC_URL: server.url },
      timeout: 30_000,
    });
    apiKey = JSON.parse(stdout).apiKey;
  });

  after(async () => {
    // Whatever happened above, leave no server behind.
    await server?.stop('SIGKILL').catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  test('healthz answers ok and the version', async () => {
    const res = await fetch(`${server.url}/healthz`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(await res.json(), { ok: true, version: VERSION });
  });

  const scenarios: Array<{
    name: string;
    method?: string;
    path: string;
    auth: boolean;
    body?: string;
    status: number;
    error: string;
    allow?: string;
  }> = [
    {
      name: '401 without a key',
      path: '/api/conversations?userRef=u1',
      auth: false,
      status: 401,
      error: 'Missing Authorization header',
    },
    {
      name: '404 for an unknown user',
      path: '/api/conversations?userRef=u1',
      auth: true,
      status: 404,
      error: 'User not found',
    },
    {
      name: '404 for an unknown connection',
      path: '/api/conversations?connectionId=00000000-0000-4000-8000-000000000000',
      auth: true,
      status: 404,
      error: 'Connection not found',
    },
    {
      name: 'purge of an unknown user',
      method: 'POST',
      path: '/api/purge',
      auth: true,
      body: '{"userRef":"u1"}',
      status: 404,
      error: 'User not found',
    },
    {
      name: '405 with Allow on the listing',
      method: 'DELETE',
      path: '/api/conversations',
      auth: true,
      status: 405,
      error: 'Method not allowed',
      allow: 'GET',
    },
    {
      name: '405 with Allow on purge',
      method: 'GET',
      path: '/api/purge',
      auth: true,
      status: 405,
      error: 'Method not allowed',
      allow: 'POST',
    },
    { name: '404 for an unknown path', path: '/api/nothing-here', auth: true, status: 404, error: 'Not found' },
  ];
  for (const { name, method = 'GET', path, auth, body, status, error, allow } of scenarios) {
    test(name, async () => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: auth ? { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' } : {},
        ...(body === undefined ? {} : { body }),
      });
      assert.equal(res.status, status);
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.deepEqual(await res.json(), { error });
      if (allow) assert.equal(res.headers.get('allow'), allow);
    });
  }

  test('the listing carries the RateLimit headers', async () => {
    const res = await fetch(`${server.url}/api/connections?userRef=u1`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('ratelimit-limit'), '60');
    assert.match(res.headers.get('ratelimit-remaining') ?? '', /^\d+$/);
    const reset = Number(res.headers.get('ratelimit-reset'));
    assert.ok(
      reset % 60 === 0 && reset * 1000 > Date.now() - 1000 && reset * 1000 <= Date.now() + 61_000,
      `reset ${reset}`,
    );
  });

  test('SIGTERM stops the server cleanly, after logging without secrets', async () => {
    assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
    const lines = server.logs.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    assert.ok(lines.some((line) => line.event === 'listening'));
    assert.ok(lines.some((line) => line.event === 'shutdown' && line.signal === 'SIGTERM'));
    const requests = lines.filter((line) => line.event === 'request');
    assert.ok(requests.length >= scenarios.length + 2);
    for (const line of requests) {
      assert.equal(typeof line.status, 'number');
      assert.ok(!String(line.path).includes('?'), line.path);
    }
    const output = server.logs.join('\n');
    assert.ok(!output.includes(apiKey), 'a log line contains the API key');
    assert.ok(!output.includes('userRef=u1'));
  });
});
