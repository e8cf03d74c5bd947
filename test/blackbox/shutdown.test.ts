import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { onboardApp } from '../../src/apps/apps.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../../src/deps.ts';
import { startServer, type RunningServer } from '../conformance/server.ts';
import { chatgptConversations } from '../helpers.ts';

describe('shutdown and a busy database, on the real server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-shutdown-'));
  const databasePath = join(dir, 'parley.db');
  const servers: RunningServer[] = [];
  after(async () => {
    for (const server of servers) await server.stop('SIGKILL').catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  test('SIGTERM during background work ends the process; the next one serves at once and goes on with that work', async () => {
    const first = await startServer('node', { databasePath });
    servers.push(first);
    const db = openBetterSqlite3(databasePath);
    const { apiKey } = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Shutdown');
    await db.destroy();
    const api = (server: RunningServer, path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...init.headers },
      });
    const imported = await api(first, '/api/ingest-export?userRef=u1', {
      method: 'POST',
      body: chatgptConversations(20_000, 'walrus'),
    });
    assert.equal(imported.status, 200, await imported.text());
    // The import's conversations are being indexed for search in the background now.
    // stop() waits at most 10 s for the exit, then kills and throws.
    assert.deepEqual(await first.stop('SIGTERM'), { code: 0, signal: null });
    assert.ok(first.logs.some((line) => line.includes('"shutdown"')));

    const second = await startServer('node', { databasePath });
    servers.push(second);
    const listing = await api(second, '/api/conversations?userRef=u1');
    assert.equal(listing.status, 200);
    const [connection] = (await listing.json()).connections;
    assert.equal(connection.conversationCount, 20_000);
    const found = await api(second, `/api/conversations?connectionId=${connection.id}&q=walrus%2019999`);
    assert.equal(found.status, 200);
    assert.deepEqual(
      (await found.json()).conversations.map((c: { external_id: string }) => c.external_id),
      ['walrus-19999'],
    );

    // Another process holds the write lock: reads and the rate limit go on, a
    // write waits busy_timeout and then answers 503 with Retry-After, never a 500.
    const holder = new BetterSqlite3(databasePath);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const read = await api(second, '/api/conversations?userRef=u1');
      assert.equal(read.status, 200);
      assert.match(read.headers.get('ratelimit-remaining') ?? '', /^\d+$/);
      const write = await api(second, '/api/ingest-export?userRef=u2', {
        method: 'POST',
        body: chatgptConversations(1, 'otter'),
      });
      assert.equal(write.status, 503);
      assert.equal(write.headers.get('retry-after'), '1');
      assert.deepEqual(await write.json(), { error: 'Database busy: try again shortly' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const again = await api(second, '/api/ingest-export?userRef=u2', {
      method: 'POST',
      body: chatgptConversations(1, 'otter'),
    });
    assert.equal(again.status, 200);
    assert.deepEqual(await second.stop('SIGTERM'), { code: 0, signal: null });
    assert.ok(!second.logs.some((line) => line.includes('"unhandled"')), 'no 500');
  });
});
