/**
 * The conformance cases under every runtime in PARLEY_RUNTIMES (default
 * node,deno,bun), then one SQLite file handed from runtime to runtime.
 *
 *   node --import tsx test/run.ts test/conformance/conformance.test.ts
 *   PARLEY_RUNTIMES=deno node --import tsx test/run.ts test/conformance/conformance.test.ts
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { signLink } from 'parley-sdk';
import { onboardApp } from '../../src/apps/apps.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../../src/deps.ts';
import {
  conversationsInFixture,
  EXPORT_FIXTURE_NAMES,
  fixtureBytes,
  fixtureContentType,
  providerOfFixture,
} from '../helpers.ts';
import {
  Browser,
  call,
  claudeExport,
  defineConformance,
  expectJson,
  expectPage,
  ingest,
  redirectTarget,
  splitChatGptZip,
  walkConversations,
  type Tenant,
} from './cases.ts';
import { startServer, type RunningServer, type RuntimeName } from './server.ts';

const KNOWN: RuntimeName[] = ['node', 'deno', 'bun'];
const runtimes = (process.env.PARLEY_RUNTIMES ?? 'node,deno,bun')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean) as RuntimeName[];
for (const name of runtimes)
  if (!KNOWN.includes(name)) throw new Error(`PARLEY_RUNTIMES: unknown runtime "${name}" (use ${KNOWN.join(', ')})`);

for (const runtime of runtimes) defineConformance(runtime);
// The same suite on PostgreSQL, under every runtime: the pg driver runs on all three.
for (const runtime of runtimes) defineConformance(runtime, { postgres: true });

const USERS = ['swap-fixtures', 'swap-generated'];

/** Everything the API shows of the tenant's users: connection listings and every conversation page, as raw text. */
async function snapshot(base: string, tenant: Tenant) {
  const texts: string[] = [];
  for (const userRef of USERS) {
    const connections = await call(base, `/api/conversations?userRef=${userRef}`, { bearer: tenant.apiKey });
    expectJson(connections, 200);
    texts.push(connections.text);
    for (const connection of connections.json.connections) {
      for (const page of await walkConversations(base, tenant.apiKey, connection.id, 50))
        texts.push(JSON.stringify(page));
    }
  }
  return texts;
}

/** The parts of a snapshot that a re-import may change: each connection's lastSyncAt. */
const withoutSyncTimes = (texts: string[]) =>
  texts.map((text) => text.replace(/"lastSyncAt":"[^"]*"/g, '"lastSyncAt":"…"'));

async function pagesRender(base: string, tenant: Tenant, runtime: RuntimeName, connectionIds: string[]) {
  const sign = (purpose: 'connect' | 'manage') =>
    signLink(
      { appId: tenant.appId, userRef: 'swap-fixtures', scopes: ['conversations:read'], purpose, baseUrl: base },
      tenant.appSecret,
    );
  expectPage(await new Browser(base).get(await sign('connect')), 200, 'Swap app', `${runtime}: GET /start`);
  const manager = new Browser(base);
  assert.equal(
    redirectTarget(
      await manager.post(
        '/manage',
        new URLSearchParams({ token: new URL(await sign('manage')).searchParams.get('token')! }),
      ),
      base,
    ),
    '/manage',
  );
  const home = await manager.get('/manage');
  expectPage(home, 200, 'Swap app', `${runtime}: GET /manage`);
  for (const id of connectionIds)
    assert.ok(home.text.includes(`href="/manage/connections/${id}"`), `${runtime}: /manage lists ${id}`);
}

/** Every stored conversation's source hash, as the file holds them. */
async function sourceHashes(databasePath: string) {
  const db = openBetterSqlite3(databasePath);
  try {
    return await db.selectFrom('conversations').select(['external_id', 'source_hash']).orderBy('external_id').execute();
  } finally {
    await db.destroy();
  }
}

describe('one database file, written under one runtime, served by the others', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-conformance-swap-'));
  const databasePath = join(dir, 'parley.db');
  let running: RunningServer | undefined;
  const env = { RATE_LIMIT_PER_MINUTE: '100000' };

  after(async () => {
    try {
      await running?.stop('SIGTERM');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const [writer, ...readers] = runtimes;
  test(`written under ${writer}, read under ${readers.join(' and ') || '(no other runtime)'}`, {
    skip: readers.length === 0 ? 'PARLEY_RUNTIMES names one runtime' : false,
  }, async (t) => {
    running = await startServer(writer!, { databasePath, env });
    const db = openBetterSqlite3(databasePath);
    let tenant: Tenant;
    try {
      tenant = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Swap app');
    } finally {
      await db.destroy();
    }
    let base = running.url;
    for (const name of EXPORT_FIXTURE_NAMES)
      expectJson(
        await ingest(base, tenant.apiKey, fixtureBytes(name), 'userRef=swap-fixtures', fixtureContentType(name)),
        200,
        undefined,
        name,
      );
    expectJson(
      await ingest(base, tenant.apiKey, splitChatGptZip().zip, 'userRef=swap-generated', 'application/zip'),
      200,
    );
    expectJson(await ingest(base, tenant.apiKey, claudeExport(237, 'swap').bytes, 'userRef=swap-generated'), 200);
    let expected = await snapshot(base, tenant);
    // The first text is the listing of swap-fixtures, the user the pages are opened for.
    const connectionIds: string[] = JSON.parse(expected[0]!).connections.map(
      (connection: { id: string }) => connection.id,
    );
    // One connection per provider of the fixtures, each with one page of them (none has 50 conversations).
    const providers = new Set(EXPORT_FIXTURE_NAMES.map(providerOfFixture)).size;
    assert.equal(connectionIds.length, providers);
    assert.equal(
      expected.length,
      2 + providers + 1 + 5,
      `two connection listings and ${providers + 6} conversation pages`,
    );
    await pagesRender(base, tenant, writer!, connectionIds);
    assert.deepEqual(await running.stop(), { code: 0, signal: null }, `${writer} exits cleanly`);
    running = undefined;

    for (const [index, reader] of readers.entries()) {
      running = await startServer(reader, { databasePath, env });
      base = running.url;
      t.diagnostic(`${reader} opened the file in ${running.startupMs} ms`);
      const seen = await snapshot(base, tenant);
      assert.deepEqual(
        seen.map((text) => JSON.parse(text)),
        expected.map((text) => JSON.parse(text)),
        `${reader} lists what was written`,
      );
      assert.deepEqual(seen, expected, `${reader} answers byte for byte the same`);
      await pagesRender(base, tenant, reader, connectionIds);
      if (index === 0) {
        const name = 'claude-conversations.json';
        const hashesBefore = await sourceHashes(databasePath);
        assert.ok(
          hashesBefore.some((row) => row.source_hash !== null),
          `${writer} kept the hashes of the conversations' bytes`,
        );
        const again = expectJson(await ingest(base, tenant.apiKey, fixtureBytes(name), 'userRef=swap-fixtures'), 200);
        assert.deepEqual(
          [again.created, again.updated, again.skipped, again.unchanged],
          [0, 0, 0, conversationsInFixture(name)],
          `${reader}: re-import changes nothing`,
        );
        // A hash that differed between runtimes would be rewritten here (and the bytes read again).
        assert.deepEqual(await sourceHashes(databasePath), hashesBefore, `${reader} hashes the bytes as ${writer} did`);
        const after = await snapshot(base, tenant);
        assert.deepEqual(withoutSyncTimes(after), withoutSyncTimes(expected), 'only lastSyncAt moved');
        expected = after;
      }
      // SIGINT here, SIGTERM everywhere else: both stop the server cleanly.
      assert.deepEqual(await running.stop('SIGINT'), { code: 0, signal: null }, `${reader} exits cleanly on SIGINT`);
      assert.ok(
        running.logs.some((line) => line.includes('"event":"shutdown"') && line.includes('"signal":"SIGINT"')),
        `${reader} logged its SIGINT shutdown`,
      );
      running = undefined;
    }
  });
});
