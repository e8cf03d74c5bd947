/**
 * Measures Parley on this machine and writes bench-results/bench.{md,json}:
 *   1. on the runtime of --runtime: import over HTTP of a generated export of each
 *      provider's shape (ChatGPT, Claude, DeepSeek, Grok, Gemini, Copilot, …; Duck.ai's
 *      as the zip of its .txt files) at each size, then the same file again --reimports
 *      times (re-imports of unchanged conversations, 2 by default): MB/s,
 *      conversations/s, the server's peak RSS, beside a bare JSON.parse of the
 *      same file where it is JSON; an import that fails is a row that says so;
 *   2. listing throughput and latency (autocannon, a separate process) beside
 *      baselines on the same runtime and server: a Hono hello-world, and a
 *      server answering the bytes of the same page of 50 from memory;
 *   3. start-up time to the first /healthz and idle RSS;
 *   4. the runtimes of --compare side by side on SQLite, on the ChatGPT export of
 *      --compare-size MB: import, re-import, the server's CPU time until the import
 *      settled and the load average after it, listing and start-up;
 *   5. attachments: on --runtime and SQLite (the database store), a ChatGPT zip of
 *      --attachment-mb MB of stored JPEG-like images (--attachment-kb each) shown
 *      by its messages, plus --attachment-text-mb MB of generated conversations:
 *      MB/s of attachment bytes written, the server's peak RSS, the re-import.
 *      `--attachment-mb 1536 --attachment-text-mb 512` is the 2 GB export of the
 *      memory bound (docs/importing.md);
 *   6. several files, one import: on --runtime and SQLite, Claude's export as one
 *      zip per category — a conversations-000.zip of --several-files-mb MB, a
 *      projects-000.zip and a memories-000.zip — sent as one form: the time and
 *      the server's peak RSS;
 *   7. resumable uploads: on --runtime and SQLite, the attachments' ChatGPT zip of
 *      --resumable-mb MB imported on fresh servers in one request and through
 *      /api/uploads in PATCHes of --part-mb MB then `POST /api/ingest-export?upload=`,
 *      alternated --rounds times: each answered and settled, their ratio, the
 *      server's peak RSS, its slowest /healthz meanwhile; then the same upload cut in the middle of a part and
 *      resumed after a HEAD, as the SDK does: the bytes sent again.
 * Imports and listings of 1–3 run on each database of --databases: the SQLite
 * file, and PostgreSQL (started from npm, as the tests start it); on PostgreSQL
 * the connections listing is also measured over 1, 2 and 3 instances.
 *
 *   npm run bench [-- --runtime node|deno|bun|binary --compare node,deno,bun,binary --compare-size 200
 *                    --sizes 20,200,1000 --providers openai,anthropic,deepseek,xai,google,microsoft
 *                    --databases sqlite,postgres --instances 1,2,3 --duration 10 --connections 20
 *                    --attachment-mb 500 --attachment-kb 2048 --attachment-text-mb 0 --several-files-mb 1024
 *                    --resumable-mb 2048 --part-mb 50 --rounds 2 --reimports 2]
 *
 * `--sizes ''` skips 1–3, `--compare ''` skips 4, `--attachment-mb 0` skips 5, `--several-files-mb 0` skips 6, `--resumable-mb 0` (the default) skips 7. Node runs what `npm start`
 * runs (the bundle of the Node entry), the binary what `npm run build:binary`
 * makes; every server has LOG_LEVEL=warn. Each import is timed twice: until
 * the server answers, and until it has settled — its search index and the
 * checkpoint of what it wrote done, its CPU idle and its database no longer
 * growing (settledSeconds) — and each re-import starts only then. Linux only
 * (memory is read from /proc/<pid>/status). Benchmarks are not tests: nothing
 * here fails on a slow machine.
 */
import { execFile, spawn } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { once } from 'node:events';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { parseArgs, promisify } from 'node:util';
import { strToU8, Zip, ZipPassThrough, zipSync } from 'fflate';
import { onboardApp } from '../src/apps/apps.ts';
import { openBetterSqlite3 } from '../src/db/better-sqlite3.ts';
import { openPostgres } from '../src/db/dialects/postgres.ts';
import { readSchema } from '../src/db/schema-file.ts';
import { cryptoRandom, systemClock } from '../src/deps.ts';
import { freePort, ROOT, startServer, type RunningServer } from '../test/conformance/server.ts';
import { startPostgres, type PostgresServer } from '../test/postgres-server.ts';
import { PROVIDERS, SHAPES, type Provider, type Summary } from './generate-export/index.ts';
import { writeAttachmentExport } from './generate-attachment-export.ts';

const run = promisify(execFile);
const MIB = 1024 * 1024;

const RUNTIMES = ['node', 'deno', 'bun', 'binary'] as const;
type Runtime = (typeof RUNTIMES)[number];
type DatabaseName = 'sqlite' | 'postgres';

const { values: options } = parseArgs({
  options: {
    runtime: { type: 'string', default: 'node' },
    compare: { type: 'string', default: RUNTIMES.join(',') },
    'compare-size': { type: 'string', default: '200' },
    sizes: { type: 'string', default: '20,200,1000' },
    providers: { type: 'string', default: PROVIDERS.join(',') },
    databases: { type: 'string', default: 'sqlite,postgres' },
    instances: { type: 'string', default: '1,2,3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    'attachment-mb': { type: 'string', default: '500' },
    'attachment-kb': { type: 'string', default: '2048' },
    'attachment-text-mb': { type: 'string', default: '0' },
    'several-files-mb': { type: 'string', default: '1024' },
    'resumable-mb': { type: 'string', default: '0' },
    'part-mb': { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    reimports: { type: 'string', default: '2' },
    out: { type: 'string', default: join(ROOT, 'bench-results') },
  },
});
/** A comma-separated option's values, each one of `known`. */
function listOption<T extends string>(name: string, value: string, known: readonly T[]): T[] {
  const values = value.split(',').filter((v) => v !== '') as T[];
  for (const v of values)
    if (!known.includes(v)) throw new Error(`--${name}: unknown value ${v} (known: ${known.join(', ')})`);
  return values;
}
const runtime = listOption('runtime', options.runtime, RUNTIMES)[0] ?? 'node';
const compared = listOption('compare', options.compare, RUNTIMES);
const compareSize = Number(options['compare-size']);
const sizes = options.sizes
  .split(',')
  .filter((s) => s !== '')
  .map(Number);
const providers = listOption('providers', options.providers, PROVIDERS);
const databases = listOption('databases', options.databases, ['sqlite', 'postgres'] as const);
const instanceCounts = options.instances.split(',').map(Number);
const duration = Number(options.duration);
const attachmentMb = Number(options['attachment-mb']);
const attachmentKb = Number(options['attachment-kb']);
const attachmentTextMb = Number(options['attachment-text-mb']);
const severalFilesMb = Number(options['several-files-mb']);
const resumableMb = Number(options['resumable-mb']);
const partBytes = Number(options['part-mb']) * MIB;
const reimportCount = Number(options.reimports);
const rounds = Number(options.rounds);
const connections = Number(options.connections);
const work = mkdtempSync(join(tmpdir(), 'parley-bench-'));
/** What `npm run build:binary` makes. */
const binaryPath = join(ROOT, 'dist/parley');

/** From /proc: the process's peak (VmHWM) or current (VmRSS) resident memory, in MB. */
function memoryMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(field))!;
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

/** The load average over 1, 5 and 15 minutes, as /proc says it. */
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** How a script runs under a runtime. */
function scriptCommand(r: Runtime, script: string, args: string[] = []): [string, string[]] {
  const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
  if (r === 'node') return [process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', script, ...args]];
  if (r === 'deno') return [bin('deno'), ['run', '-A', script, ...args]];
  // The binary is Bun's runtime compiled in: its baselines run under Bun.
  return [bin('bun'), [script, ...args]];
}

let postgres: PostgresServer | undefined;
let databaseCount = 0;

/**
 * `instances` fresh servers of runtime `r` on one fresh database — a SQLite
 * file, or a new PostgreSQL database — with one onboarded app.
 */
async function parley(r: Runtime, database: DatabaseName, env: Record<string, string> = {}, instances = 1) {
  const databasePath = join(mkdtempSync(join(work, 'db-')), 'parley.db');
  const databaseUrl = database === 'postgres' ? await postgres!.createDatabase(`bench_${++databaseCount}`) : undefined;
  const db = databaseUrl
    ? await openPostgres(databaseUrl, readSchema('schema.postgres.sql'), { poolSize: 1 })
    : openBetterSqlite3(databasePath);
  const tenant = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Bench');
  await db.destroy();
  const serverEnv = { LOG_LEVEL: 'warn', ...env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const servers = await Promise.all(
    Array.from({ length: instances }, () => startServer(r, { databasePath, env: serverEnv, binaryPath })),
  );
  const databaseBytes = databaseUrl ? postgresBytes(databaseUrl) : async () => sqliteBytes(databasePath);
  return { servers, server: servers[0]!, apiKey: tenant.apiKey, databaseBytes };
}

/** The bytes of a SQLite database: its file and its write-ahead log. */
const sqliteBytes = (databasePath: string) =>
  [databasePath, `${databasePath}-wal`].reduce(
    (sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0),
    0,
  );

/** The bytes of a PostgreSQL database, asked on a connection of its own. */
function postgresBytes(databaseUrl: string): () => Promise<number> {
  let db: ReturnType<typeof openPostgres> | undefined;
  return async () => {
    db ??= openPostgres(databaseUrl, readSchema('schema.postgres.sql'), { poolSize: 1 });
    const { rows } = await sql<{ bytes: string }>`SELECT pg_database_size(current_database()) AS bytes`.execute(
      await db,
    );
    return Number(rows[0]!.bytes);
  };
}

/** The CPU time a process (all its threads) has used, in clock ticks (a hundredth of a second). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime: fields 14 and 15 of stat, 12 and 13 after the command's name.
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Settling: after its answer, a server still indexes for search and checkpoints
 * what an import wrote, each on a timer of a second. It has settled at the last
 * moment it used a fifth of a core or its database grew or shrank, once
 * QUIET_MS have passed without either.
 */
const SAMPLE_MS = 100;
const QUIET_MS = 2_500;
const BUSY_TICKS = 2;

/** Seconds from `startedAt` (performance.now()) until the server settled. */
async function settledSeconds(pid: number, databaseBytes: () => Promise<number>, startedAt: number): Promise<number> {
  let last = { ticks: cpuTicks(pid), bytes: await databaseBytes() };
  let activeAt = performance.now();
  while (performance.now() - activeAt < QUIET_MS) {
    await sleep(SAMPLE_MS);
    const now = { ticks: cpuTicks(pid), bytes: await databaseBytes() };
    if (now.ticks - last.ticks >= BUSY_TICKS || now.bytes !== last.bytes) activeAt = performance.now();
    last = now;
  }
  return (activeAt - startedAt) / 1000;
}

/** The bare file, or the zip where a bare file holds one conversation (Duck.ai's). */
const uploadFormat = (provider: Provider) =>
  SHAPES[provider].layout.zip.split === 'conversation' ? 'zip' : SHAPES[provider].layout.bare;
const exportFile = (provider: Provider, sizeMb: number) =>
  join(work, `${provider}-${sizeMb}.${uploadFormat(provider)}`);
const CONTENT_TYPES = { json: 'application/json', csv: 'text/csv', txt: 'text/plain', zip: 'application/zip' };
const contentType = (provider: Provider) => CONTENT_TYPES[uploadFormat(provider)];

/** The provider's export file (uploadFormat: JSON, CSV for Copilot, a zip for Duck.ai) of at least `sizeMb`, once; the generator's summary. */
const generated = new Map<string, Summary>();
async function generate(provider: Provider, sizeMb: number): Promise<Summary> {
  const file = exportFile(provider, sizeMb);
  if (!generated.has(file)) {
    const args = [
      '--import',
      'tsx',
      'scripts/generate-export.ts',
      '--provider',
      provider,
      '--size-mb',
      String(sizeMb),
      '--out',
      file,
      '--format',
      uploadFormat(provider),
    ];
    const { stdout } = await run(process.execPath, args, { cwd: ROOT, maxBuffer: 16 * MIB });
    generated.set(file, JSON.parse(stdout) as Summary);
  }
  return generated.get(file)!;
}

/** One JSON.parse of the whole file in a fresh process of runtime `r`; null past what one string can hold (V8: about 512 MB). */
async function parseSeconds(r: Runtime, file: string): Promise<number | null> {
  try {
    const [command, args] = scriptCommand(r, 'scripts/json-parse.ts', [file]);
    const { stdout } = await run(command, args, { cwd: ROOT, maxBuffer: MIB });
    return Number(stdout.trim());
  } catch {
    return null;
  }
}

interface Upload {
  startedAt: number;
  seconds: number;
  status: number;
  error: string | null;
  created: number;
  unchanged: number;
}

/**
 * Posts the file, streamed from disk; a refused or failed upload is returned
 * (status and error), not thrown. node:http with the file piped in, not fetch:
 * undici's stream adaptation took most of a core from the server it measures
 * (a 200 MB import timed 4.4 s through fetch, 3.0 s through this or curl).
 */
function upload(
  server: RunningServer,
  apiKey: string,
  source: { file: string; type: string } | { uploadId: string },
): Promise<Upload> {
  const started = performance.now();
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  if ('file' in source) {
    headers['Content-Type'] = source.type;
    headers['Content-Length'] = String(statSync(source.file).size);
  }
  const query = 'file' in source ? '' : `&upload=${source.uploadId}`;
  return new Promise((resolve) => {
    let settled = false;
    const done = (status: number, text: string | null, failure?: Error) => {
      if (settled) return;
      settled = true;
      let result: { created?: number; unchanged?: number; error?: string } | null = null;
      try {
        result = text === null ? null : JSON.parse(text);
      } catch {
        // Not JSON: the text itself is the error.
      }
      const error = failure
        ? failure.message
        : status !== 200 || typeof result?.created !== 'number'
          ? (result?.error ?? (text?.slice(0, 200) || `HTTP ${status}`))
          : null;
      resolve({
        startedAt: started,
        seconds: (performance.now() - started) / 1000,
        status,
        error,
        created: result?.created ?? 0,
        unchanged: result?.unchanged ?? 0,
      });
    };
    const request = httpRequest(
      `${server.url}/api/ingest-export?userRef=bench${query}`,
      { method: 'POST', headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
        response.on('error', (failure) => done(response.statusCode ?? 0, null, failure));
      },
    );
    // The server went away mid-upload, or answered early and closed.
    request.on('error', (failure) => done(0, null, failure));
    if ('file' in source) createReadStream(source.file, { highWaterMark: 256 * 1024 }).pipe(request);
    else request.end();
  });
}

/**
 * An import into a fresh server, then (if it succeeded) the same file again
 * --reimports times, each answered and settled (settledSeconds); the slowest
 * re-import (`again`: the first that failed, else the slowest to settle), each
 * re-import's settled seconds, and the server's peak RSS over all.
 */
async function importAndReimport(r: Runtime, database: DatabaseName, file: string, type: string) {
  // The generator stops just past the size asked for: room for a 1 GiB export.
  const { server, apiKey, databaseBytes } = await parley(r, database, { MAX_EXPORT_BYTES: String(4 * 1024 * MIB) });
  const settled = async (ticksBefore: number, answered: Upload) => ({
    ...answered,
    settledSeconds:
      answered.error === null ? await settledSeconds(server.pid, databaseBytes, answered.startedAt) : null,
    cpuSeconds: (cpuTicks(server.pid) - ticksBefore) / 100,
  });
  const importOnce = async () => settled(cpuTicks(server.pid), await upload(server, apiKey, { file, type }));
  const first = await importOnce();
  const reimports: Settled[] = [];
  while (first.error === null && reimports.length < reimportCount && reimports.every((r) => r.error === null)) {
    reimports.push(await importOnce());
  }
  const again =
    reimports.find((reimport) => reimport.error !== null) ??
    reimports.reduce<Settled | null>(
      (slowest, reimport) => (slowest && slowest.settledSeconds! >= reimport.settledSeconds! ? slowest : reimport),
      null,
    );
  let peakRssMb: number | null = null;
  try {
    peakRssMb = memoryMb(server.pid, 'VmHWM');
  } catch {
    // The server is gone.
  }
  await server.stop().catch(() => {});
  return {
    bytes: statSync(file).size,
    first,
    again,
    reimportsSettledSeconds: reimports.map((reimport) => round(reimport.settledSeconds ?? Number.NaN, 2)),
    peakRssMb,
  };
}

type Settled = Upload & { settledSeconds: number | null; cpuSeconds: number };

/** The settled import's time, MB/s and ratio to a bare JSON.parse; the settled re-import's, and how many times faster. */
function settledFigures(bytes: number, first: Settled, again: Settled | null, parse: number | null) {
  const settled = first.settledSeconds;
  const reimport = again?.settledSeconds ?? null;
  return {
    settledSeconds: settled === null ? null : round(settled, 2),
    settledMbPerSecond: settled === null ? null : mbPerSecond(bytes, settled),
    settledRatioToParse: settled === null || parse === null ? null : round(settled / parse, 2),
    reimportSettledSeconds: reimport === null ? null : round(reimport, 2),
    settledReimportSpeedup: settled === null || reimport === null ? null : round(settled / reimport),
  };
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function autocannon(
  url: string,
  headers: Record<string, string> = {},
  connectionCount = connections,
): Promise<Load> {
  const args = ['-c', String(connectionCount), '-d', String(duration), '--json'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const { stdout } = await run(join(ROOT, 'node_modules/.bin/autocannon'), [...args, url], { maxBuffer: 64 * MIB });
  const result = JSON.parse(stdout);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

/** A warmed-up measurement of `url`. */
async function load(url: string, headers: Record<string, string> = {}, connectionCount = connections): Promise<Load> {
  await autocannon(url, headers, connectionCount);
  return autocannon(url, headers, connectionCount);
}

/** The hello-world and the same bytes from memory (scripts/hello-server.ts) under runtime `r`. */
async function baselines(r: Runtime, bodyFile: string) {
  const port = await freePort();
  const [command, args] = scriptCommand(r, 'scripts/hello-server.ts');
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', PORT: String(port), BODY_FILE: bodyFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  try {
    return { hello: await load(`http://127.0.0.1:${port}/`), fromMemory: await load(`http://127.0.0.1:${port}/bytes`) };
  } finally {
    child.kill('SIGTERM');
  }
}

/** The connections listing and a page of 50 of one imported export, and their baselines on the same runtime. */
async function listing(r: Runtime, database: DatabaseName, file: string, type: string) {
  const { server, apiKey, databaseBytes } = await parley(r, database, { RATE_LIMIT_PER_MINUTE: '1000000000' });
  const auth = { Authorization: `Bearer ${apiKey}` };
  const imported = await fetch(`${server.url}/api/ingest-export?userRef=bench`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': type },
    body: readFileSync(file),
  }).then((r) => r.json());
  // A server at rest: loaded while it still indexes the import, the listing measures the indexing.
  await settledSeconds(server.pid, databaseBytes, performance.now());
  const pageUrl = `${server.url}/api/conversations?connectionId=${imported.connectionId}&limit=50&offset=100`;
  const bodyFile = join(work, 'page.json');
  writeFileSync(bodyFile, new Uint8Array(await (await fetch(pageUrl, { headers: auth })).arrayBuffer()));
  const measured = {
    conversations: imported.conversationCount as number,
    pageBytes: statSync(bodyFile).size,
    connections: await load(`${server.url}/api/conversations?userRef=bench`, auth),
    page50: await load(pageUrl, auth),
  };
  await server.stop();
  return { ...measured, ...(await baselines(r, bodyFile)) };
}

/**
 * The connections listing over `instances` servers on one PostgreSQL database,
 * each loaded by its own autocannon with its share of the connections: the
 * requests per second added up, and the worst p99.
 */
async function listingOverInstances(
  instances: number,
  file: string,
  type: string,
): Promise<Load & { instances: number }> {
  const { servers, apiKey } = await parley(runtime, 'postgres', { RATE_LIMIT_PER_MINUTE: '1000000000' }, instances);
  const auth = { Authorization: `Bearer ${apiKey}` };
  await fetch(`${servers[0]!.url}/api/ingest-export?userRef=bench`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': type },
    body: readFileSync(file),
  }).then((r) => r.text());
  const url = (server: RunningServer) => `${server.url}/api/conversations?userRef=bench`;
  await Promise.all(servers.map((server) => autocannon(url(server), auth, Math.ceil(connections / instances)))); // warm-up
  const loads = await Promise.all(
    servers.map((server) => autocannon(url(server), auth, Math.ceil(connections / instances))),
  );
  await Promise.all(servers.map((server) => server.stop()));
  return {
    instances,
    rps: loads.reduce((sum, l) => sum + l.rps, 0),
    p50: Math.max(...loads.map((l) => l.p50)),
    p99: Math.max(...loads.map((l) => l.p99)),
    non2xx: loads.reduce((sum, l) => sum + l.non2xx, 0),
  };
}

/** Start-up of a fresh server on a fresh database, to its first /healthz; then its RSS at rest (medians of 5). */
async function startup(r: Runtime, runs = 5) {
  const samples: Array<{ ms: number; idleRssMb: number }> = [];
  for (let i = 0; i < runs; i++) {
    const databasePath = join(mkdtempSync(join(work, 'start-')), 'parley.db');
    const server = await startServer(r, { databasePath, env: { LOG_LEVEL: 'warn' }, binaryPath });
    await sleep(1000);
    samples.push({ ms: server.startupMs, idleRssMb: memoryMb(server.pid, 'VmRSS') });
    await server.stop();
  }
  return { ms: median(samples.map((s) => s.ms)), idleRssMb: median(samples.map((s) => s.idleRssMb)) };
}

const databaseName = (database: DatabaseName) => (database === 'sqlite' ? 'SQLite' : 'PostgreSQL');
const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
const mbPerSecond = (bytes: number, seconds: number) => round(bytes / MIB / seconds);

/** Sections 1–3 on --runtime. */
async function detailed() {
  const imports = [];
  for (const sizeMb of sizes) {
    for (const provider of providers) {
      const file = exportFile(provider, sizeMb);
      const summary = await generate(provider, sizeMb);
      const format = uploadFormat(provider);
      const json = format === 'json';
      const parse = json ? await parseSeconds(runtime, file) : null;
      for (const database of databases) {
        const { bytes, first, again, reimportsSettledSeconds, peakRssMb } = await importAndReimport(
          runtime,
          database,
          file,
          contentType(provider),
        );
        const ok = first.error === null;
        imports.push({
          provider,
          name: SHAPES[provider].name,
          format,
          database,
          sizeMb,
          mb: round(bytes / MIB),
          status: first.status,
          error: first.error,
          seconds: round(first.seconds, 2),
          ...settledFigures(bytes, first, again, parse),
          conversationsPerSecond:
            ok && first.settledSeconds !== null ? Math.round(first.created / first.settledSeconds) : null,
          conversations: ok ? first.created : null,
          generatedConversations: summary.conversations,
          reimportSeconds: again?.error === null ? round(again.seconds, 2) : null,
          reimportsSettledSeconds,
          reimportError: again?.error ?? null,
          peakRssMb,
          parseSeconds: parse === null ? null : round(parse, 2),
          parseNote: json ? (parse === null ? 'over the runtime’s string limit' : null) : format.toUpperCase(),
        });
        console.error(JSON.stringify(imports.at(-1)));
      }
    }
  }
  // The listings are measured on the ChatGPT export of the first size, else on the first of that size that imported.
  const imported = imports.filter((i) => i.sizeMb === sizes[0] && i.error === null).map((i) => i.provider);
  const listed = imported.includes('openai') ? 'openai' : imported[0];
  const listings = [];
  const scaling = [];
  if (listed !== undefined) {
    const file = exportFile(listed, sizes[0]!);
    for (const database of databases)
      listings.push({ database, ...(await listing(runtime, database, file, contentType(listed))) });
    if (databases.includes('postgres'))
      for (const instances of instanceCounts)
        scaling.push(await listingOverInstances(instances, file, contentType(listed)));
  }
  return {
    imports,
    listing: listed === undefined ? null : { provider: listed, listings, scaling },
    startup: await startup(runtime),
  };
}

/** Section 4: each runtime of --compare on SQLite, on the ChatGPT export of --compare-size MB. */
async function comparison() {
  const file = exportFile('openai', compareSize);
  await generate('openai', compareSize);
  const rows = [];
  for (const r of compared) {
    const { bytes, first, again, reimportsSettledSeconds, peakRssMb } = await importAndReimport(
      r,
      'sqlite',
      file,
      'application/json',
    );
    const importLoadAverage = loadAverage();
    const parse = await parseSeconds(r, file);
    const listed = await listing(r, 'sqlite', exportFile('openai', compareSize), 'application/json');
    rows.push({
      runtime: r,
      mb: round(bytes / MIB),
      importSeconds: first.error === null ? round(first.seconds, 2) : null,
      importError: first.error,
      parseSeconds: parse === null ? null : round(parse, 2),
      reimportSeconds: again?.error === null ? round(again.seconds, 2) : null,
      reimportsSettledSeconds,
      ...settledFigures(bytes, first, again, parse),
      importCpuSeconds: first.cpuSeconds,
      peakRssMb,
      importLoadAverage,
      listing: listed,
      startup: await startup(r),
    });
    console.error(JSON.stringify(rows.at(-1)));
  }
  return { sizeMb: compareSize, rows };
}

/** Section 5: a zip of images (and text) imported twice on --runtime and SQLite. */
async function attachments() {
  const textFile = attachmentTextMb > 0 ? exportFile('openai', attachmentTextMb) : undefined;
  if (textFile) await generate('openai', attachmentTextMb);
  const file = join(work, 'attachments.zip');
  const written = writeAttachmentExport(file, { imageMb: attachmentMb, imageKb: attachmentKb, textFile });
  const { first, again, peakRssMb } = await importAndReimport(runtime, 'sqlite', file, 'application/zip');
  const result = {
    runtime,
    zipMb: round(written.bytes / MIB),
    images: written.images,
    imageMb: round(written.imageBytes / MIB),
    textMb: attachmentTextMb,
    seconds: round(first.seconds, 2),
    error: first.error,
    attachmentMbPerSecond: first.error === null ? mbPerSecond(written.imageBytes, first.seconds) : null,
    reimportSeconds: again?.error === null ? round(again.seconds, 2) : null,
    peakRssMb,
  };
  console.error(JSON.stringify(result));
  rmSync(file, { force: true });
  return result;
}

/**
 * Posts the files as one multipart form (`userRef`, then each in a `file`
 * field), each streamed from disk in turn: an upload as a browser sends several
 * files. node:http with each file piped in, as `upload` does.
 */
function uploadForm(server: RunningServer, apiKey: string, files: string[]): Promise<Upload> {
  const boundary = `parley-bench-${Date.now()}`;
  const head = (field: string) => `--${boundary}\r\nContent-Disposition: form-data; ${field}\r\n`;
  const parts = files.map(
    (file) => `${head(`name="file"; filename="${basename(file)}"`)}Content-Type: application/zip\r\n\r\n`,
  );
  const first = `${head('name="userRef"')}\r\nbench\r\n`;
  const end = `--${boundary}--\r\n`;
  const length =
    Buffer.byteLength(first) +
    parts.reduce((sum, part, i) => sum + Buffer.byteLength(part) + statSync(files[i]!).size + 2, 0) +
    Buffer.byteLength(end);
  const started = performance.now();
  return new Promise((resolve) => {
    const finish = (status: number, text: string) => {
      const result = JSON.parse(text) as { created?: number; unchanged?: number; error?: string };
      resolve({
        startedAt: started,
        seconds: (performance.now() - started) / 1000,
        status,
        error: status === 200 ? null : (result.error ?? `HTTP ${status}`),
        created: result.created ?? 0,
        unchanged: result.unchanged ?? 0,
      });
    };
    const request = httpRequest(
      `${server.url}/api/ingest-export`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${apiKey}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(length),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => finish(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
      },
    );
    request.on('error', (failure) =>
      resolve({ startedAt: started, seconds: 0, status: 0, error: failure.message, created: 0, unchanged: 0 }),
    );
    void (async () => {
      request.write(first);
      for (const [i, file] of files.entries()) {
        request.write(parts[i]);
        for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 }))
          if (!request.write(chunk)) await once(request, 'drain');
        request.write('\r\n');
      }
      request.end(end);
    })();
  });
}

/** Writes a zip of one member, `name`, holding `source`'s bytes as they are (stored), streamed. */
async function storedZip(out: string, name: string, source: string) {
  const sink = createWriteStream(out);
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    sink.write(chunk);
  });
  const member = new ZipPassThrough(name);
  zip.add(member);
  for await (const chunk of createReadStream(source)) {
    member.push(chunk as Uint8Array);
    if (sink.writableNeedDrain) await once(sink, 'drain');
  }
  member.push(new Uint8Array(0), true);
  zip.end();
  await new Promise((resolve) => sink.end(resolve));
}

/** Section 6: Claude's export as one zip per category, sent as one form, on --runtime and SQLite. */
async function severalFiles() {
  // The conversations stored, not deflated, in their zip: generating a deflated gigabyte
  // takes far longer than importing it, and the bound measured is the same.
  await generate('anthropic', severalFilesMb);
  const conversations = join(work, 'conversations-000.zip');
  await storedZip(conversations, 'conversations.json', exportFile('anthropic', severalFilesMb));
  // A project with a knowledge file, and the Aug/Sep 2026 memory files, in their zips.
  const projects = join(work, 'projects-000.zip');
  const project = {
    uuid: 'p1',
    name: 'Bench',
    prompt_template: 'Be brief.',
    docs: [{ filename: 'notes.md', content: '# Notes\n'.repeat(10_000) }],
  };
  writeFileSync(projects, zipSync({ 'projects/p1.json': strToU8(JSON.stringify(project)) }));
  const memories = join(work, 'memories-000.zip');
  const memoryFiles = Array.from({ length: 50 }, (_, i) => ({
    path: `/m/${i}.md`,
    content: `Memory ${i}\n`.repeat(100),
    updated_at: '2026-09-01T00:00:00.000000+00:00',
  }));
  writeFileSync(
    memories,
    zipSync({ 'memories/a1.json': strToU8(JSON.stringify({ account_uuid: 'a1', memory_files: memoryFiles })) }),
  );
  const files = [conversations, projects, memories];
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const { server, apiKey } = await parley(runtime, 'sqlite', { MAX_EXPORT_BYTES: String(4 * 1024 * MIB) });
  const imported = await uploadForm(server, apiKey, files);
  const peakRssMb = memoryMb(server.pid, 'VmHWM');
  await server.stop().catch(() => {});
  for (const file of files) rmSync(file, { force: true });
  const result = {
    runtime,
    mb: round(bytes / MIB),
    created: imported.created,
    seconds: round(imported.seconds, 2),
    error: imported.error,
    peakRssMb,
  };
  console.error(JSON.stringify(result));
  return result;
}

const TUS_HEADERS = { 'Tus-Resumable': '1.0.0' };

interface TusAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Bytes of the body written to the connection. */
  sent: number;
}

/**
 * One request of the tus protocol (node:http, as `upload`), with bytes [start, end)
 * of `file` as its body when given; `cutAfter` bytes of it, the connection is
 * destroyed (a dropped connection), answered as status 0.
 */
function tusRequest(
  url: string,
  method: 'POST' | 'PATCH' | 'HEAD',
  headers: Record<string, string>,
  body?: { file: string; start: number; end: number; cutAfter?: number },
): Promise<TusAnswer> {
  const allHeaders = { ...TUS_HEADERS, ...headers };
  if (body)
    Object.assign(allHeaders, {
      'Content-Type': 'application/offset+octet-stream',
      'Content-Length': String(body.end - body.start),
    });
  return new Promise((resolve) => {
    let sent = 0;
    const request = httpRequest(url, { method, headers: allHeaders }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, sent }));
    });
    request.on('error', () => resolve({ status: 0, headers: {}, sent }));
    if (!body) return request.end();
    void (async () => {
      for await (const chunk of createReadStream(body.file, {
        start: body.start,
        end: body.end - 1,
        highWaterMark: 256 * 1024,
      }) as AsyncIterable<Buffer>) {
        const taken = body.cutAfter === undefined ? chunk : chunk.subarray(0, body.cutAfter - sent);
        sent += taken.length;
        if (!request.write(taken)) await once(request, 'drain');
        if (sent === body.cutAfter) return request.destroy();
      }
      request.end();
    })();
  });
}

/**
 * Sends `file` to /api/uploads in parts of `partBytes`, as the SDK does: after a
 * failed PATCH, half a second, a HEAD for the offset the server kept, and on
 * from there. `cutAt`: the byte at which one PATCH's connection is dropped. The
 * upload's id and the body bytes sent in all.
 */
async function resumableUpload(server: RunningServer, apiKey: string, file: string, cutAt?: number) {
  const size = statSync(file).size;
  const auth = { Authorization: `Bearer ${apiKey}` };
  const created = await tusRequest(`${server.url}/api/uploads`, 'POST', {
    ...auth,
    'Upload-Length': String(size),
    'Upload-Metadata': `userRef ${Buffer.from('bench').toString('base64')}`,
  });
  if (created.status !== 201) throw new Error(`creating the upload: HTTP ${created.status}`);
  const id = String(created.headers.location).split('/').pop()!;
  const url = `${server.url}/api/uploads/${id}`;
  let offset = 0;
  let sent = 0;
  let cut = cutAt;
  while (offset < size) {
    const end = Math.min(size, offset + partBytes);
    const cutAfter = cut !== undefined && cut >= offset && cut < end ? cut - offset : undefined;
    const patched = await tusRequest(
      url,
      'PATCH',
      { ...auth, 'Upload-Offset': String(offset) },
      { file, start: offset, end, cutAfter },
    );
    sent += patched.sent;
    if (patched.status === 204) {
      offset = Number(patched.headers['upload-offset']);
      continue;
    }
    if (cutAfter === undefined) throw new Error(`PATCH at ${offset}: HTTP ${patched.status}`);
    cut = undefined;
    await sleep(500);
    const asked = await tusRequest(url, 'HEAD', auth);
    offset = Number(asked.headers['upload-offset']);
  }
  return { id, sent, size };
}

/**
 * Section 7: the attachments' zip of --resumable-mb MB imported on fresh servers
 * (--runtime, SQLite) in one request and through /api/uploads, alternated
 * --rounds times; then an upload cut in the middle of a part and resumed.
 */
async function resumable() {
  const file = join(work, 'resumable.zip');
  const written = writeAttachmentExport(file, { imageMb: resumableMb, imageKb: attachmentKb });
  const env = { MAX_EXPORT_BYTES: String(4 * 1024 * MIB) };
  /**
   * One import on a fresh server, from `started` (the first request) to answered and
   * settled; meanwhile /healthz asked again as soon as it answers: its slowest answer.
   */
  const timed = async (
    send: (server: RunningServer, apiKey: string) => Promise<{ imported: Upload; uploadSeconds: number }>,
  ) => {
    const { server, apiKey, databaseBytes } = await parley(runtime, 'sqlite', env);
    const started = performance.now();
    let sending = true;
    let slowestHealthMs = 0;
    const probe = (async () => {
      while (sending) {
        const asked = performance.now();
        // A connection of its own each time: a kept-alive one may be closed by the server as it is reused.
        await new Promise((resolve) =>
          httpRequest(`${server.url}/healthz`, { agent: false }, (response) => response.resume().on('end', resolve))
            .on('error', resolve)
            .end(),
        );
        slowestHealthMs = Math.max(slowestHealthMs, performance.now() - asked);
        await sleep(SAMPLE_MS);
      }
    })();
    const { imported, uploadSeconds } = await send(server, apiKey).finally(() => {
      sending = false;
    });
    await probe;
    const answered = (imported.startedAt + imported.seconds * 1000 - started) / 1000;
    const settled = imported.error === null ? await settledSeconds(server.pid, databaseBytes, started) : null;
    const peakRssMb = memoryMb(server.pid, 'VmHWM');
    await server.stop().catch(() => {});
    const result = {
      answeredSeconds: round(answered, 2),
      settledSeconds: settled === null ? null : round(settled, 2),
      uploadSeconds: round(uploadSeconds, 2),
      slowestHealthMs: Math.round(slowestHealthMs),
      created: imported.created,
      error: imported.error,
      peakRssMb,
      loadAverage: loadAverage(),
    };
    console.error(JSON.stringify(result));
    return result;
  };
  const runs = [];
  for (let i = 0; i < rounds; i++) {
    const single = await timed(async (server, apiKey) => ({
      imported: await upload(server, apiKey, { file, type: 'application/zip' }),
      uploadSeconds: 0,
    }));
    const parts = await timed(async (server, apiKey) => {
      const started = performance.now();
      const { id } = await resumableUpload(server, apiKey, file);
      const uploadSeconds = (performance.now() - started) / 1000;
      return { imported: await upload(server, apiKey, { uploadId: id }), uploadSeconds };
    });
    runs.push({
      single,
      parts,
      answeredRatio: round(parts.answeredSeconds / single.answeredSeconds, 2),
      settledRatio:
        single.settledSeconds === null || parts.settledSeconds === null
          ? null
          : round(parts.settledSeconds / single.settledSeconds, 2),
    });
  }
  // Cut in the middle of the middle part.
  const { server, apiKey } = await parley(runtime, 'sqlite', env);
  const middlePart = Math.floor(written.bytes / partBytes / 2);
  const cutAt = Math.min(written.bytes - 1, middlePart * partBytes + Math.floor(partBytes / 2));
  const interrupted = await resumableUpload(server, apiKey, file, cutAt);
  const imported = await upload(server, apiKey, { uploadId: interrupted.id });
  await server.stop().catch(() => {});
  rmSync(file, { force: true });
  const result = {
    runtime,
    zipMb: round(written.bytes / MIB),
    partMb: round(partBytes / MIB),
    runs,
    interruption: {
      cutAtMb: round(cutAt / MIB),
      resentBytes: interrupted.sent - interrupted.size,
      imported: imported.error === null ? imported.created : `failed: ${imported.error}`,
    },
  };
  console.error(JSON.stringify(result));
  return result;
}

function report(
  machine: string,
  date: string,
  d: Awaited<ReturnType<typeof detailed>> | null,
  c: Awaited<ReturnType<typeof comparison>> | null,
  a: Awaited<ReturnType<typeof attachments>> | null,
  f: Awaited<ReturnType<typeof severalFiles>> | null,
  u: Awaited<ReturnType<typeof resumable>> | null,
): string[] {
  const lines = [`Measured ${date.slice(0, 10)} on ${machine}.`, ''];
  if (u) {
    const times = (t: (typeof u.runs)[number]['single']) =>
      t.error === null ? `${t.answeredSeconds} / ${t.settledSeconds} s` : `failed: ${t.error}`;
    lines.push(
      `| Resumable upload (SQLite; ChatGPT zip of images, ${u.zipMb} MB, ${u.runtime}) | one request: answered / settled | ${u.partMb} MB parts then the import: answered / settled (of which the parts) | ratio answered / settled | peak RSS, one request / parts | slowest /healthz meanwhile, one request / parts | load average after |`,
      '| - | - | - | - | - | - | - |',
      ...u.runs.map(
        (r, i) =>
          `| round ${i + 1} | ${times(r.single)} | ${times(r.parts)} (${r.parts.uploadSeconds} s) | ${r.answeredRatio} / ${r.settledRatio ?? 'n/a'} | ${r.single.peakRssMb} / ${r.parts.peakRssMb} MB | ${r.single.slowestHealthMs} / ${r.parts.slowestHealthMs} ms | ${r.single.loadAverage}; ${r.parts.loadAverage} |`,
      ),
      '',
      `Cut in the middle of a part (at ${u.interruption.cutAtMb} MB) and resumed after a HEAD: ${u.interruption.resentBytes} bytes sent again; the import after it: ${u.interruption.imported} conversations.`,
      '',
    );
  }
  if (f) {
    const outcome = f.error === null ? `${f.seconds} s, ${f.created} conversations` : `failed: ${f.error}`;
    lines.push(
      '| Several files, one import (SQLite) | files together | import | server peak RSS |',
      '| - | - | - | - |',
      `| Claude's conversations-000.zip, projects-000.zip and memories-000.zip in one form, ${f.runtime} | ${f.mb} MB | ${outcome} | ${f.peakRssMb} MB |`,
      '',
    );
  }
  if (a) {
    const outcome =
      a.error === null
        ? `${a.seconds} s, ${a.attachmentMbPerSecond} MB/s of attachment bytes written; re-import ${a.reimportSeconds ?? 'failed'} s`
        : `failed: ${a.error}`;
    lines.push(
      '| Attachments (SQLite, database store) | zip | images | text | import | server peak RSS |',
      '| - | - | - | - | - | - |',
      `| ChatGPT zip of stored JPEG-like images, ${a.runtime} | ${a.zipMb} MB | ${a.images} (${a.imageMb} MB) | ${a.textMb} MB | ${outcome} | ${a.peakRssMb ?? 'n/a'} MB |`,
      '',
    );
  }
  if (c) {
    const na = (value: unknown, unit = '') => (value === null || value === undefined ? 'n/a' : `${value}${unit}`);
    lines.push(
      `| Runtime (SQLite; ChatGPT export, ${c.rows[0]?.mb ?? c.sizeMb} MB) | import answered / settled | server CPU until settled | MB/s settled | settled ÷ bare JSON.parse | slowest re-import answered / settled | import ÷ slowest re-import, settled | peak RSS | load average after the imports | connections listing vs hello-world | page of 50 vs same bytes from memory | start-up |`,
      '| - | - | - | - | - | - | - | - | - | - | - | - |',
      ...c.rows.map((row) => {
        const l = row.listing;
        const imported =
          row.importError === null
            ? `${row.importSeconds} / ${na(row.settledSeconds, ' s')}`
            : `failed: ${row.importError}`;
        return `| ${row.runtime} | ${imported} | ${row.importCpuSeconds} s | ${na(row.settledMbPerSecond)} | ${na(row.settledRatioToParse)} (parse ${na(row.parseSeconds, ' s')}) | ${na(row.reimportSeconds)} / ${na(row.reimportSettledSeconds, ' s')} | ${na(row.settledReimportSpeedup, '×')} | ${na(row.peakRssMb, ' MB')} | ${row.importLoadAverage} | ${l.connections.rps} vs ${l.hello.rps} req/s (${percent(l.connections.rps, l.hello.rps)}) | ${l.page50.rps} vs ${l.fromMemory.rps} req/s (${percent(l.page50.rps, l.fromMemory.rps)}) | ${row.startup.ms} ms |`;
      }),
      '',
    );
  }
  if (!d) return lines;
  lines.push(
    `Runtime: ${runtime}.`,
    '',
    '| Import (export over HTTP) | database | answered / settled | MB/s settled | conversations/s settled | bare JSON.parse | settled ÷ parse | slowest re-import answered / settled | server peak RSS | status |',
    '| - | - | - | - | - | - | - | - | - | - |',
    ...d.imports.map((i) => {
      const what = `${i.name} (\`${i.provider}\`, ${i.format.toUpperCase()}) ${i.mb} MB`;
      const parse = i.parseSeconds === null ? `n/a (${i.parseNote})` : `${i.parseSeconds} s`;
      const rss = i.peakRssMb === null ? 'n/a' : `${i.peakRssMb} MB`;
      const database = databaseName(i.database);
      if (i.error !== null) {
        const error = i.error.replace(/\s+/g, ' ').replaceAll('|', '\\|');
        return `| ${what}, ${i.generatedConversations} conversations generated | ${database} | ${i.seconds} s | – | – | ${parse} | – | – | ${rss} | failed: ${i.status === 0 ? 'no answer' : `HTTP ${i.status}`}, ${error} |`;
      }
      const generatedNote =
        i.conversations === i.generatedConversations ? '' : ` (${i.generatedConversations} generated)`;
      const again =
        i.reimportSeconds === null
          ? `failed: ${i.reimportError}`
          : `${i.reimportSeconds} / ${i.reimportSettledSeconds} s (settled ${i.settledReimportSpeedup}× faster; each settled: ${i.reimportsSettledSeconds.join(', ')} s)`;
      return `| ${what}, ${i.conversations} conversations${generatedNote} | ${database} | ${i.seconds} / ${i.settledSeconds} s | ${i.settledMbPerSecond} | ${i.conversationsPerSecond} | ${parse} | ${i.settledRatioToParse ?? 'n/a'} | ${again} | ${rss} | ok |`;
    }),
    '',
  );
  if (d.listing === null) lines.push(`Listing not measured: no export of ${sizes[0]} MB imported.`);
  else {
    const { provider, listings, scaling } = d.listing;
    lines.push(
      `| Listing (${connections} connections, ${duration} s, auth and rate limiting on; ${SHAPES[provider].name} export) | database | requests/s | p50 | p99 | vs baseline |`,
      '| - | - | - | - | - | - |',
      ...listings.flatMap((l) => [
        `| Hono hello-world (same runtime and server) | – | ${l.hello.rps} | ${l.hello.p50} ms | ${l.hello.p99} ms | – |`,
        `| \`GET /api/conversations?userRef=\` | ${databaseName(l.database)} | ${l.connections.rps} | ${l.connections.p50} ms | ${l.connections.p99} ms | ${percent(l.connections.rps, l.hello.rps)} of hello-world |`,
        `| The page below (${Math.round(l.pageBytes / 1024)} KB) from memory (same runtime and server) | – | ${l.fromMemory.rps} | ${l.fromMemory.p50} ms | ${l.fromMemory.p99} ms | – |`,
        `| \`GET /api/conversations?connectionId=&limit=50\` (of ${l.conversations}) | ${databaseName(l.database)} | ${l.page50.rps} | ${l.page50.p50} ms | ${l.page50.p99} ms | ${percent(l.page50.rps, l.fromMemory.rps)} of from memory |`,
      ]),
    );
    if (scaling.length > 0) {
      lines.push(
        '',
        `| \`GET /api/conversations?userRef=\` over instances on one PostgreSQL database (${connections} connections in all) | requests/s | p50 (worst) | p99 (worst) |`,
        '| - | - | - | - |',
        ...scaling.map(
          (s) => `| ${s.instances} instance${s.instances === 1 ? '' : 's'} | ${s.rps} | ${s.p50} ms | ${s.p99} ms |`,
        ),
      );
    }
  }
  lines.push(
    '',
    `Start-up to the first \`/healthz\`: ${d.startup.ms} ms (median of 5); idle RSS ${d.startup.idleRssMb} MB.`,
  );
  return lines;
}

async function main() {
  const runtimes = new Set<Runtime>([
    ...(sizes.length > 0 || attachmentMb > 0 || severalFilesMb > 0 || resumableMb > 0 ? [runtime] : []),
    ...compared,
  ]);
  if (runtimes.has('node')) await run('npm', ['run', '-s', 'build:node'], { cwd: ROOT });
  if (runtimes.has('binary')) await run('npm', ['run', '-s', 'build:binary'], { cwd: ROOT });
  if (sizes.length > 0 && databases.includes('postgres')) postgres = await startPostgres();
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`;
  const date = new Date().toISOString();
  try {
    const d = sizes.length > 0 ? await detailed() : null;
    const c = compared.length > 0 ? await comparison() : null;
    const a = attachmentMb > 0 ? await attachments() : null;
    const f = severalFilesMb > 0 ? await severalFiles() : null;
    const u = resumableMb > 0 ? await resumable() : null;
    const lines = report(machine, date, d, c, a, f, u);
    mkdirSync(options.out, { recursive: true });
    writeFileSync(
      join(options.out, 'bench.json'),
      `${JSON.stringify({ machine, date, runtime, detailed: d, comparison: c, attachments: a, severalFiles: f, resumable: u }, null, 2)}\n`,
    );
    writeFileSync(join(options.out, 'bench.md'), `${lines.join('\n')}\n`);
    console.log(lines.join('\n'));
  } finally {
    await postgres?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
