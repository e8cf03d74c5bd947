/**
 * ParleyClient against the service itself (app.request behind its fetch): every
 * listing parameter reaches the server and changes the answer as the API says.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParleyClient } from 'parley-sdk';
import { zipSync } from 'fflate';
import { postExport, seedAttachment, setup, zipFolderFiles, type TestContext } from '../helpers.ts';

function claudeExport(conversations: Array<{ id: string; title: string; text: string }>) {
  return new TextEncoder().encode(
    JSON.stringify(
      conversations.map(({ id, title, text }, i) => {
        const updated = new Date(Date.UTC(2026, 0, 10 - i)).toISOString();
        return {
          uuid: id,
          name: title,
          created_at: updated,
          updated_at: updated,
          chat_messages: [
            { uuid: `${id}-0`, text, content: [{ type: 'text', text }], sender: 'human', created_at: updated },
          ],
        };
      }),
    ),
  );
}

const client = (t: TestContext) =>
  new ParleyClient({
    baseUrl: 'http://parley.test',
    apiKey: t.tenant.apiKey,
    fetch: (url, init) => t.app.request(url.href, init) as Promise<Response>,
  });

describe('ParleyClient against the server', () => {
  test('listConversations passes limit, offset, updatedSince and q through; conversations() pages a search', async () => {
    const t = await setup();
    const first = await postExport(
      t,
      claudeExport([
        { id: 'a', title: 'Tomato garden', text: 'tomato seedlings' },
        { id: 'b', title: 'Soup', text: 'tomato soup with lentils' },
        { id: 'c', title: 'Taxes', text: 'the tax return is due' },
      ]),
    );
    const { connectionId } = await first.json();
    const parley = client(t);
    const titles = (page: { conversations: Array<{ title: string | null }> }) => page.conversations.map((c) => c.title);

    assert.deepEqual(titles(await parley.listConversations(connectionId)), ['Tomato garden', 'Soup', 'Taxes']);
    const paged = await parley.listConversations(connectionId, { limit: 1, offset: 1 });
    assert.deepEqual([titles(paged), paged.total, paged.limit, paged.offset], [['Soup'], 3, 1, 1]);
    const searched = await parley.listConversations(connectionId, { q: 'tomato' });
    assert.deepEqual([searched.total, titles(searched).sort()], [2, ['Soup', 'Tomato garden']]);
    assert.deepEqual(
      titles(await parley.listConversations(connectionId, { q: 'tomato', limit: 1, offset: 1 })).length,
      1,
    );

    // A later import changes one conversation: updatedSince keeps only it, with or without q.
    t.clock.advance(60_000);
    const since = new Date(t.clock.now() - 1);
    await postExport(
      t,
      claudeExport([{ id: 'c', title: 'Taxes', text: 'the tax return is due, and tomato receipts' }]),
    );
    assert.deepEqual(titles(await parley.listConversations(connectionId, { updatedSince: since })), ['Taxes']);
    assert.deepEqual(
      titles(await parley.listConversations(connectionId, { updatedSince: since.toISOString(), q: 'tomato' })),
      ['Taxes'],
    );
    assert.deepEqual(titles(await parley.listConversations(connectionId, { updatedSince: since, q: 'lentils' })), []);

    const all: Array<string | null> = [];
    for await (const conversation of parley.conversations(connectionId, { q: 'tomato', limit: 1 }))
      all.push(conversation.title);
    assert.deepEqual(all.sort(), ['Soup', 'Taxes', 'Tomato garden']);
  });

  test('listMemories and listProjects page as listConversations does; memories() and projects() read every one; a knowledge file’s bytes by attachment()', async () => {
    const t = await setup();
    const upload = await postExport(t, zipSync(zipFolderFiles('claude-2026-06-zip')), {
      contentType: 'application/zip',
    });
    const { connectionId } = await upload.json();
    const parley = client(t);
    const page = await parley.listMemories(connectionId, { limit: 2, offset: 1 });
    assert.deepEqual([page.memories.length, page.total, page.limit, page.offset], [2, 3, 2, 1]);
    const memories = [];
    for await (const memory of parley.memories(connectionId, { limit: 1 })) memories.push(memory.externalId);
    assert.equal(new Set(memories).size, 3);
    const projects = [];
    for await (const project of parley.projects(connectionId, { limit: 1 })) projects.push(project);
    assert.deepEqual(
      projects.map((project) => project.name),
      ['메뉴 앱 온보딩'],
    );
    const file = await parley.attachment(projects[0]!.knowledge[0]!.id);
    assert.equal(file.name, '용어집.md');
    assert.equal(
      await new Response(file.stream).text(),
      '# 용어집\r\n\r\n- 장바구니\u200b: cart\r\n- 주문\u200b하기: place order\r\n',
    );
    // Nothing changed since: updatedSince keeps none.
    t.clock.advance(60_000);
    const since = new Date(t.clock.now() - 1);
    assert.deepEqual((await parley.listProjects(connectionId, { updatedSince: since })).total, 0);
    assert.deepEqual((await parley.listMemories(connectionId, { updatedSince: since })).memories, []);
    await assert.rejects(parley.listMemories('nope'), { status: 404, message: 'Connection not found' });
  });

  test('listConversationSummaries leaves the payloads out; getConversation answers one by id', async () => {
    const t = await setup();
    const { connectionId } = await (
      await postExport(
        t,
        claudeExport([
          { id: 'a', title: 'Tomato garden', text: 'tomato seedlings' },
          { id: 'b', title: 'Soup', text: 'tomato soup' },
        ]),
      )
    ).json();
    const parley = client(t);
    const summaries = await parley.listConversationSummaries(connectionId, { q: 'soup' });
    assert.deepEqual(
      summaries.conversations.map(({ title, message_count }) => ({ title, message_count })),
      [{ title: 'Soup', message_count: 1 }],
    );
    assert.equal('payload' in summaries.conversations[0]!, false);
    const one = await parley.getConversation(summaries.conversations[0]!.id);
    assert.deepEqual([one.title, one.payload?.messages[0]?.content], ['Soup', 'tomato soup']);
    await assert.rejects(parley.getConversation('nope'), { status: 404, message: 'Conversation not found' });
  });

  test('listConnections passes userRef through; the server’s refusals arrive as ParleyError', async () => {
    const t = await setup();
    await postExport(t, claudeExport([{ id: 'a', title: 'One', text: 'x' }]), { query: 'userRef=user%2042' });
    const parley = client(t);
    const { connections, userRef } = await parley.listConnections('user 42');
    assert.deepEqual([userRef, connections.map((c) => c.provider)], ['user 42', ['anthropic']]);
    await assert.rejects(parley.listConnections('nobody'), {
      name: 'ParleyError',
      status: 404,
      message: 'User not found',
    });
    await assert.rejects(parley.listConversations(connections[0]!.id, { q: 'x'.repeat(1001) }), {
      status: 400,
      message: 'Invalid q parameter',
    });
  });

  test('attachment(): the bytes of a file a message lists, whole or a range; another app’s is not found', async () => {
    const t = await setup();
    const { connectionId } = await (await postExport(t, claudeExport([{ id: 'a', title: 'One', text: 'x' }]))).json();
    const parley = client(t);
    const [conversation] = (await parley.listConversations(connectionId)).conversations;
    const bytes = new TextEncoder().encode('a pasted document');
    const paste = await seedAttachment(t.deps, {
      conversationId: conversation!.id,
      name: 'paste.txt',
      contentType: 'text/plain; charset=utf-8',
      kind: 'document',
      bytes,
    });
    const [message] = (await parley.listConversations(connectionId)).conversations[0]!.payload!.messages;
    assert.deepEqual(message!.attachments, [
      {
        id: paste.id,
        name: 'paste.txt',
        contentType: 'text/plain; charset=utf-8',
        size: 17,
        kind: 'document',
        stored: true,
      },
    ]);
    const file = await parley.attachment(paste.id);
    assert.equal(await new Response(file.stream).text(), 'a pasted document');
    assert.deepEqual(
      [file.contentType, file.size, file.name, file.etag],
      ['text/plain; charset=utf-8', 17, 'paste.txt', `"${paste.sha256}"`],
    );
    const part = await parley.attachment(paste.id, { range: { start: 2, end: 8 } });
    assert.deepEqual(
      [await new Response(part.stream).text(), part.range, part.totalSize],
      ['pasted', { start: 2, end: 8 }, 17],
    );
    await assert.rejects(parley.attachment('unknown'), {
      name: 'ParleyError',
      status: 404,
      message: 'Attachment not found',
    });
  });

  test('ingestExport sends a large file as a resumable upload in parts; a dropped part resumes from the bytes the server kept', async () => {
    const t = await setup();
    const file = claudeExport(
      Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, title: `Chat ${i}`, text: `message ${i} `.repeat(200) })),
    );
    const partBytes = Math.ceil(file.length / 4);
    const patches: number[] = [];
    let dropped = false;
    const parley = new ParleyClient({
      baseUrl: 'http://parley.test',
      apiKey: t.tenant.apiKey,
      fetch: async (url, init) => {
        if (init.method !== 'PATCH') return t.app.request(url.href, init) as Promise<Response>;
        const offset = Number(new Headers(init.headers).get('Upload-Offset'));
        patches.push(offset);
        if (dropped || offset === 0) return t.app.request(url.href, init) as Promise<Response>;
        // The second part: half of it reaches the server, then the connection drops.
        dropped = true;
        const part = new Uint8Array(await (init.body as Blob).arrayBuffer());
        let sent = false;
        const cut = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) controller.error(new TypeError('terminated'));
            else controller.enqueue(part.subarray(0, part.length / 2));
            sent = true;
          },
        });
        await t.app.request(url.href, { ...init, body: cut, duplex: 'half' } as RequestInit);
        throw new TypeError('fetch failed');
      },
    });
    const answer = await parley.ingestExport({ userRef: 'u1', file: new Blob([file]), resumableFrom: 1, partBytes });
    assert.deepEqual([answer.created, answer.conversationCount], [40, 40]);
    // The dropped part's first half was kept: the next PATCH starts there, not at the part's start.
    assert.deepEqual(patches.slice(0, 3), [0, partBytes, partBytes + Math.floor(partBytes / 2)]);
    const left = await t.deps.db.selectFrom('uploads').selectAll().execute();
    assert.deepEqual(left, []);
  });

  /** A client of the test app that notes each request's method and path. */
  function recordingClient(t: TestContext) {
    const methods: string[] = [];
    const parley = new ParleyClient({
      baseUrl: 'http://parley.test',
      apiKey: t.tenant.apiKey,
      fetch: (url, init) => {
        methods.push(`${init.method} ${url.pathname}`);
        return t.app.request(url.href, init) as Promise<Response>;
      },
    });
    return { parley, methods };
  }

  test('ingestExport takes the files of one export: each uploaded, then imported together', async () => {
    const t = await setup();
    const { parley, methods } = recordingClient(t);
    const first = claudeExport([{ id: 'a', title: 'First', text: 'hello' }]);
    const second = new Blob([claudeExport([{ id: 'b', title: 'Second', text: 'again' }]) as BlobPart]);
    const answer = await parley.ingestExport({ userRef: 'u1', file: [first, second] });
    assert.deepEqual([answer.created, answer.conversationCount], [2, 2]);
    assert.deepEqual(
      methods.map((method) => method.replace(/[0-9a-f-]{36}$/, '{id}')),
      [
        'POST /api/uploads',
        'PATCH /api/uploads/{id}',
        'POST /api/uploads',
        'PATCH /api/uploads/{id}',
        'POST /api/ingest-export',
      ],
    );
    assert.deepEqual(await t.deps.db.selectFrom('uploads').selectAll().execute(), []);
  });

  test('ingestExport sends a file under resumableFrom in one request', async () => {
    const t = await setup();
    const { parley, methods } = recordingClient(t);
    const file = claudeExport([{ id: 'a', title: 'Small', text: 'hello' }]);
    assert.equal((await parley.ingestExport({ userRef: 'u1', file })).created, 1);
    assert.deepEqual(methods, ['POST /api/ingest-export']);
  });
});
