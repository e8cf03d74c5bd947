import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { findStaleConnections } from '../../src/db/connections.ts';
import { connectionsToIndex } from '../../src/db/dialects/sqlite-search-index.ts';
import {
  discardAbandonedImportConnections,
  openImportConnection,
  writeOwnConversations,
} from '../../src/db/import-connection.ts';
import { isoTime } from '../../src/deps.ts';
import {
  claudeConversations,
  expectRefused,
  heldUpload,
  isPostgres,
  json,
  postExport,
  rowCounts,
  setup,
  type TestContext,
} from '../helpers.ts';

/**
 * A first import writes its conversations into a connection of its own, given
 * to the user at its commit (src/db/import-connection.ts). These exports are
 * long enough to be written in several batches while the upload is still open.
 */
const CONVERSATIONS = 150;

const claudeExport = (count = CONVERSATIONS) => claudeConversations(count);

/** The import's own connection once it holds `count` conversations (it writes them as the worker reads them). */
async function ownConnection(t: TestContext, count: number) {
  for (let tries = 0; ; tries++) {
    const rows = await t.deps.db
      .selectFrom('connections')
      .innerJoin('users', 'users.id', 'connections.user_id')
      .leftJoin('conversations', 'conversations.connection_id', 'connections.id')
      .select((eb) => ['connections.id', eb.fn.count<number>('conversations.id').as('conversations')])
      .where('users.import_id', 'is not', null)
      .groupBy('connections.id')
      .execute();
    if (rows.length === 1 && Number(rows[0]!.conversations) >= count) return rows[0]!.id;
    assert.ok(tries < 500, `no own connection with ${count} conversations: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const conversationIds = (t: TestContext, connectionId: string) =>
  t.deps.db
    .selectFrom('conversations')
    .select(['id', 'external_id'])
    .where('connection_id', '=', connectionId)
    .orderBy('external_id')
    .execute();

/** The stored title of the conversation (the database holds one connection's). */
const titleOf = async (t: TestContext, externalId: string) =>
  (await t.deps.db.selectFrom('conversations').select('title').where('external_id', '=', externalId).execute()).map(
    (row) => row.title,
  )[0];

const importUsers = (t: TestContext) =>
  t.deps.db.selectFrom('users').select('id').where('import_id', 'is not', null).execute();

describe('a first import’s own connection', () => {
  test('holds its conversations out of sight until its commit gives it to the user, ids and all', async () => {
    const t = await setup();
    const upload = heldUpload(t, strToU8(JSON.stringify(claudeExport())));
    await upload.askedForMore;
    const own = await ownConnection(t, 100);
    // Nobody sees it: not the user (who does not exist yet), not search's background indexing, not staleness.
    assert.equal((await t.request('/api/connections?userRef=u1')).status, 404);
    assert.equal((await t.request(`/api/conversations?connectionId=${own}`)).status, 404);
    if (!isPostgres(t.deps.db)) assert.deepEqual(await connectionsToIndex(t.deps.db, undefined), []);
    assert.deepEqual(await findStaleConnections(t.deps.db, isoTime(t.clock.now() + 1e12)), []);
    const written = await conversationIds(t, own);
    t.clock.advance(60_000);
    upload.release();
    const answer = await json(await upload.response);
    assert.deepEqual([answer.created, answer.updated, answer.unchanged, answer.skipped], [CONVERSATIONS, 0, 0, 0]);
    assert.equal(answer.connectionId, own);
    const connections = await json(await t.request('/api/connections?userRef=u1'));
    assert.deepEqual(
      connections.connections.map((c: any) => [c.id, c.conversationCount, c.capturedAt]),
      [[own, CONVERSATIONS, isoTime(t.clock.now())]],
    );
    const stored = await conversationIds(t, own);
    assert.deepEqual(stored.slice(0, written.length), written);
    assert.deepEqual(await importUsers(t), []);
    assert.deepEqual((await rowCounts(t.deps)).users, 1);
    if (!isPostgres(t.deps.db)) assert.deepEqual(await connectionsToIndex(t.deps.db, undefined), [own]);
    // Written before the commit, stored at it: a poll since any time before the commit gets them all.
    const since = isoTime(t.clock.now() - 30_000);
    const page = await json(await t.request(`/api/conversations?connectionId=${own}&updatedSince=${since}&limit=1`));
    assert.equal(page.total, CONVERSATIONS);
    const later = await json(
      await t.request(`/api/conversations?connectionId=${own}&updatedSince=${isoTime(t.clock.now())}`),
    );
    assert.equal(later.total, 0);
  });

  test('of two copies of one conversation in different batches, the later is stored', async () => {
    const t = await setup();
    const conversations = claudeExport();
    conversations[140] = { ...conversations[140], uuid: conversations[10].uuid, name: 'The later copy' };
    const answer = await json(await postExport(t, strToU8(JSON.stringify(conversations))));
    assert.deepEqual([answer.created, answer.skipped], [CONVERSATIONS - 1, 1]);
    assert.equal(await titleOf(t, conversations[10].uuid), 'The later copy');
  });

  test('of two copies in two shards, the later-named shard’s is stored though the zip holds it first', async () => {
    const t = await setup();
    const conversations = claudeExport(2 * CONVERSATIONS);
    const earlier = conversations.slice(0, CONVERSATIONS);
    const later = [{ ...conversations[10], name: 'In the later-named shard' }, ...conversations.slice(CONVERSATIONS)];
    // The later-named shard first: its copy is written, the other arrives a batch later and loses.
    const zip = zipSync({
      'conversations-001.json': strToU8(JSON.stringify(later)),
      'conversations-000.json': strToU8(JSON.stringify(earlier)),
    });
    const answer = await json(await postExport(t, zip, { contentType: 'application/zip' }));
    assert.deepEqual([answer.created, answer.skipped], [2 * CONVERSATIONS, 1]);
    assert.equal(await titleOf(t, conversations[10].uuid), 'In the later-named shard');
  });

  test('merges into the user’s connection when another import opened it meanwhile', async () => {
    const t = await setup();
    const conversations = claudeExport();
    const upload = heldUpload(t, strToU8(JSON.stringify(conversations)));
    await upload.askedForMore;
    await ownConnection(t, 100);
    // Meanwhile: one conversation as this file has it, one with another title, one this file lacks.
    const other = claudeExport(CONVERSATIONS + 1);
    const meanwhile = await json(
      await postExport(t, strToU8(JSON.stringify([other[0], { ...other[1], name: 'Renamed' }, other[CONVERSATIONS]]))),
    );
    assert.equal(meanwhile.created, 3);
    upload.release();
    const answer = await json(await upload.response);
    assert.equal(answer.connectionId, meanwhile.connectionId);
    assert.deepEqual(
      [answer.created, answer.updated, answer.unchanged, answer.conversationCount],
      [CONVERSATIONS - 2, 1, 1, CONVERSATIONS + 1],
    );
    assert.equal(await titleOf(t, other[1].uuid), 'Conversation 1');
    // Its own connection is gone, with what it wrote there.
    assert.deepEqual(await importUsers(t), []);
    assert.deepEqual(await rowCounts(t.deps), {
      users: 1,
      connections: 1,
      conversations: CONVERSATIONS + 1,
      staged: 0,
    });
  });

  test('a first import that fails after writing leaves nothing, not even its own connection', async () => {
    const t = await setup();
    const bytes = strToU8(`${JSON.stringify(claudeExport()).slice(0, -1)}, {"uuid": `);
    await expectRefused(
      t,
      async () => {
        const upload = heldUpload(t, bytes);
        await ownConnection(t, 100);
        upload.release();
        return upload.response;
      },
      400,
      'Invalid export file: the file ends before the JSON document does (truncated?)',
    );
    assert.deepEqual(await importUsers(t), []);
  });

  test('maintenance removes what an import that died left in its own connection after 24 hours', async () => {
    const t = await setup();
    const now = t.clock.now();
    for (const [importId, age] of [
      ['dead', 25 * 3_600_000],
      ['running', 60_000],
    ] as const) {
      const own = await openImportConnection(
        t.deps.db,
        {
          importId,
          appId: t.tenant.appId,
          userRef: 'u1',
          provider: 'claude',
          userId: `user-${importId}`,
          connectionId: importId,
        },
        isoTime(now - age),
      );
      assert.equal(own, importId);
      await writeOwnConversations(
        t.deps.db,
        importId,
        [
          {
            id: `conversation-${importId}`,
            import_id: importId,
            external_id: 'c1',
            conversation_id: `staged-${importId}`,
            title: 'Left behind',
            payload: '{"messages":[]}',
            update_time: null,
            source_hash: null,
            source: '',
            seq: 0,
            created_at: now - age,
            attachments: null,
            message_ids: null,
          },
        ],
        isoTime(now - age),
      );
    }
    await discardAbandonedImportConnections(t.deps.db, now - 24 * 3_600_000);
    const left = await t.deps.db.selectFrom('conversations').select('connection_id').execute();
    assert.deepEqual(left, [{ connection_id: 'running' }]);
    assert.deepEqual(
      (await t.deps.db.selectFrom('users').select('id').execute()).map((row) => row.id),
      ['user-running'],
    );
  });
});
