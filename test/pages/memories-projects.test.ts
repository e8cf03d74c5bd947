/**
 * A connection's memories and projects on the manage pages: shown (Markdown
 * rendered safely, knowledge files to open or download), each deleted after a
 * confirmation saying what goes and how much, and in "Download my data".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { json, postExport, setup, storedBytes, zipFolderFiles, type TestContext } from '../helpers.ts';
import { hiddenField, openSession } from './page-client.ts';

const GLOSSARY = '# 용어집\r\n\r\n- 장바구니\u200b: cart\r\n- 주문\u200b하기: place order\r\n';
const TONE = 'Friendly, never cute.\r\nNo exclamation marks.';
const utf8 = (text: string) => new TextEncoder().encode(text).length;

/** User u1's Claude export of June 2026 (three memories, one project with two knowledge files), its account memory made hostile. */
async function imported(t: TestContext, userRef = 'u1') {
  const files = zipFolderFiles('claude-2026-06-zip');
  const [memories] = JSON.parse(strFromU8(files['memories.json']!));
  memories.conversations_memory = `**Work context**\n\n<img src=x onerror=alert(1)> [click](javascript:alert(1))\n\n${memories.conversations_memory}`;
  files['memories.json'] = strToU8(JSON.stringify([memories]));
  const response = await postExport(t, zipSync(files), { query: `userRef=${userRef}`, contentType: 'application/zip' });
  const body = await json(response);
  assert.equal(response.status, 200, JSON.stringify(body));
  const memoryList = await json(await t.request(`/api/memories?connectionId=${body.connectionId}`));
  const projectList = await json(await t.request(`/api/projects?connectionId=${body.connectionId}`));
  return {
    connectionId: body.connectionId as string,
    memories: memoryList.memories as any[],
    project: projectList.projects[0],
  };
}

const text = async (response: Response) => {
  assert.equal(response.status, 200);
  return response.text();
};

describe('memories and projects on the manage pages', () => {
  test('the connection shows how many; memories are rendered Markdown, raw HTML and script links shown as text', async () => {
    const t = await setup();
    const { connectionId, memories } = await imported(t);
    const browser = await openSession(t, 'manage');
    const home = await text(await browser.get('/manage'));
    assert.match(home, /<span class="muted small">1 conversation · 3 memories · 1 project · <time/);
    const connection = await text(await browser.get(`/manage/connections/${connectionId}`));
    assert.match(connection, /<h2 id="beside-title">Memories and projects<\/h2>/);
    assert.match(connection, new RegExp(`<a href="/manage/connections/${connectionId}/memories">3 memories</a>`));
    assert.match(connection, new RegExp(`<a href="/manage/connections/${connectionId}/projects">1 project</a>`));

    const page = await text(await browser.get(`/manage/connections/${connectionId}/memories`));
    const titles = [...page.matchAll(/<h2 id="memory-[^"]+">(.*?)<\/h2>/g)].map((m) => m[1]);
    assert.deepEqual(titles.sort(), ['About you', 'Project memory', '메뉴 앱 온보딩'].sort());
    const account = memories.find((memory) => memory.scope === 'account');
    assert.ok(!page.includes('<img'), 'raw HTML is text');
    assert.match(page, /<p>&lt;img src=x onerror=alert\(1\)&gt; \[click\]\(javascript:alert\(1\)\)<\/p>/);
    assert.match(page, /<p><strong>Top of mind<\/strong><\/p>\n<p>Preparing a café-menu app launch\.<\/p>/);
    assert.match(
      page,
      new RegExp(
        `<a href="/manage/memories/${account.id}/delete" aria-label="Delete the memory “About you”">Delete</a>`,
      ),
    );
  });

  test('a project shows its description, its instructions, and its knowledge files to open in place or download', async () => {
    const t = await setup();
    const { connectionId, project } = await imported(t);
    const browser = await openSession(t, 'manage');
    const list = await text(await browser.get(`/manage/connections/${connectionId}/projects`));
    assert.match(list, new RegExp(`<a href="/manage/projects/${project.id}">메뉴 앱 온보딩</a>`));
    const page = await text(await browser.get(`/manage/projects/${project.id}`));
    assert.match(page, /<h1 id="project-title">메뉴 앱 온보딩<\/h1>/);
    assert.match(
      page,
      /<h2>Instructions<\/h2><div class="content"><p>한국어로 답하세요\. Keep sentences under 40 characters\.<\/p>/,
    );
    const [glossary, tone] = project.knowledge;
    assert.deepEqual(
      project.knowledge.map((file: any) => file.name),
      ['용어집.md', 'tone.txt'],
    );
    // A document's text folded away, with no way to delete a knowledge file alone.
    assert.match(
      page,
      /<li class="attachment document"><details class="document"><summary><span class="file-name">용어집\.md<\/span>/,
    );
    assert.ok(!page.includes(`/manage/attachments/${glossary.id}/delete`));
    const served = await browser.get(`/manage/attachments/${tone.id}`);
    assert.equal(served.status, 200);
    assert.equal(await served.text(), TONE);
    assert.match(served.headers.get('content-security-policy')!, /^default-src 'none'; sandbox, /);
    assert.equal(await (await browser.get(`/manage/attachments/${glossary.id}`)).text(), GLOSSARY);
    // Another user's project is not there.
    const stranger = await openSession(t, 'manage', 'u2');
    assert.equal((await stranger.get(`/manage/projects/${project.id}`)).status, 404);
    assert.equal((await stranger.get(`/manage/attachments/${tone.id}`)).status, 404);
  });

  test('a memory is deleted after a confirmation naming it with its size; a later import would not bring it back', async () => {
    const t = await setup();
    const { connectionId, memories } = await imported(t);
    const memory = memories.find((m) => m.title === '메뉴 앱 온보딩');
    const browser = await openSession(t, 'manage');
    const confirm = await text(await browser.get(`/manage/memories/${memory.id}/delete`));
    assert.match(confirm, /<h1 id="confirm-title">Delete this memory\?<\/h1>/);
    const size = utf8(memory.title) + utf8(memory.content);
    assert.match(
      confirm,
      new RegExp(`<p>The memory “메뉴 앱 온보딩” \\(${size} bytes\\) will be deleted from Test app\\.</p>`),
    );
    assert.match(
      confirm,
      /<p>Importing the same export again later will not bring it back, unless you disconnect the whole connection first\.<\/p>/,
    );
    assert.match(
      confirm,
      new RegExp(`<a class="button secondary" href="/manage/connections/${connectionId}/memories">`),
    );
    // Without the form's token nothing is deleted; another user's memory is not found.
    assert.equal((await browser.post(`/manage/memories/${memory.id}/delete`, {})).status, 403);
    const stranger = await openSession(t, 'manage', 'u2');
    const strangerCsrf = hiddenField(await text(await stranger.get('/manage')), 'csrf');
    assert.equal((await stranger.post(`/manage/memories/${memory.id}/delete`, { csrf: strangerCsrf })).status, 404);
    assert.equal((await json(await t.request(`/api/memories?connectionId=${connectionId}`))).total, 3);

    const csrf = hiddenField(confirm, 'csrf');
    const done = await browser.post(`/manage/memories/${memory.id}/delete`, { csrf });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), `/manage/connections/${connectionId}/memories?notice=memory-deleted`);
    const after = await text(await browser.get(done.headers.get('location')!));
    assert.match(after, /<p class="notice" role="status">The memory was deleted\.<\/p>/);
    const left = await json(await t.request(`/api/memories?connectionId=${connectionId}`));
    assert.deepEqual(
      left.memories.map((m: any) => m.id).sort(),
      memories
        .filter((m) => m.id !== memory.id)
        .map((m) => m.id)
        .sort(),
    );
    assert.equal((await browser.get(`/manage/memories/${memory.id}/delete`)).status, 404);
  });

  test('a project is deleted with its knowledge files after a confirmation naming them and their bytes; its conversations stay', async () => {
    const t = await setup();
    const { connectionId, project } = await imported(t);
    const browser = await openSession(t, 'manage');
    const before = await storedBytes(t, connectionId);
    const confirm = await text(await browser.get(`/manage/projects/${project.id}/delete`));
    assert.match(confirm, /<h1 id="confirm-title">Delete this project\?<\/h1>/);
    const size =
      utf8('메뉴 앱 온보딩') +
      utf8('한국어로 답하세요. Keep sentences under 40 characters.') +
      utf8(GLOSSARY) +
      utf8(TONE);
    assert.match(
      confirm,
      new RegExp(
        `<p>The project “메뉴 앱 온보딩”, its instructions and its 2 knowledge files \\(${size} bytes in all\\) will be deleted from Test app\\. Its conversations stay\\.</p>`,
      ),
    );
    assert.match(confirm, /unless you disconnect the whole connection first\./);
    const conversations = (await json(await t.request(`/api/conversations?connectionId=${connectionId}`))).total;
    const csrf = hiddenField(confirm, 'csrf');
    const done = await browser.post(`/manage/projects/${project.id}/delete`, { csrf });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), `/manage/connections/${connectionId}/projects?notice=project-deleted`);
    assert.match(await text(await browser.get(done.headers.get('location')!)), /The project was deleted\./);
    assert.equal((await json(await t.request(`/api/projects?connectionId=${connectionId}`))).total, 0);
    for (const file of project.knowledge)
      assert.equal((await browser.get(`/manage/attachments/${file.id}`)).status, 404);
    assert.equal((await json(await t.request(`/api/conversations?connectionId=${connectionId}`))).total, conversations);
    assert.equal(
      before - (await storedBytes(t, connectionId)),
      utf8(GLOSSARY) + utf8(TONE),
      'the files’ bytes are no longer counted',
    );
    // Its memory stays, no longer linked to a project.
    const memories = (await json(await t.request(`/api/memories?connectionId=${connectionId}`))).memories;
    assert.ok(memories.every((memory: any) => memory.projectId === null));
  });

  test('“Download my data” holds the memories and projects, and the knowledge files’ bytes', async () => {
    const t = await setup();
    const { memories, project } = await imported(t);
    const browser = await openSession(t, 'manage');
    const members = unzipSync(new Uint8Array(await (await browser.get('/manage/download')).arrayBuffer()));
    const file = JSON.parse(strFromU8(members['parley-data-2026-03-01.json']!));
    const [connection] = file.connections;
    assert.deepEqual(connection.memories, memories);
    assert.deepEqual(connection.projects, [project]);
    for (const [i, bytes] of [GLOSSARY, TONE].entries()) {
      const { id, name } = project.knowledge[i];
      assert.equal(strFromU8(members[`attachments/${id}-${name}`]!), bytes);
    }
  });
});
