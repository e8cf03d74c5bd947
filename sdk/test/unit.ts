/**
 * The SDK's unit tests, the same under Node, Deno and Bun (see harness.ts):
 *   node --import tsx sdk/test/unit.ts | deno run sdk/test/unit.ts | bun sdk/test/unit.ts
 * The API is a fake fetch here; test/sdk/ runs these and the SDK against a real server.
 */
import assert from 'node:assert/strict';
import {
  LINK_SCOPE,
  ParleyClient,
  ParleyError,
  signLink,
  verifyWebhook,
  WebhookVerificationError,
  type SignLinkOptions,
} from '../src/index.ts';
import { base64, base64Url } from '../src/encoding.ts';
import { webhookSignature } from '../src/webhooks.ts';
import { run, test } from './harness.ts';

const SECRET = 'app-secret-for-tests';
const NOW = Date.parse('2026-03-01T12:00:00Z');
const options: SignLinkOptions = {
  appId: 'app_1',
  userRef: 'user-42',
  scopes: [LINK_SCOPE],
  purpose: 'connect',
  baseUrl: 'https://parley.example/',
};

const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

test('signLink: a connect link to /start whose HS256 token carries the claims, for 900 s by default', async () => {
  const url = new URL(await signLink(options, SECRET, NOW));
  assert.equal(`${url.origin}${url.pathname}`, 'https://parley.example/start');
  const [header, payload, signature] = url.searchParams.get('token')!.split('.') as [string, string, string];
  assert.deepEqual(JSON.parse(new TextDecoder().decode(fromBase64Url(header))), { alg: 'HS256', typ: 'JWT' });
  const claims = JSON.parse(new TextDecoder().decode(fromBase64Url(payload)));
  assert.deepEqual(
    { ...claims, jti: typeof claims.jti },
    {
      appId: 'app_1',
      userRef: 'user-42',
      scopes: [LINK_SCOPE],
      purpose: 'connect',
      iat: NOW / 1000,
      exp: NOW / 1000 + 900,
      jti: 'string',
    },
  );
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  assert.equal(
    await crypto.subtle.verify('HMAC', key, fromBase64Url(signature), new TextEncoder().encode(`${header}.${payload}`)),
    true,
  );
  const manage = new URL(await signLink({ ...options, purpose: 'manage', expiresInSeconds: 60 }, SECRET, NOW));
  assert.equal(manage.pathname, '/manage');
  assert.equal(
    JSON.parse(new TextDecoder().decode(fromBase64Url(manage.searchParams.get('token')!.split('.')[1]!))).exp,
    NOW / 1000 + 60,
  );
});

test('signLink: each bad option is refused with a TypeError saying which', async () => {
  const cases: Array<[Partial<Record<keyof SignLinkOptions, unknown>>, string]> = [
    [{ appId: 1 }, 'appId must be a string'],
    [{ appId: '' }, 'appId must not be empty'],
    [{ userRef: '' }, 'userRef must not be empty'],
    [{ userRef: 'x'.repeat(1025) }, 'userRef must be at most 1024 characters'],
    [{ scopes: ['conversations:write'] }, 'scopes must be ["conversations:read"]'],
    [{ purpose: 'delete' }, 'purpose must be "connect" or "manage"'],
    [{ expiresInSeconds: '60' }, 'expiresInSeconds must be a number'],
    [{ expiresInSeconds: 1.5 }, 'expiresInSeconds must be a whole number'],
    [{ expiresInSeconds: 901 }, 'expiresInSeconds must be from 1 to 900'],
    [{ baseUrl: 'parley.example' }, 'baseUrl must be an absolute URL'],
    [{ locale: 7 }, 'locale must be a string'],
    [{ locale: 'en_US' }, 'locale must be a BCP 47 language tag, such as "de" or "zh-CN"'],
    [{ locale: '' }, 'locale must be a BCP 47 language tag, such as "de" or "zh-CN"'],
  ];
  for (const [change, message] of cases) {
    await assert.rejects(signLink({ ...options, ...change } as SignLinkOptions, SECRET), {
      name: 'TypeError',
      message: `signLink: ${message}`,
    });
  }
  await assert.rejects(signLink(options, ''), {
    name: 'TypeError',
    message: 'signLink: appSecret must be a non-empty string',
  });
  // 1,024 characters counted as code points: 1,024 emoji (2,048 UTF-16 units) are fine.
  assert.match(await signLink({ ...options, userRef: '🙂'.repeat(1024) }, SECRET), /\/start\?token=/);
  // No baseUrl: refused, whatever the environment holds (a customer's PUBLIC_URL is their own address, not Parley's).
  const { baseUrl: _, ...withoutBaseUrl } = options;
  await assert.rejects(signLink(withoutBaseUrl as SignLinkOptions, SECRET), {
    name: 'TypeError',
    message: 'signLink: baseUrl is required: the address Parley is served at, such as "https://parley.example.com"',
  });
});

test('signLink: a returnUrl is carried as given; one that is not an absolute http(s) URL is refused', async () => {
  const claimsOf = async (url: string) =>
    JSON.parse(new TextDecoder().decode(fromBase64Url(new URL(url).searchParams.get('token')!.split('.')[1]!)));
  const returnUrl = 'https://acme.example/parley/done?from=settings';
  assert.equal((await claimsOf(await signLink({ ...options, returnUrl }, SECRET, NOW))).returnUrl, returnUrl);
  assert.equal('returnUrl' in (await claimsOf(await signLink(options, SECRET, NOW))), false);
  for (const bad of [
    'acme.example/done',
    'javascript:alert(1)',
    'ftp://acme.example/',
    42,
    `https://acme.example/${'x'.repeat(2048)}`,
  ]) {
    await assert.rejects(signLink({ ...options, returnUrl: bad } as SignLinkOptions, SECRET), {
      name: 'TypeError',
      message: 'signLink: returnUrl must be an absolute http(s) URL of at most 2048 characters',
    });
  }
});

test('signLink: a locale is carried as a canonical BCP 47 tag; without one there is no locale claim', async () => {
  const claimsOf = async (url: string) =>
    JSON.parse(new TextDecoder().decode(fromBase64Url(new URL(url).searchParams.get('token')!.split('.')[1]!)));
  assert.equal((await claimsOf(await signLink({ ...options, locale: 'zh-cn' }, SECRET, NOW))).locale, 'zh-CN');
  assert.equal((await claimsOf(await signLink({ ...options, locale: 'de' }, SECRET, NOW))).locale, 'de');
  // Well-formed but not a language Parley's pages speak: carried all the same; the pages fall back.
  assert.equal((await claimsOf(await signLink({ ...options, locale: 'pt-BR' }, SECRET, NOW))).locale, 'pt-BR');
  assert.equal('locale' in (await claimsOf(await signLink(options, SECRET, NOW))), false);
});

const WEBHOOK_SECRET = `whsec_${base64(new Uint8Array(24).fill(7))}`;
const event = {
  type: 'connection.synced',
  timestamp: '2026-03-01T12:00:00.000Z',
  data: {
    userRef: 'user-42',
    connectionId: 'c1',
    provider: 'openai',
    created: 1,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    conversationCount: 1,
  },
};
const body = JSON.stringify(event);
const seconds = NOW / 1000;
const deliveryHeaders = async (signature?: string) => ({
  'webhook-id': 'msg_1',
  'webhook-timestamp': String(seconds),
  'webhook-signature': signature ?? (await webhookSignature(WEBHOOK_SECRET, 'msg_1', seconds, body)),
});

test('verifyWebhook: a signed delivery gives its event, from Fetch or Node-style headers, text or bytes', async () => {
  const headers = await deliveryHeaders();
  assert.deepEqual(await verifyWebhook(WEBHOOK_SECRET, headers, body, { now: NOW }), event);
  assert.deepEqual(
    await verifyWebhook(WEBHOOK_SECRET, new Headers(headers), new TextEncoder().encode(body), { now: NOW }),
    event,
  );
  const nodeStyle = {
    'Webhook-Id': ['msg_1'],
    'webhook-timestamp': String(seconds),
    'webhook-signature': headers['webhook-signature'],
  };
  assert.deepEqual(await verifyWebhook(WEBHOOK_SECRET, nodeStyle, body, { now: NOW + 299_000 }), event);
});

test('verifyWebhook: any one of several signatures will do (a secret being replaced)', async () => {
  const good = await webhookSignature(WEBHOOK_SECRET, 'msg_1', seconds, body);
  const other = await webhookSignature(`whsec_${base64(new Uint8Array(24).fill(9))}`, 'msg_1', seconds, body);
  assert.deepEqual(
    await verifyWebhook(WEBHOOK_SECRET, await deliveryHeaders(`${other} ${good}`), body, { now: NOW }),
    event,
  );
});

test('verifyWebhook: a forged, altered, stale or incomplete delivery throws', async () => {
  const refused = async (headers: Record<string, string>, text: string, message: string, now = NOW) =>
    assert.rejects(
      verifyWebhook(WEBHOOK_SECRET, headers, text, { now }),
      (error: unknown) => error instanceof WebhookVerificationError && error.message === message,
    );
  const headers = await deliveryHeaders();
  await refused(headers, body.replace('"created":1', '"created":2'), 'No matching webhook signature');
  await refused({ ...headers, 'webhook-id': 'msg_2' }, body, 'No matching webhook signature');
  await refused(
    await deliveryHeaders(await webhookSignature(`whsec_${base64(new Uint8Array(24))}`, 'msg_1', seconds, body)),
    body,
    'No matching webhook signature',
  );
  await refused(headers, body, 'Webhook timestamp is too old or too new', NOW + 301_000);
  await refused(headers, body, 'Webhook timestamp is too old or too new', NOW - 301_000);
  await refused({ ...headers, 'webhook-timestamp': 'soon' }, body, 'Invalid webhook-timestamp header');
  const { 'webhook-signature': _, ...unsigned } = headers;
  await refused(unsigned, body, 'Missing webhook-id, webhook-timestamp or webhook-signature header');
});

/** A fake Parley: answers each request with the next of `answers`, and keeps what was asked. */
function fakeApi(answers: Array<{ status?: number; body: unknown; headers?: Record<string, string> }>) {
  const requests: Array<{ method: string; url: URL; headers: Headers; body: string | null; duplex?: string }> = [];
  const fetch = async (url: URL, init: RequestInit) => {
    const body =
      init.body instanceof ReadableStream
        ? await new Response(init.body).text()
        : init.body === undefined
          ? null
          : await new Response(init.body).text();
    requests.push({
      method: init.method!,
      url: new URL(url),
      headers: new Headers(init.headers),
      body,
      duplex: (init as { duplex?: string }).duplex,
    });
    const answer = answers.shift() ?? { status: 500, body: { error: 'Internal server error' } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  };
  return {
    requests,
    client: new ParleyClient({ baseUrl: 'https://parley.example/', apiKey: 'pk_test', fetch, maxRateLimitWaits: 2 }),
  };
}

test('listConnections and listConversations: GET with the key and the parameters; the answer as it came', async () => {
  const connections = { connections: [], userRef: 'user 42' };
  const page = { conversations: [], total: 0, limit: 10, offset: 20 };
  const { requests, client } = fakeApi([
    { body: connections },
    { body: page },
    { body: page },
    { body: page },
    { body: page },
  ]);
  assert.deepEqual(await client.listConnections('user 42'), connections);
  assert.deepEqual(await client.listConversations('c1', { limit: 10, offset: 20 }), page);
  assert.deepEqual(await client.listConversations('c1', { updatedSince: new Date(Date.UTC(2026, 2, 1, 12)) }), page);
  assert.deepEqual(await client.listConversations('c1', { updatedSince: '2026-03-01T13:00:00+01:00' }), page);
  assert.deepEqual(
    await client.listConversations('c1', {
      q: 'tax return',
      updatedSince: '2026-03-01T12:00:00Z',
      limit: 5,
      offset: 5,
    }),
    page,
  );
  assert.deepEqual(
    requests.map((r) => [r.method, r.url.href, r.headers.get('Authorization')]),
    [
      ['GET', 'https://parley.example/api/conversations?userRef=user+42', 'Bearer pk_test'],
      ['GET', 'https://parley.example/api/conversations?connectionId=c1&limit=10&offset=20', 'Bearer pk_test'],
      [
        'GET',
        'https://parley.example/api/conversations?connectionId=c1&updatedSince=2026-03-01T12%3A00%3A00.000Z',
        'Bearer pk_test',
      ],
      [
        'GET',
        'https://parley.example/api/conversations?connectionId=c1&updatedSince=2026-03-01T13%3A00%3A00%2B01%3A00',
        'Bearer pk_test',
      ],
      [
        'GET',
        'https://parley.example/api/conversations?connectionId=c1&limit=5&offset=5&updatedSince=2026-03-01T12%3A00%3A00Z&q=tax+return',
        'Bearer pk_test',
      ],
    ],
  );
});

test('a refusal throws ParleyError with the status and the interface’s message', async () => {
  const { client } = fakeApi([
    { status: 404, body: { error: 'User not found' } },
    { status: 502, body: 'Bad gateway' },
  ]);
  await assert.rejects(
    client.listConnections('nobody'),
    (error: unknown) => error instanceof ParleyError && error.status === 404 && error.message === 'User not found',
  );
  await assert.rejects(
    client.listConnections('nobody'),
    (error: unknown) => error instanceof ParleyError && error.status === 502 && error.message === 'HTTP 502',
  );
});

const conversation = (n: number) => ({
  id: `v${n}`,
  external_id: `e${n}`,
  title: `Chat ${n}`,
  payload: { title: `Chat ${n}`, messages: [] },
  update_time: null,
});

test('conversations(): every page, stepping by the answer’s limit, waiting out a 429’s Retry-After', async () => {
  const { requests, client } = fakeApi([
    // Asked for 500, the server caps pages at 100: the next page starts 100 further on.
    { body: { conversations: [conversation(1), conversation(2)], total: 4, limit: 100, offset: 0 } },
    { status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'Retry-After': '0' } },
    { body: { conversations: [conversation(3), conversation(4)], total: 4, limit: 100, offset: 100 } },
  ]);
  const seen = [];
  for await (const c of client.conversations('c1', { limit: 500 })) seen.push(c.id);
  assert.deepEqual(seen, ['v1', 'v2', 'v3', 'v4']);
  assert.deepEqual(
    requests.map((r) => r.url.search),
    [
      '?connectionId=c1&limit=500&offset=0',
      '?connectionId=c1&limit=500&offset=100',
      '?connectionId=c1&limit=500&offset=100',
    ],
  );
});

test('conversations(): past maxRateLimitWaits 429s in a row, the 429 is thrown', async () => {
  const limited = { status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'Retry-After': '0' } };
  const { requests, client } = fakeApi([limited, limited, limited]);
  await assert.rejects(
    client.conversations('c1').next(),
    (error: unknown) => error instanceof ParleyError && error.status === 429 && error.retryAfter === 0,
  );
  assert.equal(requests.length, 3);
});

test('ingestExport: the file streamed as the body, its kind sent, the fields as parameters', async () => {
  const result = {
    ok: true,
    userRef: 'u1',
    connectionId: 'c1',
    provider: 'openai',
    created: 1,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    conversationCount: 1,
  };
  const { requests, client } = fakeApi([{ body: result }, { body: result }, { body: result }]);
  const json = '[{"id":"x"}]';
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(json.slice(0, 5)));
      controller.enqueue(new TextEncoder().encode(json.slice(5)));
      controller.close();
    },
  });
  assert.deepEqual(await client.ingestExport({ userRef: 'u1', file: stream, provider: 'openai' }), result);
  await client.ingestExport({ userRef: 'u1', file: new Uint8Array([0x50, 0x4b, 3, 4]), connectionId: 'c1' });
  await client.ingestExport({ userRef: 'u1', file: new Blob(['a,b'], { type: 'text/csv' }) });
  assert.deepEqual(
    requests.map((r) => [r.method, r.url.search, r.headers.get('Content-Type'), r.duplex ?? null]),
    [
      ['POST', '?userRef=u1&provider=openai', 'application/json', 'half'],
      ['POST', '?userRef=u1&connectionId=c1', 'application/zip', null],
      ['POST', '?userRef=u1', 'text/csv', null],
    ],
  );
  assert.equal(requests[0]!.body, json);
});

test('purge: one target as JSON', async () => {
  const { requests, client } = fakeApi([
    { body: { ok: true, deleted: { users: 1, connections: 2, conversations: 3 } } },
  ]);
  assert.deepEqual(await client.purge({ userRef: 'u1' }), {
    ok: true,
    deleted: { users: 1, connections: 2, conversations: 3 },
  });
  assert.deepEqual(
    [requests[0]!.method, requests[0]!.url.pathname, requests[0]!.headers.get('Content-Type'), requests[0]!.body],
    ['POST', '/api/purge', 'application/json', '{"userRef":"u1"}'],
  );
});

test('base64 and base64url of every byte value', () => {
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
  assert.equal(atob(base64(bytes)), String.fromCharCode(...bytes));
  assert.doesNotMatch(base64Url(bytes), /[+/=]/);
});

test('attachment: GET with the key and a Range; the stream, type, sizes, name and range as served', async () => {
  const requests: Array<{ url: string; headers: Headers }> = [];
  const answers = [
    new Response('hello', {
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Length': '5',
        'Content-Disposition': `inline; filename="r_sum_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
        ETag: '"abc"',
      },
    }),
    new Response('ll', {
      status: 206,
      headers: { 'Content-Length': '2', 'Content-Range': 'bytes 2-3/5', 'Content-Type': 'text/plain' },
    }),
    new Response(JSON.stringify({ error: 'Range not satisfiable' }), { status: 416 }),
  ];
  const client = new ParleyClient({
    baseUrl: 'https://parley.example',
    apiKey: 'pk_test',
    fetch: async (url, init) => {
      requests.push({ url: url.href, headers: new Headers(init.headers) });
      return answers.shift()!;
    },
  });
  const whole = await client.attachment('a/1');
  assert.equal(await new Response(whole.stream).text(), 'hello');
  assert.deepEqual(
    { ...whole, stream: undefined },
    {
      stream: undefined,
      contentType: 'text/plain; charset=utf-8',
      size: 5,
      totalSize: 5,
      name: 'résumé.txt',
      etag: '"abc"',
    },
  );
  const part = await client.attachment('a1', { range: { start: 2, end: 4 } });
  assert.equal(await new Response(part.stream).text(), 'll');
  assert.deepEqual([part.size, part.totalSize, part.range, part.name], [2, 5, { start: 2, end: 4 }, 'file']);
  await assert.rejects(
    client.attachment('a1', { range: { start: 9 } }),
    (error: unknown) =>
      error instanceof ParleyError && error.status === 416 && error.message === 'Range not satisfiable',
  );
  assert.deepEqual(
    requests.map((r) => [r.url, r.headers.get('Authorization'), r.headers.get('Range')]),
    [
      ['https://parley.example/api/attachments/a%2F1', 'Bearer pk_test', null],
      ['https://parley.example/api/attachments/a1', 'Bearer pk_test', 'bytes=2-3'],
      ['https://parley.example/api/attachments/a1', 'Bearer pk_test', 'bytes=9-'],
    ],
  );
});

await run();
