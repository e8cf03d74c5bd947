import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { startBackgroundWork } from '../src/background.ts';
import { checkpoint, workerCheckpoints } from '../src/db/checkpoint.ts';
import { openBetterSqlite3 } from '../src/db/better-sqlite3.ts';
import type { Db } from '../src/db/database.ts';
import { startNodeCheckpointWorker } from '../src/runtime/node-workers.ts';
import { chatgptConversations, setup } from './helpers.ts';
import { hiddenField, openSession } from './pages/page-client.ts';

const PAGE = 4096;

/** The frames in the log (checkpointing them, which changes nothing a test looks at after). */
async function logFrames(db: Db): Promise<number> {
  const [state] = (await sql<{ log: number }>`PRAGMA wal_checkpoint(PASSIVE)`.execute(db)).rows;
  return state!.log;
}

describe('SQLite checkpoints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-checkpoint-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('commits leave the log to grow; checkpoint() copies all of it into the file', async () => {
    const path = join(dir, 'parley.db');
    const db = openBetterSqlite3(path);
    try {
      await sql`CREATE TABLE filler (text TEXT)`.execute(db);
      // 2000 commits of a page or more each: SQLite's own checkpoint would have restarted the log after 1000 pages.
      for (let i = 0; i < 2000; i++) await sql`INSERT INTO filler VALUES (${'x'.repeat(PAGE)})`.execute(db);
      assert.ok(statSync(`${path}-wal`).size > 2000 * PAGE, 'the log holds every commit');
      await checkpoint(db);
      // Everything was copied, so the next commit starts the log over: one transaction's frames remain.
      await sql`INSERT INTO filler VALUES ('one more')`.execute(db);
      assert.ok((await logFrames(db)) <= 3, 'the log restarted');
    } finally {
      await db.destroy();
    }
  });

  test('a checkpoint worker does it on a connection of its own; one that cannot open the file says why', async () => {
    const path = join(dir, 'by-worker.db');
    const db = openBetterSqlite3(path);
    const checkpoints = workerCheckpoints(startNodeCheckpointWorker(), path);
    try {
      await sql`CREATE TABLE filler (text TEXT)`.execute(db);
      for (let i = 0; i < 2000; i++) await sql`INSERT INTO filler VALUES (${'x'.repeat(PAGE)})`.execute(db);
      const before = statSync(path).size;
      // Until the worker is listening, a checkpoint asked for is skipped.
      for (let tries = 0; statSync(path).size <= before && tries < 500; tries++)
        await Promise.all([checkpoints.run(), sleep(20)]);
      assert.ok(statSync(path).size > before + 2000 * PAGE, 'the pages are in the file');
      await sql`INSERT INTO filler VALUES ('one more')`.execute(db);
      assert.ok((await logFrames(db)) <= 3, 'the log restarted');
    } finally {
      checkpoints.stop();
      await db.destroy();
    }
    const nowhere = workerCheckpoints(startNodeCheckpointWorker(), join(dir, 'no-such-folder', 'parley.db'));
    try {
      const failure = async () => {
        for (let tries = 0; tries < 500; tries++) {
          const error = await nowhere.run().then(
            () => undefined,
            (error: Error) => error,
          );
          if (error) return error;
          await sleep(20);
        }
      };
      assert.equal((await failure())?.message, 'Cannot open database because the directory does not exist');
    } finally {
      nowhere.stop();
    }
  });

  test('the background work checkpoints every second', async () => {
    const path = join(dir, 'served.db');
    const t = await setup({}, { databasePath: path });
    await sql`CREATE TABLE filler (text TEXT)`.execute(t.deps.db);
    for (let i = 0; i < 2000; i++) await sql`INSERT INTO filler VALUES (${'x'.repeat(PAGE)})`.execute(t.deps.db);
    const background = startBackgroundWork(t.deps, { pollMs: 60_000 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_200));
    } finally {
      await background.stop();
    }
    await sql`INSERT INTO filler VALUES ('one more')`.execute(t.deps.db);
    assert.ok((await logFrames(t.deps.db)) <= 3, 'the log restarted: the background copied it');
    await t.deps.db.destroy();
  });

  test('deleted text is in neither the file nor its log soon after a purge, a deletion or a disconnect', async () => {
    const path = join(dir, 'erased.db');
    const t = await setup({}, { databasePath: path });
    const background = startBackgroundWork(t.deps, { pollMs: 60_000 });
    t.deps.erased = () => background.erased();
    const onDisk = () => {
      const bytes = Buffer.concat([
        readFileSync(path),
        existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`) : Buffer.alloc(0),
      ]);
      return (marker: string) => bytes.includes(marker);
    };
    const ingest = async (userRef: string, marker: string, count = 20) => {
      const response = await t.request(`/api/ingest-export?userRef=${userRef}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        // Ids without the marker: what the person deleted is remembered by its id (deleted_items), never by its text.
        body: chatgptConversations(count, marker, 'conversation'),
      });
      assert.equal(response.status, 200, await response.clone().text());
      return (await response.json()) as { connectionId: string };
    };
    /** Waits, as the background work runs, until no byte of the file or its log holds `marker` (or gives up after 20 s). */
    const gone = async (marker: string) => {
      for (let waited = 0; onDisk()(marker) && waited < 20_000; waited += 100) await sleep(100);
      return !onDisk()(marker);
    };
    try {
      await ingest('purged-user', 'Zebracorn');
      const purgedConnection = await ingest('purged-connection', 'Quokkafish');
      const browser = await openSession(t, 'manage', 'manager');
      const managed = await ingest('manager', 'Narwhalbee', 2);
      const disconnected = await ingest('disconnected', 'Axolotlmoth');
      const kept = await ingest('kept', 'Pangolinfly');
      await sleep(1_500);
      for (const marker of ['Zebracorn', 'Quokkafish', 'Narwhalbee', 'Axolotlmoth', 'Pangolinfly'])
        assert.ok(onDisk()(marker), `${marker} was written`);

      assert.equal(
        (await t.request('/api/purge', { method: 'POST', body: JSON.stringify({ userRef: 'purged-user' }) })).status,
        200,
      );
      assert.equal(
        (
          await t.request('/api/purge', {
            method: 'POST',
            body: JSON.stringify({ connectionId: purgedConnection.connectionId }),
          })
        ).status,
        200,
      );
      const { conversations } = await (
        await t.request(`/api/conversations?connectionId=${managed.connectionId}`)
      ).json();
      for (const conversation of conversations) {
        const confirm = await (await browser.get(`/manage/conversations/${conversation.id}/delete`)).text();
        assert.equal(
          (
            await browser.post(`/manage/conversations/${conversation.id}/delete`, {
              csrf: hiddenField(confirm, 'csrf'),
            })
          ).status,
          303,
        );
      }
      const viewer = await openSession(t, 'manage', 'disconnected');
      const confirm = await (await viewer.get(`/manage/connections/${disconnected.connectionId}/disconnect`)).text();
      assert.equal(
        (
          await viewer.post(`/manage/connections/${disconnected.connectionId}/disconnect`, {
            csrf: hiddenField(confirm, 'csrf'),
          })
        ).status,
        303,
      );

      for (const marker of ['Zebracorn', 'Quokkafish', 'Narwhalbee', 'Axolotlmoth'])
        assert.ok(await gone(marker), `${marker} is still on disk`);
      assert.ok(onDisk()('Pangolinfly'), 'what was not deleted is still there');
      assert.equal((await t.request(`/api/conversations?connectionId=${kept.connectionId}`)).status, 200);
    } finally {
      await background.stop();
      await t.deps.db.destroy();
    }
  });
});
