/**
 * Measures Parley on this machine and writes bench-results/bench.{md,json}:
 *   1. import over HTTP of a generated export of each provider's shape (ChatGPT,
 *      Claude, DeepSeek, Grok, Gemini, Copilot) at each size (MB/s,
 *      conversations/s, the server's peak RSS) beside a bare JSON.parse of the
 *      same file where it is JSON; an import that fails is a row that says so;
 *   2. listing throughput and latency (autocannon, a separate process) beside a
 *      Hono hello-world on the same runtime and server adapter;
 *   3. start-up time to the first /healthz and idle RSS.
 * Imports and listings run on each database of --databases: the SQLite file,
 * and PostgreSQL (started from npm, as the tests start it); on PostgreSQL the
 * connections listing is also measured over 1, 2 and 3 instances on one database.
 *
 *   npm run bench [-- --sizes 20,200,1000 --providers openai,anthropic,deepseek,xai,google,microsoft
 *                    --databases sqlite,postgres --instances 1,2,3 --duration 10 --connections 20]
 *
 * The servers run what `npm start` runs (the Node bundle), with LOG_LEVEL=warn.
 * Linux only (peak RSS is read from /proc/<pid>/status). Benchmarks are not tests:
 * nothing here fails on a slow machine; the targets are printed beside the figures.
 */
import { execFile, spawn } from 'node:child_process';
import { createReadStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs, promisify } from 'node:util';
import { createApp as onboardApp } from '../src/apps/apps.ts';
import { openBetterSqlite3 } from '../src/db/better-sqlite3.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { readSchema } from '../src/db/schema-file.ts';
import { cryptoRandom, systemClock } from '../src/deps.ts';
import { freePort, ROOT, startServer, type RunningServer } from '../test/conformance/server.ts';
import { startPostgres, type PostgresServer } from '../test/postgres-server.ts';
import { PROVIDERS, SHAPES, type Provider, type Summary } from './generate-export/index.ts';

const run = promisify(execFile);
const MIB = 1024 * 1024;

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '20,200,1000' },
    providers: { type: 'string', default: PROVIDERS.join(',') },
    databases: { type: 'string', default: 'sqlite,postgres' },
    instances: { type: 'string', default: '1,2,3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    out: { type: 'string', default: join(ROOT, 'bench-results') },
  },
});
const sizes = options.sizes.split(',').map(Number);
const providers = options.providers.split(',') as Provider[];
for (const provider of providers) if (!PROVIDERS.includes(provider)) throw new Error(`--providers: unknown provider ${provider} (known: ${PROVIDERS.join(', ')})`);
type DatabaseName = 'sqlite' | 'postgres';
const databases = options.databases.split(',') as DatabaseName[];
for (const database of databases) if (database !== 'sqlite' && database !== 'postgres') throw new Error(`--databases: unknown database ${database} (use sqlite, postgres)`);
const instanceCounts = options.instances.split(',').map(Number);
const duration = Number(options.duration);
const connections = Number(options.connections);
const work = mkdtempSync(join(tmpdir(), 'parley-bench-'));

/** From /proc: the process's peak (VmHWM) or current (VmRSS) resident memory, in MB. */
function memoryMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field))!;
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

let postgres: PostgresServer | undefined;
let databaseCount = 0;

/**
 * `instances` fresh servers on one fresh database — a SQLite file, or a new
 * PostgreSQL database — with one onboarded app.
 */
async function parley(database: DatabaseName, env: Record<string, string> = {}, instances = 1) {
  const databasePath = join(mkdtempSync(join(work, 'db-')), 'parley.db');
  const databaseUrl = database === 'postgres' ? await postgres!.createDatabase(`bench_${++databaseCount}`) : undefined;
  const db = databaseUrl ? await openPostgres(databaseUrl, readSchema('schema.postgres.sql'), { poolSize: 1 }) : openBetterSqlite3(databasePath);
  const tenant = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Bench');
  await db.destroy();
  const serverEnv = { LOG_LEVEL: 'warn', ...env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const servers = await Promise.all(Array.from({ length: instances }, () => startServer('node-bundle', { databasePath, env: serverEnv })));
  return { servers, server: servers[0]!, apiKey: tenant.apiKey };
}

const exportFile = (provider: Provider, sizeMb: number) => join(work, `${provider}-${sizeMb}.${SHAPES[provider].layout.bare}`);
const contentType = (provider: Provider) => (SHAPES[provider].layout.bare === 'csv' ? 'text/csv' : 'application/json');

/** The provider's bare export file (JSON, or CSV for Copilot) of at least `sizeMb`; the generator's summary. */
async function generate(provider: Provider, sizeMb: number): Promise<Summary> {
  const args = ['--import', 'tsx', 'scripts/generate-export.ts', '--provider', provider, '--size-mb', String(sizeMb), '--out', exportFile(provider, sizeMb)];
  const { stdout } = await run(process.execPath, args, { cwd: ROOT, maxBuffer: 16 * MIB });
  return JSON.parse(stdout) as Summary;
}

/** JSON.parse of the whole file in a fresh process of the same runtime: the floor for any importer. */
async function parseSeconds(file: string): Promise<number | null> {
  const script = `const fs=require('fs');const t=fs.readFileSync(process.argv[1],'utf8');const s=performance.now();JSON.parse(t);console.log((performance.now()-s)/1000)`;
  try {
    const { stdout } = await run(process.execPath, ['--max-old-space-size=8192', '-e', script, file], { maxBuffer: MIB });
    return Number(stdout.trim());
  } catch {
    return null; // Past V8's largest string (about 512 MB): no single JSON.parse can read it.
  }
}

/** One import; a refused or failed import is returned (status and error), not thrown, so the other rows still run. */
async function importOnce(database: DatabaseName, file: string, type: string) {
  // The generator stops just past the size asked for: room for a 1 GiB export.
  const { server, apiKey } = await parley(database, { MAX_EXPORT_BYTES: String(4 * 1024 * MIB) });
  const bytes = statSync(file).size;
  const started = performance.now();
  let status = 0;
  let error: string | null = null;
  let conversations = 0;
  try {
    const response = await fetch(`${server.url}/api/ingest-export?userRef=bench`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': type, 'Content-Length': String(bytes) },
      body: Readable.toWeb(createReadStream(file, { highWaterMark: 256 * 1024 })) as unknown as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    status = response.status;
    const text = await response.text();
    let result: { created?: number; error?: string } | null = null;
    try {
      result = JSON.parse(text);
    } catch {
      // Not JSON: the text itself is the error.
    }
    if (status === 200 && typeof result?.created === 'number') conversations = result.created;
    else error = result?.error ?? (text.slice(0, 200) || `HTTP ${status}`);
  } catch (failure) {
    error = (failure as Error).message; // The server went away mid-upload.
  }
  const seconds = (performance.now() - started) / 1000;
  let peakRssMb: number | null = null;
  try {
    peakRssMb = memoryMb(server.pid, 'VmHWM');
  } catch {
    // The server is gone.
  }
  await server.stop().catch(() => {});
  return { bytes, seconds, status, error, conversations, peakRssMb };
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function autocannon(url: string, headers: Record<string, string> = {}, connectionCount = connections): Promise<Load> {
  const args = ['-c', String(connectionCount), '-d', String(duration), '--json'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const { stdout } = await run(join(ROOT, 'node_modules/.bin/autocannon'), [...args, url], { maxBuffer: 64 * MIB });
  const result = JSON.parse(stdout);
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

async function helloWorld(): Promise<Load> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/hello-server.ts'], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  try {
    await autocannon(`http://127.0.0.1:${port}/`); // warm-up
    return await autocannon(`http://127.0.0.1:${port}/`);
  } finally {
    child.kill('SIGTERM');
  }
}

async function listing(database: DatabaseName, file: string, type: string) {
  const { server, apiKey } = await parley(database, { RATE_LIMIT_PER_MINUTE: '1000000000' });
  const auth = { Authorization: `Bearer ${apiKey}` };
  const imported = await fetch(`${server.url}/api/ingest-export?userRef=bench`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': type },
    body: readFileSync(file),
  }).then((r) => r.json());
  const connectionsUrl = `${server.url}/api/conversations?userRef=bench`;
  const pageUrl = `${server.url}/api/conversations?connectionId=${imported.connectionId}&limit=50&offset=100`;
  await autocannon(connectionsUrl, auth); // warm-up
  const result = { conversations: imported.conversationCount as number, connections: await autocannon(connectionsUrl, auth), page50: await autocannon(pageUrl, auth) };
  await server.stop();
  return result;
}

/**
 * The connections listing over `instances` servers on one PostgreSQL database,
 * each loaded by its own autocannon with its share of the connections: the
 * requests per second added up, and the worst p99.
 */
async function listingOverInstances(instances: number, file: string, type: string): Promise<Load & { instances: number }> {
  const { servers, apiKey } = await parley('postgres', { RATE_LIMIT_PER_MINUTE: '1000000000' }, instances);
  const auth = { Authorization: `Bearer ${apiKey}` };
  await fetch(`${servers[0]!.url}/api/ingest-export?userRef=bench`, { method: 'POST', headers: { ...auth, 'Content-Type': type }, body: readFileSync(file) }).then((r) => r.text());
  const url = (server: RunningServer) => `${server.url}/api/conversations?userRef=bench`;
  await Promise.all(servers.map((server) => autocannon(url(server), auth, Math.ceil(connections / instances)))); // warm-up
  const loads = await Promise.all(servers.map((server) => autocannon(url(server), auth, Math.ceil(connections / instances))));
  await Promise.all(servers.map((server) => server.stop()));
  return {
    instances,
    rps: loads.reduce((sum, load) => sum + load.rps, 0),
    p50: Math.max(...loads.map((load) => load.p50)),
    p99: Math.max(...loads.map((load) => load.p99)),
    non2xx: loads.reduce((sum, load) => sum + load.non2xx, 0),
  };
}

/** Start-up of a fresh server on a fresh database, to its first /healthz; then its RSS at rest. */
async function startup(runs = 5) {
  const samples: Array<{ ms: number; idleRssMb: number }> = [];
  for (let i = 0; i < runs; i++) {
    const databasePath = join(mkdtempSync(join(work, 'start-')), 'parley.db');
    const server: RunningServer = await startServer('node-bundle', { databasePath, env: { LOG_LEVEL: 'warn' } });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    samples.push({ ms: server.startupMs, idleRssMb: memoryMb(server.pid, 'VmRSS') });
    await server.stop();
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { ms: median(samples.map((s) => s.ms)), idleRssMb: median(samples.map((s) => s.idleRssMb)) };
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

const databaseName = (database: DatabaseName) => (database === 'sqlite' ? 'SQLite' : 'PostgreSQL');

async function main() {
  // Every server here is what `npm start` serves: the bundle of the Node entry.
  await run('npm', ['run', '-s', 'build:node'], { cwd: ROOT });
  if (databases.includes('postgres')) postgres = await startPostgres();
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`;
  const imports = [];
  for (const sizeMb of sizes) {
    for (const provider of providers) {
      const file = exportFile(provider, sizeMb);
      const generated = await generate(provider, sizeMb);
      const json = SHAPES[provider].layout.bare === 'json';
      const parse = json ? await parseSeconds(file) : null;
      for (const database of databases) {
        const result = await importOnce(database, file, contentType(provider));
        const mb = result.bytes / MIB;
        const ok = result.error === null;
        imports.push({
          provider,
          name: SHAPES[provider].name,
          format: SHAPES[provider].layout.bare,
          database,
          sizeMb,
          mb: round(mb),
          status: result.status,
          error: result.error,
          seconds: round(result.seconds, 2),
          mbPerSecond: ok ? round(mb / result.seconds) : null,
          conversationsPerSecond: ok ? Math.round(result.conversations / result.seconds) : null,
          conversations: ok ? result.conversations : null,
          generatedConversations: generated.conversations,
          peakRssMb: result.peakRssMb,
          parseSeconds: parse === null ? null : round(parse, 2),
          ratioToParse: ok && parse !== null ? round(result.seconds / parse, 2) : null,
          parseNote: json ? (parse === null ? 'over V8’s string limit' : null) : 'CSV',
        });
        console.error(JSON.stringify(imports.at(-1)));
      }
      if (sizeMb !== sizes[0]) rmSync(file);
    }
  }
  // The listings are measured on the ChatGPT export of the first size, else on the first of that size that imported.
  const imported = imports.filter((i) => i.sizeMb === sizes[0] && i.error === null).map((i) => i.provider);
  const listed = imported.includes('openai') ? 'openai' : imported[0];
  const listedFile = listed === undefined ? undefined : exportFile(listed, sizes[0]!);
  const listings = [];
  const scaling = [];
  if (listed !== undefined) {
    for (const database of databases) listings.push({ database, ...(await listing(database, listedFile!, contentType(listed))) });
    if (databases.includes('postgres')) for (const instances of instanceCounts) scaling.push(await listingOverInstances(instances, listedFile!, contentType(listed)));
  }
  const hello = await helloWorld();
  const start = await startup();
  await postgres?.stop();
  const results = { machine, date: new Date().toISOString(), imports, listing: listed === undefined ? null : { provider: listed, listings, scaling, hello }, startup: start };

  const percent = (rps: number) => `${Math.round((100 * rps) / hello.rps)}%`;
  const lines = [
    `Measured ${results.date.slice(0, 10)} on ${machine}.`,
    '',
    '| Import (export over HTTP) | database | MB/s | conversations/s | time | bare JSON.parse | import ÷ parse | server peak RSS | status |',
    '| - | - | - | - | - | - | - | - | - |',
    ...imports.map((i) => {
      const what = `${i.name} (\`${i.provider}\`, ${i.format.toUpperCase()}) ${i.mb} MB`;
      const parse = i.parseSeconds === null ? `n/a (${i.parseNote})` : `${i.parseSeconds} s`;
      const rss = i.peakRssMb === null ? 'n/a' : `${i.peakRssMb} MB`;
      const database = databaseName(i.database);
      if (i.error !== null) {
        const error = i.error.replace(/\s+/g, ' ').replaceAll('|', '\\|');
        return `| ${what}, ${i.generatedConversations} conversations generated | ${database} | – | – | ${i.seconds} s | ${parse} | – | ${rss} | failed: ${i.status === 0 ? 'no answer' : `HTTP ${i.status}`}, ${error} |`;
      }
      const generated = i.conversations === i.generatedConversations ? '' : ` (${i.generatedConversations} generated)`;
      return `| ${what}, ${i.conversations} conversations${generated} | ${database} | ${i.mbPerSecond} | ${i.conversationsPerSecond} | ${i.seconds} s | ${parse} | ${i.ratioToParse ?? 'n/a'} | ${rss} | ok |`;
    }),
    '',
    ...(listed === undefined
      ? [`Listing not measured: no export of ${sizes[0]} MB imported.`]
      : [
          `| Listing (${connections} connections, ${duration} s, auth and rate limiting on; ${SHAPES[listed].name} export) | database | requests/s | p50 | p99 | vs hello-world |`,
          '| - | - | - | - | - | - |',
          `| Hono hello-world (same runtime and adapter) | – | ${hello.rps} | ${hello.p50} ms | ${hello.p99} ms | 100% |`,
          ...listings.flatMap((l) => [
            `| \`GET /api/conversations?userRef=\` | ${databaseName(l.database)} | ${l.connections.rps} | ${l.connections.p50} ms | ${l.connections.p99} ms | ${percent(l.connections.rps)} |`,
            `| \`GET /api/conversations?connectionId=&limit=50\` (of ${l.conversations}) | ${databaseName(l.database)} | ${l.page50.rps} | ${l.page50.p50} ms | ${l.page50.p99} ms | ${percent(l.page50.rps)} |`,
          ]),
          ...(scaling.length === 0
            ? []
            : [
                '',
                `| \`GET /api/conversations?userRef=\` over instances on one PostgreSQL database (${connections} connections in all) | requests/s | p50 (worst) | p99 (worst) |`,
                '| - | - | - | - |',
                ...scaling.map((s) => `| ${s.instances} instance${s.instances === 1 ? '' : 's'} | ${s.rps} | ${s.p50} ms | ${s.p99} ms |`),
              ]),
        ]),
    '',
    `Start-up to the first \`/healthz\`: ${start.ms} ms (median of 5); idle RSS ${start.idleRssMb} MB.`,
  ];
  mkdirSync(options.out, { recursive: true });
  writeFileSync(join(options.out, 'bench.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(options.out, 'bench.md'), `${lines.join('\n')}\n`);
  console.log(lines.join('\n'));
  rmSync(work, { recursive: true, force: true });
}

await main();
