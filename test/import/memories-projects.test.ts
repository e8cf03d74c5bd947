/**
 * Claude's memories and projects in each of their real shapes (the legacy and
 * June-2026 arrays, the memory files, both project layouts): the exact memories and projects each fixture yields, their
 * knowledge files' bytes as exported, and re-imports that update, link and keep.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { onboardApp } from '../../src/apps/apps.ts';
import { strFromU8, unzipSync } from 'fflate';
import { disconnect } from '../../src/conversations/manage.ts';
import { fixtureBytes, json, postExport, setup, zipFolderFiles, type TestContext } from '../helpers.ts';
import { openSession } from '../pages/page-client.ts';

const ZIP = { contentType: 'application/zip' };
const zipOf = (folder: string, keep: (path: string) => boolean = () => true) =>
  zipSync(Object.fromEntries(Object.entries(zipFolderFiles(folder)).filter(([path]) => keep(path))));

async function imported(t: TestContext, bytes: Uint8Array, options = ZIP) {
  const response = await postExport(t, bytes, options);
  const body = await json(response);
  assert.equal(response.status, 200, JSON.stringify(body));
  return body;
}

const memoriesOf = async (t: TestContext, connectionId: string) =>
  json(await t.request(`/api/memories?connectionId=${connectionId}`));
const projectsOf = async (t: TestContext, connectionId: string) =>
  json(await t.request(`/api/projects?connectionId=${connectionId}`));

/** A memory without Parley's own id. */
const memory = ({ id, ...rest }: any) => rest;
/** A project without Parley's ids, its knowledge files by name, type, size and kind. */
const project = ({ id, knowledge, ...rest }: any) => ({
  ...rest,
  knowledge: knowledge.map(({ name, contentType, size, kind, stored }: any) => ({
    name,
    contentType,
    size,
    kind,
    stored,
  })),
});

const utf8 = (text: string) => new TextEncoder().encode(text).length;

const MAYA = '7c1f3a52-9d4e-4b8a-a6f1-2e5c8b9d0a13';
const MAYA_MEMORY =
  "**Work context**\n\nMaya is a backend engineer at a logistics startup, working mostly in Go and PostgreSQL. She is migrating a monolith's order service to event sourcing.\n\n**Personal context**\n\nLives in Lisbon; learning Portuguese. Runs on weekends.\n\n**Top of mind**\n\nNo content in this window.\n\n**Brief history**\n\n*Recent months*\n\nAsked about idempotent Kafka consumers and outbox tables; compared `pgx` with `database/sql`.";
const EVENTS_MD = '# Order events\n\n- OrderPlaced\n- OrderPaid\n- OrderShipped\n';
const SCHEMA_SQL = 'CREATE TABLE outbox (id bigserial PRIMARY KEY, payload jsonb NOT NULL);\n';

const JIWON_PROJECT = '019e1af3-6d2c-7b18-a4e5-3f9c2d1b0a87';
const GLOSSARY = '# 용어집\r\n\r\n- 장바구니\u200b: cart\r\n- 주문\u200b하기: place order\r\n';
const TONE = 'Friendly, never cute.\r\nNo exclamation marks.';

describe('Claude memories and projects', () => {
  test('the 2025 zip: one account memory from the tab-indented array, one project (the starter project skipped), knowledge files byte for byte', async () => {
    const t = await setup();
    const body = await imported(t, zipOf('claude-2025-zip'));
    assert.deepEqual(
      [body.provider, body.created, body.memories, body.projects, body.memoryCount, body.projectCount],
      ['anthropic', 5, { created: 1, updated: 0, unchanged: 0 }, { created: 1, updated: 0, unchanged: 0 }, 1, 1],
    );
    const memories = await memoriesOf(t, body.connectionId);
    assert.deepEqual(memories.memories.map(memory), [
      {
        externalId: `claude-memory-${MAYA}`,
        scope: 'account',
        projectId: null,
        title: null,
        content: MAYA_MEMORY,
        updatedAt: null,
      },
    ]);
    assert.deepEqual([memories.total, memories.limit, memories.offset], [1, 50, 0]);
    const projects = await projectsOf(t, body.connectionId);
    assert.deepEqual(projects.projects.map(project), [
      {
        externalId: '3f0b6c1e-58a2-4d97-9b1e-6a2f4c8d1e57',
        name: 'Order service rewrite',
        description: 'Notes for moving orders to event sourcing',
        instructions:
          'Answer as a senior Go reviewer. Prefer standard library solutions.\nAlways mention failure modes.',
        createdAt: '2025-03-02T09:14:22.118Z',
        updatedAt: '2025-04-18T17:40:03.552Z',
        knowledge: [
          {
            name: 'events.md',
            contentType: 'text/markdown; charset=utf-8',
            size: utf8(EVENTS_MD),
            kind: 'document',
            stored: true,
          },
          {
            name: 'schema.sql',
            contentType: 'text/plain; charset=utf-8',
            size: utf8(SCHEMA_SQL),
            kind: 'document',
            stored: true,
          },
        ],
      },
    ]);
    const [events, schema] = projects.projects[0].knowledge;
    assert.equal(await (await t.request(`/api/attachments/${events.id}`)).text(), EVENTS_MD);
    assert.equal(await (await t.request(`/api/attachments/${schema.id}`)).text(), SCHEMA_SQL);
    // Another app sees none of it.
    const otherApp = await onboardApp(t.deps, 'Other app');
    const other = await t.request(`/api/attachments/${events.id}`, {
      headers: { Authorization: `Bearer ${otherApp.apiKey}` },
    });
    assert.equal(other.status, 404);
    const [connection] = (await json(await t.request('/api/connections?userRef=u1'))).connections;
    assert.deepEqual([connection.memoryCount, connection.projectCount], [1, 1]);
  });

  test('the June-2026 zip: \\uXXXX escapes read, project memories linked to their project (titled by its name), one without its project unlinked; the 2026 project keeps \\r\\n and zero-width spaces', async () => {
    const t = await setup();
    const body = await imported(t, zipOf('claude-2026-06-zip'));
    assert.deepEqual([body.memories.created, body.projects.created], [3, 1]);
    const { projects } = await projectsOf(t, body.connectionId);
    assert.deepEqual(projects.map(project), [
      {
        externalId: JIWON_PROJECT,
        name: '메뉴 앱 온보딩',
        description: null,
        instructions: '한국어로 답하세요. Keep sentences under 40 characters.',
        createdAt: '2026-05-12T06:50:50.930Z',
        updatedAt: '2026-05-20T11:02:07.004Z',
        knowledge: [
          {
            name: '용어집.md',
            contentType: 'text/markdown; charset=utf-8',
            size: utf8(GLOSSARY),
            kind: 'document',
            stored: true,
          },
          {
            name: 'tone.txt',
            contentType: 'text/plain; charset=utf-8',
            size: utf8(TONE),
            kind: 'document',
            stored: true,
          },
        ],
      },
    ]);
    const glossary = await t.request(`/api/attachments/${projects[0].knowledge[0].id}`);
    assert.deepEqual(new Uint8Array(await glossary.arrayBuffer()), new TextEncoder().encode(GLOSSARY));
    const { memories } = await memoriesOf(t, body.connectionId);
    const byId = Object.fromEntries(memories.map((m: any) => [m.externalId, memory(m)]));
    assert.deepEqual(byId, {
      'claude-memory-019e0c11-2b3a-7f40-9d21-5c6b7a8e9f01': {
        externalId: 'claude-memory-019e0c11-2b3a-7f40-9d21-5c6b7a8e9f01',
        scope: 'account',
        projectId: null,
        title: null,
        content:
          '**Work context**\n\n지원 is a product designer in Seoul who writes UX copy in Korean and English — she cares about tone (“friendly, never cute”).\n\n**Top of mind**\n\nPreparing a café-menu app launch.\n\n**Brief history**\n\nNo content in this window.',
        updatedAt: null,
      },
      [`claude-project-memory-${JIWON_PROJECT}`]: {
        externalId: `claude-project-memory-${JIWON_PROJECT}`,
        scope: 'project',
        projectId: projects[0].id,
        title: '메뉴 앱 온보딩',
        content: '**Purpose & context**\n\nKorean onboarding copy for the menu app; glossary kept in 용어집.md.',
        updatedAt: null,
      },
      'claude-project-memory-019e2b04-1e3d-7c29-b5f6-4a0d3e2c1b98': {
        externalId: 'claude-project-memory-019e2b04-1e3d-7c29-b5f6-4a0d3e2c1b98',
        scope: 'project',
        projectId: null,
        title: null,
        content: 'Early drafts of the naming brainstorm — “Café Lumière” was rejected.',
        updatedAt: null,
      },
    });
  });

  test('memories-000.zip alone (memories/<account>.json, memory_files) is an export: one memory per file, the empty one none, times from +00:00 with microseconds', async () => {
    const t = await setup();
    const body = await imported(t, zipOf('claude-memories-000-zip'));
    assert.deepEqual(
      [body.provider, body.created, body.skipped, body.conversationCount, body.memories],
      ['anthropic', 0, 0, 0, { created: 2, updated: 0, unchanged: 0 }],
    );
    const account = '019f3c2d-4e5f-7a60-8b71-9c0d1e2f3a4b';
    assert.deepEqual((await memoriesOf(t, body.connectionId)).memories.map(memory), [
      {
        externalId: `claude-memory-${account}:/areas/work.md`,
        scope: 'account',
        projectId: null,
        title: '/areas/work.md',
        content: '# Work\n\nTeaches chemistry at a high school in Lyon; builds lab worksheets.\n',
        updatedAt: '2026-09-14T08:31:44.120Z',
      },
      {
        externalId: `claude-memory-${account}:/areas/cooking.md`,
        scope: 'account',
        projectId: null,
        title: '/areas/cooking.md',
        content: '# Cooking\n\nVegetarian. Likes recipes that take under 30 minutes — crème brûlée is the exception.\n',
        updatedAt: '2026-09-02T19:05:10.000Z',
      },
    ]);
  });

  test('a memories-only or projects-only file uploaded alone goes into the user’s Claude connection; a later project links the memories of it', async () => {
    const t = await setup();
    const conversations = await imported(
      t,
      zipOf('claude-2026-06-zip', (path) => path === 'conversations.json'),
    );
    const memories = await imported(t, zipFolderFiles('claude-2026-06-zip')['memories.json']!, {
      contentType: 'application/json',
    });
    assert.equal(memories.connectionId, conversations.connectionId);
    assert.deepEqual([memories.created, memories.unchanged, memories.memories.created], [0, 0, 3]);
    const before = (await memoriesOf(t, conversations.connectionId)).memories;
    assert.ok(before.every((m: any) => m.projectId === null));

    const projectFile = zipFolderFiles('claude-2026-06-zip')[`projects/${JIWON_PROJECT}.json`]!;
    const projects = await imported(t, projectFile, { contentType: 'application/json' });
    assert.equal(projects.connectionId, conversations.connectionId);
    assert.deepEqual(
      [projects.projects, projects.memoryCount, projects.projectCount],
      [{ created: 1, updated: 0, unchanged: 0 }, 3, 1],
    );
    const [stored] = (await projectsOf(t, conversations.connectionId)).projects;
    const linked = (await memoriesOf(t, conversations.connectionId)).memories.find(
      (m: any) => m.externalId === `claude-project-memory-${JIWON_PROJECT}`,
    );
    assert.deepEqual([linked.projectId, linked.title], [stored.id, '메뉴 앱 온보딩']);
  });

  test('a newer export updates the memory and the project of the same external id, keeping their ids; the same export again changes nothing', async () => {
    const t = await setup();
    const first = await imported(t, zipOf('claude-2026-06-zip'));
    const [projectBefore] = (await projectsOf(t, first.connectionId)).projects;
    const memoriesBefore = (await memoriesOf(t, first.connectionId)).memories;

    const again = await imported(t, zipOf('claude-2026-06-zip'));
    assert.deepEqual(
      [again.memories, again.projects],
      [
        { created: 0, updated: 0, unchanged: 3 },
        { created: 0, updated: 0, unchanged: 1 },
      ],
    );

    const files = zipFolderFiles('claude-2026-06-zip');
    const encoder = new TextEncoder();
    const memories = JSON.parse(new TextDecoder().decode(files['memories.json']));
    memories[0].conversations_memory = 'Moved to Busan.';
    const projectPath = `projects/${JIWON_PROJECT}.json`;
    const newer = JSON.parse(new TextDecoder().decode(files[projectPath]));
    newer.updated_at = '2026-06-01T00:00:00.000000+00:00';
    newer.docs = [{ ...newer.docs[0], content: '# 용어집\r\n' }];
    const changed = await imported(
      t,
      zipSync({
        ...files,
        'memories.json': encoder.encode(JSON.stringify(memories)),
        [projectPath]: encoder.encode(JSON.stringify(newer)),
      }),
    );
    assert.deepEqual(
      [changed.memories, changed.projects, changed.memoryCount],
      [{ created: 0, updated: 1, unchanged: 2 }, { created: 0, updated: 1, unchanged: 0 }, 3],
    );
    const after = (await memoriesOf(t, first.connectionId)).memories;
    const account = after.find((m: any) => m.scope === 'account');
    assert.equal(account.content, 'Moved to Busan.');
    assert.equal(account.id, memoriesBefore.find((m: any) => m.scope === 'account').id);
    const [projectAfter] = (await projectsOf(t, first.connectionId)).projects;
    assert.equal(projectAfter.id, projectBefore.id);
    assert.equal(projectAfter.updatedAt, '2026-06-01T00:00:00.000Z');
    // The knowledge file the export still has keeps its id and has its new bytes; the one it lost is gone.
    assert.deepEqual(
      projectAfter.knowledge.map((file: any) => file.id),
      [projectBefore.knowledge[0].id],
    );
    assert.equal(await (await t.request(`/api/attachments/${projectAfter.knowledge[0].id}`)).text(), '# 용어집\r\n');
    assert.equal((await t.request(`/api/attachments/${projectBefore.knowledge[1].id}`)).status, 404);
  });

  test('"Download my data" holds the memories and projects as the API lists them and the knowledge files; a disconnect, then a purge, remove them with their bytes', async () => {
    const t = await setup();
    const body = await imported(t, zipOf('claude-2026-06-zip'));
    const memories = (await memoriesOf(t, body.connectionId)).memories;
    const projects = (await projectsOf(t, body.connectionId)).projects;

    const browser = await openSession(t, 'manage');
    const download = unzipSync(new Uint8Array(await (await browser.get('/manage/download')).arrayBuffer()));
    const [jsonName, ...files] = Object.keys(download);
    const [connection] = JSON.parse(strFromU8(download[jsonName!]!)).connections;
    assert.deepEqual([connection.memoryCount, connection.projectCount], [3, 1]);
    assert.deepEqual(connection.memories, memories);
    assert.deepEqual(connection.projects, projects);
    const glossary = files.find((name) => name.endsWith('-용어집.md'))!;
    assert.equal(strFromU8(download[glossary]!), GLOSSARY);

    const storedBlobs = async () =>
      (
        await t.deps.db
          .selectFrom('attachment_blobs')
          .select('id')
          .where('connection_id', '=', body.connectionId)
          .execute()
      ).length;
    assert.ok((await storedBlobs()) >= 2);
    await disconnect(t.deps, { appId: t.tenant.appId, userRef: 'u1' }, body.connectionId);
    assert.deepEqual(
      [(await memoriesOf(t, body.connectionId)).total, (await projectsOf(t, body.connectionId)).total],
      [0, 0],
    );
    assert.equal(await storedBlobs(), 0);
    assert.equal((await t.request(`/api/attachments/${projects[0].knowledge[0].id}`)).status, 404);

    // A purge of the user leaves no row of theirs.
    const again = await imported(t, zipOf('claude-2026-06-zip'));
    assert.notEqual(again.connectionId, body.connectionId);
    const purge = await t.request('/api/purge', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userRef: 'u1' }),
    });
    assert.equal(purge.status, 200);
    for (const table of ['memories', 'projects', 'attachments', 'attachment_blobs'] as const)
      assert.equal((await t.deps.db.selectFrom(table).select('id').execute()).length, 0, table);
  });
});

describe('ChatGPT projects', () => {
  test('conversations of a project (g-p-…) carry its projectId, and the project is listed with no name; a custom GPT’s conversation is an ordinary one', async () => {
    const t = await setup();
    const [conversation] = JSON.parse(new TextDecoder().decode(fixtureBytes('chatgpt-branches.json')));
    const projectId = 'g-p-6790f1e2a3b44c5d8e9f0a1b2c3d4e5f';
    const exported = [
      { ...conversation, conversation_id: 'in-project', conversation_template_id: projectId, gizmo_type: 'snorlax' },
      { ...conversation, conversation_id: 'also-in-project', gizmo_id: projectId, gizmo_type: 'snorlax' },
      { ...conversation, conversation_id: 'custom-gpt', gizmo_id: 'g-2fkFE8rbu', gizmo_type: 'gpt' },
    ];
    const body = await imported(t, new TextEncoder().encode(JSON.stringify(exported)), {
      contentType: 'application/json',
    });
    assert.deepEqual(
      [body.created, body.projects, body.projectCount],
      [3, { created: 1, updated: 0, unchanged: 0 }, 1],
    );
    const { projects } = await projectsOf(t, body.connectionId);
    assert.deepEqual(projects.map(project), [
      {
        externalId: projectId,
        name: null,
        description: null,
        instructions: null,
        createdAt: null,
        updatedAt: null,
        knowledge: [],
      },
    ]);
    const listed = (await json(await t.request(`/api/conversations?connectionId=${body.connectionId}`))).conversations;
    assert.deepEqual(Object.fromEntries(listed.map((c: any) => [c.external_id, c.projectId ?? 'none'])), {
      'in-project': projects[0].id,
      'also-in-project': projects[0].id,
      'custom-gpt': 'none',
    });
    assert.ok(!('projectId' in listed.find((c: any) => c.external_id === 'custom-gpt')));
  });
});
