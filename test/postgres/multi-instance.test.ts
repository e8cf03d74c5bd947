/**
 * Three Parley servers on one PostgreSQL database, as behind a load balancer:
 * nothing may assume one process. Rate buckets are exact across instances, a
 * link is used once wherever it is opened, page sessions are shared, racing
 * imports make one connection and no duplicate, every webhook delivery goes out
 * once from one instance in event order, maintenance runs once, and a resumable
 * upload goes on from any instance.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { strToU8 } from 'fflate';
import { signLink } from 'parley-sdk';
import { onboardApp } from '../../src/apps/apps.ts';
import type { Db } from '../../src/db/database.ts';
import { openPostgres } from '../../src/db/dialects/postgres.ts';
import { readSchema } from '../../src/db/schema-file.ts';
import { cryptoRandom, systemClock } from '../../src/deps.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { Browser, call, expectJson, ingest, redirectTarget, type Tenant } from '../conformance/cases.ts';
import { startServer, type RunningServer } from '../conformance/server.ts';
import { claudeConversations, fixtureBytes, seedConnection } from '../helpers.ts';
import { createDatabase, NO_TEST_POSTGRES, testPostgresUrl } from '../postgres-server.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { parseConfig } from '../../src/config.ts';

const INSTANCES = 3;
const DAY_MS = 86_400_000;

describe('three instances on one PostgreSQL database', {
  skip: testPostgresUrl() ? false : NO_TEST_POSTGRES,
  timeout: 120_000,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-instances-'));
  const servers: RunningServer[] = [];
  let db: Db;
  let tenant: Tenant;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let staleConnectionId: string;
  const base = (i: number) => servers[i % INSTANCES]!.url;

  before(async () => {
    const url = await createDatabase(testPostgresUrl()!, `instances_${Date.now()}`);
    db = await openPostgres(url, readSchema('schema.postgres.sql'), { poolSize: 2, allowExitOnIdle: true });
    tenant = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Shared');
    receiver = await startReceiver();
    await setWebhookEndpoint({ db, random: cryptoRandom, config: parseConfig({}) }, tenant.appId, receiver.url);
    // A connection not synced for two days: every instance's first maintenance sees it.
    staleConnectionId = (
      await seedConnection(
        { db, clock: systemClock },
        { appId: tenant.appId, userRef: 'stale-user', capturedAt: Date.now() - 2 * DAY_MS },
      )
    ).connectionId;
    const env = { DATABASE_URL: url, STALE_AFTER_DAYS: '1', RATE_LIMIT_PER_MINUTE: '60', WEBHOOK_RETRY_SCHEDULE: '1' };
    // Settled, not all: a server that fails to start must not leave the others running (after() stops those it knows).
    const started = await Promise.allSettled(
      Array.from({ length: INSTANCES }, (_, i) =>
        startServer('node', { databasePath: join(dir, `unused-${i}.db`), env }),
      ),
    );
    servers.push(...started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  });

  after(async () => {
    await Promise.all(servers.map((server) => server.stop().catch(() => undefined)));
    await receiver?.close();
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  test('maintenance runs once: the stale connection has one needs_reauth event', async () => {
    const row = await db
      .selectFrom('connections')
      .select('status')
      .where('id', '=', staleConnectionId)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'needs_reauth');
    const events = await db
      .selectFrom('webhook_deliveries')
      .select('body')
      .where('event_type', '=', 'connection.needs_reauth')
      .execute();
    assert.deepEqual(
      events.map((event) => JSON.parse(event.body).data),
      [{ userRef: 'stale-user', connectionId: staleConnectionId }],
    );
  });

  test('rate buckets: 200 requests spread over the instances, exactly 60 pass', async () => {
    // Not across a minute's end, which would start a new bucket mid-burst.
    while (Date.now() % 60_000 > 50_000) await sleep(500);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call(base(i), '/api/connections?userRef=stale-user', { bearer: tenant.apiKey }),
      ),
    );
    const tally: Record<number, number> = {};
    for (const { status } of answers) tally[status] = (tally[status] ?? 0) + 1;
    // Each instance is sent 66 or 67 of them: counted apart, up to 180 would pass.
    assert.deepEqual(tally, { 200: 60, 429: 140 });
    // One counter: the 60 that pass are told 59, 58, … 0 remain, each number once.
    const remaining = answers
      .filter(({ status }) => status === 200)
      .map(({ headers }) => Number(headers.get('RateLimit-Remaining')));
    assert.deepEqual(
      remaining.sort((a, b) => a - b),
      Array.from({ length: 60 }, (_, i) => i),
    );
    // Every instance counts and answers with the limit. Which instances' requests
    // take the 60 is the database's order: on a busy machine one's may all come last.
    for (let i = 0; i < INSTANCES; i++) {
      assert.ok(
        answers.filter((_, n) => n % INSTANCES === i).every(({ headers }) => headers.get('RateLimit-Limit') === '60'),
        `instance ${i} limits`,
      );
    }
  });

  test('a link is used once, wherever it is opened; the session it opens works on every instance', async () => {
    const link = new URL(
      await signLink(
        {
          appId: tenant.appId,
          userRef: 'stale-user',
          scopes: ['conversations:read'],
          purpose: 'manage',
          baseUrl: base(0),
        },
        tenant.appSecret,
      ),
    );
    const browsers = Array.from({ length: 9 }, (_, i) => new Browser(base(i)));
    // Each browser presses Open (fetch() is no navigation, so GET would only show the button).
    const token = new URL(link).searchParams.get('token')!;
    const answers = await Promise.all(
      browsers.map((browser) => browser.post('/manage', new URLSearchParams({ token }))),
    );
    assert.deepEqual(answers.map(({ status }) => status).sort(), [303, 403, 403, 403, 403, 403, 403, 403, 403]);
    const won = answers.findIndex(({ status }) => status === 303);
    assert.equal(redirectTarget(answers[won]!, base(won)), '/manage');
    const winner = browsers[won]!;
    for (let i = 0; i < INSTANCES; i++) {
      const elsewhere = new Browser(base(i));
      for (const [name, value] of winner.cookies) elsewhere.cookies.set(name, value);
      const page = await elsewhere.get('/manage');
      assert.equal(page.status, 200, `instance ${i}`);
      assert.ok(
        page.text.includes(`href="/manage/connections/${staleConnectionId}"`),
        `instance ${i} shows the user's connection`,
      );
    }
  });

  test('imports racing on every instance make one connection and no duplicate conversation', async () => {
    const file = fixtureBytes('claude-conversations.json');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => ingest(base(i), tenant.apiKey, file, 'userRef=racer')),
    );
    const bodies = answers.map((answer) => expectJson(answer, 200));
    assert.equal(new Set(bodies.map((body) => body.connectionId)).size, 1);
    assert.equal(
      bodies.reduce((sum, body) => sum + body.created, 0),
      5,
    );
    assert.deepEqual(
      bodies.map((body) => body.created + body.updated + body.unchanged),
      [5, 5, 5, 5, 5, 5],
    );
    // (The listing's minute is used up above: the database says it.)
    const connections = await db
      .selectFrom('connections')
      .innerJoin('users', 'users.id', 'connections.user_id')
      .select('conversation_count')
      .where('users.user_ref', '=', 'racer')
      .execute();
    assert.deepEqual(connections, [{ conversation_count: 5 }]);
    const rows = await db
      .selectFrom('conversations')
      .select('external_id')
      .where('connection_id', '=', bodies[0].connectionId)
      .execute();
    assert.equal(rows.length, 5);
  });

  test('an upload begun on one instance is continued on a second and imported on a third: its state and bytes are in the database', async () => {
    const tus = { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${tenant.apiKey}` };
    const octets = { ...tus, 'Content-Type': 'application/offset+octet-stream' };
    const file = fixtureBytes('claude-conversations.json');
    const half = Math.floor(file.length / 2);
    const created = await fetch(`${base(0)}/api/uploads`, {
      method: 'POST',
      headers: { ...tus, 'Upload-Length': String(file.length) },
    });
    assert.equal(created.status, 201);
    const location = created.headers.get('Location')!;
    const first = await fetch(`${base(0)}${location}`, {
      method: 'PATCH',
      headers: { ...octets, 'Upload-Offset': '0' },
      body: file.slice(0, half),
    });
    assert.equal(first.headers.get('Upload-Offset'), String(half));
    const state = await fetch(`${base(1)}${location}`, { method: 'HEAD', headers: tus });
    assert.equal(state.headers.get('Upload-Offset'), String(half));
    const rest = await fetch(`${base(1)}${location}`, {
      method: 'PATCH',
      headers: { ...octets, 'Upload-Offset': String(half) },
      body: file.slice(half),
    });
    assert.equal(rest.headers.get('Upload-Offset'), String(file.length));
    const imported = await fetch(`${base(2)}/api/ingest-export?userRef=uploader&upload=${location.split('/').pop()}`, {
      method: 'POST',
      headers: tus,
    });
    const answer = await imported.json();
    assert.equal(imported.status, 200, JSON.stringify(answer));
    assert.equal(answer.created, 5);
  });

  test('an import on one instance is refused when a purge on another ran while it uploaded: the check is in the database', async () => {
    await seedConnection({ db, clock: systemClock }, { appId: tenant.appId, userRef: 'purged-meanwhile', count: 1 });
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(strToU8(JSON.stringify(claudeConversations(150))));
        await released;
        controller.close();
      },
    });
    const answer = fetch(`${base(0)}/api/ingest-export?userRef=purged-meanwhile`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    // Under way: its conversations are in its own connection, waiting for the end of the file.
    const written = () =>
      db
        .selectFrom('conversations')
        .innerJoin('connections', 'connections.id', 'conversations.connection_id')
        .innerJoin('users', 'users.id', 'connections.user_id')
        .select('conversations.id')
        .where('users.import_id', 'is not', null)
        .execute();
    for (let tries = 0; (await written()).length < 100; tries++) {
      assert.ok(tries < 300, 'the import wrote its conversations');
      await sleep(100);
    }
    expectJson(
      await call(base(1), '/api/purge', {
        method: 'POST',
        bearer: tenant.apiKey,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ userRef: 'purged-meanwhile' }),
      }),
      200,
    );
    release();
    const refused = await answer;
    assert.deepEqual(
      [refused.status, await refused.json()],
      [410, { error: 'Import refused: data of this user was purged while the file was uploading' }],
    );
    const users = await db.selectFrom('users').select('id').where('user_ref', '=', 'purged-meanwhile').execute();
    assert.deepEqual(users, []);
    assert.deepEqual(await written(), []);
    assert.deepEqual(await db.selectFrom('imports').select('id').execute(), []);
  });

  test('every webhook delivery goes out once, from one instance, in event order', async () => {
    // More events, made on all three instances.
    for (let i = 0; i < 6; i++)
      expectJson(
        await ingest(base(i), tenant.apiKey, fixtureBytes('claude-thinking.json'), `userRef=hooked-${i}`),
        200,
      );
    const deadline = Date.now() + 30_000;
    let pending = Infinity;
    while (pending > 0 && Date.now() < deadline) {
      pending = (await db.selectFrom('webhook_deliveries').select('id').where('status', '<>', 'delivered').execute())
        .length;
      if (pending > 0) await sleep(200);
    }
    assert.equal(pending, 0, 'every delivery delivered');
    const outbox = await db.selectFrom('webhook_deliveries').select(['id', 'attempts']).orderBy('seq').execute();
    assert.ok(outbox.length >= 1 + 2 + 6 * 2, `${outbox.length} events`);
    assert.deepEqual(
      outbox.map((delivery) => delivery.attempts),
      outbox.map(() => 1),
      'one attempt each',
    );
    assert.deepEqual(
      receiver.received.map((received) => received.headers['webhook-id']),
      outbox.map((delivery) => delivery.id),
      'received once each, in event order',
    );
    // Each was sent by exactly one instance: the sender logs it.
    const sent = servers.flatMap((server) =>
      server.logs
        .filter((line) => line.includes('"event":"webhook delivered"'))
        .map((line) => JSON.parse(line).delivery),
    );
    assert.deepEqual([...sent].sort(), outbox.map((delivery) => delivery.id).sort());
  });
});
