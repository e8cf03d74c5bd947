import { attachmentStores } from '../../src/attachments/stores.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { strToU8 } from 'fflate';
import { Webhook } from 'standardwebhooks';
import { parseConfig } from '../../src/config.ts';
import { markStaleConnections } from '../../src/conversations/staleness.ts';
import { cryptoRandom, type Deps } from '../../src/deps.ts';
import { createLogger } from '../../src/log.ts';
import { createDeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import {
  listWebhookDeliveries,
  retryWebhookDelivery,
  sendTestWebhook,
  setWebhookEndpoint,
} from '../../src/webhooks/endpoints.ts';
import { fixedClock, fixtureBytes, json, openTestDatabase, postExport, setup, type TestContext } from '../helpers.ts';
import { hiddenField, openSession } from '../pages/page-client.ts';
import { startReceiver } from './receiver.ts';
import { Metrics } from '../../src/metrics/metrics.ts';

const receivers: Array<{ close(): Promise<void> }> = [];
after(async () => Promise.all(receivers.map((r) => r.close())));

/** An app with its webhook pointed at a fresh receiver; the clock runs from now, as signatures are checked against real time. */
async function withReceiver(env: Record<string, string> = {}, answers: Array<number | 'hang'> = []) {
  const t = await setup({ WEBHOOK_RETRY_SCHEDULE: '1,1', ...env }, { now: Date.now() });
  const receiver = await startReceiver(answers);
  receivers.push(receiver);
  const { secret } = await setWebhookEndpoint(t.deps, t.tenant.appId, receiver.url);
  const worker = createDeliveryWorker(t.deps);
  return { t, receiver, secret, worker };
}

/** Verifies every delivery with the standardwebhooks package and returns the events. */
function verified(secret: string, received: Array<{ headers: Record<string, unknown>; body: string }>) {
  const verifier = new Webhook(secret);
  return received.map(
    ({ headers, body }) =>
      verifier.verify(body, headers as Record<string, string>) as {
        type: string;
        timestamp: string;
        data: Record<string, unknown>;
      },
  );
}

const deliveries = async (t: TestContext) => (await listWebhookDeliveries(t.deps, t.tenant.appId)).deliveries;

describe('webhook set', () => {
  test('creates a whsec_ secret of 24+ random bytes, keeps it unless asked, validates the URL', async () => {
    const t = await setup();
    const first = await setWebhookEndpoint(t.deps, t.tenant.appId, 'https://example.test/hooks');
    assert.match(first.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.ok(Buffer.from(first.secret.slice(6), 'base64').length >= 24);
    const again = await setWebhookEndpoint(t.deps, t.tenant.appId, 'https://example.test/other');
    assert.deepEqual(again, { url: 'https://example.test/other', secret: first.secret });
    const renewed = await setWebhookEndpoint(t.deps, t.tenant.appId, 'https://example.test/other', { newSecret: true });
    assert.notEqual(renewed.secret, first.secret);
    await assert.rejects(setWebhookEndpoint(t.deps, t.tenant.appId, 'ftp://example.test'), {
      message: 'Invalid webhook URL: use an absolute http(s) URL',
    });
    await assert.rejects(setWebhookEndpoint(t.deps, 'app_nope', 'https://example.test'), { message: 'App not found' });
  });

  test('a URL with a user name or password is refused; private addresses only with WEBHOOK_ALLOW_PRIVATE=false, after resolving', async () => {
    const t = await setup();
    for (const url of [
      'https://user:secret@hooks.example.com/x',
      'https://user@hooks.example.com/x',
      'https://:secret@hooks.example.com/x',
    ]) {
      await assert.rejects(
        setWebhookEndpoint(t.deps, t.tenant.appId, url),
        { message: 'Invalid webhook URL: it must not hold a user name or password (user:password@)' },
        url,
      );
    }
    // Allowed by default: a self-hosted receiver is often on the same host or network.
    for (const url of ['http://127.0.0.1:9000/h', 'http://10.1.2.3/h', 'http://[::1]/h', 'http://localhost/h'])
      await setWebhookEndpoint(t.deps, t.tenant.appId, url);

    const addresses: Record<string, string[]> = {
      'public.example': ['93.184.216.34', '2606:2800:220:1::1'],
      'inside.example': ['93.184.216.34', '10.0.0.7'],
      'metadata.example': ['169.254.169.254'],
    };
    const strict = {
      ...t.deps,
      config: parseConfig({ WEBHOOK_ALLOW_PRIVATE: 'false' }),
      resolveHost: async (host: string) => addresses[host] ?? Promise.reject(new Error('ENOTFOUND')),
    };
    const refused = {
      message: 'Invalid webhook URL: its host is a private address, refused by WEBHOOK_ALLOW_PRIVATE=false',
    };
    for (const url of [
      'http://127.0.0.1/h',
      'http://10.0.0.1/h',
      'http://172.20.0.1/h',
      'http://192.168.1.1/h',
      'http://169.254.169.254/latest',
      'http://100.64.0.1/h',
      'http://0.0.0.0/h',
      'http://[::1]/h',
      'http://[fe80::1]/h',
      'http://[fd00:ec2::254]/h',
      'http://[::ffff:127.0.0.1]/h',
      'http://[::ffff:a9fe:a9fe]/h',
      'http://inside.example/h',
      'http://metadata.example/h',
      'http://nowhere.example/h',
    ]) {
      await assert.rejects(setWebhookEndpoint(strict, t.tenant.appId, url), refused, url);
    }
    for (const url of ['https://public.example/h', 'http://93.184.216.34/h', 'http://[2606:2800:220:1::1]/h'])
      await setWebhookEndpoint(strict, t.tenant.appId, url);
  });

  test('without an endpoint, no event is recorded', async () => {
    const t = await setup();
    const imported = await postExport(t, fixtureBytes('claude-conversations.json'));
    // An import that failed would record no event either.
    assert.deepEqual([imported.status, (await json(imported)).created], [200, 5]);
    assert.deepEqual(await deliveries(t), []);
  });
});

describe('events', () => {
  test('every event type comes from the action that should produce it, signed per Standard Webhooks', async () => {
    const { t, receiver, secret, worker } = await withReceiver({ STALE_AFTER_DAYS: '30' });
    const imported = await json(await postExport(t, fixtureBytes('claude-conversations.json')));
    await postExport(t, fixtureBytes('claude-conversations.json'));
    await postExport(t, fixtureBytes('chatgpt-branches.json'));
    const openai = (await json(await t.request('/api/conversations?userRef=u1'))).connections.find(
      (c: any) => c.provider === 'openai',
    );

    // The manage page: delete a conversation, disconnect.
    const browser = await openSession(t, 'manage');
    const [conversation] = (await json(await t.request(`/api/conversations?connectionId=${imported.connectionId}`)))
      .conversations;
    const csrf = hiddenField(
      await (await browser.get(`/manage/conversations/${conversation.id}/delete`)).text(),
      'csrf',
    );
    assert.equal((await browser.post(`/manage/conversations/${conversation.id}/delete`, { csrf })).status, 303);
    assert.equal((await browser.post(`/manage/connections/${imported.connectionId}/disconnect`, { csrf })).status, 303);

    // The ChatGPT connection was last synced 31 days ago: it goes stale, then is
    // purged; then a second user is. (The clock stays near real time: receivers
    // check signature timestamps against it.)
    const monthAgo = new Date(t.clock.now() - 31 * 86_400_000).toISOString();
    await t.deps.db
      .updateTable('connections')
      .set({ last_sync_at: monthAgo, captured_at: monthAgo })
      .where('id', '=', openai.id)
      .execute();
    assert.equal(await markStaleConnections(t.deps), 1);
    const purgeBody = (body: object) => ({
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal((await t.request('/api/purge', purgeBody({ connectionId: openai.id }))).status, 200);
    await postExport(t, fixtureBytes('claude-thinking.json'), { query: 'userRef=u2' });
    const purged = await json(await t.request('/api/purge', purgeBody({ userRef: 'u2' })));

    await worker.runOnce();
    const events = verified(secret, receiver.received);
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'connection.created',
        'connection.synced',
        'connection.synced',
        'connection.created',
        'connection.synced',
        'conversation.deleted',
        'connection.revoked',
        'connection.needs_reauth',
        'connection.purged',
        'connection.created',
        'connection.synced',
        'user.purged',
      ],
    );
    for (const event of events) {
      assert.match(event.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(typeof event.data.userRef, 'string');
      if (event.type !== 'user.purged') assert.match(String(event.data.connectionId), /^[0-9a-f-]{36}$/);
    }
    assert.deepEqual(events[1]!.data, {
      userRef: 'u1',
      connectionId: imported.connectionId,
      provider: 'anthropic',
      created: 5,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      conversationCount: 5,
      // The pasted explain.txt, listed in `files` too: one attachment.
      attachmentCount: 1,
      memories: { created: 0, updated: 0, unchanged: 0 },
      projects: { created: 0, updated: 0, unchanged: 0 },
      memoryCount: 0,
      projectCount: 0,
      notRead: [],
    });
    assert.deepEqual({ ...events[2]!.data }, { ...events[1]!.data, created: 0, unchanged: 5 });
    assert.deepEqual(events[5]!.data, {
      userRef: 'u1',
      connectionId: imported.connectionId,
      conversationId: conversation.id,
      externalId: conversation.external_id,
      conversationCount: 4,
      memoryCount: 0,
      projectCount: 0,
    });
    assert.deepEqual(events[6]!.data, { userRef: 'u1', connectionId: imported.connectionId, conversationsDeleted: 4 });
    assert.deepEqual(events[7]!.data, { userRef: 'u1', connectionId: openai.id });
    assert.deepEqual(events[8]!.data, { userRef: 'u1', connectionId: openai.id, conversations: 1 });
    assert.deepEqual(events[11]!.data, { userRef: 'u2', ...purged.deleted });
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, events.length);
    assert.ok((await deliveries(t)).every((d) => d.status === 'delivered' && d.attempts === 1));
  });

  test('an import that fails records no event', async () => {
    const { t } = await withReceiver();
    for (const body of [strToU8('[{"mapping": {'), strToU8('{"nope": 1}')]) {
      assert.equal((await postExport(t, body)).status, 400);
    }
    assert.equal(
      (await postExport(t, fixtureBytes('claude-conversations.json'), { query: 'userRef=u1&provider=openai' })).status,
      400,
    );
    assert.deepEqual(await deliveries(t), []);
  });

  test('first attempts to one endpoint go out in event order', async () => {
    const { t, receiver, secret, worker } = await withReceiver();
    for (let i = 0; i < 6; i++)
      await postExport(t, fixtureBytes('claude-thinking.json'), { query: `userRef=user-${i}` });
    await worker.runOnce();
    const users = verified(secret, receiver.received).map((e) => `${e.type}:${e.data.userRef}`);
    assert.deepEqual(
      users,
      Array.from({ length: 6 }, (_, i) => [`connection.created:user-${i}`, `connection.synced:user-${i}`]).flat(),
    );
  });
});

describe('delivery', () => {
  test('WEBHOOK_ALLOW_PRIVATE=false checks the address again before each attempt: none goes to a host now resolving privately', async () => {
    const { t, receiver } = await withReceiver();
    let addresses = ['93.184.216.34'];
    const strict: Deps = {
      ...t.deps,
      config: { ...t.deps.config, webhookAllowPrivate: false },
      resolveHost: async () => addresses,
    };
    await setWebhookEndpoint(strict, t.tenant.appId, receiver.url.replace('127.0.0.1', 'receiver.example'));
    addresses = ['169.254.169.254'];
    await postExport(t, fixtureBytes('claude-thinking.json'));
    await createDeliveryWorker(strict).runOnce();
    assert.equal(receiver.received.length, 0);
    const [latest] = await deliveries(t);
    assert.equal(latest!.status, 'pending');
    assert.equal(
      latest!.lastError,
      'refused: receiver.example is a private address (169.254.169.254): WEBHOOK_ALLOW_PRIVATE=false',
    );
  });

  test('a URL stored with a password before it was refused is never sent, and the password is neither logged nor listed', async () => {
    const { t, receiver, worker } = await withReceiver();
    const withPassword = receiver.url.replace('http://', 'http://hooks:s3cret-word@');
    await t.deps.db.updateTable('apps').set({ webhook_url: withPassword }).where('id', '=', t.tenant.appId).execute();
    await postExport(t, fixtureBytes('claude-thinking.json'));
    await worker.runOnce();
    assert.equal(receiver.received.length, 0);
    const listed = JSON.stringify(await listWebhookDeliveries(t.deps, t.tenant.appId));
    assert.match(listed, /the webhook URL holds a user name or password: set it again without them/);
    assert.ok(!listed.includes('s3cret-word'));
    assert.ok(!JSON.stringify(t.logs).includes('s3cret-word'));
  });

  test('an error quoting a URL is stored and logged without its user name and password', async () => {
    const { t } = await withReceiver();
    const refusing = async (input: string | URL | Request) =>
      Promise.reject(
        new TypeError(
          `fetch failed: connect ECONNREFUSED for http://hooks:s3cret-word@${new URL(String(input)).host}/`,
        ),
      );
    const failing = createDeliveryWorker(t.deps, { fetch: refusing as unknown as typeof fetch });
    await postExport(t, fixtureBytes('claude-thinking.json'));
    await failing.runOnce();
    const [latest] = await deliveries(t);
    assert.match(latest!.lastError!, /^fetch failed: connect ECONNREFUSED for http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.ok(!JSON.stringify(t.logs).includes('s3cret-word'));
  });

  test('retries on the schedule with the same webhook-id until a 2xx', async () => {
    const { t, receiver, secret, worker } = await withReceiver({ WEBHOOK_RETRY_SCHEDULE: '1,1,1' }, [500, 200, 503]);
    await postExport(t, fixtureBytes('claude-thinking.json'));
    await worker.runOnce();
    assert.equal(receiver.received.length, 2, 'one attempt per event so far');
    let [synced, created] = await deliveries(t);
    assert.deepEqual(
      [created!.status, created!.attempts, created!.lastStatus, created!.lastError],
      ['pending', 1, 500, 'HTTP 500'],
    );
    assert.equal(synced!.status, 'delivered', 'a delivery waiting for its retry does not hold back the next event');
    const due = Date.parse(created!.nextAttemptAt!);
    assert.ok(due >= t.clock.now() + 1000 && due <= t.clock.now() + 1100, 'one second, plus at most 10% jitter');

    await worker.runOnce();
    assert.equal(receiver.received.length, 2, 'not due yet');
    t.clock.advance(1100);
    await worker.runOnce();
    t.clock.advance(1100);
    await worker.runOnce();
    [synced, created] = await deliveries(t);
    assert.deepEqual([created!.status, created!.attempts, created!.lastStatus], ['delivered', 3, 200]);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    assert.deepEqual(ids, [created!.id, synced!.id, created!.id, created!.id]);
    assert.equal(verified(secret, receiver.received).length, 4);
  });

  test('a 410 stops at once; an exhausted schedule fails; webhook retry queues it again', async () => {
    const { t, receiver, worker } = await withReceiver({ WEBHOOK_RETRY_SCHEDULE: '1' }, [410, 500, 500]);
    await postExport(t, fixtureBytes('claude-thinking.json'));
    await worker.runOnce();
    t.clock.advance(1100);
    await worker.runOnce();
    const [synced, created] = await deliveries(t);
    assert.deepEqual([created!.status, created!.attempts, created!.lastStatus], ['failed', 1, 410]);
    assert.deepEqual([synced!.status, synced!.attempts, synced!.lastError], ['failed', 2, 'HTTP 500']);
    assert.deepEqual((await listWebhookDeliveries(t.deps, t.tenant.appId, ['failed'])).deliveries.length, 2);
    assert.deepEqual((await listWebhookDeliveries(t.deps, t.tenant.appId, ['pending'])).deliveries, []);

    assert.deepEqual(await retryWebhookDelivery(t.deps, t.tenant.appId, created!.id), { ok: true });
    await assert.rejects(retryWebhookDelivery(t.deps, t.tenant.appId, 'msg_missing'), {
      message: 'Delivery not found',
    });
    await worker.runOnce();
    const [, again] = await deliveries(t);
    assert.deepEqual([again!.status, again!.attempts], ['delivered', 1]);
    assert.equal(receiver.received.at(-1)!.headers['webhook-id'], created!.id);
  });

  test('an endpoint that does not answer in time is an attempt that failed', async () => {
    const { t, worker } = await withReceiver({ WEBHOOK_TIMEOUT_MS: '200' }, ['hang']);
    await postExport(t, fixtureBytes('claude-thinking.json'));
    await worker.runOnce();
    const created = (await deliveries(t)).at(-1)!;
    assert.deepEqual(
      [created.status, created.lastStatus, created.lastError],
      ['pending', null, 'no answer within 200 ms'],
    );
  });

  test('a restart in the middle of a retry schedule still delivers', async (context) => {
    const receiver = await startReceiver([500, 500]);
    receivers.push(receiver);
    const folder = mkdtempSync(join(tmpdir(), 'parley-webhooks-'));
    context.after(() => rmSync(folder, { recursive: true, force: true }));
    const path = join(folder, 'parley.db');
    const clock = fixedClock(Date.now());
    const boot = async (): Promise<Deps> => {
      const db = await openTestDatabase(path);
      return {
        db,
        attachments: attachmentStores(db, { attachmentsS3: undefined }),
        config: parseConfig({ WEBHOOK_RETRY_SCHEDULE: '1,1' }),
        clock,
        random: cryptoRandom,
        log: createLogger('silent'),
        metrics: new Metrics(),
      };
    };
    const first = await setup({}, { databasePath: path, now: clock.now() });
    const { secret } = await setWebhookEndpoint(first.deps, first.tenant.appId, receiver.url);
    await postExport(first, fixtureBytes('claude-thinking.json'));
    const before = await boot();
    const worker = createDeliveryWorker(before);
    await worker.runOnce();
    await worker.stop();
    await before.db.destroy();
    await first.deps.db.destroy();
    assert.equal(receiver.received.length, 2);

    clock.advance(1100);
    const after = await boot();
    await createDeliveryWorker(after).runOnce();
    const states = (await listWebhookDeliveries(after, first.tenant.appId)).deliveries.map((d) => [
      d.eventType,
      d.status,
      d.attempts,
    ]);
    assert.deepEqual(states, [
      ['connection.synced', 'delivered', 2],
      ['connection.created', 'delivered', 2],
    ]);
    assert.equal(verified(secret, receiver.received).length, 4);
    await after.db.destroy();
  });

  test('stopping mid-attempt puts the delivery back without counting it', async () => {
    const { t, receiver, worker } = await withReceiver({}, ['hang']);
    await postExport(t, fixtureBytes('claude-thinking.json'));
    const running = worker.runOnce();
    while (receiver.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await worker.stop();
    await running;
    const created = (await deliveries(t)).at(-1)!;
    assert.deepEqual([created.status, created.attempts], ['pending', 0]);
    assert.ok(Date.parse(created.nextAttemptAt!) <= t.clock.now());
  });
});

describe('webhook test', () => {
  test('sends one webhook.test event the SDK verifies, answers the status and time, queues nothing', async () => {
    const { t, receiver, secret } = await withReceiver();
    receiver.verifyWith(secret);
    const result = await sendTestWebhook(t.deps, t.tenant.appId);
    assert.deepEqual(result, {
      ok: true,
      url: receiver.url,
      id: receiver.received[0]!.headers['webhook-id'],
      status: 200,
      durationMs: result.durationMs,
    });
    assert.ok(Number.isInteger(result.durationMs) && result.durationMs >= 0);
    assert.deepEqual(
      receiver.received.map(({ body }) => JSON.parse(body)),
      [{ type: 'webhook.test', timestamp: new Date(t.clock.now()).toISOString(), data: { appId: t.tenant.appId } }],
    );
    assert.deepEqual(await deliveries(t), []);
  });

  test("a receiver's refusal, a wrong secret, no answer and no endpoint: ok false, with the status or the reason", async () => {
    const { t, receiver } = await withReceiver({ WEBHOOK_TIMEOUT_MS: '300' }, [503, 'hang']);
    const withoutTime = async () => {
      const { durationMs, id, ...rest } = await sendTestWebhook(t.deps, t.tenant.appId);
      assert.match(id, /^msg_[A-Za-z0-9]{24}$/);
      return rest;
    };
    assert.deepEqual(await withoutTime(), { ok: false, url: receiver.url, status: 503 });
    assert.deepEqual(await withoutTime(), { ok: false, url: receiver.url, error: 'no answer within 300 ms' });
    // Signed with the secret the app has, which is not the one the receiver was given.
    receiver.verifyWith('whsec_c29tZSBvdGhlciBzZWNyZXQgb2YgMzIgYnl0ZXMgISE=');
    assert.deepEqual(await withoutTime(), { ok: false, url: receiver.url, status: 401 });
    const other = await setup();
    const { durationMs, id, ...none } = await sendTestWebhook(other.deps, other.tenant.appId);
    assert.deepEqual(none, { ok: false, url: null, error: 'the app has no webhook endpoint' });
    await assert.rejects(sendTestWebhook(t.deps, 'app_nope'), { message: 'App not found' });
  });
});
