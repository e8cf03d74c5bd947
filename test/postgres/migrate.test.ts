/**
 * `migrate-to-postgres`: a SQLite file copied into an empty PostgreSQL database,
 * resumable, verified by counts; the API then answers byte for byte the same.
 * And `backup` on PostgreSQL says to use pg_dump.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { sql } from 'kysely';
import { createApp } from '../../src/app.ts';
import { CHUNK_BYTES, databaseStore } from '../../src/attachments/database-store.ts';
import { parseConfig } from '../../src/config.ts';
import { openPostgres } from '../../src/db/dialects/postgres.ts';
import { readSchema } from '../../src/db/schema-file.ts';
import { cryptoRandom } from '../../src/deps.ts';
import { createLogger } from '../../src/log.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { onboardApp } from '../../src/apps/apps.ts';
import { rememberDeleted } from '../../src/db/deleted-items.ts';
import { insertUsedLink } from '../../src/db/page-sessions.ts';
import { inheritedEnv, nodeEntry, ROOT } from '../conformance/server.ts';
import { fixtureBytes, json, postExport, setup, zipFolderFiles } from '../helpers.ts';
import { createDatabase, NO_TEST_POSTGRES, testPostgresUrl } from '../postgres-server.ts';
import { attach, conversationIds, readAll, storeBlob, testBytes } from '../attachments/blobs.ts';

const run = promisify(execFile);

/** The CLI as an operator runs it, with `env` naming its database; what it printed and its exit code. */
async function cli(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, [nodeEntry(), ...args], {
      cwd: ROOT,
      env: { ...inheritedEnv(), ...env },
    });
    return { code: 0, out: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, out: JSON.parse(failed.stderr) };
  }
}

/** What the API shows of the tenant's users, as raw text: listings and every page of conversations. */
async function everything(request: (path: string) => Promise<Response>, userRefs: string[]) {
  const texts: string[] = [];
  for (const userRef of userRefs) {
    const connections = await request(`/api/conversations?userRef=${userRef}`);
    texts.push(await connections.clone().text());
    for (const { id } of (await json(connections)).connections)
      for (const listing of ['conversations', 'memories', 'projects'])
        texts.push(await (await request(`/api/${listing}?connectionId=${id}&limit=100`)).text());
  }
  return texts;
}

describe('migrate-to-postgres', { skip: testPostgresUrl() ? false : NO_TEST_POSTGRES, timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-migrate-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * A SQLite file with two users' imports and a webhook outbox, and alice's
   * attachments: two blobs of several chunks, one of them shown twice, a staged
   * blob, and an S3 object queued for deletion; with `memoriesAndProjects`,
   * her memories and a project with its knowledge files.
   */
  async function sqliteWithData(name: string, { memoriesAndProjects = false } = {}) {
    const path = join(dir, `${name}.db`);
    const t = await setup({ RATE_LIMIT_PER_MINUTE: '1000' }, { databasePath: path });
    await setWebhookEndpoint(t.deps, t.tenant.appId, 'https://hooks.example.com/parley');
    await postExport(t, fixtureBytes('claude-conversations.json'), { query: 'userRef=alice' });
    // Alice's memories and a project of hers with two knowledge files, uploaded apart.
    if (memoriesAndProjects) {
      const june = zipFolderFiles('claude-2026-06-zip');
      await postExport(
        t,
        zipSync(Object.fromEntries(Object.entries(june).filter(([name]) => !/conversations|users/.test(name)))),
        { query: 'userRef=alice', contentType: 'application/zip' },
      );
    }
    await postExport(t, fixtureBytes('copilot-activity-history.csv'), {
      query: 'userRef=bob',
      contentType: 'text/csv',
    });
    await postExport(t, fixtureBytes('chatgpt-branches.json'), { query: 'userRef=bob' });
    const { connectionId } = await t.deps.db
      .selectFrom('connections')
      .innerJoin('users', 'users.id', 'connections.user_id')
      .select('connections.id as connectionId')
      .where('users.user_ref', '=', 'alice')
      .executeTakeFirstOrThrow();
    const [first, second] = await conversationIds(t.deps.db, connectionId);
    const blobs = {
      photo: testBytes(2 * CHUNK_BYTES + 7, 1),
      paste: testBytes(CHUNK_BYTES + 1, 2),
      staged: testBytes(1000, 3),
    };
    const photo = await storeBlob(t.deps.db, t.deps.attachments, blobs.photo, { connectionId });
    const paste = await storeBlob(t.deps.db, t.deps.attachments, blobs.paste, { connectionId });
    await storeBlob(t.deps.db, t.deps.attachments, blobs.staged, { importId: 'import-1' });
    await attach(t.deps.db, first!, photo);
    await attach(t.deps.db, second!, photo);
    await attach(t.deps.db, second!, paste);
    await attach(t.deps.db, second!, null);
    await t.deps.db.insertInto('attachment_deletions').values({ blob_id: 'gone-blob' }).execute();
    // A conversation Alice deleted: no import on PostgreSQL brings it back.
    await rememberDeleted(
      t.deps.db,
      'conversation',
      { connection_id: connectionId, external_id: 'deleted-by-alice' },
      '2026-03-01T12:00:00.000Z',
    );
    // Two apps' links of one jti: used links are keyed by both.
    const other = await onboardApp(t.deps, 'Other app');
    for (const app_id of [t.tenant.appId, other.appId])
      await insertUsedLink(t.deps.db, {
        jti: 'j1',
        app_id,
        used_at: '2026-03-01T12:00:00.000Z',
        expires_at: '2026-03-01T12:15:00.000Z',
      });
    return { t, path, blobIds: { photo, paste }, blobs };
  }

  test('copies everything, verified by counts; the API then answers the same bytes from PostgreSQL', async () => {
    const { t, path, blobIds, blobs } = await sqliteWithData('full', { memoriesAndProjects: true });
    // An open resumable upload, half sent: a client goes on with it on PostgreSQL.
    const tus = { 'Tus-Resumable': '1.0.0' };
    const upload = (
      await t.request('/api/uploads', { method: 'POST', headers: { ...tus, 'Upload-Length': '10' } })
    ).headers.get('Location')!;
    await t.request(upload, {
      method: 'PATCH',
      headers: { ...tus, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' },
      body: 'hello',
    });
    const url = await createDatabase(testPostgresUrl()!, `migrate_full_${Date.now()}`);
    const { code, out } = await cli({ DATABASE_PATH: path }, 'migrate-to-postgres', '--url', url);
    assert.equal(code, 0, JSON.stringify(out));
    assert.deepEqual(out.counts, {
      apps: 2,
      app_logos: 0,
      app_return_origins: 0,
      api_keys: 2,
      users: 2,
      connections: 3,
      conversations: 10,
      projects: 1,
      memories: 3,
      deleted_items: 1,
      used_links: 2,
      page_sessions: 0,
      webhook_deliveries: 7,
      // The three above, the paste the Claude export holds, the project's two knowledge files and the upload's part.
      attachment_blobs: 3 + 1 + 2 + 1,
      attachment_chunks: 3 + 2 + 1 + 1 + 2 + 1,
      attachments: 4 + 1 + 2,
      uploads: 1,
      upload_parts: 1,
      attachment_deletions: 1,
    });
    assert.deepEqual(out.copied, out.counts);

    const db = await openPostgres(url, readSchema('schema.postgres.sql'), { poolSize: 2, allowExitOnIdle: true });
    try {
      const onPostgres = createApp({
        ...t.deps,
        db,
        config: parseConfig({ RATE_LIMIT_PER_MINUTE: '1000', LOG_LEVEL: 'silent' }),
        log: createLogger('silent'),
        random: cryptoRandom,
      });
      const headers = { Authorization: `Bearer ${t.tenant.apiKey}` };
      const expected = await everything((path) => t.request(path), ['alice', 'bob']);
      assert.deepEqual(
        await everything(async (path) => onPostgres.request(path, { headers }), ['alice', 'bob']),
        expected,
      );
      const resumed = await onPostgres.request(upload, { method: 'HEAD', headers: { ...headers, ...tus } });
      assert.equal(resumed.headers.get('Upload-Offset'), '5');
      // Its part, a file beside the SQLite file, went over as a blob of the database.
      const [part] = await db.selectFrom('upload_parts').select('blob_id').execute();
      assert.equal(Buffer.from(await readAll(databaseStore(db).read(part!.blob_id))).toString(), 'hello');
      assert.deepEqual(readdirSync(`${path}-uploads`), []);
      // New deliveries are numbered after the copied ones.
      const [next] = (
        await sql<{ seq: number }>`SELECT nextval(pg_get_serial_sequence('webhook_deliveries', 'seq')) AS seq`.execute(
          db,
        )
      ).rows;
      assert.equal(next!.seq, 8);
      // The bytes, chunk by chunk, and the rows that show them.
      const store = databaseStore(db);
      for (const name of ['photo', 'paste'] as const)
        assert.ok(Buffer.from(await readAll(store.read(blobIds[name]))).equals(blobs[name]), name);
      const attachmentRows = (database: typeof db) =>
        database.selectFrom('attachments').selectAll().orderBy(sql`id COLLATE "C"`).execute();
      assert.deepEqual(
        await attachmentRows(db),
        await t.deps.db.selectFrom('attachments').selectAll().orderBy('id').execute(),
      );
    } finally {
      await db.destroy();
    }
  });

  test('an interrupted copy continues where it stopped; a copy of another file, or into a used database, is refused', async () => {
    const { path } = await sqliteWithData('resumed');
    const url = await createDatabase(testPostgresUrl()!, `migrate_resumed_${Date.now()}`);
    assert.equal((await cli({ DATABASE_PATH: path }, 'migrate-to-postgres', '--url', url)).code, 0);
    // As if it had stopped: the last conversations in key order, and one in the middle, are missing
    // (their attachments with them, and the blobs and chunks only they showed), and the last chunks.
    const db = await openPostgres(url, readSchema('schema.postgres.sql'), { poolSize: 2, allowExitOnIdle: true });
    let missingChunks: number;
    try {
      const ids = (await db.selectFrom('conversations').select('id').orderBy(sql`id COLLATE "C"`).execute()).map(
        (row) => row.id,
      );
      await db
        .deleteFrom('conversations')
        .where('id', 'in', [...ids.slice(-3), ids[2]!])
        .execute();
      await db.deleteFrom('webhook_deliveries').where('seq', '>', 4).execute();
      // The last two chunks in key order, which is (blob, seq).
      const chunks = await db
        .selectFrom('attachment_chunks')
        .select(['blob_id', 'seq'])
        .orderBy(sql`blob_id COLLATE "C"`, 'desc')
        .orderBy('seq', 'desc')
        .limit(2)
        .execute();
      for (const chunk of chunks)
        await db
          .deleteFrom('attachment_chunks')
          .where('blob_id', '=', chunk.blob_id)
          .where('seq', '=', chunk.seq)
          .execute();
      missingChunks = 7 - (await db.selectFrom('attachment_chunks').select('seq').execute()).length;
    } finally {
      await db.destroy();
    }
    const resumed = await cli({ DATABASE_PATH: path }, 'migrate-to-postgres', '--url', url);
    assert.equal(resumed.code, 0, JSON.stringify(resumed.out));
    assert.deepEqual(
      [
        resumed.out.copied.conversations,
        resumed.out.copied.webhook_deliveries,
        resumed.out.copied.apps,
        resumed.out.copied.attachment_chunks,
      ],
      [4, 2, 0, missingChunks],
    );
    assert.ok(missingChunks >= 2);
    assert.equal(resumed.out.counts.attachment_chunks, 7);
    assert.equal(resumed.out.counts.conversations, 10);

    const { path: other } = await sqliteWithData('other');
    assert.deepEqual(await cli({ DATABASE_PATH: other }, 'migrate-to-postgres', '--url', url), {
      code: 1,
      out: { error: `The PostgreSQL database holds a copy of ${path}, not of ${other}.` },
    });
    const used = await createDatabase(testPostgresUrl()!, `migrate_used_${Date.now()}`);
    const usedDb = await openPostgres(used, readSchema('schema.postgres.sql'), { poolSize: 1, allowExitOnIdle: true });
    await usedDb
      .insertInto('apps')
      .values({
        id: 'app_x',
        name: 'x',
        secret: 's',
        secret_hash: 'h',
        allowed_scopes: 'conversations:read',
        created_at: '2026-01-01T00:00:00.000Z',
        webhook_url: null,
        webhook_secret: null,
      })
      .execute();
    await usedDb.destroy();
    assert.deepEqual(await cli({ DATABASE_PATH: path }, 'migrate-to-postgres', '--url', used), {
      code: 1,
      out: { error: 'The PostgreSQL database is not empty: copy into a new, empty database.' },
    });
  });

  test('backup on PostgreSQL says what to use instead', async () => {
    const url = await createDatabase(testPostgresUrl()!, `migrate_backup_${Date.now()}`);
    assert.deepEqual(await cli({ DATABASE_URL: url }, 'backup', '--out', join(dir, 'x.db')), {
      code: 1,
      out: {
        error:
          'backup copies the SQLite file; on PostgreSQL use its own tools, such as pg_dump --format=custom --file=parley.dump "$DATABASE_URL"',
      },
    });
  });
});
