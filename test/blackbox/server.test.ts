import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;
const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const CONFIG_VARIABLES = ['PORT', 'HOST', 'DATABASE_PATH', 'PUBLIC_URL', 'RATE_LIMIT_PER_MINUTE', 'MAX_EXPORT_BYTES', 'WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_TIMEOUT_MS', 'STALE_AFTER_DAYS', 'LOG_LEVEL'];
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !CONFIG_VARIABLES.includes(name)));

/** A port nobody listens on right now: the kernel picks it, we let it go. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function collect(child: ChildProcess) {
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk) => (out.stdout += chunk));
  child.stderr!.on('data', (chunk) => (out.stderr += chunk));
  return out;
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('the real server over HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-server-'));
  const databasePath = join(dir, 'data', 'parley.db');
  let server: ChildProcess;
  let output: { stdout: string; stderr: string };
  let base: string;
  let apiKey: string;

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The README's command itself; its script `exec`s node, so npm passes SIGTERM on.
    server = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { ...cleanEnv(), PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: databasePath, LOG_LEVEL: 'info', PUBLIC_URL: base },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    output = collect(server);

    // Bounded wait for start-up: at most ~15 s.
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited early: ${output.stderr}`);
      try {
        const res = await fetch(`${base}/healthz`);
        if (res.ok) break;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`server did not answer /healthz within 15 s: ${output.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // Onboard with the CLI on the same file while the server runs.
    const cli = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'app', 'create', '--name', 'Black box'], {
      cwd: ROOT,
      env: { ...cleanEnv(), DATABASE_PATH: databasePath, PUBLIC_URL: base },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const cliOutput = collect(cli);
    const { code } = await within(exited(cli), 30_000, 'app create');
    assert.equal(code, 0, cliOutput.stderr);
    apiKey = JSON.parse(cliOutput.stdout).apiKey;
  });

  after(async () => {
    // Whatever happened above, leave no server behind.
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL');
      await exited(server);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('healthz answers ok and the version', async () => {
    const res = await fetch(`${base}/healthz`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(await res.json(), { ok: true, version: VERSION });
  });

  const scenarios: Array<{ name: string; method?: string; path: string; auth: boolean; body?: string; status: number; error: string; allow?: string }> = [
    { name: '401 without a key', path: '/api/conversations?userRef=u1', auth: false, status: 401, error: 'Missing Authorization header' },
    { name: '404 for an unknown user', path: '/api/conversations?userRef=u1', auth: true, status: 404, error: 'User not found' },
    { name: '404 for an unknown connection', path: '/api/conversations?connectionId=00000000-0000-4000-8000-000000000000', auth: true, status: 404, error: 'Connection not found' },
    { name: 'purge of an unknown user', method: 'POST', path: '/api/purge', auth: true, body: '{"userRef":"u1"}', status: 404, error: 'User not found' },
    { name: '405 with Allow on the listing', method: 'DELETE', path: '/api/conversations', auth: true, status: 405, error: 'Method not allowed', allow: 'GET' },
    { name: '405 with Allow on purge', method: 'GET', path: '/api/purge', auth: true, status: 405, error: 'Method not allowed', allow: 'POST' },
    { name: '404 for an unknown path', path: '/api/nothing-here', auth: true, status: 404, error: 'Not found' },
  ];
  for (const { name, method = 'GET', path, auth, body, status, error, allow } of scenarios) {
    test(name, async () => {
      const res = await fetch(`${base}${path}`, {
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
    const res = await fetch(`${base}/api/connections?userRef=u1`, { headers: { Authorization: `Bearer ${apiKey}` } });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('ratelimit-limit'), '60');
    assert.match(res.headers.get('ratelimit-remaining') ?? '', /^\d+$/);
    const reset = Number(res.headers.get('ratelimit-reset'));
    assert.ok(reset % 60 === 0 && reset * 1000 > Date.now() - 1000 && reset * 1000 <= Date.now() + 61_000, `reset ${reset}`);
  });

  test('SIGTERM stops the server cleanly, after logging without secrets', async () => {
    server.kill('SIGTERM');
    const { code, signal } = await within(exited(server), 10_000, 'shutdown');
    assert.deepEqual({ code, signal }, { code: 0, signal: null });

    const lines = output.stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.ok(lines.some((line) => line.event === 'listening'));
    assert.ok(lines.some((line) => line.event === 'shutdown' && line.signal === 'SIGTERM'));
    const requests = lines.filter((line) => line.event === 'request');
    assert.ok(requests.length >= scenarios.length + 2);
    for (const line of requests) {
      assert.equal(typeof line.status, 'number');
      assert.ok(!String(line.path).includes('?'), line.path);
    }
    assert.ok(!output.stdout.includes(apiKey) && !output.stderr.includes(apiKey), 'a log line contains the API key');
    assert.ok(!output.stdout.includes('userRef=u1'));
  });
});

test('a bad configuration stops start-up with one line naming the variable', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/runtime/node.ts'], {
    cwd: ROOT,
    env: { ...cleanEnv(), PORT: 'abc', DATABASE_PATH: join(tmpdir(), 'parley-never-created', 'parley.db') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  try {
    const { code } = await within(exited(child), 30_000, 'start-up');
    assert.equal(code, 1);
    assert.equal(output.stdout, '');
    assert.equal(output.stderr, 'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")\n');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
