/**
 * Hostile requests (rather than hostile files alone): bodies far past a route's
 * bound, slow senders, zip bombs, amplifying CSV, conversations dense in values
 * (and the largest real-shaped one), exports of millions of tiny records, zip
 * members never read, and hostile Markdown viewed on the manage page. Each case
 * runs against a fresh server with the default limits while two clients list
 * conversations without pause and /healthz is polled, and reports the answer, how
 * long the case took, the server's peak RSS, the listing's p99 and the slowest
 * /healthz meanwhile.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { zipSync } from 'fflate';
import { signLink } from 'parley-sdk';
import { onboardApp } from '../../src/apps/apps.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../../src/deps.ts';
import { ROOT, startServer, type RunningServer, type RuntimeName } from '../../test/conformance/server.ts';
import { longChatgptConversation, withCompressionMethod, type TestContext } from '../../test/helpers.ts';
import { hiddenField, PageClient } from '../../test/pages/page-client.ts';
import { fill, MIB, procStatus, tally, zipOf } from './kit.ts';

export interface RequestRow {
  name: string;
  answer: string;
  seconds: number;
  peakRssMb: number;
  listingP99Ms: number;
  healthMaxMs: number;
  note: string;
}

interface Target {
  server: RunningServer;
  apiKey: string;
  appId: string;
  appSecret: string;
}

interface Outcome {
  answer: string;
  note?: string;
}

const encoder = new TextEncoder();

async function serve(runtime: RuntimeName, work: string): Promise<Target> {
  const databasePath = join(mkdtempSync(join(work, 'db-')), 'parley.db');
  // The listing load must not be throttled by the rate limit.
  const server = await startServer(runtime, {
    databasePath,
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000000' },
  });
  const db = openBetterSqlite3(databasePath);
  const { apiKey, appId, appSecret } = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Hostile');
  await db.destroy();
  const seeded = await fetch(`${server.url}/api/ingest-export?userRef=lister`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: readFileSync(join(ROOT, 'test/fixtures/claude-conversations.json')),
  });
  if (seeded.status !== 200) throw new Error(`seeding the listing failed: ${seeded.status} ${await seeded.text()}`);
  return { server, apiKey, appId, appSecret };
}

/**
 * Two clients listing conversations back to back, and /healthz every 200 ms, until
 * stopped; every request's milliseconds. In a worker of its own, so that what a
 * case's own sending costs this process does not count as the server's slowness.
 */
const LOAD_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, apiKey } = workerData;
const listing = [];
const health = [];
let running = true;
parentPort.once('message', () => (running = false));
async function timed(into, path, headers) {
  const started = performance.now();
  try {
    await (await fetch(url + path, { headers, signal: AbortSignal.timeout(60_000) })).arrayBuffer();
  } catch {
    // A failed request counts with the time it took.
  }
  into.push(performance.now() - started);
}
async function lister() {
  while (running) await timed(listing, '/api/conversations?userRef=lister&limit=20', { Authorization: 'Bearer ' + apiKey });
}
async function poller() {
  while (running) {
    await timed(health, '/healthz', {});
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
Promise.all([lister(), lister(), poller()]).then(() => parentPort.postMessage({ listing, health }));
`;

function backgroundLoad({ server, apiKey }: Target) {
  const worker = new Worker(LOAD_SCRIPT, { eval: true, workerData: { url: server.url, apiKey } });
  return {
    async stop(): Promise<{ listing: number[]; health: number[] }> {
      const done = new Promise<{ listing: number[]; health: number[] }>((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      const latencies = await done;
      await worker.terminate();
      return latencies;
    },
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

/** A body of `total` bytes made of `chunk` repeated, sent as fast as it is taken, without Content-Length. */
function repeated(chunk: Uint8Array, total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk.slice());
    },
  });
}

/** A body made by `parts`, one at a time, as fast as it is taken. */
function generated(parts: Iterator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const next = parts.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

/** The answer as "status error", or how the request failed. */
async function answerOf(request: Promise<Response>): Promise<string> {
  try {
    const response = await request;
    const text = await response.text().catch(() => '');
    const error = /"error":"([^"]*)"/.exec(text)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/.exec(text)?.[1] ?? '';
    return `${response.status} ${error}`.trim();
  } catch (error) {
    return `no answer (${(error as { cause?: { code?: string } }).cause?.code ?? String(error)})`;
  }
}

const post = (target: Target, path: string, body: BodyInit, headers: Record<string, string>, signal?: AbortSignal) =>
  fetch(`${target.server.url}${path}`, { method: 'POST', headers, body, duplex: 'half', signal } as RequestInit);

/** How long an upload of a few kilobytes may go unanswered before the case gives up on it (a server it hung). */
const UPLOAD_GIVEN_UP_MS = 180_000;

const api = (target: Target, contentType: string) => ({
  Authorization: `Bearer ${target.apiKey}`,
  'Content-Type': contentType,
});

/**
 * `count` connections that send a `POST /start` head declaring `contentLength`,
 * then one byte every 5 s. What the connections were answered, and how many the
 * server still held open after 45 s (as the client sees it: at its next byte).
 */
async function slowStartBodies({ server }: Target, count: number, contentLength: number): Promise<Outcome> {
  const { hostname, port } = new URL(server.url);
  const statuses = new Map<string, number>();
  let open = 0;
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    open++;
    let answered = false;
    socket.on('connect', () =>
      socket.write(
        `POST /start HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${contentLength}\r\n\r\nt`,
      ),
    );
    socket.on('data', (data: Buffer) => {
      if (answered) return;
      answered = true;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data.toString('latin1'))?.[1] ?? '?';
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    socket.on('error', () => {});
    socket.on('close', () => open--);
    sockets.push(socket);
  }
  const drip = setInterval(() => {
    for (const socket of sockets) if (socket.writable) socket.write('x');
  }, 5_000);
  await new Promise((resolve) => setTimeout(resolve, 45_000));
  const stillOpen = open;
  clearInterval(drip);
  for (const socket of sockets) socket.destroy();
  const answers = [...statuses].map(([status, n]) => `${status} ×${n}`).join(', ');
  return {
    answer: answers || 'none',
    note: `${Math.round((stillOpen / count) * 100)}% still open after 45 s`,
  };
}

/** An upload on the connect page, as a person makes it (the link, its session, the form); the result page's answer. */
function connectUpload(target: Target, file: Uint8Array, userRef: string): Promise<string> {
  const { server } = target;
  // The pages' test browser, over HTTP: it keeps the session's cookie and follows no redirect.
  const request = (path: string, init?: RequestInit) =>
    fetch(`${server.url}${path}`, { ...init, redirect: 'manual', signal: AbortSignal.timeout(UPLOAD_GIVEN_UP_MS) });
  const browser = new PageClient({ app: { request } } as unknown as TestContext);
  return answerOf(
    (async () => {
      const link = await signLink(
        { appId: target.appId, userRef, scopes: ['conversations:read'], purpose: 'connect', baseUrl: server.url },
        target.appSecret,
      );
      await (await browser.post('/start', { token: new URL(link).searchParams.get('token')! })).arrayBuffer();
      const csrf = hiddenField(await (await browser.get('/connect/openai')).text(), 'csrf');
      const form = new FormData();
      form.set('csrf', csrf);
      form.set('file', new Blob([file as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), 'export.zip');
      await (await browser.request('/connect/openai', { method: 'POST', body: form })).arrayBuffer();
      return browser.get('/connect/result');
    })(),
  );
}

/** A ChatGPT conversation of one message, and the comma after it. */
const ONE_CONVERSATION =
  '{"id":"real","title":"Real","current_node":"m","mapping":{"m":{"id":"m","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hello"]}}}}},';

/** A zip of `[`, `element,` `count` times (after one real conversation, with `real`), then `element]`: a few kilobytes. */
function tinyRecordsZip(element: string, count: number, real: boolean): Uint8Array {
  const run = 100_000;
  return zipOf(
    `[${real ? ONE_CONVERSATION : ''}`,
    encoder.encode(`${element},`.repeat(run)),
    count / run,
    `${element}]`,
  );
}

/** An export of one conversation beside a member of `megabytes` no format reads, said to use compression `method`. */
function unreadMemberZip(megabytes: number, method: number): Uint8Array {
  const zip = zipSync({
    'conversations.json': encoder.encode(`[${ONE_CONVERSATION.slice(0, -1)}]`),
    'unread.bin': [new Uint8Array(megabytes * MIB), { level: 0 }],
  });
  return withCompressionMethod(zip, 'unread.bin', method);
}

/** `uploads` of the zip made by `make` at once, through the API or the connect page. */
const uploadsAtOnce =
  (make: () => Uint8Array, uploads: number, page = false) =>
  () => {
    const zip = make();
    return async (t: Target): Promise<Outcome> => {
      const answers = await Promise.all(
        Array.from({ length: uploads }, (_, i) =>
          page
            ? connectUpload(t, zip, `upload-${i}`)
            : answerOf(
                post(
                  t,
                  `/api/ingest-export?userRef=upload-${i}`,
                  zip as Uint8Array<ArrayBuffer>,
                  api(t, 'application/zip'),
                  AbortSignal.timeout(UPLOAD_GIVEN_UP_MS),
                ),
              ),
        ),
      );
      const size = zip.length < MIB ? `${(zip.length / 1024).toFixed(1)} KB` : `${(zip.length / MIB).toFixed(0)} MB`;
      return { answer: tally(answers), note: `zip ${size}` };
    };
  };

/** The tiny-record exports: element, how many, after a real conversation or not, on the connect page or not. */
const TINY_RECORDS: Array<[element: string, count: number, real: boolean, page: boolean]> = [
  ['0', 1_000_000, false, false],
  ['0', 1_000_000, true, true],
  ['0', 2_000_000, false, false],
  ['0', 15_000_000, false, false],
  ['{}', 1_000_000, true, false],
];

/** A form of `count` 1 KB fields and then a file, sent 64 fields to a chunk. */
function* manyFields(count: number, boundary: string): Generator<Uint8Array> {
  const value = 'v'.repeat(1024);
  for (let i = 0; i < count; i += 64) {
    const fields = Array.from(
      { length: Math.min(64, count - i) },
      (_, j) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i + j}"\r\n\r\n${value}\r\n`,
    );
    yield encoder.encode(fields.join(''));
  }
  yield encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.json"\r\nContent-Type: application/json\r\n\r\n[]\r\n--${boundary}--\r\n`,
  );
}

const COPILOT_HEADER = 'Conversation,Time,Author,Message\r\n';

/** A ChatGPT export of one conversation of about `bytes`, nearly all of it `value` repeated in an array. */
function denseConversation(value: string, bytes: number): Buffer {
  const head = '[{"id":"dense","title":"Dense","mapping":{},"v":[';
  const tail = `${value}]}]`;
  return Buffer.concat([
    Buffer.from(head),
    Buffer.from(`${value},`.repeat(Math.floor((bytes - head.length - tail.length) / (value.length + 1)))),
    Buffer.from(tail),
  ]);
}

/** An import of `body` as JSON, answered. */
const importJson = (body: Uint8Array, userRef: string) => async (t: Target) => ({
  answer: await answerOf(
    post(t, `/api/ingest-export?userRef=${userRef}`, body as Uint8Array<ArrayBuffer>, api(t, 'application/json')),
  ),
});

/** A Claude export of one conversation whose messages are `texts`. */
function claudeConversation(texts: string[]): Uint8Array {
  const created_at = '2026-03-01T10:00:00Z';
  const chat_messages = texts.map((text, i) => ({
    uuid: `m${i}`,
    sender: i % 2 ? 'assistant' : 'human',
    text,
    created_at,
  }));
  return encoder.encode(JSON.stringify([{ uuid: 'c', name: 'Markdown', updated_at: created_at, chat_messages }]));
}

/**
 * `conversation` imported, then its manage page opened as a person opens it,
 * while /healthz is asked every 50 ms: how long the page took (and the server's
 * CPU time for it) and how much of it is plain text, the slowest /healthz
 * during the view alone, and the peak RSS before and after it.
 */
async function conversationView(target: Target, conversation: Uint8Array): Promise<Outcome> {
  const { server } = target;
  const imported = (await (
    await post(
      target,
      '/api/ingest-export?userRef=reader',
      conversation as Uint8Array<ArrayBuffer>,
      api(target, 'application/json'),
    )
  ).json()) as { connectionId: string };
  const link = await signLink(
    { appId: target.appId, userRef: 'reader', scopes: ['conversations:read'], purpose: 'manage', baseUrl: server.url },
    target.appSecret,
  );
  // The page's Open button: fetch cannot send the Fetch Metadata of a person's navigation.
  const opened = await fetch(`${server.url}/manage`, {
    method: 'POST',
    body: new URLSearchParams({ token: new URL(link).searchParams.get('token')! }),
    redirect: 'manual',
  });
  const cookie = opened.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const listing = await (
    await fetch(`${server.url}/manage/connections/${imported.connectionId}`, { headers: { cookie } })
  ).text();
  const path = /href="(\/manage\/conversations\/[^"]+)"/.exec(listing)![1]!;
  const before = procStatus(server.pid);
  let viewing = true;
  let healthMax = 0;
  const polling = (async () => {
    while (viewing) {
      const started = performance.now();
      await (await fetch(`${server.url}/healthz`)).arrayBuffer();
      healthMax = Math.max(healthMax, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
  const page = await response.text();
  const seconds = (performance.now() - started) / 1000;
  viewing = false;
  await polling;
  const after = procStatus(server.pid);
  const texts = page.match(/<div class="content[ "]/g)?.length ?? 0;
  const plain = page.match(/<div class="content plain">/g)?.length ?? 0;
  return {
    answer: `${response.status}, ${plain} of ${texts} texts as plain text`,
    note: `page ${seconds.toFixed(2)} s (server CPU meanwhile, listings included, ${(after.cpuSeconds - before.cpuSeconds).toFixed(2)} s), ${(page.length / MIB).toFixed(1)} MB; /healthz slowest during the view ${Math.round(healthMax)} ms; peak RSS ${before.peakRssMb} → ${after.peakRssMb} MB`,
  };
}

/** A case: its name, and what it sends, made before the server starts (large inputs take a while to make). */
type Case = [string, () => (target: Target) => Promise<Outcome>];

function cases(): Case[] {
  return [
    [
      '300 MB form to POST /start, streamed',
      () => async (t) => ({
        answer: await answerOf(
          post(t, '/start', repeated(fill('a', 64 * 1024), 300 * MIB), {
            'Content-Type': 'application/x-www-form-urlencoded',
          }),
        ),
      }),
    ],
    [
      '200 MB body to POST /api/purge, streamed',
      () => async (t) => ({
        answer: await answerOf(
          post(t, '/api/purge', repeated(fill(' ', 64 * 1024), 200 * MIB), api(t, 'application/json')),
        ),
      }),
    ],
    [
      'multipart: 300,000 fields of 1 KB before the file',
      () => async (t) => ({
        answer: await answerOf(
          post(
            t,
            '/api/ingest-export?userRef=fields',
            generated(manyFields(300_000, 'b0undary')),
            api(t, 'multipart/form-data; boundary=b0undary'),
          ),
        ),
      }),
    ],
    ['300 slow POST /start, Content-Length 10 MB, 1 byte / 5 s', () => (t) => slowStartBodies(t, 300, 10_000_000)],
    ['300 slow POST /start, Content-Length 4 KB, 1 byte / 5 s', () => (t) => slowStartBodies(t, 300, 4_000)],
    [
      'zip of 2.5 GB whitespace in a conversation, refused early',
      () => {
        const zip = zipOf('[{"id":', fill(' ', MIB), 2560, '"x","mapping":{}}]');
        return async (t) => ({
          answer: await answerOf(
            post(t, '/api/ingest-export?userRef=bomb', zip as Uint8Array<ArrayBuffer>, api(t, 'application/zip')),
          ),
          note: `zip ${(zip.length / MIB).toFixed(1)} MB; fetch hears the answer`,
        });
      },
    ],
    [
      'zip of 4.1 GiB whitespace around [], past MAX_EXPANDED_BYTES',
      () => {
        const zip = zipOf('[', fill(' ', MIB), 4200, ']');
        return async (t) => ({
          answer: await answerOf(
            post(t, '/api/ingest-export?userRef=bomb', zip as Uint8Array<ArrayBuffer>, api(t, 'application/zip')),
          ),
          note: `zip ${(zip.length / MIB).toFixed(1)} MB`,
        });
      },
    ],
    ['63 MiB conversation of empty objects, [{},{},…]', () => importJson(denseConversation('{}', 63 * MIB), 'objects')],
    ['63 MiB conversation of zeros, [0,0,…]', () => importJson(denseConversation('0', 63 * MIB), 'zeros')],
    ...[1_100_000, 1_040_000].map(
      (keys): Case => [
        `conversation of ${keys.toLocaleString('en')} distinct keys${keys < 1_048_576 ? ', just under the bound in values and keys' : ''}`,
        () =>
          importJson(
            encoder.encode(
              `[{"id":"keys","title":"Keys","mapping":{${Array.from({ length: keys }, (_, i) => `"k${i}":0`).join(',')}}}]`,
            ),
            'keys',
          ),
      ],
    ),
    [
      'ChatGPT conversation of 10,000 messages with metadata',
      () => {
        const { bytes, values } = longChatgptConversation(10_000);
        const imported = importJson(bytes, 'long');
        return async (t) => ({
          ...(await imported(t)),
          note: `${(bytes.length / MIB).toFixed(1)} MB, ${values.toLocaleString('en')} values and keys`,
        });
      },
    ],
    [
      'Copilot header, then 20 MB of commas',
      () => {
        const body = Buffer.concat([Buffer.from(COPILOT_HEADER), Buffer.alloc(20 * MIB, ',')]);
        return async (t) => ({
          answer: await answerOf(post(t, '/api/ingest-export?userRef=commas', body, api(t, 'text/csv'))),
        });
      },
    ],
    [
      '100 MB of B,B,… without a header',
      () => {
        const body = Buffer.alloc(100 * MIB, 'B,');
        return async (t) => ({
          answer: await answerOf(post(t, '/api/ingest-export?userRef=bees', body, api(t, 'text/csv'))),
        });
      },
    ],
    ...TINY_RECORDS.flatMap(([element, count, real, page]) =>
      [1, 4].map(
        (uploads): Case => [
          `zip of ${real ? 'a conversation then ' : ''}${count.toLocaleString('en')} × ${element}${page ? ', on the connect page' : ''}, ${uploads} at once`,
          uploadsAtOnce(() => tinyRecordsZip(element, count, real), uploads, page),
        ],
      ),
    ),
    ...[1, 2].map(
      (uploads): Case => [
        `zip of a conversation and a 400 MB member of compression method 99, ${uploads} at once`,
        uploadsAtOnce(() => unreadMemberZip(400, 99), uploads),
      ],
    ),
    [
      'zip of a conversation and a 400 MB member stored (method 0), 1 at once',
      uploadsAtOnce(() => unreadMemberZip(400, 0), 1),
    ],
    [
      'a 16 MB message of `![` viewed on the manage page',
      () => {
        const conversation = claudeConversation(['!['.repeat(8 * MIB)]);
        return (t) => conversationView(t, conversation);
      },
    ],
    [
      '100 messages of 60 KiB of `![` viewed on the manage page',
      () => {
        const conversation = claudeConversation(Array.from({ length: 100 }, () => '!['.repeat(30 * 1024)));
        return (t) => conversationView(t, conversation);
      },
    ],
  ];
}

/** Runs every case whose name contains `only`, each on a fresh server. */
export async function requestCases(runtime: RuntimeName, work: string, only: string): Promise<RequestRow[]> {
  const rows: RequestRow[] = [];
  for (const [name, prepare] of cases()) {
    if (!name.includes(only)) continue;
    const act = prepare();
    const target = await serve(runtime, work);
    const load = backgroundLoad(target);
    const started = performance.now();
    const { answer, note = '' } = await act(target);
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    const { listing, health } = await load.stop();
    // A server the case crashed has no peak to read, and one it hung is killed.
    const peakRssMb = existsSync(`/proc/${target.server.pid}`) ? procStatus(target.server.pid).peakRssMb : Number.NaN;
    await target.server.stop().catch((error: Error) => console.log(error.message.split('\n')[0]));
    const row = {
      name,
      answer,
      seconds,
      peakRssMb,
      listingP99Ms: Math.round(percentile(listing, 99)),
      healthMaxMs: Math.round(Math.max(...health)),
      note,
    };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  return rows;
}

export function requestTable(runtime: string, rows: RequestRow[]): string[] {
  return [
    `Hostile requests, ${runtime}, default limits, two clients listing conversations and /healthz polled throughout:`,
    '',
    '| Case | answer | time | server peak RSS | listing p99 meanwhile | /healthz slowest | notes |',
    '| - | - | - | - | - | - | - |',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.answer} | ${row.seconds} s | ${row.peakRssMb} MB | ${row.listingP99Ms} ms | ${row.healthMaxMs} ms | ${row.note} |`,
    ),
  ];
}
