/**
 * Measures Parley on this machine and writes bench-results/bench.{md,json}:
 *   1. import over HTTP of a generated export of each provider's shape (ChatGPT,
 *      Claude, DeepSeek, Grok, Gemini, Copilot) at each size (MB/s,
 *      conversations/s, the server's peak RSS) beside a bare JSON.parse of the
 *      same file where it is JSON; an import that fails is a row that says so;
 *   2. listing throughput and latency (autocannon, a separate process) beside a
 *      Hono hello-world on the same runtime and server adapter;
 *   3. start-up time to the first /healthz and idle RSS.
 *
 *   npm run bench [-- --sizes 20,200,1000 --providers openai,anthropic,deepseek,xai,google,microsoft
 *                    --duration 10 --connections 20]
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
import { cryptoRandom, systemClock } from '../src/deps.ts';
import { freePort, ROOT, startServer, type RunningServer } from '../test/conformance/server.ts';
import { PROVIDERS, SHAPES, type Provider, type Summary } from './generate-export/index.ts';

const run = promisify(execFile);
const MIB = 1024 * 1024;

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '20,200,1000' },
    providers: { type: 'string', default: PROVIDERS.join(',') },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    out: { type: 'string', default: join(ROOT, 'bench-results') },
  },
});
const sizes = options.sizes.split(',').map(Number);
const providers = options.providers.split(',') as Provider[];
for (const provider of providers) if (!PROVIDERS.includes(provider)) throw new Error(`--providers: unknown provider ${provider} (known: ${PROVIDERS.join(', ')})`);
const duration = Number(options.duration);
const connections = Number(options.connections);
const work = mkdtempSync(join(tmpdir(), 'parley-bench-'));

/** From /proc: the process's peak (VmHWM) or current (VmRSS) resident memory, in MB. */
function memoryMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field))!;
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

/** A fresh server on a fresh database, with one onboarded app. */
async function parley(env: Record<string, string> = {}) {
  const databasePath = join(mkdtempSync(join(work, 'db-')), 'parley.db');
  const server = await startServer('node-bundle', { databasePath, env: { LOG_LEVEL: 'warn', ...env } });
  const db = openBetterSqlite3(databasePath);
  const tenant = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Bench');
  await db.destroy();
  return { server, apiKey: tenant.apiKey };
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
async function importOnce(file: string, type: string) {
  // The generator stops just past the size asked for: room for a 1 GiB export.
  const { server, apiKey } = await parley({ MAX_EXPORT_BYTES: String(4 * 1024 * MIB) });
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

async function autocannon(url: string, headers: Record<string, string> = {}): Promise<Load> {
  const args = ['-c', String(connections), '-d', String(duration), '--json'];
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

async function listing(file: string, type: string) {
  const { server, apiKey } = await parley({ RATE_LIMIT_PER_MINUTE: '1000000000' });
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

async function main() {
  // Every server here is what `npm start` serves: the bundle of the Node entry.
  await run('npm', ['run', '-s', 'build:node'], { cwd: ROOT });
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`;
  const imports = [];
  for (const sizeMb of sizes) {
    for (const provider of providers) {
      const file = exportFile(provider, sizeMb);
      const generated = await generate(provider, sizeMb);
      const json = SHAPES[provider].layout.bare === 'json';
      const parse = json ? await parseSeconds(file) : null;
      const result = await importOnce(file, contentType(provider));
      const mb = result.bytes / MIB;
      const ok = result.error === null;
      imports.push({
        provider,
        name: SHAPES[provider].name,
        format: SHAPES[provider].layout.bare,
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
      if (sizeMb !== sizes[0]) rmSync(file);
      console.error(JSON.stringify(imports.at(-1)));
    }
  }
  // The listing is measured on the ChatGPT export of the first size, else on the first of that size that imported.
  const imported = imports.filter((i) => i.sizeMb === sizes[0] && i.error === null).map((i) => i.provider);
  const listed = imported.includes('openai') ? 'openai' : imported[0];
  const list = listed === undefined ? null : await listing(exportFile(listed, sizes[0]!), contentType(listed));
  const hello = await helloWorld();
  const start = await startup();
  const results = { machine, date: new Date().toISOString(), imports, listing: list && { provider: listed, ...list, hello }, startup: start };

  const lines = [
    `Measured ${results.date.slice(0, 10)} on ${machine}.`,
    '',
    '| Import (export over HTTP) | MB/s | conversations/s | time | bare JSON.parse | import ÷ parse | server peak RSS | status |',
    '| - | - | - | - | - | - | - | - |',
    ...imports.map((i) => {
      const what = `${i.name} (\`${i.provider}\`, ${i.format.toUpperCase()}) ${i.mb} MB`;
      const parse = i.parseSeconds === null ? `n/a (${i.parseNote})` : `${i.parseSeconds} s`;
      const rss = i.peakRssMb === null ? 'n/a' : `${i.peakRssMb} MB`;
      if (i.error !== null) {
        const error = i.error.replace(/\s+/g, ' ').replaceAll('|', '\\|');
        return `| ${what}, ${i.generatedConversations} conversations generated | – | – | ${i.seconds} s | ${parse} | – | ${rss} | failed: ${i.status === 0 ? 'no answer' : `HTTP ${i.status}`}, ${error} |`;
      }
      const generated = i.conversations === i.generatedConversations ? '' : ` (${i.generatedConversations} generated)`;
      return `| ${what}, ${i.conversations} conversations${generated} | ${i.mbPerSecond} | ${i.conversationsPerSecond} | ${i.seconds} s | ${parse} | ${i.ratioToParse ?? 'n/a'} | ${rss} | ok |`;
    }),
    '',
    ...(list === null
      ? [`Listing not measured: no export of ${sizes[0]} MB imported.`]
      : [
          `| Listing (${connections} connections, ${duration} s, auth and rate limiting on; ${SHAPES[listed!].name} export) | requests/s | p50 | p99 | vs hello-world |`,
          '| - | - | - | - | - |',
          `| Hono hello-world (same runtime and adapter) | ${hello.rps} | ${hello.p50} ms | ${hello.p99} ms | 100% |`,
          `| \`GET /api/conversations?userRef=\` | ${list.connections.rps} | ${list.connections.p50} ms | ${list.connections.p99} ms | ${Math.round((100 * list.connections.rps) / hello.rps)}% |`,
          `| \`GET /api/conversations?connectionId=&limit=50\` (of ${list.conversations}) | ${list.page50.rps} | ${list.page50.p50} ms | ${list.page50.p99} ms | ${Math.round((100 * list.page50.rps) / hello.rps)}% |`,
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
