/**
 * What an export holds that Parley does not keep is said, never lost in
 * silence: `notRead` in the import's answer, its webhook and the connect page's
 * result, in the person's language.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { fixtureBytes, json, postExport, setup, zipFolderFiles, type TestContext } from '../helpers.ts';
import { hiddenField, openSession } from '../pages/page-client.ts';

const ZIP = { contentType: 'application/zip' };
const ZIP_BLOB = { type: 'application/zip' };

/** Claude's category zips Parley does not read: three design chats, two artifact versions (and the artifact itself, read by nothing), feedback. */
const designChats = zipSync({
  'design_chats/a.json': strToU8('{"uuid":"a","messages":[]}'),
  'design_chats/b.json': strToU8('{"uuid":"b","messages":[]}'),
  'design_chats/c.json': strToU8('{"uuid":"c","messages":[]}'),
});
const frames = zipSync({
  'artifacts/x/artifact.json': strToU8('{"id":"x","versions":[]}'),
  'artifacts/x/versions/1.html': strToU8('<p>one</p>'),
  'artifacts/x/versions/2.html': strToU8('<p>two</p>'),
});

async function imported(t: TestContext, body: FormData) {
  const response = await t.request('/api/ingest-export', { method: 'POST', body });
  const answer = await json(response);
  assert.equal(response.status, 200, JSON.stringify(answer));
  return answer;
}

/** The `notRead` of each `connection.synced` webhook recorded, oldest first. */
async function syncedNotRead(t: TestContext) {
  const synced = await t.deps.db
    .selectFrom('webhook_deliveries')
    .select('body')
    .where('event_type', '=', 'connection.synced')
    .orderBy('seq')
    .execute();
  return synced.map(({ body }) => JSON.parse(body).data.notRead);
}

/** Uploads the files on the connect page of `provider`, as one import; the result page's HTML. */
async function connectResult(t: TestContext, provider: string, files: Record<string, Blob>) {
  const browser = await openSession(t, 'connect');
  const csrf = hiddenField(await (await browser.get(`/connect/${provider}`)).text(), 'csrf');
  const data = new FormData();
  data.append('csrf', csrf);
  for (const [name, file] of Object.entries(files)) data.append('file', file, name);
  assert.equal((await browser.request(`/connect/${provider}`, { method: 'POST', body: data })).status, 303);
  return (await browser.get('/connect/result')).text();
}

function formOf(files: Record<string, Uint8Array>) {
  const data = new FormData();
  data.append('userRef', 'u1');
  for (const [name, bytes] of Object.entries(files)) data.append('file', new Blob([bytes as BlobPart], ZIP_BLOB), name);
  return data;
}

describe('what is not read is said', () => {
  test('Claude’s design chats, artifact versions and account files: counted over the files of one import, in the answer and its webhook', async () => {
    const t = await setup();
    await setWebhookEndpoint(t.deps, t.tenant.appId, 'https://hooks.example.com/parley');
    const conversations = zipSync(zipFolderFiles('claude-2026-06-zip'));
    const answer = await imported(
      t,
      formOf({ 'conversations-000.zip': conversations, 'design_chats-000.zip': designChats, 'frames-000.zip': frames }),
    );
    const notRead = [
      { what: 'account files', count: 1 },
      { what: 'design chats', count: 3 },
      { what: 'artifact versions', count: 2 },
    ];
    assert.deepEqual([answer.created, answer.notRead], [1, notRead]);
    assert.deepEqual(await syncedNotRead(t), [notRead]);
    // Nothing unread, nothing said.
    assert.deepEqual((await json(await postExport(t, fixtureBytes('claude-conversations.json')))).notRead, []);
  });

  test('a zip of only what Parley does not keep (design_chats-000.zip alone) is a Claude export with nothing in it, and says so', async () => {
    const t = await setup();
    const response = await postExport(t, designChats, ZIP);
    const answer = await json(response);
    assert.deepEqual(
      [response.status, answer.provider, answer.created, answer.notRead],
      [200, 'anthropic', 0, [{ what: 'design chats', count: 3 }]],
    );
  });

  test('ChatGPT’s chat.html, a voice recording no message links, and the account file', async () => {
    const t = await setup();
    const zip = zipSync({
      'conversations.json': fixtureBytes('chatgpt-single-code.json'),
      'chat.html': strToU8('<html></html>'),
      'user.json': strToU8('{}'),
      'message_feedback.json': strToU8('[]'),
      'abc/audio/recording.wav': new Uint8Array(16),
    });
    const answer = await json(await postExport(t, zip, ZIP));
    assert.deepEqual(answer.notRead, [
      { what: 'chat.html pages', count: 1 },
      { what: 'account files', count: 1 },
      { what: 'feedback files', count: 1 },
      { what: 'voice recordings', count: 1 },
    ]);
  });

  test('Grok’s projects, tasks and media posts: their elements counted as the one JSON file streams, bare or in its zip, in the answer and its webhook', async () => {
    const t = await setup();
    await setWebhookEndpoint(t.deps, t.tenant.appId, 'https://hooks.example.com/parley');
    // The fixture's media posts stand before its conversations, its projects and tasks after them.
    const notRead = [
      { what: 'media posts', count: 3 },
      { what: 'projects', count: 2 },
      { what: 'tasks', count: 1 },
    ];
    const bare = await json(await postExport(t, fixtureBytes('grok-prod-grok-backend.json')));
    assert.deepEqual([bare.provider, bare.created, bare.notRead], ['xai', 2, notRead]);
    const zipped = await json(await postExport(t, zipSync(zipFolderFiles('grok-zip')), ZIP));
    assert.deepEqual([zipped.unchanged, zipped.notRead], [2, notRead]);
    assert.deepEqual(await syncedNotRead(t), [notRead, notRead]);
    // Empty arrays, and a key holding something else than an array, say nothing.
    const quiet = strToU8(
      JSON.stringify({
        projects: [],
        conversations: [
          { conversation: { id: 'g1', title: 'Hi' }, responses: [{ response: { message: 'Hi', sender: 'human' } }] },
        ],
        tasks: {},
        media_posts: [],
      }),
    );
    assert.deepEqual((await json(await postExport(t, quiet))).notRead, []);
  });

  test('the connect page takes several files at once, and its result says what was not imported', async () => {
    const t = await setup();
    const zip = (bytes: Uint8Array) => new Blob([bytes as BlobPart], ZIP_BLOB);
    const result = await connectResult(t, 'anthropic', {
      'conversations-000.zip': zip(zipSync(zipFolderFiles('claude-2026-06-zip'))),
      'design_chats-000.zip': zip(designChats),
    });
    assert.match(result, /<p>Not imported: 1 account file, 3 design chats\.<\/p>/);
  });

  test('the connect page’s result names Grok’s projects, tasks and media posts', async () => {
    const t = await setup();
    const file = new Blob([fixtureBytes('grok-prod-grok-backend.json') as BlobPart], { type: 'application/json' });
    const result = await connectResult(t, 'xai', { 'prod-grok-backend.json': file });
    assert.match(result, /<p>Not imported: 3 media posts, 2 projects, 1 task\.<\/p>/);
  });
});
