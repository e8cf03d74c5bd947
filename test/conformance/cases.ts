/**
 * The black-box conformance cases: everything here talks to a real Parley process
 * over HTTP. Only onboarding an app and setting its webhook endpoint go through
 * the service modules, on the same SQLite file (WAL lets both processes in).
 * `defineConformance(runtime)` registers the same cases for every runtime.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { strToU8, zipSync } from 'fflate';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { signLink } from 'parley-sdk';
import { onboardApp } from '../../src/apps/apps.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import type { Db } from '../../src/db/database.ts';
import { openPostgres } from '../../src/db/dialects/postgres.ts';
import { readSchema } from '../../src/db/schema-file.ts';
import { cryptoRandom, systemClock } from '../../src/deps.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import {
  conversationsInFixture,
  everyPage,
  EXPORT_FIXTURE_NAMES,
  FIXTURE_CONVERSATIONS_BY_PROVIDER,
  fixtureBytes,
  fixtureContentType,
  fixtureJson,
  providerOfFixture,
  zipFolderFiles,
} from '../helpers.ts';
import { checkAnswer } from '../openapi-check.ts';
import { hiddenField } from '../pages/page-client.ts';
import { createDatabase, NO_TEST_POSTGRES, testPostgresUrl } from '../postgres-server.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { ROOT, startServer, type RunningServer, type RuntimeName } from './server.ts';
import { parseConfig } from '../../src/config.ts';

export const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

/** The conformance servers' limit, low enough to reach in one burst. */
export const RATE_LIMIT = 25;
/** Small enough that a 413 costs one megabyte, larger than every export sent here. */
export const MAX_EXPORT_BYTES = 1_000_000;

// ---------------------------------------------------------------------------
// HTTP helpers
// ---------------------------------------------------------------------------

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export interface CallOptions {
  method?: string;
  /** The Bearer value; none is sent when undefined. */
  bearer?: string | undefined;
  headers?: Record<string, string>;
  body?: BodyInit;
}

/** One request; never follows redirects, so 303s can be checked. */
export async function call(
  base: string,
  path: string,
  { method = 'GET', bearer, headers = {}, body }: CallOptions = {},
): Promise<Answer> {
  const all: Record<string, string> = { ...headers };
  if (bearer !== undefined) all.Authorization = `Bearer ${bearer}`;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: all,
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
    ...(body === undefined ? {} : { body }),
  });
  const got = await answer(response);
  checkAnswer(method, path, got);
  return got;
}

/** Asserts an API answer: the status, JSON content type, and (when given) the exact body. */
export function expectJson(got: Answer, status: number, body?: unknown, what = ''): any {
  assert.equal(got.status, status, `${what} status ${got.status}: ${got.text.slice(0, 500)}`);
  assert.equal(got.headers.get('content-type'), 'application/json', `${what} content type`);
  assert.notEqual(got.json, undefined, `${what} body is JSON`);
  if (body !== undefined) assert.deepEqual(got.json, body, what);
  return got.json;
}

/** A copy on its own ArrayBuffer: usable as a fetch body and as a Blob part. */
export const bytesBody = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

export function ingest(
  base: string,
  bearer: string,
  bytes: Uint8Array,
  query: string,
  contentType = 'application/json',
) {
  return call(base, `/api/ingest-export?${query}`, {
    method: 'POST',
    bearer,
    headers: { 'Content-Type': contentType },
    body: bytesBody(bytes),
  });
}

/** Every page of a connection's conversations, `limit` asked for on each (see everyPage). */
export const walkConversations = (base: string, bearer: string, connectionId: string, limit = 50) =>
  everyPage(async (offset) => {
    const page = expectJson(
      await call(base, `/api/conversations?connectionId=${connectionId}&limit=${limit}&offset=${offset}`, { bearer }),
      200,
      undefined,
      `page at ${offset}`,
    );
    assert.equal(page.limit, limit);
    return page;
  });

export interface OversizedUpload {
  /** Whether every byte (and the closing chunk) was handed to the socket before the server closed it. */
  complete: boolean;
  sent: number;
  /** Bytes handed to the socket when the first byte of the answer arrived. */
  sentWhenAnswered: number | null;
  /** The raw response, as far as it arrived. */
  response: string;
}

/**
 * POSTs `totalBytes` of export over a raw socket, as fast as the server reads, with
 * Content-Length or chunked, and reports how far it got. A server that stops
 * reading at the limit (after a bounded drain, on Node: its lingering close)
 * makes the writes fail after that and the kernel's socket buffers (a few MB on
 * loopback); one that reads on takes all of it.
 */
export function oversizedUpload(
  base: string,
  bearer: string,
  { chunked, totalBytes }: { chunked: boolean; totalBytes: number },
): Promise<OversizedUpload> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    let sentWhenAnswered: number | null = null;
    let response = '';
    let complete = false;
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ complete, sent, sentWhenAnswered, response });
    };
    const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${totalBytes}`;
    socket.write(
      `POST /api/ingest-export?userRef=oversized HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${bearer}\r\n` +
        `Content-Type: application/json\r\n${length}\r\n\r\n`,
    );
    const pump = () => {
      while (!settled && sent < totalBytes) {
        sent += chunk.length;
        const data = chunked
          ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
          : chunk;
        if (!socket.write(data)) return void socket.once('drain', pump);
      }
      if (settled) return;
      socket.write(chunked ? '0\r\n\r\n' : '', () => {
        complete = !settled;
        // Everything went out: give the server a moment to answer, then stop waiting.
        timer = setTimeout(settle, 2_000);
      });
    };
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      sentWhenAnswered ??= sent;
      response += data;
    });
    socket.on('error', settle);
    socket.on('close', settle);
    socket.on('connect', pump);
    timer = setTimeout(settle, 15_000);
  });
}

/** A minimal browser: keeps cookies, follows nothing, remembers what it was told. */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly setCookieLines: string[] = [];

  /** `send`: fetch, or one that trusts a test's own certificate authority. */
  constructor(
    private readonly base: string,
    private readonly send: typeof fetch = fetch,
  ) {}

  async request(path: string, init: { method?: string; body?: BodyInit } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.send(new URL(path, this.base), {
      ...init,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
    for (const line of response.headers.getSetCookie()) {
      this.setCookieLines.push(line);
      const pair = line.split(';')[0]!;
      const cut = pair.indexOf('=');
      const [name, value] = [pair.slice(0, cut).trim(), pair.slice(cut + 1).trim()];
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer(response);
  }

  /** Not a navigation to the server: fetch() sends `Sec-Fetch-Mode: cors` whatever it is asked to. */
  get(path: string) {
    return this.request(path);
  }

  post(path: string, body: BodyInit) {
    return this.request(path, { method: 'POST', body });
  }
}

/** The path a 303 sends the browser to. */
export function redirectTarget(got: Answer, base: string): string {
  assert.equal(got.status, 303, `expected a 303, got ${got.status}: ${got.text.slice(0, 300)}`);
  const location = got.headers.get('location');
  assert.ok(location, 'a Location header');
  const target = new URL(location, base);
  assert.equal(target.origin, new URL(base).origin, 'redirects stay on the service');
  return target.pathname + target.search;
}

/** What every hosted page answer carries (every hosted page's headers). */
export function expectPage(got: Answer, status: number, contains: string | RegExp, what = '') {
  assert.equal(got.status, status, `${what} status ${got.status}: ${got.text.slice(0, 500)}`);
  assert.match(got.headers.get('content-type') ?? '', /^text\/html\b/, `${what} content type`);
  assert.ok(got.text.startsWith('<!doctype html>'), `${what} is an HTML document`);
  assert.match(got.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, `${what} CSP`);
  assert.doesNotMatch(
    got.headers.get('content-security-policy') ?? '',
    /unsafe-inline/,
    `${what} CSP allows no inline script`,
  );
  assert.equal(got.headers.get('cache-control'), 'no-store', `${what} Cache-Control`);
  assert.equal(got.headers.get('referrer-policy'), 'no-referrer', `${what} Referrer-Policy`);
  assert.equal(got.headers.get('x-content-type-options'), 'nosniff', `${what} nosniff`);
  if (typeof contains === 'string')
    assert.ok(got.text.includes(contains), `${what} page says ${JSON.stringify(contains)}`);
  else assert.match(got.text, contains, what);
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

// ---------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------

/** Text that must never reach a log line (no conversation text, ever). */
export const CANARY_TEXT = 'canary-text-that-must-not-be-logged';

const GENERATED_NEWEST = Date.parse('2025-06-01T12:00:00.000Z');

/**
 * A Claude export of `count` conversations; conversation i was updated i minutes
 * before the newest, and the file lists them shuffled so order comes from the server.
 */
export function claudeExport(count: number, prefix = 'generated') {
  const conversations = Array.from({ length: count }, (_, i) => {
    const time = new Date(GENERATED_NEWEST - i * 60_000).toISOString();
    const question = `Question ${i} ${CANARY_TEXT}`;
    return {
      uuid: `${prefix}-${String(i).padStart(4, '0')}`,
      name: `Conversation ${i}`,
      created_at: time,
      updated_at: time,
      chat_messages: [
        {
          uuid: `${prefix}-${i}-q`,
          sender: 'human',
          text: question,
          content: [{ type: 'text', text: question }],
          created_at: time,
        },
        {
          uuid: `${prefix}-${i}-a`,
          sender: 'assistant',
          text: `Answer ${i}`,
          content: [{ type: 'text', text: `Answer ${i}` }],
          created_at: time,
        },
      ],
    };
  });
  // 97 is prime to any count used here, so this visits every index once, out of order.
  const shuffled = conversations.map((_, i) => conversations[(i * 97) % count]!);
  return { conversations, bytes: strToU8(JSON.stringify(shuffled)) };
}

/** A ChatGPT export zip as newer exports come: conversations split over numbered files, with other files beside them. */
export function splitChatGptZip() {
  const zip = zipSync(zipFolderFiles('chatgpt-zip'));
  const ids = [
    ...fixtureJson('chatgpt-zip/conversations-000.json'),
    ...fixtureJson('chatgpt-zip/conversations-001.json'),
  ].map((c: any) => c.id ?? c.conversation_id);
  return { zip, ids: ids as string[] };
}

// ---------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------

export interface Tenant {
  appId: string;
  appSecret: string;
  apiKey: string;
}

export interface ConformanceOptions {
  /** Only the smoke subset: healthz, auth, one import, listing, a page, the stylesheet, shutdown. */
  smoke?: boolean;
  binaryPath?: string;
  /** Working directory of the server process. */
  cwd?: string;
  /** A PostgreSQL database of its own (DATABASE_URL) instead of a SQLite file. */
  postgres?: boolean;
}

async function waitFor<T>(what: string, ms: number, check: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

export function defineConformance(runtime: RuntimeName, options: ConformanceOptions = {}) {
  const { smoke = false, postgres = false } = options;
  const fullCase = (name: string, fn: (t: TestContext) => Promise<void>) =>
    smoke ? undefined : test(name, { timeout: 120_000 }, fn);
  const serverUrl = testPostgresUrl();

  describe(`conformance: ${runtime}${postgres ? ' on PostgreSQL' : ''}${smoke ? ' (smoke)' : ''}`, {
    timeout: 300_000,
    skip: postgres && !serverUrl ? NO_TEST_POSTGRES : false,
  }, () => {
    const dir = mkdtempSync(join(tmpdir(), `parley-conformance-${runtime}-`));
    const databaseAt = (name: string) => join(dir, name, 'parley.db');
    const databasePath = databaseAt('data');
    let server: RunningServer;
    let base: string;
    let db: Db | undefined;
    /** Every credential and token used, none of which may appear in a log line. */
    const secrets: string[] = [];
    const cleanups: Array<() => Promise<void>> = [];

    const onboard = async (name: string, into: Db = db!): Promise<Tenant> => {
      const tenant = await onboardApp({ db: into, clock: systemClock, random: cryptoRandom }, `${name} (${runtime})`);
      secrets.push(tenant.apiKey, tenant.appSecret);
      return tenant;
    };
    const sign = async (tenant: Tenant, userRef: string, purpose: 'connect' | 'manage', expiresInSeconds?: number) => {
      const link = await signLink(
        {
          appId: tenant.appId,
          userRef,
          scopes: ['conversations:read'],
          purpose,
          baseUrl: base,
          ...(expiresInSeconds ? { expiresInSeconds } : {}),
        },
        tenant.appSecret,
      );
      secrets.push(tokenOf(link));
      return link;
    };
    const api = (path: string, bearer: string | undefined, init: Omit<CallOptions, 'bearer'> = {}) =>
      call(base, path, { ...init, bearer });

    /** A server of this suite's runtime over a database of its own (`name`), and that database opened here. */
    const startOwnServer = async (name: string) => {
      const databaseUrl = postgres
        ? await createDatabase(serverUrl!, `conformance_${runtime.replace(/\W/g, '_')}_${name}_${Date.now()}`)
        : undefined;
      const started = await startServer(runtime, {
        databasePath: databaseAt(name),
        env: {
          RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
          MAX_EXPORT_BYTES: String(MAX_EXPORT_BYTES),
          // The ingest refusals are sent all at once: each must meet its own check, not a full queue.
          MAX_CONCURRENT_IMPORTS: '32',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
        ...(options.binaryPath ? { binaryPath: options.binaryPath } : {}),
        ...(options.cwd ? { cwd: options.cwd } : {}),
      });
      const opened = databaseUrl
        ? await openPostgres(databaseUrl, readSchema('schema.postgres.sql'), { poolSize: 2, allowExitOnIdle: true })
        : openBetterSqlite3(databaseAt(name));
      return { server: started, db: opened };
    };

    /** Asserts that no line of `logs` carries a credential, a token or conversation text. */
    const assertNothingSecretIn = (logs: string[]) => {
      for (const line of logs) {
        for (const secret of secrets)
          assert.ok(!line.includes(secret), `a log line carries a secret (${secret.slice(0, 10)}…): ${line}`);
        assert.ok(!line.includes(CANARY_TEXT), `a log line carries conversation text: ${line}`);
      }
    };

    before(async () => {
      ({ server, db } = await startOwnServer('data'));
      base = server.url;
    });

    after(async () => {
      for (const cleanup of cleanups) await cleanup().catch(() => undefined);
      await db?.destroy();
      try {
        if (server) await server.stop('SIGTERM');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('GET /healthz answers ok and the version', async (t) => {
      t.diagnostic(`${runtime}: first 200 from /healthz ${server.startupMs} ms after spawn`);
      expectJson(await call(base, '/healthz'), 200, { ok: true, version: VERSION });
    });

    fullCase('unknown paths are a JSON 404', async () => {
      expectJson(await call(base, '/no-such-page'), 404, { error: 'Not found' });
      expectJson(await call(base, '/api/no-such-endpoint', { method: 'POST' }), 404, { error: 'Not found' });
    });

    fullCase('other methods on API paths are a 405 with Allow', async () => {
      const { apiKey } = await onboard('Methods');
      for (const [method, path, allow] of [
        ['DELETE', '/api/conversations', 'GET'],
        ['POST', '/api/connections', 'GET'],
        ['GET', '/api/purge', 'POST'],
        ['PUT', '/api/ingest-export', 'POST'],
      ] as const) {
        const got = await api(path, apiKey, { method });
        expectJson(got, 405, { error: 'Method not allowed' }, `${method} ${path}`);
        assert.equal(got.headers.get('allow'), allow, `${method} ${path} Allow`);
      }
    });

    test('authentication: missing, malformed and unknown credentials; the app secret still works, deprecated', async () => {
      const tenant = await onboard('Auth');
      for (const path of ['/api/conversations?userRef=u1', '/api/connections?userRef=u1']) {
        const missing = await call(base, path);
        expectJson(missing, 401, { error: 'Missing Authorization header' }, `${path} without a header`);
        assert.equal(
          missing.headers.get('ratelimit-limit'),
          null,
          'a request that fails authentication has no counter',
        );
        expectJson(
          await call(base, path, { headers: { Authorization: `Basic ${tenant.apiKey}` } }),
          401,
          { error: 'Missing Authorization header' },
          'Basic',
        );
        expectJson(
          await call(base, path, { headers: { Authorization: tenant.apiKey } }),
          401,
          { error: 'Missing Authorization header' },
          'no Bearer prefix',
        );
        expectJson(await api(path, `parley_${'x'.repeat(40)}`), 401, { error: 'Invalid API key' }, 'unknown key');
      }
      expectJson(
        await call(base, '/api/purge', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"userRef":"u1"}',
        }),
        401,
        { error: 'Missing Authorization header' },
      );
      expectJson(await ingest(base, 'parley_nope', fixtureBytes('claude-thinking.json'), 'userRef=u1'), 401, {
        error: 'Invalid API key',
      });

      // The app secret as Bearer: works, and says it is deprecated (RFC 9745 `@<unix seconds>`).
      const imported = await ingest(base, tenant.appSecret, fixtureBytes('claude-thinking.json'), 'userRef=auth-user');
      expectJson(imported, 200);
      assert.match(imported.headers.get('deprecation') ?? '', /^@\d+$/, 'Deprecation header on ingest');
      const listed = await api('/api/conversations?userRef=auth-user', tenant.appSecret);
      assert.equal(expectJson(listed, 200).connections.length, 1);
      assert.match(listed.headers.get('deprecation') ?? '', /^@\d+$/, 'Deprecation header on listing');

      const withKey = await api('/api/conversations?userRef=auth-user', tenant.apiKey);
      expectJson(withKey, 200, listed.json);
      assert.equal(withKey.headers.get('deprecation'), null, 'no Deprecation header with an API key');
    });

    // Every runtime and the binary run these two (the smoke subset too).
    test('resumable upload: created, sent in two PATCHes, its offset asked with HEAD, imported with upload=<id>', async () => {
      const { apiKey } = await onboard('Uploads');
      const bytes = fixtureBytes('claude-conversations.json');
      const half = Math.floor(bytes.length / 2);
      const tus = { 'Tus-Resumable': '1.0.0' };
      const created = await api('/api/uploads', apiKey, {
        method: 'POST',
        headers: {
          ...tus,
          'Upload-Length': String(bytes.length),
          'Upload-Metadata': `filename ${btoa('export.json')}`,
        },
      });
      assert.equal(created.status, 201, created.text);
      const path = created.headers.get('Location')!;
      const offsetAfter = async (part: Uint8Array, offset: number) => {
        const patched = await api(path, apiKey, {
          method: 'PATCH',
          headers: { ...tus, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(offset) },
          body: bytesBody(part),
        });
        assert.equal(patched.status, 204, patched.text);
        const asked = await api(path, apiKey, { method: 'HEAD', headers: tus });
        assert.equal(asked.headers.get('Upload-Length'), String(bytes.length));
        return Number(asked.headers.get('Upload-Offset'));
      };
      assert.equal(await offsetAfter(bytes.subarray(0, half), 0), half);
      assert.equal(await offsetAfter(bytes.subarray(half), half), bytes.length);
      const id = path.split('/').at(-1);
      const imported = expectJson(
        await api(`/api/ingest-export?userRef=tus-user&upload=${id}`, apiKey, { method: 'POST' }),
        200,
      );
      assert.deepEqual([imported.provider, imported.created], ['anthropic', 5]);
      assert.equal((await api(path, apiKey, { method: 'HEAD', headers: tus })).status, 404, 'gone once imported');
    });

    test('/mcp: an agent token initializes, lists the tools and calls one', async () => {
      const { apiKey } = await onboard('Agents');
      expectJson(await ingest(base, apiKey, fixtureBytes('claude-conversations.json'), 'userRef=agent-user'), 200);
      const { token } = expectJson(
        await api('/api/agent-tokens', apiKey, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ userRef: 'agent-user' }),
        }),
        200,
      );
      secrets.push(token);
      const rpc = async (id: number, method: string, params: Record<string, unknown>) => {
        const got = await api('/mcp', token, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'Mcp-Protocol-Version': '2025-06-18',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        });
        assert.equal(got.status, 200, got.text);
        assert.equal(got.json?.id, id, got.text);
        return got.json.result;
      };
      const initialized = await rpc(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'conformance', version: '1' },
      });
      assert.deepEqual([initialized.serverInfo.name, initialized.serverInfo.version], ['parley', VERSION]);
      const { tools } = await rpc(2, 'tools/list', {});
      assert.deepEqual(
        tools.map((tool: { name: string }) => tool.name),
        ['search_conversations', 'list_conversations', 'get_conversation', 'list_memories', 'list_projects'],
      );
      const searched = await rpc(3, 'tools/call', { name: 'search_conversations', arguments: { query: 'postgres' } });
      assert.deepEqual(
        searched.structuredContent.conversations.map((c: { title: string }) => c.title),
        ['Speeding up a slow Postgres query'],
      );
      assert.deepEqual(JSON.parse(searched.content[0].text), searched.structuredContent);
    });

    if (smoke) {
      test('smoke: one export in, its connection and conversations out', async () => {
        const { apiKey } = await onboard('Smoke');
        const imported = expectJson(
          await ingest(base, apiKey, fixtureBytes('claude-conversations.json'), 'userRef=smoke-user'),
          200,
        );
        assert.deepEqual(
          { ...imported, connectionId: typeof imported.connectionId },
          {
            ok: true,
            userRef: 'smoke-user',
            connectionId: 'string',
            provider: 'anthropic',
            created: 5,
            updated: 0,
            unchanged: 0,
            skipped: 0,
            conversationCount: 5,
            // claude-conversations.json's paste (explain.txt).
            attachmentCount: 1,
            memories: { created: 0, updated: 0, unchanged: 0 },
            projects: { created: 0, updated: 0, unchanged: 0 },
            memoryCount: 0,
            projectCount: 0,
            notRead: [],
          },
        );
        const { connections } = expectJson(await api('/api/conversations?userRef=smoke-user', apiKey), 200);
        assert.deepEqual(
          connections.map((c: any) => [c.id, c.provider, c.status, c.conversationCount]),
          [[imported.connectionId, 'anthropic', 'active', 5]],
        );
        const page = expectJson(await api(`/api/conversations?connectionId=${imported.connectionId}`, apiKey), 200);
        assert.deepEqual([page.total, page.limit, page.offset, page.conversations.length], [5, 50, 0, 5]);
        const times = page.conversations.map((c: any) => c.update_time ?? '');
        assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
      });
    }

    fullCase(
      'every fixture imports (JSON, and CSV as text/csv) with its provider; importing it again changes nothing',
      async () => {
        const { apiKey } = await onboard('Fixtures');
        assert.equal(EXPORT_FIXTURE_NAMES.length, 28);
        const counts: Record<string, number> = {};
        for (const name of EXPORT_FIXTURE_NAMES) {
          const n = conversationsInFixture(name);
          const first = expectJson(
            await ingest(base, apiKey, fixtureBytes(name), 'userRef=fixtures', fixtureContentType(name)),
            200,
            undefined,
            name,
          );
          assert.equal(first.ok, true);
          assert.equal(first.userRef, 'fixtures');
          assert.equal(first.provider, providerOfFixture(name), `${name} provider`);
          assert.equal(
            first.created + first.updated + first.unchanged + first.skipped,
            n,
            `${name} counts ${JSON.stringify(first)}`,
          );
          const again = expectJson(
            await ingest(base, apiKey, fixtureBytes(name), 'userRef=fixtures', fixtureContentType(name)),
            200,
            undefined,
            `${name} again`,
          );
          assert.deepEqual(
            again,
            { ...first, created: 0, updated: 0, unchanged: n - first.skipped, skipped: first.skipped },
            `${name}: a re-import leaves everything unchanged`,
          );
          counts[first.provider] = first.conversationCount;
        }
        assert.deepEqual(counts, FIXTURE_CONVERSATIONS_BY_PROVIDER);
        const { connections } = expectJson(await api('/api/conversations?userRef=fixtures', apiKey), 200);
        assert.deepEqual(Object.fromEntries(connections.map((c: any) => [c.provider, c.conversationCount])), counts);
      },
    );

    fullCase('a zip with conversations split over numbered files imports them all', async () => {
      const { apiKey } = await onboard('Zip');
      const { zip, ids } = splitChatGptZip();
      const imported = expectJson(await ingest(base, apiKey, zip, 'userRef=zip-user', 'application/zip'), 200);
      assert.deepEqual(
        [imported.provider, imported.created, imported.skipped, imported.conversationCount],
        ['openai', ids.length, 0, ids.length],
      );
      const page = expectJson(await api(`/api/conversations?connectionId=${imported.connectionId}`, apiKey), 200);
      assert.deepEqual(
        page.conversations.map((c: any) => c.external_id).sort(),
        [...ids].sort(),
        'conversations from both files',
      );
      const again = expectJson(await ingest(base, apiKey, zip, 'userRef=zip-user', 'application/zip'), 200);
      assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, ids.length]);
    });

    fullCase('a multipart upload: userRef, then the file', async () => {
      const { apiKey } = await onboard('Multipart');
      const form = new FormData();
      form.append('userRef', 'form-user');
      form.append('provider', 'anthropic');
      form.append(
        'file',
        new Blob([bytesBody(fixtureBytes('claude-conversations.json'))], { type: 'application/json' }),
        'conversations.json',
      );
      const imported = expectJson(await api('/api/ingest-export', apiKey, { method: 'POST', body: form }), 200);
      assert.deepEqual(
        { ...imported, connectionId: typeof imported.connectionId },
        {
          ok: true,
          userRef: 'form-user',
          connectionId: 'string',
          provider: 'anthropic',
          created: 5,
          updated: 0,
          unchanged: 0,
          skipped: 0,
          conversationCount: 5,
          // claude-conversations.json's paste (explain.txt).
          attachmentCount: 1,
          memories: { created: 0, updated: 0, unchanged: 0 },
          projects: { created: 0, updated: 0, unchanged: 0 },
          memoryCount: 0,
          projectCount: 0,
          notRead: [],
        },
      );
    });

    fullCase('ingest refusals, with their exact messages', async () => {
      const tenant = await onboard('Refusals');
      const other = await onboard('Refusals, other app');
      const key = tenant.apiKey;
      const claude = fixtureBytes('claude-conversations.json');
      const chatgpt = fixtureBytes('chatgpt-branches.json');
      const mine = expectJson(await ingest(base, key, chatgpt, 'userRef=owner'), 200);
      const theirs = expectJson(await ingest(base, other.apiKey, claude, 'userRef=owner'), 200);
      const otherUser = expectJson(await ingest(base, key, claude, 'userRef=someone-else'), 200);

      const cases: Array<[string, Promise<Answer>, number, string | RegExp]> = [
        ['image/png', ingest(base, key, claude, 'userRef=u1', 'image/png'), 415, 'Unsupported content type'],
        [
          'no content type',
          call(base, '/api/ingest-export?userRef=u1', {
            method: 'POST',
            bearer: key,
            body: new Blob([bytesBody(claude)]),
          }),
          415,
          'Unsupported content type',
        ],
        ['415 before the missing userRef', ingest(base, key, claude, '', 'image/png'), 415, 'Unsupported content type'],
        ['no userRef', ingest(base, key, claude, ''), 400, 'Missing userRef parameter'],
        ['empty userRef', ingest(base, key, claude, 'userRef='), 400, 'Missing userRef parameter'],
        [
          'not JSON',
          ingest(base, key, strToU8('{"this is": not json'), 'userRef=u1'),
          400,
          /^Invalid export file(: .+)?$/,
        ],
        [
          'truncated JSON',
          ingest(base, key, claude.slice(0, Math.floor(claude.length / 2)), 'userRef=u1'),
          400,
          /^Invalid export file(: .+)?$/,
        ],
        [
          'not a zip',
          ingest(base, key, strToU8('PK but not really a zip'), 'userRef=u1', 'application/zip'),
          400,
          /^Invalid export file(: .+)?$/,
        ],
        [
          'unknown shape',
          ingest(base, key, strToU8('[{"hello": "world"}]'), 'userRef=u1'),
          400,
          'Unrecognized export format',
        ],
        [
          'a CSV whose header is not Copilot’s',
          ingest(base, key, strToU8('Date,Query\r\n2026-01-10T08:00:00,birthday cards\r\n'), 'userRef=u1', 'text/csv'),
          400,
          'Unrecognized export format',
        ],
        [
          'empty array without a provider',
          ingest(base, key, strToU8('[]'), 'userRef=u1'),
          400,
          'Unrecognized export format',
        ],
        [
          'unknown provider',
          ingest(base, key, claude, 'userRef=u1&provider=gemini'),
          400,
          'Invalid provider parameter',
        ],
        [
          'provider disagrees with the file',
          ingest(base, key, claude, 'userRef=u1&provider=openai'),
          400,
          'Invalid provider parameter',
        ],
        [
          'unknown connectionId',
          ingest(base, key, claude, 'userRef=owner&connectionId=00000000-0000-4000-8000-000000000000'),
          404,
          'Connection not found',
        ],
        [
          "another app's connection",
          ingest(base, key, claude, `userRef=owner&connectionId=${theirs.connectionId}`),
          404,
          'Connection not found',
        ],
        [
          "another user's connection",
          ingest(base, key, claude, `userRef=owner&connectionId=${otherUser.connectionId}`),
          404,
          'Connection not found',
        ],
        [
          "the connection's provider differs from the file",
          ingest(base, key, claude, `userRef=owner&connectionId=${mine.connectionId}`),
          400,
          'Invalid provider parameter',
        ],
        [
          'too large',
          ingest(base, key, new Uint8Array(MAX_EXPORT_BYTES + 1).fill(0x20), 'userRef=u1'),
          413,
          'Export file too large',
        ],
      ];
      for (const [what, request, status, message] of cases) {
        const got = await request;
        expectJson(got, status, undefined, what);
        assert.deepEqual(Object.keys(got.json), ['error'], `${what}: only an error field`);
        if (typeof message === 'string') assert.equal(got.json.error, message, what);
        else assert.match(got.json.error, message, what);
      }
      // Nothing refused left anything behind: u1 was never created.
      expectJson(await api('/api/conversations?userRef=u1', key), 404, { error: 'User not found' });
      // An empty export with a provider is a user with no conversations.
      const empty = expectJson(await ingest(base, key, strToU8('[]'), 'userRef=empty-user&provider=anthropic'), 200);
      assert.deepEqual([empty.provider, empty.created, empty.conversationCount], ['anthropic', 0, 0]);
    });

    fullCase('an over-large upload: 413, Connection: close, and the server stops reading', async () => {
      const { apiKey } = await onboard('Oversized');
      const problems: string[] = [];
      const check = (what: string, ok: boolean, detail: string) => void (ok || problems.push(`${what}: ${detail}`));

      // Through fetch: with Content-Length, and streamed without one.
      const chunk = new Uint8Array(64 * 1024).fill(0x20);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 2 * MAX_EXPORT_BYTES) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk.slice());
        },
      });
      // A server that stops reading must close the connection on the bytes still
      // coming: TCP answers those with a reset, which can beat the 413 to a busy
      // client (seen under Bun). Then there is no answer to check, only that
      // nothing was written (below). Caught at once: both requests run together.
      const resetOr = (request: Promise<Answer>) =>
        request.catch((error: Error & { cause?: { code?: string } }) => {
          if (['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'].includes(error.cause?.code ?? '')) return undefined;
          throw error;
        });
      const viaFetch: Array<[string, Promise<Answer | undefined>]> = [
        [
          'fetch, Content-Length',
          resetOr(ingest(base, apiKey, new Uint8Array(MAX_EXPORT_BYTES + 1).fill(0x20), 'userRef=oversized')),
        ],
        [
          'fetch, streamed',
          resetOr(
            fetch(`${base}/api/ingest-export?userRef=oversized`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
              body: stream,
              duplex: 'half',
              signal: AbortSignal.timeout(15_000),
            } as RequestInit).then(answer),
          ),
        ],
      ];
      for (const [what, request] of viaFetch) {
        const got = await request;
        if (got === undefined) continue;
        expectJson(got, 413, { error: 'Export file too large' }, what);
        check(
          what,
          got.headers.get('connection') === 'close',
          `Connection header is ${JSON.stringify(got.headers.get('connection'))}, expected "close"`,
        );
      }

      // Over a raw socket, 32 MB: far beyond what loopback socket buffers and Node's
      // lingering close (16 MB) take, so finishing the writes means the server read
      // the whole body.
      for (const chunked of [false, true]) {
        const what = chunked ? 'raw, chunked' : 'raw, Content-Length';
        const totalBytes = 32 * 1024 * 1024;
        const result = await oversizedUpload(base, apiKey, { chunked, totalBytes });
        // Deno.serve cannot be told to drop a connection: after the 413 and its
        // `Connection: close` it reads a declared Content-Length body to its end
        // (discarding it) before closing, and on a busy machine it may have read
        // all of it before the answer goes out. Clients stop sending on such an
        // answer (curl, browsers, Node's fetch); this raw client does not.
        // Documented in the README.
        const denoDrainsDeclaredBody = runtime === 'deno' && !chunked;
        if (result.response !== '') {
          const head = result.response.split('\r\n\r\n')[0]!;
          check(what, /^HTTP\/1\.1 413 /.test(head), `status line ${head.split('\r\n')[0]}`);
          const connection = head
            .split('\r\n')
            .filter((line) => /^connection:/i.test(line))
            .map((line) => line.toLowerCase());
          check(
            what,
            connection.length === 1 && connection[0] === 'connection: close',
            `Connection headers ${JSON.stringify(connection)}`,
          );
          if (!denoDrainsDeclaredBody)
            check(
              what,
              result.sentWhenAnswered! < totalBytes,
              `no answer before the whole body was sent (${result.sent} bytes)`,
            );
        }
        if (!denoDrainsDeclaredBody) {
          check(
            what,
            !result.complete,
            `the server read all ${result.sent} bytes of a body over the ${MAX_EXPORT_BYTES}-byte limit instead of closing the connection`,
          );
        }
      }
      assert.deepEqual(problems, [], problems.join('\n'));
      expectJson(await api('/api/conversations?userRef=oversized', apiKey), 404, { error: 'User not found' });
    });

    fullCase('connections: fields, order (newest first) and the /api/connections alias', async () => {
      const { apiKey } = await onboard('Connections');
      const anthropic = expectJson(
        await ingest(base, apiKey, fixtureBytes('claude-conversations.json'), 'userRef=lister'),
        200,
      );
      await sleep(5);
      const openai = expectJson(
        await ingest(base, apiKey, fixtureBytes('chatgpt-browsing.json'), 'userRef=lister'),
        200,
      );
      const listed = expectJson(await api('/api/conversations?userRef=lister', apiKey), 200);
      assert.deepEqual(Object.keys(listed).sort(), ['connections', 'userRef']);
      assert.equal(listed.userRef, 'lister');
      const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
      assert.deepEqual(
        listed.connections.map((c: any) => [c.id, c.provider, c.status, c.conversationCount]),
        [
          [openai.connectionId, 'openai', 'active', 2],
          [anthropic.connectionId, 'anthropic', 'active', 5],
        ],
      );
      for (const connection of listed.connections) {
        assert.deepEqual(Object.keys(connection), [
          'id',
          'provider',
          'status',
          'capturedAt',
          'lastSyncAt',
          'conversationCount',
          'memoryCount',
          'projectCount',
        ]);
        assert.match(connection.capturedAt, iso);
        assert.match(connection.lastSyncAt, iso);
      }
      assert.ok(listed.connections[0].capturedAt > listed.connections[1].capturedAt, 'newest capture first');
      expectJson(await api('/api/connections?userRef=lister', apiKey), 200, listed);

      const unknown = await api('/api/conversations?userRef=nobody', apiKey);
      expectJson(unknown, 404, { error: 'User not found' });
      assert.equal(
        unknown.headers.get('ratelimit-limit'),
        String(RATE_LIMIT),
        'an error of a limited endpoint carries RateLimit headers',
      );
      assert.match(unknown.headers.get('ratelimit-remaining') ?? '', /^\d+$/);
      assert.match(unknown.headers.get('ratelimit-reset') ?? '', /^\d+$/);
      expectJson(await api('/api/conversations', apiKey), 400, { error: 'Missing userRef parameter' });
      expectJson(await api('/api/connections', apiKey), 400, { error: 'Missing userRef parameter' });
      expectJson(await api('/api/conversations?limit=10', apiKey), 400, { error: 'Missing connectionId parameter' });
      expectJson(await api('/api/conversations?connectionId=00000000-0000-4000-8000-000000000000', apiKey), 404, {
        error: 'Connection not found',
      });
      // Another app sees none of it.
      const stranger = await onboard('Connections, stranger');
      expectJson(await api('/api/conversations?userRef=lister', stranger.apiKey), 404, { error: 'User not found' });
      expectJson(await api(`/api/conversations?connectionId=${openai.connectionId}`, stranger.apiKey), 404, {
        error: 'Connection not found',
      });
    });

    fullCase('237 conversations, paged by offset += limit: each exactly once, newest first', async () => {
      const { apiKey } = await onboard('Paging');
      const generated = claudeExport(237);
      const imported = expectJson(await ingest(base, apiKey, generated.bytes, 'userRef=pager'), 200);
      assert.deepEqual([imported.provider, imported.created, imported.conversationCount], ['anthropic', 237, 237]);

      const pages = await walkConversations(base, apiKey, imported.connectionId, 50);
      assert.equal(pages.length, 5);
      const seen = pages.flatMap((page) => page.conversations);
      for (const page of pages) assert.equal(page.total, 237);
      assert.deepEqual(
        seen.map((c: any) => c.external_id),
        generated.conversations.map((c) => c.uuid),
        'each once, newest first',
      );
      assert.equal(new Set(seen.map((c: any) => c.id)).size, 237);
      const first = seen[0];
      assert.deepEqual(Object.keys(first), ['id', 'external_id', 'title', 'payload', 'update_time']);
      const source = generated.conversations[0]!;
      assert.deepEqual(
        { ...first, id: typeof first.id },
        {
          id: 'string',
          external_id: source.uuid,
          title: 'Conversation 0',
          payload: {
            title: 'Conversation 0',
            messages: [
              { role: 'user', content: source.chat_messages[0]!.text, timestamp: source.updated_at, attachments: [] },
              { role: 'assistant', content: 'Answer 0', timestamp: source.updated_at, attachments: [] },
            ],
          },
          update_time: source.updated_at,
        },
      );

      // Above 100 the page size in force (100) is echoed; bad numbers are refused.
      const capped = expectJson(
        await api(`/api/conversations?connectionId=${imported.connectionId}&limit=500&offset=200`, apiKey),
        200,
      );
      assert.deepEqual([capped.limit, capped.offset, capped.total, capped.conversations.length], [100, 200, 237, 37]);
      expectJson(await api(`/api/conversations?connectionId=${imported.connectionId}&limit=0`, apiKey), 400, {
        error: 'Invalid limit parameter',
      });
      expectJson(await api(`/api/conversations?connectionId=${imported.connectionId}&limit=ten`, apiKey), 400, {
        error: 'Invalid limit parameter',
      });
      expectJson(await api(`/api/conversations?connectionId=${imported.connectionId}&offset=-1`, apiKey), 400, {
        error: 'Invalid offset parameter',
      });
    });

    fullCase(
      `rate limit: ${RATE_LIMIT} a minute per app, then 429 with Retry-After and RateLimit headers`,
      async (t) => {
        for (let attempt = 1; ; attempt++) {
          const { apiKey } = await onboard(`Rate limit ${attempt}`);
          expectJson(await ingest(base, apiKey, fixtureBytes('claude-thinking.json'), 'userRef=busy'), 200);
          const burst = await Promise.all(
            Array.from({ length: 40 }, () => api('/api/conversations?userRef=busy', apiKey)),
          );
          const resets = new Set(burst.map((got) => got.headers.get('ratelimit-reset')));
          if (resets.size > 1 && attempt === 1) {
            t.diagnostic('the minute rolled over during the burst; trying again with a fresh app');
            continue;
          }
          assert.equal(resets.size, 1, `one bucket: ${[...resets].join(', ')}`);
          const ok = burst.filter((got) => got.status === 200);
          const limited = burst.filter((got) => got.status === 429);
          assert.deepEqual(
            [ok.length, limited.length],
            [RATE_LIMIT, 40 - RATE_LIMIT],
            `statuses ${burst.map((got) => got.status).join(',')}`,
          );
          const reset = Number([...resets][0]);
          assert.ok(Number.isInteger(reset) && reset % 60 === 0, `RateLimit-Reset ${reset} ends a minute`);
          assert.ok(
            reset * 1000 > Date.now() - 2_000 && reset * 1000 <= Date.now() + 61_000,
            `RateLimit-Reset ${reset} is this minute's end`,
          );
          for (const got of burst) assert.equal(got.headers.get('ratelimit-limit'), String(RATE_LIMIT));
          assert.deepEqual(
            ok.map((got) => Number(got.headers.get('ratelimit-remaining'))).sort((a, b) => a - b),
            Array.from({ length: RATE_LIMIT }, (_, i) => i),
            'each allowed request saw one fewer remaining',
          );
          for (const got of limited) {
            expectJson(got, 429, { error: 'Rate limit exceeded' });
            assert.equal(got.headers.get('ratelimit-remaining'), '0');
            const retryAfter = got.headers.get('retry-after') ?? '';
            assert.match(retryAfter, /^\d+$/);
            assert.ok(Number(retryAfter) >= 0 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
            // From when the server answered (its Date header), not when this test, on a
            // loaded machine perhaps seconds later, looks at the answer.
            const answeredAt = Date.parse(got.headers.get('date') ?? '') / 1000;
            assert.ok(
              Math.abs(answeredAt + Number(retryAfter) - reset) <= 2,
              `Retry-After ${retryAfter}, sent at ${answeredAt}, points at the reset ${reset}`,
            );
          }
          for (const got of ok) assert.equal(got.headers.get('retry-after'), null);
          // Ingest and purge are not limited, and another app has its own counter.
          expectJson(await ingest(base, apiKey, fixtureBytes('claude-thinking.json'), 'userRef=busy'), 200);
          const fresh = await onboard(`Rate limit neighbour ${attempt}`);
          expectJson(await api('/api/conversations?userRef=busy', fresh.apiKey), 404, { error: 'User not found' });
          expectJson(
            await api('/api/purge', apiKey, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: '{"userRef":"busy"}',
            }),
            200,
          );
          return;
        }
      },
    );

    fullCase('purge by connectionId and by userRef, with exact counts', async () => {
      const { apiKey } = await onboard('Purge');
      const other = await onboard('Purge, other app');
      const purge = (body: string, key = apiKey) =>
        api('/api/purge', key, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      const anthropic = expectJson(
        await ingest(base, apiKey, fixtureBytes('claude-conversations.json'), 'userRef=leaving'),
        200,
      );
      const openai = expectJson(
        await ingest(base, apiKey, fixtureBytes('chatgpt-browsing.json'), 'userRef=leaving'),
        200,
      );
      expectJson(await ingest(base, apiKey, fixtureBytes('claude-thinking.json'), 'userRef=staying'), 200);

      expectJson(await purge('not json'), 400, { error: 'Invalid JSON body' });
      expectJson(await purge('["userRef"]'), 400, { error: 'Invalid JSON body' });
      expectJson(await purge('{}'), 400, { error: 'Provide exactly one of userRef or connectionId' });
      expectJson(await purge(JSON.stringify({ userRef: 'leaving', connectionId: openai.connectionId })), 400, {
        error: 'Provide exactly one of userRef or connectionId',
      });
      expectJson(await purge('{"userRef":"nobody"}'), 404, { error: 'User not found' });
      expectJson(await purge('{"connectionId":"00000000-0000-4000-8000-000000000000"}'), 404, {
        error: 'Connection not found',
      });
      expectJson(await purge(JSON.stringify({ connectionId: openai.connectionId }), other.apiKey), 404, {
        error: 'Connection not found',
      });
      expectJson(await purge('{"userRef":"leaving"}', other.apiKey), 404, { error: 'User not found' });

      expectJson(await purge(JSON.stringify({ connectionId: openai.connectionId })), 200, {
        ok: true,
        deleted: { users: 0, connections: 1, conversations: 2 },
      });
      const left = expectJson(await api('/api/conversations?userRef=leaving', apiKey), 200);
      assert.deepEqual(
        left.connections.map((c: any) => c.id),
        [anthropic.connectionId],
      );
      expectJson(await api(`/api/conversations?connectionId=${openai.connectionId}`, apiKey), 404, {
        error: 'Connection not found',
      });

      expectJson(await purge('{"userRef":"leaving"}'), 200, {
        ok: true,
        deleted: { users: 1, connections: 1, conversations: 5 },
      });
      expectJson(await api('/api/conversations?userRef=leaving', apiKey), 404, { error: 'User not found' });
      expectJson(await purge('{"userRef":"leaving"}'), 404, { error: 'User not found' });
      assert.equal(
        expectJson(await api('/api/conversations?userRef=staying', apiKey), 200).connections.length,
        1,
        'other users keep their data',
      );
    });

    test('pages: the connect link shows a page, and its stylesheet and scripts load', async () => {
      const tenant = await onboard('Pages smoke');
      const link = await sign(tenant, 'smoke-page-user', 'connect');
      assert.ok(link.startsWith(`${base}/start?token=`));
      const page = await new Browser(base).get(link);
      expectPage(page, 200, 'Pages smoke', 'GET /start');
      assert.ok(page.text.includes('href="/assets/parley.css"'), 'links the stylesheet');
      const css = await call(base, '/assets/parley.css');
      assert.equal(css.status, 200);
      assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
      assert.ok(css.text.length > 100, 'the stylesheet has content');
      // Built from pages/assets/ into the module every runtime and the binary carry.
      for (const name of ['page', 'upload', 'return']) {
        const script = await call(base, `/assets/${name}.js`);
        assert.equal(script.status, 200, name);
        assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8', name);
        assert.match(script.text, /^"use strict";\(\(\)=>\{/, `${name}.js is a bundled script`);
      }
    });

    fullCase('pages: connect with a signed link, upload, see the result; links are single use and expire', async () => {
      const tenant = await onboard('Pages');
      const expiring = await sign(tenant, 'page-user', 'connect', 1);
      const signedAt = Date.now();
      const link = await sign(tenant, 'page-user', 'connect');
      const token = tokenOf(link);
      const browser = new Browser(base);

      // Fetching the link (a link preview, a mail scanner) consumes nothing.
      for (const round of [1, 2])
        expectPage(
          await browser.get(link),
          200,
          `<input type="hidden" name="token" value="${token}"`,
          `GET /start #${round}`,
        );
      assert.equal(browser.cookies.size, 0, 'GET /start opens no session');

      const started = await browser.post('/start', new URLSearchParams({ token }));
      assert.equal(redirectTarget(started, base), '/connect');
      const cookie = browser.setCookieLines.find((line) => line.startsWith('parley_connect='));
      assert.ok(cookie, `a parley_connect cookie, got ${JSON.stringify(browser.setCookieLines)}`);
      assert.match(cookie, /;\s*HttpOnly/i);
      assert.match(cookie, /;\s*SameSite=Lax/i);
      assert.match(cookie, /;\s*Path=\//i);
      assert.doesNotMatch(cookie, /;\s*Secure/i, 'not Secure: PUBLIC_URL is http');
      secrets.push(browser.cookies.get('parley_connect')!);

      expectPage(await browser.get('/connect'), 200, 'href="/connect/openai"', 'GET /connect');
      const upload = await browser.get('/connect/openai');
      expectPage(upload, 200, 'enctype="multipart/form-data"', 'GET /connect/openai');
      const csrf = hiddenField(upload.text, 'csrf');
      secrets.push(csrf);
      const form = new FormData();
      form.append('csrf', csrf);
      form.append(
        'file',
        new Blob([bytesBody(fixtureBytes('chatgpt-browsing.json'))], { type: 'application/json' }),
        'conversations.json',
      );
      assert.equal(redirectTarget(await browser.post('/connect/openai', form), base), '/connect/result');
      const result = await browser.get('/connect/result');
      expectPage(result, 200, /\b2 conversations from ChatGPT are now available\b/, 'GET /connect/result');

      const listed = expectJson(
        await call(base, '/api/conversations?userRef=page-user', { bearer: tenant.apiKey }),
        200,
      );
      assert.deepEqual(
        listed.connections.map((c: any) => [c.provider, c.status, c.conversationCount]),
        [['openai', 'active', 2]],
      );
      const connectionId = listed.connections[0].id;

      // Used once: both showing and posting it again are refused.
      expectPage(await new Browser(base).get(link), 403, 'Link already used', 'GET /start again');
      expectPage(
        await new Browser(base).post('/start', new URLSearchParams({ token })),
        403,
        'Link already used',
        'POST /start again',
      );
      // A manage link does not open the connect page, nor the other way round.
      const wrong = await sign(tenant, 'page-user', 'manage');
      expectPage(
        await new Browser(base).get(`/start?token=${tokenOf(wrong)}`),
        400,
        'Wrong link purpose',
        'manage link on /start',
      );

      // Manage: fetching the link is no person's navigation, so it shows the Open
      // button and consumes nothing; the button's post consumes it and leads to
      // /manage, which lists the connection.
      const manageLink = await sign(tenant, 'page-user', 'manage');
      const manager = new Browser(base);
      const preview = await manager.get(manageLink);
      expectPage(preview, 200, `name="token" value="${tokenOf(manageLink)}"`, 'manage link fetched');
      assert.equal(manager.cookies.size, 0, 'no session from a fetch');
      assert.equal(
        redirectTarget(await manager.post('/manage', new URLSearchParams({ token: tokenOf(manageLink) })), base),
        '/manage',
      );
      assert.ok(manager.cookies.has('parley_manage'), 'a parley_manage cookie');
      secrets.push(manager.cookies.get('parley_manage')!);
      const home = await manager.get('/manage');
      expectPage(home, 200, `href="/manage/connections/${connectionId}"`, 'GET /manage');
      assert.ok(home.text.includes('ChatGPT'), 'names the provider');
      expectPage(await new Browser(base).get(manageLink), 403, 'Link already used', 'manage link again');

      // Disconnect on the manage page: the connection shows revoked, and ingesting into it is a 409.
      const confirm = await manager.get(`/manage/connections/${connectionId}/disconnect`);
      expectPage(confirm, 200, 'Disconnect ChatGPT', 'disconnect confirmation');
      const manageCsrf = hiddenField(confirm.text, 'csrf');
      secrets.push(manageCsrf);
      assert.equal(
        redirectTarget(
          await manager.post(
            `/manage/connections/${connectionId}/disconnect`,
            new URLSearchParams({ csrf: manageCsrf }),
          ),
          base,
        ),
        '/manage?notice=disconnected',
      );
      const revoked = expectJson(
        await call(base, '/api/conversations?userRef=page-user', { bearer: tenant.apiKey }),
        200,
      );
      assert.deepEqual(
        revoked.connections.map((c: any) => [c.id, c.status, c.conversationCount]),
        [[connectionId, 'revoked', 0]],
      );
      expectJson(await call(base, `/api/conversations?connectionId=${connectionId}`, { bearer: tenant.apiKey }), 200, {
        conversations: [],
        total: 0,
        limit: 50,
        offset: 0,
      });
      expectJson(
        await ingest(
          base,
          tenant.apiKey,
          fixtureBytes('chatgpt-browsing.json'),
          `userRef=page-user&connectionId=${connectionId}`,
        ),
        409,
        { error: 'Connection is revoked' },
      );

      // The one-second link, at least 1.2 s after it was signed.
      await sleep(Math.max(0, signedAt + 1_200 - Date.now()));
      expectPage(await new Browser(base).get(expiring), 403, 'Link expired', 'expired link');
      expectPage(await new Browser(base).get('/start'), 400, 'Missing link', 'no token');
      expectPage(await new Browser(base).get('/start?token=not-a-jwt'), 401, 'Invalid link', 'garbage token');
    });

    fullCase('webhooks: connection.created then connection.synced, signed per Standard Webhooks', async () => {
      const tenant = await onboard('Webhooks');
      const receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      const { secret } = await setWebhookEndpoint(
        { db: db!, random: cryptoRandom, config: parseConfig({}) },
        tenant.appId,
        receiver.url,
      );
      secrets.push(secret);
      const imported = expectJson(
        await ingest(base, tenant.apiKey, fixtureBytes('claude-conversations.json'), 'userRef=hooked'),
        200,
      );

      await waitFor('two deliveries', 10_000, () => (receiver.received.length >= 2 ? true : undefined));
      const webhook = new Webhook(secret);
      const events = receiver.received.slice(0, 2).map(({ headers, body }) => {
        const plain = Object.fromEntries(
          Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        );
        assert.match(plain['webhook-id'] ?? '', /\S/, 'webhook-id');
        assert.equal(plain['content-type'], 'application/json');
        webhook.verify(body, plain);
        assert.throws(
          () => new Webhook(`whsec_${btoa('not the secret, not the secret, no')}`).verify(body, plain),
          'a wrong secret does not verify',
        );
        return { id: plain['webhook-id'], event: JSON.parse(body) };
      });
      assert.notEqual(events[0]!.id, events[1]!.id, 'distinct webhook-id');
      const [created, synced] = events.map((e) => e.event);
      assert.deepEqual([created.type, synced.type], ['connection.created', 'connection.synced']);
      for (const event of [created, synced]) {
        assert.deepEqual(Object.keys(event).sort(), ['data', 'timestamp', 'type']);
        assert.match(event.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
        assert.equal(event.data.userRef, 'hooked');
        assert.equal(event.data.connectionId, imported.connectionId);
      }
      assert.deepEqual(
        [synced.data.created, synced.data.updated, synced.data.unchanged, synced.data.conversationCount],
        [5, 0, 0, 5],
      );
      await sleep(700);
      assert.equal(receiver.received.length, 2, 'no other event from one import');
    });

    test('the checkpoint worker copies what was written into the database file', {
      skip: postgres ? 'SQLite only' : false,
    }, async () => {
      // Within a second or so of each write; without it, the log would hold everything and the file nothing.
      const [{ bytes }] = (
        await sql<{
          bytes: number;
        }>`SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()`.execute(db!)
      ).rows as [{ bytes: number }];
      await waitFor(`the database file holding all ${bytes} bytes`, 10_000, () =>
        statSync(databasePath).size >= bytes ? true : undefined,
      );
    });

    test('SIGTERM while an upload is half sent: the request is finished, then the process exits 0', async () => {
      // A server of its own: its SIGTERM ends no other test's server.
      const own = await startOwnServer('shutdown');
      cleanups.push(async () => {
        await own.server.stop('SIGTERM');
        await own.db.destroy();
      });
      const { apiKey } = await onboard('Shutdown', own.db);
      const bytes = fixtureBytes('claude-conversations.json');
      let finish!: () => void;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, 1_000));
          finish = () => {
            controller.enqueue(bytes.slice(1_000));
            controller.close();
          };
        },
      });
      const inFlight = fetch(`${own.server.url}/api/ingest-export?userRef=in-flight`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body,
        duplex: 'half',
        signal: AbortSignal.timeout(15_000),
      } as RequestInit).then(answer, (error: Error) => error);
      await sleep(400);
      void own.server.stop('SIGTERM').catch(() => undefined);
      await sleep(400);
      finish();
      const finished = await inFlight;
      const answeredAt = performance.now();
      const exit = await own.server.stop('SIGTERM').catch((error: Error) => error);
      const exitMs = Math.round(performance.now() - answeredAt);

      const problems: string[] = [];
      if (finished instanceof Error)
        problems.push(`the request in flight at SIGTERM failed: ${finished.message} (${String(finished.cause ?? '')})`);
      else if (finished.status !== 200)
        problems.push(`the request in flight at SIGTERM answered ${finished.status} ${finished.text}`);
      else assert.deepEqual([finished.json.userRef, finished.json.created], ['in-flight', 5]);
      // Once its last request is answered, a stopping server has nothing left to
      // wait for. What this guards against waits 5 s or more (the drain limit, an
      // idle connection kept alive); closing the database and the background work
      // can take over a second on a loaded machine.
      if (exitMs > 3_000) {
        const connection = finished instanceof Error ? 'n/a' : JSON.stringify(finished.headers.get('connection'));
        problems.push(
          `the process exited ${exitMs} ms after answering its last request (that answer's Connection header: ${connection})`,
        );
      }
      if (exit instanceof Error) problems.push(exit.message);
      else if (exit.code !== 0 || exit.signal !== null)
        problems.push(`the process exited with ${JSON.stringify(exit)}:\n${own.server.logs.join('\n')}`);
      assert.deepEqual(problems, [], problems.join('\n'));
      assertNothingSecretIn(own.server.logs);
    });

    // Last: it ends the suite's server, whose log then holds every request the suite made.
    test('SIGTERM: exits 0 after logging shutdown; no log line carries a key, secret, token or conversation text', async () => {
      const { code, signal } = await server.stop('SIGTERM');
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, server.logs.join('\n'));
      const lines = server.logs.map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return assert.fail(`a log line that is not JSON: ${line}`);
        }
      });
      assert.ok(
        lines.some((line) => line.event === 'listening'),
        'a listening line',
      );
      assert.ok(
        lines.some((line) => line.event === 'shutdown' && line.signal === 'SIGTERM'),
        'a shutdown line',
      );
      assert.deepEqual(
        lines.filter((line) => line.event === 'checkpoint'),
        [],
        'no checkpoint failed',
      );
      const requests = lines.filter((line) => line.event === 'request');
      assert.ok(requests.length > 5, 'one line per request');
      for (const line of requests)
        assert.ok(typeof line.path === 'string' && !line.path.includes('?'), `path without query: ${line.path}`);
      assert.ok(secrets.length >= 4);
      assertNothingSecretIn(server.logs);
    });
  });
}
