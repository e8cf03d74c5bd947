/**
 * Hostile uploads against a real server with the default limits: small zips that
 * expand enormously. Prints, for each, the answer, the time taken, the server's
 * CPU time and its peak RSS (which must stay under 400 MB whatever the input).
 *
 *   npm run bench:hostile [-- --runtime node-bundle|node|deno|bun] [--only <part of a name>]
 *
 * 1. conversation bomb: a 1.5 GB string in one conversation, zipped to about 1.5 MB.
 * 2. whitespace bomb: 3 GB of whitespace around an empty array, zipped to about 3 MB.
 * 3. whitespace inside a conversation: the same, but within the first conversation.
 * 4. largest conversations: one conversation of just under MAX_CONVERSATION_BYTES,
 *    zipped — 960 long messages, then all of it in one title — imported: the
 *    most the server holds for one conversation.
 *
 * Then hostile requests (bench-hostile/requests.ts): bodies far past a route's
 * bound, slow senders, amplifying CSV and a burst of imports, with the listing's
 * p99 meanwhile.
 *
 * Linux only (memory and CPU are read from /proc). Not a test: nothing here fails.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp as onboardApp } from '../src/apps/apps.ts';
import { openBetterSqlite3 } from '../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../src/deps.ts';
import { ROOT, startServer, type RuntimeName } from '../test/conformance/server.ts';
import { fill, MIB, procStatus, zipOf } from './bench-hostile/kit.ts';
import { requestCases, requestTable } from './bench-hostile/requests.ts';
const { values: options } = parseArgs({ options: { runtime: { type: 'string', default: 'node-bundle' }, only: { type: 'string', default: '' } } });
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
  ['63 MiB conversation of 960 messages', () => zipOf('[{"id":"long","title":"Long","current_node":"n959","mapping":{', longMessages(), 1, '}}]')],
  ['63 MiB conversation, all title', () => zipOf('[{"id":"largest","mapping":{},"title":"', megabyteOfA, 63, '"}]')],
];
const rows = [];
for (const [name, make] of uploads) if (name.includes(options.only)) rows.push(await upload(name, make()));
const requestRows = await requestCases(runtime, work, options.only);

const table = [
  `Hostile uploads, ${runtime}, default limits (MAX_CONVERSATION_BYTES 64 MiB, MAX_EXPANDED_BYTES 4 GiB):`,
  '',
  '| Upload | zip | answer | time | server CPU | server peak RSS |',
  '| - | - | - | - | - | - |',
  ...rows.map((row) => `| ${row.upload} | ${row.zipMb} MB | ${row.status} ${row.answer} | ${row.seconds} s | ${row.serverCpuSeconds} s | ${row.peakRssMb} MB |`),
];
table.push('', ...requestTable(runtime, requestRows));
console.log(`\n${table.join('\n')}`);
mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
writeFileSync(join(ROOT, 'bench-results', 'hostile.md'), `${table.join('\n')}\n`);
rmSync(work, { recursive: true, force: true });
