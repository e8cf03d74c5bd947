import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8 } from 'fflate';
import { ParleyError } from '../../src/errors.ts';
import {
  localImportWorker,
  type FromReader,
  type ToReader,
  type WorkerLike,
} from '../../src/import/worker/import-worker.ts';
import { claudeExport } from '../../src/import/formats/claude.ts';
import { copilotExport } from '../../src/import/formats/copilot.ts';
import { groupItem, type RecordGroup } from '../../src/import/worker/conversation-reader.ts';
import { WorkerChannel } from '../../src/import/worker/worker-channel.ts';
import { startNodeImportWorker } from '../../src/runtime/node-workers.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import {
  conversationsOf,
  expectRefused,
  fixtureBytes,
  fixtureJson,
  heldUpload,
  json,
  postExport,
  setup,
  storedPayload,
  type TestContext,
} from '../helpers.ts';

const FILE = 'claude-conversations.json';

/** Changes a stored title behind the API's back: a conversation read again gets its own title back. */
async function tamper(t: TestContext, externalId: string) {
  await t.deps.db
    .updateTable('conversations')
    .set({ title: 'tampered' })
    .where('external_id', '=', externalId)
    .execute();
}

const titleOf = async (t: TestContext, connectionId: string, externalId: string) =>
  (await conversationsOf(t, connectionId)).find((c) => c.external_id === externalId)?.title;

describe('re-importing unchanged bytes', () => {
  test('a conversation whose bytes hash as the stored one’s is not read again', async () => {
    const t = await setup();
    const [first] = fixtureJson(FILE);
    const { connectionId } = await json(await postExport(t, fixtureBytes(FILE)));
    await tamper(t, first.uuid);
    const again = await json(await postExport(t, fixtureBytes(FILE)));
    assert.deepEqual([again.created, again.updated, again.unchanged, again.skipped], [0, 0, 5, 0]);
    // Not parsed, so not compared: the stored row stays as it was.
    assert.equal(await titleOf(t, connectionId, first.uuid), 'tampered');
  });

  test('new bytes for the same conversations are read; their hashes replace the stored ones', async () => {
    const t = await setup();
    const conversations = fixtureJson(FILE);
    const { connectionId } = await json(await postExport(t, fixtureBytes(FILE)));
    await tamper(t, conversations[0].uuid);
    // The same conversations, laid out differently: every byte sequence is new.
    const reformatted = strToU8(JSON.stringify(conversations, null, 2));
    const read = await json(await postExport(t, reformatted));
    assert.deepEqual(
      [read.created, read.updated, read.unchanged],
      [0, 1, 4],
      'read in full: the tampered title is put right',
    );
    assert.equal(await titleOf(t, connectionId, conversations[0].uuid), conversations[0].name);
    await tamper(t, conversations[0].uuid);
    const skipped = await json(await postExport(t, reformatted));
    assert.deepEqual([skipped.updated, skipped.unchanged], [0, 5]);
    assert.equal(
      await titleOf(t, connectionId, conversations[0].uuid),
      'tampered',
      'the new bytes are now the known ones',
    );
  });

  test('a conversation assembled from unchanged records (Gemini, Copilot) is not normalised again', async () => {
    const exports = [
      {
        file: 'gemini-my-activity.json',
        contentType: 'application/json',
        change: (text: string) => text.replace('The Douro, the Tagus', 'The Douro, the Minho'),
      },
      {
        file: 'copilot-activity-history.csv',
        contentType: 'text/csv',
        change: (text: string) => text.replace('avoid the noon sun', 'avoid the midday sun'),
      },
    ];
    for (const { file, contentType, change } of exports) {
      const t = await setup();
      const text = new TextDecoder().decode(fixtureBytes(file));
      const first = await json(await postExport(t, strToU8(text), { contentType }));
      const titles = new Map((await conversationsOf(t, first.connectionId)).map((c) => [c.external_id, c.title]));
      await t.deps.db.updateTable('conversations').set({ title: 'tampered' }).execute();
      const again = await json(await postExport(t, strToU8(text), { contentType }));
      assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, first.created], file);
      const stored = await conversationsOf(t, first.connectionId);
      assert.ok(
        stored.every((c) => c.title === 'tampered'),
        `${file}: not normalised, so not compared`,
      );
      // One message changed: its conversation's records hash anew and it is read in full.
      const changed = await json(await postExport(t, strToU8(change(text)), { contentType }));
      assert.deepEqual([changed.created, changed.updated, changed.unchanged], [0, 1, first.created - 1], file);
      const restored = (await conversationsOf(t, first.connectionId)).filter((c) => c.title !== 'tampered');
      assert.deepEqual(
        restored.map((c) => c.title),
        [titles.get(restored[0]!.external_id)],
        file,
      );
    }
  });

  test('a reader of a newer version reads stored bytes again: what it now reads differently is updated', async () => {
    const t = await setup();
    const [first] = fixtureJson(FILE);
    const { connectionId } = await json(await postExport(t, fixtureBytes(FILE)));
    const hashes = async () =>
      (await t.deps.db.selectFrom('conversations').select('source_hash').execute()).map((row) => row.source_hash);
    assert.ok(
      (await hashes()).every((hash) => hash?.endsWith(`.${claudeExport.readerVersion}`)),
      'a stored hash names the reader that read it',
    );
    // As the older reader left them: a title it read otherwise.
    await tamper(t, first.uuid);
    const stored = claudeExport.readerVersion;
    claudeExport.readerVersion = stored + 1;
    try {
      const again = await json(await postExport(t, fixtureBytes(FILE)));
      assert.deepEqual([again.created, again.updated, again.unchanged, again.skipped], [0, 1, 4, 0]);
      assert.equal(await titleOf(t, connectionId, first.uuid), first.name);
      assert.ok(
        (await hashes()).every((hash) => hash?.endsWith(`.${stored + 1}`)),
        'every conversation read again takes the new version',
      );
      // Read once by the newer reader: the shortcut holds again.
      await tamper(t, first.uuid);
      const third = await json(await postExport(t, fixtureBytes(FILE)));
      assert.deepEqual([third.updated, third.unchanged], [0, 5]);
      assert.equal(await titleOf(t, connectionId, first.uuid), 'tampered');
    } finally {
      claudeExport.readerVersion = stored;
    }
  });

  test('a hash stored before readers had versions (the bytes’ hash alone) is read again', async () => {
    const t = await setup();
    const [first] = fixtureJson(FILE);
    const { connectionId } = await json(await postExport(t, fixtureBytes(FILE)));
    for (const { id, source_hash } of await t.deps.db
      .selectFrom('conversations')
      .select(['id', 'source_hash'])
      .execute()) {
      await t.deps.db
        .updateTable('conversations')
        .set({ source_hash: source_hash!.replace(/\.\d+$/, '') })
        .where('id', '=', id)
        .execute();
    }
    await tamper(t, first.uuid);
    const again = await json(await postExport(t, fixtureBytes(FILE)));
    assert.deepEqual([again.created, again.updated, again.unchanged], [0, 1, 4]);
    assert.equal(await titleOf(t, connectionId, first.uuid), first.name);
  });

  test('only the user’s own open connections are known: another user’s import reads everything', async () => {
    const t = await setup();
    await postExport(t, fixtureBytes(FILE));
    const other = await json(await postExport(t, fixtureBytes(FILE), { query: 'userRef=u2' }));
    assert.deepEqual([other.created, other.unchanged], [5, 0]);
  });

  test('a conversation skipped as unchanged that changes while the file uploads: 409, nothing written', async () => {
    const t = await setup();
    const conversations = fixtureJson(FILE);
    await postExport(t, fixtureBytes(FILE));
    let meanwhile: { updated: number; connectionId: string } | undefined;
    // The whole race inside the refused request: its "nothing written" is
    // measured from before the upload began, not from while it was staging.
    await expectRefused(
      t,
      async () => {
        const upload = heldUpload(t, fixtureBytes(FILE));
        await upload.askedForMore;
        conversations[0].name = 'Renamed meanwhile';
        meanwhile = await json(await postExport(t, strToU8(JSON.stringify(conversations))));
        upload.release();
        return upload.response;
      },
      409,
      'Import conflict: the connection changed while the file was uploading; send it again',
    );
    assert.equal(meanwhile!.updated, 1);
    assert.equal(await titleOf(t, meanwhile!.connectionId, conversations[0].uuid), 'Renamed meanwhile');
  });
});

describe('the import reader', () => {
  /** Conversations as two imports of one file both store them: their ids, and their attachments', are each import's own. */
  const withoutIds = (conversations: any[]) =>
    conversations.map(({ id: _, payload, ...conversation }) => ({
      ...conversation,
      payload: {
        ...payload,
        messages: payload.messages.map((message: any) => ({
          ...message,
          attachments: message.attachments.map(({ id: _, ...attachment }: any) => attachment),
        })),
      },
    }));

  test('in a Node worker thread, reads as in this thread; its refusal is the API’s', async () => {
    const here = await setup();
    const there = await setup();
    there.deps.importWorker = startNodeImportWorker;
    // Gemini's and Copilot's conversations are assembled here and normalised by both threads.
    for (const name of [FILE, 'chatgpt-branches.json', 'gemini-my-activity.json', 'copilot-activity-history.csv']) {
      const post = (t: TestContext) =>
        postExport(t, fixtureBytes(name), { contentType: name.endsWith('.csv') ? 'text/csv' : 'application/json' });
      const [a, b] = [await json(await post(here)), await json(await post(there))];
      assert.deepEqual({ ...b, connectionId: a.connectionId }, a, name);
      assert.deepEqual(
        withoutIds(await conversationsOf(there, b.connectionId)),
        withoutIds(await conversationsOf(here, a.connectionId)),
      );
      // Again: every element's bytes are known; the worker reads the upload and parses none of it.
      const again = await json(await post(there));
      assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, b.created], name);
    }
    // The file written anew, then with the bytes of just one conversation changed: the worker reads only that one.
    const changed = fixtureJson(FILE);
    const written = (indentFirst: number | undefined) =>
      strToU8(
        `[${changed.map((conversation: unknown, i: number) => JSON.stringify(conversation, null, i === 0 ? indentFirst : undefined)).join(',')}]`,
      );
    await postExport(there, written(undefined));
    const reformatted = written(1);
    for (const conversation of changed) await tamper(there, conversation.uuid);
    const mixed = await json(await postExport(there, reformatted));
    assert.deepEqual([mixed.created, mixed.updated, mixed.unchanged], [0, 1, changed.length - 1]);
    const titles = await Promise.all(
      changed.map((conversation: { uuid: string }) => titleOf(there, mixed.connectionId, conversation.uuid)),
    );
    assert.deepEqual(
      titles,
      [changed[0].name, ...changed.slice(1).map(() => 'tampered')],
      'read again: only the one whose bytes changed',
    );
    await expectRefused(
      there,
      () => postExport(there, strToU8('[{"uuid": "x", "chat_messages": [}]')),
      400,
      /^Invalid export file: /,
    );
  });

  /** A worker that answers every message with `answer`. */
  const answering = (answer: FromReader): WorkerLike => {
    const worker: WorkerLike = {
      postMessage: (message: ToReader) =>
        message.type !== 'start' && queueMicrotask(() => worker.onmessage?.({ data: answer })),
      onmessage: null,
      terminate: () => {},
    };
    return worker;
  };

  const readAll = async (channel: WorkerChannel) => {
    await channel.write({ records: [] });
    channel.end();
    for await (const items of channel.items()) void items;
  };

  test('a slice of the upload that is all of its buffer is moved to the reader, part of one is copied', async () => {
    const sent: Array<{ message: ToReader; transfer: ArrayBuffer[] | undefined }> = [];
    const worker: WorkerLike = {
      postMessage: (message, transfer) => void sent.push({ message, transfer }),
      onmessage: null,
      terminate: () => {},
    };
    const channel = new WorkerChannel(
      worker,
      {},
      {
        limits: { maxConversationBytes: 100, maxExpandedBytes: 100, maxAttachmentBytes: 100, maxExportRecords: 100 },
        known: [],
        knownBlobs: [],
      },
    );
    const whole = new Uint8Array([1, 2, 3]);
    const partOf = new Uint8Array([4, 5, 6, 7]);
    await channel.writeBytes(whole);
    await channel.writeBytes(partOf.subarray(1, 3));
    const [start, moved, copied] = sent.map(({ message, transfer }) => ({ ...message, transfer }));
    assert.equal(start?.type, 'start');
    assert.ok(moved?.type === 'bytes' && moved.bytes === whole && moved.transfer?.[0] === whole.buffer);
    assert.ok(
      copied?.type === 'bytes' && copied.bytes.buffer !== partOf.buffer && copied.transfer?.[0] === copied.bytes.buffer,
    );
    assert.deepEqual([...copied.bytes], [5, 6]);
  });

  /** Groups of two Copilot rows, a conversation each. */
  const groups = Array.from(
    { length: 7 },
    (_, i): RecordGroup => ({
      records: [0, 1].map((row) =>
        JSON.stringify({
          Conversation: `chat ${i}`,
          Time: `2025-01-0${i + 1}T10:0${row}:00Z`,
          Author: row ? 'AI' : 'User',
          Message: `message ${row}`,
        }),
      ),
      seq: i,
      hash: `hash ${i}`,
    }),
  );

  test('groups to normalise after the end: three of every five go to the reader, answered in order', async () => {
    const sentGroups: RecordGroup[] = [];
    // Answered late, and in order, as a worker does: each after the one before.
    let answered = Promise.resolve();
    const worker: WorkerLike = {
      postMessage: (message: ToReader) => {
        if (message.type !== 'group') return;
        sentGroups.push(message.group);
        answered = answered.then(async () => {
          const item = await groupItem(copilotExport, message.group);
          await new Promise((resolve) => setTimeout(resolve, 5));
          worker.onmessage?.({ data: { type: 'normalized', item } });
        });
      },
      onmessage: null,
      terminate: () => {},
    };
    const channel = new WorkerChannel(worker, {});
    const items = await Promise.all(groups.map((group) => channel.normalize(copilotExport, group)));
    assert.deepEqual(items, await Promise.all(groups.map((group) => groupItem(copilotExport, group))));
    assert.deepEqual(
      items.map((item) => item.seq),
      [0, 1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(
      sentGroups.map((group) => group.seq),
      [2, 3, 4],
    );
  });

  test('a reader that fails refuses the groups it was sent and any sent after', async () => {
    const channel = new WorkerChannel(answering({ type: 'failed', message: 'TypeError: boom' }), {});
    const made = await Promise.allSettled(groups.map((group) => channel.normalize(copilotExport, group)));
    const boom = 'import reader: TypeError: boom';
    // Those made here are made; the reader's share is refused with its failure.
    assert.deepEqual(
      made.map((result) => (result.status === 'fulfilled' ? result.value.seq : (result.reason as Error).message)),
      [0, 1, boom, boom, boom, 5, 6],
    );
    await assert.rejects(channel.normalize(copilotExport, groups[0]!), { message: boom });
  });

  test('a reader that fails while normalising groups fails the import: a 500, nothing written', async () => {
    const t = await setup();
    t.deps.importWorker = () => {
      const worker = localImportWorker();
      const send = worker.postMessage;
      worker.postMessage = (message, transfer) =>
        message.type === 'group'
          ? queueMicrotask(() => worker.onmessage?.({ data: { type: 'failed', message: 'TypeError: boom' } }))
          : send(message, transfer);
      return worker;
    };
    await expectRefused(t, () => postExport(t, fixtureBytes('gemini-my-activity.json')), 500, 'Internal server error');
  });

  test('a refusal comes back as the ParleyError it was, detail included', async () => {
    const channel = new WorkerChannel(
      answering({
        type: 'failed',
        code: 'invalidExport',
        detail: 'bad JSON',
        message: 'Invalid export file: bad JSON',
      }),
      {},
    );
    await assert.rejects(
      readAll(channel),
      (error: unknown) =>
        error instanceof ParleyError &&
        error.code === 'invalidExport' &&
        error.message === 'Invalid export file: bad JSON',
    );
  });

  test('an unexpected failure in the reader is an error with its message (a 500 to the caller)', async () => {
    const channel = new WorkerChannel(answering({ type: 'failed', message: 'TypeError: boom' }), {});
    await assert.rejects(
      readAll(channel),
      (error: unknown) =>
        !(error instanceof ParleyError) && (error as Error).message === 'import reader: TypeError: boom',
    );
  });
});

describe('conversations an older reader stored under other ids', () => {
  const CSV = 'copilot-activity-history.csv';
  const CSV_TYPE = { contentType: 'text/csv' };
  /** Copilot's older reader: `copilot-<first time>-<name hash>`, one conversation per 30-minute stretch. */
  const formerId = (externalId: string, firstTime: string) =>
    `copilot-${firstTime}-${externalId.slice('copilot-'.length, 'copilot-'.length + 8)}`;

  test('one whose every message the re-import holds is replaced and announced as deleted; one holding a message the file lacks stays', async () => {
    const t = await setup();
    await setWebhookEndpoint(t.deps, t.tenant.appId, 'https://example.test/hooks');
    const { connectionId } = await json(await postExport(t, fixtureBytes(CSV), CSV_TYPE));
    const stored = (await conversationsOf(t, connectionId)).sort((a, b) => a.external_id.localeCompare(b.external_id));
    const [thread, other] = stored;
    // As the older reader left them: the thread's first stretch under its former id,
    // and the other conversation under its former id with a message this file does not have.
    const firstStretch = { ...thread.payload, messages: thread.payload.messages.slice(0, 2) };
    const otherPayload = {
      ...other.payload,
      messages: [
        ...other.payload.messages,
        { role: 'assistant', content: 'only in an older export', timestamp: '2024-01-01T00:00:00.000Z' },
      ],
    };
    const formerThread = formerId(thread.external_id, thread.payload.messages[0].timestamp);
    const formerOther = formerId(other.external_id, other.payload.messages[0].timestamp);
    for (const [{ id }, externalId, payload] of [
      [thread, formerThread, firstStretch],
      [other, formerOther, otherPayload],
    ] as const) {
      await t.deps.db
        .updateTable('conversations')
        .set({ external_id: externalId, payload: storedPayload(t.deps.db, JSON.stringify(payload)), source_hash: null })
        .where('id', '=', id)
        .execute();
    }

    const again = await json(await postExport(t, fixtureBytes(CSV), CSV_TYPE));
    assert.equal(again.created, 2);
    const ids = (await conversationsOf(t, connectionId)).map((c) => c.external_id).sort();
    assert.deepEqual(ids, [...stored.map((c) => c.external_id), formerOther].sort());
    assert.equal(again.conversationCount, stored.length + 1);
    const deleted = await t.deps.db
      .selectFrom('webhook_deliveries')
      .select('body')
      .where('event_type', '=', 'conversation.deleted')
      .execute();
    assert.deepEqual(
      deleted.map(({ body }) => JSON.parse(body).data),
      [
        {
          userRef: 'u1',
          connectionId,
          conversationId: thread.id,
          externalId: formerThread,
          conversationCount: stored.length + 1,
          memoryCount: 0,
          projectCount: 0,
        },
      ],
    );
  });
});
