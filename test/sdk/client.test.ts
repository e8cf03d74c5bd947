/**
 * ParleyClient against the service itself (app.request behind its fetch): every
 * listing parameter reaches the server and changes the answer as the API says.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParleyClient } from 'parley-sdk';
import { postExport, seedAttachment, setup, type TestContext } from '../helpers.ts';

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
});
