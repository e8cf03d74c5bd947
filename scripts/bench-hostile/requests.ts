/**
 * Hostile requests (rather than hostile files alone): bodies far past a route's
 * bound, slow senders, amplifying CSV, and a burst of large imports. Each case
 * runs against a fresh server with the default limits while two clients list
 * conversations without pause, and reports the answer, how long the case took,
 * the server's peak RSS and the listing's p99 meanwhile.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createApp as onboardApp } from '../../src/apps/apps.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../../src/deps.ts';
import { ROOT, startServer, type RunningServer, type RuntimeName } from '../../test/conformance/server.ts';
import { SHAPES, writeExport } from '../generate-export/index.ts';
import { fill, MIB, procStatus, zipOf } from './kit.ts';

export interface RequestRow {
  name: string;
  answer: string;
  seconds: number;
  peakRssMb: number;
  listingP99Ms: number;
  note: string;
}

interface Target {
  server: RunningServer;
  apiKey: string;
}

interface Outcome {
  answer: string;
  note?: string;
}

const encoder = new TextEncoder();

async function serve(runtime: RuntimeName, work: string): Promise<Target> {
  const databasePath = join(mkdtempSync(join(work, 'db-')), 'parley.db');
  // The listing load must not be throttled by the rate limit.
  const server = await startServer(runtime, { databasePath, env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000000' } });
  const db = openBetterSqlite3(databasePath);
  const { apiKey } = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Hostile');
  await db.destroy();
  const seeded = await fetch(`${server.url}/api/ingest-export?userRef=lister`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: readFileSync(join(ROOT, 'test/fixtures/claude-conversations.json')),
  });
  if (seeded.status !== 200) throw new Error(`seeding the listing failed: ${seeded.status} ${await seeded.text()}`);
  return { server, apiKey };
}

/** Two clients listing conversations back to back until stopped; every request's milliseconds. */
function listingLoad({ server, apiKey }: Target) {
  let running = true;
  const latencies: number[] = [];
  const client = async () => {
    while (running) {
      const started = performance.now();
      try {
        await (await fetch(`${server.url}/api/conversations?userRef=lister&limit=20`, { headers: { Authorization: `Bearer ${apiKey}` } })).arrayBuffer();
      } catch {
        // A failed listing counts with the time it took.
      }
      latencies.push(performance.now() - started);
    }
  };
  const clients = [client(), client()];
  return {
    async stop() {
      running = false;
      await Promise.all(clients);
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

const post = (target: Target, path: string, body: BodyInit, headers: Record<string, string>) =>
  fetch(`${target.server.url}${path}`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);

const api = (target: Target, contentType: string) => ({ Authorization: `Bearer ${target.apiKey}`, 'Content-Type': contentType });

/**
 * `count` connections that send a `POST /start` head declaring `contentLength`,
 * then one byte every 5 s; /healthz polled meanwhile. What the connections were
 * answered, and how many the server still held open after 45 s.
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
      socket.write(`POST /start HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${contentLength}\r\n\r\nt`),
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
  const health: number[] = [];
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const started = performance.now();
      await fetch(`${server.url}/healthz`).then((response) => response.arrayBuffer(), () => undefined);
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 45_000));
  const stillOpen = open;
  polling = false;
  clearInterval(drip);
  await poll;
  for (const socket of sockets) socket.destroy();
  const answers = [...statuses].map(([status, n]) => `${status} ×${n}`).join(', ');
  return {
    answer: answers || 'none',
    note: `${Math.round((stillOpen / count) * 100)}% still open after 45 s; /healthz max ${Math.round(Math.max(...health))} ms`,
  };
}

/** `count` imports of `file` at once, each retried after its Retry-After on 503 until it is answered otherwise. */
async function concurrentImports(target: Target, file: Uint8Array, count: number): Promise<Outcome> {
  let busy = 0;
  const importOne = async (i: number): Promise<number> => {
    for (;;) {
      const response = await post(target, `/api/ingest-export?userRef=burst-${i}`, file as Uint8Array<ArrayBuffer>, api(target, 'application/json'));
      await response.arrayBuffer();
      if (response.status !== 503) return response.status;
      busy++;
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
    }
  };
  const statuses = await Promise.all(Array.from({ length: count }, (_, i) => importOne(i)));
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return { answer: [...counts].map(([status, n]) => `${status} ×${n}`).join(', '), note: `${busy} answers 503 + Retry-After on the way, each retried` };
}

function* manyFields(count: number, boundary: string): Generator<Uint8Array> {
  const value = 'v'.repeat(1024);
  for (let i = 0; i < count; i++) yield encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n${value}\r\n`);
  yield encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.json"\r\nContent-Type: application/json\r\n\r\n[]\r\n--${boundary}--\r\n`);
}

const COPILOT_HEADER = 'Conversation,Time,Author,Message\r\n';

/** The cases, each a name and what it sends. */
function cases(work: string): Array<[string, (target: Target) => Promise<Outcome>]> {
  return [
    ['300 MB form to POST /start, streamed', async (t) => ({ answer: await answerOf(post(t, '/start', repeated(fill('a', 64 * 1024), 300 * MIB), { 'Content-Type': 'application/x-www-form-urlencoded' })) })],
    ['200 MB body to POST /api/purge, streamed', async (t) => ({ answer: await answerOf(post(t, '/api/purge', repeated(fill(' ', 64 * 1024), 200 * MIB), api(t, 'application/json'))) })],
    [
      'multipart: 300,000 fields of 1 KB before the file',
      async (t) => ({ answer: await answerOf(post(t, '/api/ingest-export?userRef=fields', generated(manyFields(300_000, 'b0undary')), api(t, 'multipart/form-data; boundary=b0undary'))) }),
    ],
    ['300 slow POST /start, Content-Length 10 MB, 1 byte / 5 s', (t) => slowStartBodies(t, 300, 10_000_000)],
    ['300 slow POST /start, Content-Length 4 KB, 1 byte / 5 s', (t) => slowStartBodies(t, 300, 4_000)],
    [
      'zip of 2.5 GB whitespace in a conversation, refused early',
      async (t) => {
        const zip = zipOf('[{"id":', fill(' ', MIB), 2560, '"x","mapping":{}}]');
        return { answer: await answerOf(post(t, '/api/ingest-export?userRef=bomb', zip as Uint8Array<ArrayBuffer>, api(t, 'application/zip'))), note: `zip ${(zip.length / MIB).toFixed(1)} MB; fetch hears the answer` };
      },
    ],
    [
      'Copilot header, then 20 MB of commas',
      async (t) => {
        const body = Buffer.concat([Buffer.from(COPILOT_HEADER), Buffer.alloc(20 * MIB, ',')]);
        return { answer: await answerOf(post(t, '/api/ingest-export?userRef=commas', body, api(t, 'text/csv'))) };
      },
    ],
    ['100 MB of B,B,… without a header', async (t) => ({ answer: await answerOf(post(t, '/api/ingest-export?userRef=bees', Buffer.alloc(100 * MIB, 'B,'), api(t, 'text/csv'))) })],
    [
      '12 concurrent 30 MB ChatGPT imports',
      async (t) => {
        const out = join(work, 'chatgpt-30mb.json');
        await writeExport({ shape: SHAPES.openai, sizeMb: 30, out, format: 'json', splitMb: 100, seed: 1 });
        return concurrentImports(t, readFileSync(out), 12);
      },
    ],
  ];
}

/** Runs every case whose name contains `only`, each on a fresh server. */
export async function requestCases(runtime: RuntimeName, work: string, only: string): Promise<RequestRow[]> {
  const rows: RequestRow[] = [];
  for (const [name, act] of cases(work)) {
    if (!name.includes(only)) continue;
    const target = await serve(runtime, work);
    const load = listingLoad(target);
    const started = performance.now();
    const { answer, note = '' } = await act(target);
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    const latencies = await load.stop();
    const { peakRssMb } = procStatus(target.server.pid);
    await target.server.stop();
    const row = { name, answer, seconds, peakRssMb, listingP99Ms: Math.round(percentile(latencies, 99)), note };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  return rows;
}

export function requestTable(runtime: string, rows: RequestRow[]): string[] {
  return [
    `Hostile requests, ${runtime}, default limits, two clients listing conversations throughout:`,
    '',
    '| Case | answer | time | server peak RSS | listing p99 meanwhile | notes |',
    '| - | - | - | - | - | - |',
    ...rows.map((row) => `| ${row.name} | ${row.answer} | ${row.seconds} s | ${row.peakRssMb} MB | ${row.listingP99Ms} ms | ${row.note} |`),
  ];
}
