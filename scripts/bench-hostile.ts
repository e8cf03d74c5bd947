/**
 * Hostile uploads against a real server with the default limits: small zips that
 * expand enormously. Prints, for each, the answer, the time taken, the server's
 * CPU time and its peak RSS (which must stay under 400 MB whatever the input).
 *
 *   npm run bench:hostile [-- --runtime node|deno|bun] [--only <part of a name>]
 *
 * 1. conversation bomb: a 1.5 GB string in one conversation, zipped to about 1.5 MB.
 * 2. whitespace bomb: 3 GB of whitespace around an empty array, zipped to about 3 MB.
 * 3. whitespace inside a conversation: the same, but within the first conversation.
 * 4. largest conversations: one conversation of just under MAX_CONVERSATION_BYTES,
 *    zipped — 960 long messages, then all of it in one title — imported: the
 *    most the server holds for one conversation.
 *    Then 85 million `{}` in Grok's `tasks`, an array only counted (`notRead`).
 *
 * Then long writes, purged text and shutdown, each against a server of its own:
 *
 * 5. long writes: importing, then purging, 200,000 small conversations, and
 *    12 concurrent 30 MB imports on a server of their own, while clients poll
 *    another user's listing by userRef and by connectionId; on SQLite and on
 *    PostgreSQL (a server from npm, test/postgres-server.ts): each listing's
 *    p50/p99/max meanwhile.
 * 6. purged text: seconds from a purge's answer until no byte of the SQLite
 *    file or its -wal holds the purged text.
 * 7. shutdown: SIGTERM right after a 200,000-conversation import, while it is
 *    being indexed; then a new process on the same file, to its first listing.
 *
 * Then hostile requests (bench-hostile/requests.ts): bodies far past a route's
 * bound, slow senders, zip bombs, amplifying CSV, conversations dense in values,
 * and hostile Markdown viewed on the manage page, with the listing's p99
 * meanwhile.
 *
 * Linux only (memory and CPU are read from /proc). Not a test: nothing here fails.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { onboardApp } from '../src/apps/apps.ts';
import { openBetterSqlite3 } from '../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../src/deps.ts';
import { openPostgres } from '../src/db/dialects/postgres.ts';
import { readSchema } from '../src/db/schema-file.ts';
import { ROOT, startServer, type RuntimeName } from '../test/conformance/server.ts';
import { startPostgres, type PostgresServer } from '../test/postgres-server.ts';
import { fill, MIB, procStatus, tally, zipOf } from './bench-hostile/kit.ts';
import { SHAPES, writeExport } from './generate-export/index.ts';
import { requestCases, requestTable } from './bench-hostile/requests.ts';
const { values: options } = parseArgs({
  options: { runtime: { type: 'string', default: 'node' }, only: { type: 'string', default: '' } },
});
const runtime = options.runtime as RuntimeName;
const work = mkdtempSync(join(tmpdir(), 'parley-hostile-'));

async function upload(name: string, zip: Uint8Array) {
  const databasePath = join(mkdtempSync(join(work, 'db-')), 'parley.db');
  const server = await startServer(runtime, { databasePath, env: { LOG_LEVEL: 'warn' } });
  const db = openBetterSqlite3(databasePath);
  const { apiKey } = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Hostile');
  await db.destroy();
  const before = procStatus(server.pid);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/ingest-export?userRef=hostile`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/zip' },
    body: zip as Uint8Array<ArrayBuffer>,
  });
  const answer = await response.text();
  const seconds = (performance.now() - started) / 1000;
  const after = procStatus(server.pid);
  await server.stop();
  const row = {
    upload: name,
    zipMb: Math.round((zip.length / MIB) * 10) / 10,
    status: response.status,
    answer: answer.length > 120 ? `${answer.slice(0, 120)}…` : answer,
    seconds: Math.round(seconds * 100) / 100,
    serverCpuSeconds: Math.round((after.cpuSeconds - before.cpuSeconds) * 100) / 100,
    peakRssMb: after.peakRssMb,
  };
  console.log(JSON.stringify(row));
  return row;
}

const megabyteOfA = fill('a', MIB);
const megabyteOfSpace = fill(' ', MIB);
const longMessage = (i: number) =>
  `"n${i}":{"id":"n${i}","parent":${i ? `"n${i - 1}"` : null},"children":["n${i + 1}"],"message":{"author":{"role":"${i % 2 ? 'assistant' : 'user'}"},"create_time":${1700000000 + i},"content":{"content_type":"text","parts":["${'word '.repeat(13_000)}"]}}}`;
const longMessages = () => new TextEncoder().encode(Array.from({ length: 960 }, (_, i) => longMessage(i)).join(','));

const uploads: Array<[string, () => Uint8Array]> = [
  ['1.5 GB conversation', () => zipOf('[{"id":"bomb","mapping":{},"title":"', megabyteOfA, 1536, '"}]')],
  ['3 GB of whitespace around []', () => zipOf('[', megabyteOfSpace, 3072, ']')],
  ['3 GB of whitespace in a conversation', () => zipOf('[{"id":', megabyteOfSpace, 3072, '"x","mapping":{}}]')],
  [
    '63 MiB conversation of 960 messages',
    () => zipOf('[{"id":"long","title":"Long","current_node":"n959","mapping":{', longMessages(), 1, '}}]'),
  ],
  ['63 MiB conversation, all title', () => zipOf('[{"id":"largest","mapping":{},"title":"', megabyteOfA, 63, '"}]')],
  [
    'Grok: 255 MiB of {} in tasks',
    () =>
      zipOf(
        '{"conversations":[{"conversation":{"id":"g"},"responses":[{"response":{"message":"Hi","sender":"human"}}]}],"tasks":[',
        fill('{},', MIB),
        85,
        '{}]}',
      ),
  ],
];

// ---------------------------------------------------------------------------
// Long writes: importing and purging 200,000 conversations, and 12 concurrent
// 30 MB imports, while another user's listings are polled both ways (by
// userRef and by connectionId). Reports each write's duration, the server's
// peak RSS, and each listing's latencies while the write ran.

const LONG_WRITE_CONVERSATIONS = 200_000;
const CONCURRENT_IMPORTS = 12;
const CONCURRENT_IMPORT_MB = 30;
/** Clients polling each listing: four in all. */
const POLLERS_PER_LISTING = 2;

/** A ChatGPT export of `count` small conversations, each with one message holding `marker`. */
function manyConversations(count: number, marker: string): Uint8Array {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const message = `{"id":"m","message":{"author":{"role":"user"},"create_time":${1700000000 + i},"content":{"content_type":"text","parts":["${marker} ${i}"]}}}`;
    parts.push(
      `{"id":"c${i}","title":"Conversation ${i}","create_time":${1700000000 + i},"update_time":${1700000000 + i},"current_node":"m","mapping":{"m":${message}}}`,
    );
  }
  return new TextEncoder().encode(`[${parts.join(',')}]`);
}

/** Polls `url` with POLLERS_PER_LISTING clients until `done` settles; the latencies of the requests, in ms. */
async function pollListing(url: string, apiKey: string, done: Promise<unknown>) {
  const latencies: number[] = [];
  const failures: number[] = [];
  let finished = false;
  void done.finally(() => (finished = true));
  await Promise.all(
    Array.from({ length: POLLERS_PER_LISTING }, async () => {
      while (!finished) {
        const started = performance.now();
        const response = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` } });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        if (response.status !== 200) failures.push(response.status);
      }
    }),
  );
  return { latencies, failures };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? 0
    : Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!);
};

/** The one-minute load average, read when a case ends: how much else the two cores had to do. */
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** A server on a fresh SQLite file, or on a fresh database of `postgres`, with one app onboarded. */
async function serverFor(
  database: 'sqlite' | 'postgres',
  postgres: PostgresServer | undefined,
  env: Record<string, string> = {},
) {
  const databasePath = join(mkdtempSync(join(work, 'db-')), 'parley.db');
  const databaseUrl = postgres
    ? await postgres.createDatabase(`bench_${crypto.randomUUID().replace(/-/g, '')}`)
    : undefined;
  const server = await startServer(runtime, {
    databasePath,
    env: {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
  });
  const db = databaseUrl
    ? await openPostgres(databaseUrl, readSchema('schema.postgres.sql'))
    : openBetterSqlite3(databasePath);
  const { apiKey } = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, `Bench ${database}`);
  await db.destroy();
  return { server, apiKey, databasePath };
}

interface ListingFigures {
  listing: string;
  requests: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface WriteRow {
  case: string;
  status: number | string;
  answer: string;
  seconds: number;
  /** From the request to the search index holding all it wrote (SQLite indexes after the answer). */
  indexedSeconds?: number;
  peakRssMb: number;
  loadAverage: number;
  listings?: ListingFigures[];
}

/** The row of a case, printed as it is measured. */
function report(row: WriteRow): WriteRow {
  console.log(JSON.stringify(row));
  return row;
}

/** `count` imports of `file` at once, each retried after its Retry-After on 503 until it is answered otherwise. */
async function concurrentImports(url: string, apiKey: string, file: Uint8Array, count: number) {
  let busy = 0;
  const importOne = async (i: number): Promise<number> => {
    for (;;) {
      const response = await fetch(`${url}/api/ingest-export?userRef=burst-${i}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: file as Uint8Array<ArrayBuffer>,
      });
      await response.arrayBuffer();
      if (response.status !== 503) return response.status;
      busy++;
      await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000);
    }
  };
  const statuses = await Promise.all(Array.from({ length: count }, (_, i) => importOne(i)));
  return {
    status: tally(statuses.map(String)),
    text: `${busy} answers 503 + Retry-After on the way, each retried`,
  };
}

/**
 * A server of its own on `database`, with a reader whose listings, by userRef
 * and by its connection, are polled while each of `writes` runs in turn.
 */
async function pollingWrites(
  database: 'sqlite' | 'postgres',
  postgres: PostgresServer | undefined,
  writes: Array<
    [name: string, write: (url: string, apiKey: string) => Promise<{ status: number | string; text: string }>]
  >,
): Promise<WriteRow[]> {
  const { server, apiKey, databasePath } = await serverFor(database, postgres);
  const seeded = await fetch(`${server.url}/api/ingest-export?userRef=reader`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: manyConversations(50, 'reader') as Uint8Array<ArrayBuffer>,
  });
  const { connectionId } = (await seeded.json()) as { connectionId: string };
  const listings = {
    '?userRef=': `${server.url}/api/conversations?userRef=reader&limit=20`,
    '?connectionId=': `${server.url}/api/conversations?connectionId=${connectionId}&limit=20`,
  };
  const rows: WriteRow[] = [];
  for (const [name, write] of writes) {
    const started = performance.now();
    const secondsSince = () => Math.round((performance.now() - started) / 10) / 100;
    const written = write(server.url, apiKey);
    let seconds = 0;
    // The listings are polled until the work is done, not until the answer: on SQLite
    // the search index takes what an import wrote after it answered.
    const done = written.then(async () => {
      seconds = secondsSince();
      if (database === 'sqlite') await untilIndexed(databasePath);
    });
    const polled = await Promise.all(
      Object.entries(listings).map(async ([listing, url]) => ({
        listing,
        ...(await pollListing(url, apiKey, done)),
      })),
    );
    const { status, text } = await written;
    rows.push(
      report({
        case: `${name}, ${database}`,
        status,
        answer: text.length > 100 ? `${text.slice(0, 100)}…` : text,
        seconds,
        indexedSeconds: secondsSince(),
        peakRssMb: procStatus(server.pid).peakRssMb,
        loadAverage: loadAverage(),
        listings: polled.map(({ listing, latencies, failures }) => ({
          listing,
          requests: latencies.length,
          failures: failures.length,
          p50Ms: percentile(latencies, 50),
          p99Ms: percentile(latencies, 99),
          maxMs: percentile(latencies, 100),
        })),
      }),
    );
  }
  await server.stop();
  return rows;
}

/** Until no connection of the SQLite database at `databasePath` waits for the search index (read by a connection of its own). */
async function untilIndexed(databasePath: string): Promise<void> {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const pending = db.prepare('SELECT count(*) AS n FROM conversation_search_pending');
    while ((pending.get() as { n: number }).n > 0) await sleep(100);
  } finally {
    db.close();
  }
}

const answered = async (response: Promise<Response>) => {
  const r = await response;
  return { status: r.status, text: await r.text() };
};

async function longWrites(database: 'sqlite' | 'postgres'): Promise<WriteRow[]> {
  const postgres = database === 'postgres' ? await startPostgres() : undefined;
  try {
    const body = manyConversations(LONG_WRITE_CONVERSATIONS, 'bulk');
    const out = join(work, `chatgpt-${CONCURRENT_IMPORT_MB}mb.json`);
    if (!existsSync(out))
      await writeExport({
        shape: SHAPES.openai,
        sizeMb: CONCURRENT_IMPORT_MB,
        out,
        format: 'json',
        splitMb: 100,
        seed: 1,
      });
    const file = readFileSync(out);
    const post = (url: string, apiKey: string, path: string, payload: Uint8Array | string) =>
      answered(
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
          body: payload as Uint8Array<ArrayBuffer> | string,
        }),
      );
    return [
      ...(await pollingWrites(database, postgres, [
        [
          `import of ${LONG_WRITE_CONVERSATIONS.toLocaleString('en')} conversations`,
          (url, apiKey) => post(url, apiKey, '/api/ingest-export?userRef=bulk', body),
        ],
        [
          `purge of those ${LONG_WRITE_CONVERSATIONS.toLocaleString('en')}`,
          (url, apiKey) => post(url, apiKey, '/api/purge', JSON.stringify({ userRef: 'bulk' })),
        ],
      ])),
      // A fresh server, so that nothing the purge left to do counts against these imports.
      ...(await pollingWrites(database, postgres, [
        [
          `${CONCURRENT_IMPORTS} concurrent ${CONCURRENT_IMPORT_MB} MB ChatGPT imports`,
          (url, apiKey) => concurrentImports(url, apiKey, file, CONCURRENT_IMPORTS),
        ],
      ])),
    ];
  } finally {
    await postgres?.stop();
  }
}

// ---------------------------------------------------------------------------
// Purged text: how long after a purge's answer the purged
// text is in neither the SQLite file nor its -wal.

async function purgedText(): Promise<WriteRow> {
  const { server, apiKey, databasePath } = await serverFor('sqlite', undefined);
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...init.headers },
    });
  const marker = 'Zebracornmarker';
  await (
    await api('/api/ingest-export?userRef=purged', {
      method: 'POST',
      body: manyConversations(2_000, marker) as Uint8Array<ArrayBuffer>,
    })
  ).text();
  const onDisk = () =>
    [databasePath, `${databasePath}-wal`]
      .filter((file) => existsSync(file))
      .reduce((count, file) => count + readFileSync(file).toString('latin1').split(marker).length - 1, 0);
  // Until the checkpoints have copied it into the file too.
  while (!readFileSync(databasePath).toString('latin1').includes(marker)) await sleep(100);
  const response = await api('/api/purge', { method: 'POST', body: JSON.stringify({ userRef: 'purged' }) });
  const started = performance.now();
  const copiesAtAnswer = onDisk();
  while (onDisk() > 0 && performance.now() - started < 60_000) await sleep(50);
  const left = onDisk();
  const row = report({
    case: 'purge of 2,000 conversations: until its text is in neither parley.db nor -wal, sqlite',
    status: response.status,
    answer: `${copiesAtAnswer} copies on disk at the answer, ${left} after`,
    seconds: Math.round((performance.now() - started) / 10) / 100,
    peakRssMb: procStatus(server.pid).peakRssMb,
    loadAverage: loadAverage(),
  });
  await server.stop();
  return row;
}

// ---------------------------------------------------------------------------
// Shutdown: SIGTERM right after a large import, while its
// conversations are being indexed; then a new process on the same file.

async function shutdown(): Promise<WriteRow[]> {
  const { server, apiKey, databasePath } = await serverFor('sqlite', undefined);
  const imported = await fetch(`${server.url}/api/ingest-export?userRef=bulk`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: manyConversations(LONG_WRITE_CONVERSATIONS, 'bulk') as Uint8Array<ArrayBuffer>,
  });
  await imported.text();
  const peakRssMb = procStatus(server.pid).peakRssMb;
  const stopping = performance.now();
  const exit = await server.stop('SIGTERM');
  const stopped = report({
    case: `SIGTERM right after importing ${LONG_WRITE_CONVERSATIONS.toLocaleString('en')} conversations (indexing under way), sqlite`,
    status: `exit ${exit.code}`,
    answer: server.logs.some((line) => line.includes('shutdown cut short')) ? 'cut short' : 'clean',
    seconds: Math.round((performance.now() - stopping) / 10) / 100,
    peakRssMb,
    loadAverage: loadAverage(),
  });
  const starting = performance.now();
  const next = await startServer(runtime, { databasePath, env: { LOG_LEVEL: 'warn' } });
  const listing = await fetch(`${next.url}/api/conversations?userRef=bulk`, {
    headers: { Authorization: `Bearer ${apiKey}` },
  });
  await listing.text();
  const restarted = report({
    case: 'a new process on the same file: from start to its first listing, sqlite',
    status: listing.status,
    answer: '',
    seconds: Math.round((performance.now() - starting) / 10) / 100,
    peakRssMb: procStatus(next.pid).peakRssMb,
    loadAverage: loadAverage(),
  });
  await next.stop();
  return [stopped, restarted];
}

const rows = [];
for (const [name, make] of uploads) if (name.includes(options.only)) rows.push(await upload(name, make()));
const requestRows = await requestCases(runtime, work, options.only);

const writeRows: WriteRow[] = [];
for (const database of ['sqlite', 'postgres'] as const)
  if (`long writes ${database}`.includes(options.only)) writeRows.push(...(await longWrites(database)));
if ('purged text'.includes(options.only)) writeRows.push(await purgedText());
if ('shutdown'.includes(options.only)) writeRows.push(...(await shutdown()));

const table = [
  `Hostile uploads, ${runtime}, default limits (MAX_CONVERSATION_BYTES 64 MiB, MAX_EXPANDED_BYTES 4 GiB):`,
  '',
  '| Upload | zip | answer | time | server CPU | server peak RSS |',
  '| - | - | - | - | - | - |',
  ...rows.map(
    (row) =>
      `| ${row.upload} | ${row.zipMb} MB | ${row.status} ${row.answer} | ${row.seconds} s | ${row.serverCpuSeconds} s | ${row.peakRssMb} MB |`,
  ),
  '',
  `Long writes, shutdown and purged text, ${runtime}; ${POLLERS_PER_LISTING} clients polling each listing from a write's request until it is answered and, on SQLite, indexed for search:`,
  '',
  '| Case | answer | time | until indexed | server peak RSS | load average after | listing | requests meanwhile | p50 / p99 / max |',
  '| - | - | - | - | - | - | - | - | - |',
  ...writeRows.flatMap((row) => {
    const indexed = row.indexedSeconds === undefined ? '–' : `${row.indexedSeconds} s`;
    const head = `| ${row.case} | ${row.status} | ${row.seconds} s | ${indexed} | ${row.peakRssMb} MB | ${row.loadAverage}`;
    return (row.listings ?? [undefined]).map((l) =>
      l === undefined
        ? `${head} | – | – | – |`
        : `${head} | \`${l.listing}\` | ${l.requests} (${l.failures} not 200) | ${l.p50Ms} / ${l.p99Ms} / ${l.maxMs} ms |`,
    );
  }),
];
table.push('', ...requestTable(runtime, requestRows));
console.log(`\n${table.join('\n')}`);
mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
writeFileSync(join(ROOT, 'bench-results', 'hostile.md'), `${table.join('\n')}\n`);
rmSync(work, { recursive: true, force: true });
