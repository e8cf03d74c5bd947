/**
 * What a person deleted on the manage page — a conversation, a file, a memory,
 * a project — no later import of the same export brings back (counted as
 * skipped), until they disconnect the connection or the app purges them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { zipSync } from 'fflate';
import {
  fixtureBytes,
  fixtureJson,
  json,
  postExport,
  rowsIn,
  setup,
  zipFolderFiles,
  type TestContext,
} from '../helpers.ts';
import { hiddenField, openSession, type PageClient } from '../pages/page-client.ts';

/** Imports `bytes` for u1; the answer. */
async function imported(t: TestContext, bytes: Uint8Array, contentType = 'application/json') {
  const response = await postExport(t, bytes, { contentType });
  const body = await json(response);
  assert.equal(response.status, 200, JSON.stringify(body));
  return body;
}

/** Confirms a manage page's deletion as a person does: the page, then its form with the token it holds. */
async function confirmOnPage(browser: PageClient, path: string) {
  const csrf = hiddenField(await (await browser.get(path)).text(), 'csrf');
  assert.equal((await browser.post(path, { csrf })).status, 303);
}

const titlesOf = async (t: TestContext, connectionId: string) =>
  (await json(await t.request(`/api/conversations?connectionId=${connectionId}&fields=summary`))).conversations
    .map(({ title }: any) => title)
    .sort();

describe('deleted stays deleted', () => {
  test('a conversation deleted on the manage page is skipped by a re-import of the same export, until the connection is disconnected', async () => {
    const t = await setup();
    const exported = fixtureBytes('claude-conversations.json');
    const first = await imported(t, exported);
    const [gone] = (await json(await t.request(`/api/conversations?connectionId=${first.connectionId}`))).conversations;
    const browser = await openSession(t, 'manage');
    await confirmOnPage(browser, `/manage/conversations/${gone.id}/delete`);

    const again = await imported(t, exported);
    assert.deepEqual(
      [again.connectionId, again.created, again.updated, again.unchanged, again.skipped, again.conversationCount],
      [first.connectionId, 0, 0, 4, 1, 4],
    );
    assert.ok(!(await titlesOf(t, first.connectionId)).includes(gone.title));
    // A newer export with it changed: still not brought back.
    const newer = fixtureJson('claude-conversations.json').map((conversation: any) => ({
      ...conversation,
      name: `${conversation.name} (renamed)`,
    }));
    const renamed = await imported(t, new TextEncoder().encode(JSON.stringify(newer)));
    assert.deepEqual([renamed.updated, renamed.skipped, renamed.conversationCount], [4, 1, 4]);

    // Disconnected: the next import starts afresh, everything in it.
    await confirmOnPage(browser, `/manage/connections/${first.connectionId}/disconnect`);
    assert.equal(await rowsIn(t.deps.db, 'deleted_items'), 0);
    const afresh = await imported(t, exported);
    assert.deepEqual([afresh.created, afresh.skipped], [5, 0]);
  });

  test('the connect page’s result says it; a purge of the user takes what they deleted with it: a re-import creates everything', async () => {
    const t = await setup();
    const exported = fixtureBytes('claude-conversations.json');
    const first = await imported(t, exported);
    const [gone] = (await json(await t.request(`/api/conversations?connectionId=${first.connectionId}`))).conversations;
    await confirmOnPage(await openSession(t, 'manage'), `/manage/conversations/${gone.id}/delete`);
    assert.equal(await rowsIn(t.deps.db, 'deleted_items'), 1);
    // The connect page's result says what skipping means.
    const connect = await openSession(t, 'connect');
    const form = new FormData();
    form.append('csrf', hiddenField(await (await connect.get('/connect/anthropic')).text(), 'csrf'));
    form.append('file', new Blob([exported as BlobPart], { type: 'application/json' }), 'conversations.json');
    assert.equal((await connect.request('/connect/anthropic', { method: 'POST', body: form })).status, 303);
    const result = await (await connect.get('/connect/result')).text();
    assert.match(result, /<dt>Skipped<\/dt><dd>1<\/dd>/);
    assert.match(result, /what you deleted here before — it stays deleted\./);
    const purged = await t.request('/api/purge', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userRef: 'u1' }),
    });
    assert.equal(purged.status, 200);
    assert.equal(await rowsIn(t.deps.db, 'deleted_items'), 0);
    const afresh = await imported(t, exported);
    assert.deepEqual([afresh.created, afresh.skipped], [5, 0]);
  });

  test('a file deleted on the manage page is not linked again when its conversation is imported anew', async () => {
    const t = await setup();
    const first = await imported(t, fixtureBytes('claude-attachments.json'));
    const [conversation] = (await json(await t.request(`/api/conversations?connectionId=${first.connectionId}`)))
      .conversations;
    const files = conversation.payload.messages.flatMap((message: any) => message.attachments);
    const inventory = files.find((file: any) => file.name === 'inventory.txt');
    await confirmOnPage(await openSession(t, 'manage'), `/manage/attachments/${inventory.id}/delete`);

    const newer = fixtureJson('claude-attachments.json').map((c: any) => ({ ...c, name: `${c.name} (renamed)` }));
    const again = await imported(t, new TextEncoder().encode(JSON.stringify(newer)));
    assert.deepEqual([again.updated, again.skipped, again.attachmentCount], [1, 1, first.attachmentCount - 1]);
    const [after] = (await json(await t.request(`/api/conversations?connectionId=${first.connectionId}`)))
      .conversations;
    const names = after.payload.messages.flatMap((message: any) => message.attachments.map((file: any) => file.name));
    assert.ok(!names.includes('inventory.txt'), names.join());
    assert.equal(names.length, files.length - 1);
  });

  test('a memory and a project the person deleted on the manage page are skipped by a re-import, the rest merged', async () => {
    const t = await setup();
    const exported = zipSync(zipFolderFiles('claude-2026-06-zip'));
    const first = await imported(t, exported, 'application/zip');
    const { memories } = await json(await t.request(`/api/memories?connectionId=${first.connectionId}`));
    const { projects } = await json(await t.request(`/api/projects?connectionId=${first.connectionId}`));
    const [memory] = memories;
    const [project] = projects;
    const browser = await openSession(t, 'manage');
    await confirmOnPage(browser, `/manage/memories/${memory.id}/delete`);
    await confirmOnPage(browser, `/manage/projects/${project.id}/delete`);

    const again = await imported(t, exported, 'application/zip');
    assert.deepEqual(
      [again.skipped, again.memories, again.projects, again.memoryCount, again.projectCount],
      [
        2,
        { created: 0, updated: 0, unchanged: memories.length - 1 },
        { created: 0, updated: 0, unchanged: projects.length - 1 },
        memories.length - 1,
        projects.length - 1,
      ],
    );
  });
});
