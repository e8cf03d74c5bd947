/**
 * Several files, one import: Claude's export in one zip per category sent as
 * one form (or as several resumable uploads) is one import, all or nothing, into
 * one connection; files of two providers are refused, naming both.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { expectRefused, fixtureBytes, json, rowsIn, setup, zipFolderFiles, type TestContext } from '../helpers.ts';

/** The June-2026 Claude export as Claude sends it since: one zip per category. */
function claudeCategoryZips() {
  const all = zipFolderFiles('claude-2026-06-zip');
  const category = (keep: (path: string) => boolean) =>
    zipSync(Object.fromEntries(Object.entries(all).filter(([path]) => keep(path))));
  return {
    'conversations-000.zip': category((path) => path === 'conversations.json' || path === 'users.json'),
    'projects-000.zip': category((path) => path.startsWith('projects/')),
    'memories-000.zip': zipSync(zipFolderFiles('claude-memories-000-zip')),
  };
}

/** POSTs the files as one form, each in a `file` field, `userRef` before them. */
function postFiles(t: TestContext, files: Record<string, Uint8Array>, type = 'application/zip') {
  const data = new FormData();
  data.append('userRef', 'u1');
  for (const [name, bytes] of Object.entries(files)) data.append('file', new Blob([bytes as BlobPart], { type }), name);
  return t.request('/api/ingest-export', { method: 'POST', body: data });
}

/** What the connections hold, compared before and after a refused import. */
const stored = async (t: TestContext) =>
  Promise.all(
    (['connections', 'conversations', 'memories', 'projects', 'attachments'] as const).map((table) =>
      rowsIn(t.deps.db, table),
    ),
  );

describe('several files, one import', () => {
  test('conversations-000.zip, projects-000.zip and memories-000.zip in one request: one import into one connection, counted together', async () => {
    const t = await setup();
    const response = await postFiles(t, claudeCategoryZips());
    const body = await json(response);
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.deepEqual(
      [
        body.provider,
        body.created,
        body.memories,
        body.projects,
        body.conversationCount,
        body.memoryCount,
        body.projectCount,
      ],
      ['anthropic', 1, { created: 2, updated: 0, unchanged: 0 }, { created: 1, updated: 0, unchanged: 0 }, 1, 2, 1],
    );
    const { connections } = await json(await t.request('/api/connections?userRef=u1'));
    assert.deepEqual(
      connections.map(({ id, conversationCount, memoryCount, projectCount }: any) => [
        id,
        conversationCount,
        memoryCount,
        projectCount,
      ]),
      [[body.connectionId, 1, 2, 1]],
    );
    // The same files again: nothing new.
    const again = await json(await postFiles(t, claudeCategoryZips()));
    assert.deepEqual(
      [again.connectionId, again.created, again.unchanged, again.memories, again.projects],
      [body.connectionId, 0, 1, { created: 0, updated: 0, unchanged: 2 }, { created: 0, updated: 0, unchanged: 1 }],
    );
  });

  test('all or nothing: a broken second file leaves nothing of the first, on a first import and on a later one', async () => {
    const t = await setup();
    const zips = claudeCategoryZips();
    const broken = zips['projects-000.zip'].slice(0, 200);
    const withBroken = {
      'conversations-000.zip': zips['conversations-000.zip'],
      'projects-000.zip': broken,
      'memories-000.zip': zips['memories-000.zip'],
    };
    const before = await stored(t);
    await expectRefused(t, () => postFiles(t, withBroken), 400, /^Invalid export file: /);
    assert.deepEqual(await stored(t), before);
    // Into an existing connection: the memories of the first file do not stay either.
    const first = await json(await postFiles(t, { 'projects-000.zip': zips['projects-000.zip'] }));
    assert.equal(first.projects.created, 1);
    const held = await stored(t);
    await expectRefused(
      t,
      () => postFiles(t, { 'memories-000.zip': zips['memories-000.zip'], 'conversations-000.zip': broken }),
      400,
      /^Invalid export file: /,
    );
    assert.deepEqual(await stored(t), held);
  });

  test('files of two providers in one import are refused, naming both', async () => {
    const t = await setup();
    const claude = claudeCategoryZips()['conversations-000.zip'];
    const chatgpt = zipSync({ 'conversations.json': fixtureBytes('chatgpt-single-code.json') });
    await expectRefused(
      t,
      () => postFiles(t, { 'conversations-000.zip': claude, 'chatgpt-export.zip': chatgpt }),
      400,
      'Invalid export file: chatgpt-export.zip is a ChatGPT export, the others are Claude',
    );
  });

  test('memories-000.zip alone goes into the user’s existing Claude connection', async () => {
    const t = await setup();
    const zips = claudeCategoryZips();
    const conversations = await json(await postFiles(t, { 'conversations-000.zip': zips['conversations-000.zip'] }));
    const memories = await json(await postFiles(t, { 'memories-000.zip': zips['memories-000.zip'] }));
    assert.deepEqual(
      [memories.connectionId, memories.memories.created, memories.memoryCount, memories.conversationCount],
      [conversations.connectionId, 2, 2, 1],
    );
    assert.equal((await json(await t.request('/api/connections?userRef=u1'))).connections.length, 1);
  });

  test('the fields after the files still count, and a file over MAX_EXPORT_BYTES is 413 though the form is within MAX_IMPORT_BYTES', async () => {
    const t = await setup({ MAX_EXPORT_BYTES: '4000', MAX_IMPORT_BYTES: '1000000' });
    const { 'conversations-000.zip': conversations, 'memories-000.zip': memories } = claudeCategoryZips();
    const data = new FormData();
    data.append('file', new Blob([conversations as BlobPart], { type: 'application/zip' }), 'a.zip');
    data.append('file', new Blob([memories as BlobPart], { type: 'application/zip' }), 'b.zip');
    data.append('userRef', 'u1');
    data.append('provider', 'anthropic');
    const response = await t.request('/api/ingest-export', { method: 'POST', body: data });
    const body = await json(response);
    assert.deepEqual([response.status, body.provider, body.created, body.memories.created], [200, 'anthropic', 1, 2]);
    // Named after the files, the provider is still held against them.
    data.set('provider', 'openai');
    const other = await t.request('/api/ingest-export', { method: 'POST', body: data });
    assert.deepEqual([other.status, await json(other)], [400, { error: 'Invalid provider parameter' }]);
    const large = zipSync({ 'conversations.json': new Uint8Array(5000).fill(0x20) }, { level: 0 });
    await expectRefused(
      t,
      () => postFiles(t, { 'conversations-000.zip': claudeCategoryZips()['memories-000.zip'], 'big.zip': large }),
      413,
      'Export file too large',
    );
  });
});
