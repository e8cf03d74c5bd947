import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Zip, ZipPassThrough, zipSync, strToU8 } from 'fflate';
import { setup, json, postExport, type TestContext } from '../helpers.ts';
import type { AttachmentStores } from '../../src/attachments/stores.ts';
import { insertStagedBlob } from '../../src/db/attachment-staging.ts';
import { discardAbandonedStaging } from '../../src/db/import-staging.ts';
import {
  chatgptConversation,
  chatgptJune2026,
  chatgptMarch2026,
  chatgptPre2025,
  claudeWithFiles,
  JPEG,
  JUNE_CONVERSATION,
  JUNE_IDS,
  message,
  MARCH_CONVERSATION,
  MARCH_IDS,
  OTHER_JPEG,
  PDF,
  PNG,
  text,
  WEBP,
  wav,
} from './attachment-exports.ts';

const ZIP = { contentType: 'application/zip' };

/** Stored as exports ship images: not deflated. */
const storedZip = (files: Record<string, Uint8Array>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, [bytes, { level: 0 }]])));

/** The connection's attachments as rows say, in conversation and message order. */
async function attachmentsOf(t: TestContext, connectionId: string) {
  const rows = await t.deps.db
    .selectFrom('attachments')
    .innerJoin('conversations', 'conversations.id', 'attachments.conversation_id')
    .select([
      'attachments.id',
      'conversations.external_id',
      'attachments.message_index',
      'attachments.ref',
      'attachments.name',
      'attachments.content_type',
      'attachments.size',
      'attachments.kind',
      'attachments.blob_id',
    ])
    .where('attachments.connection_id', '=', connectionId)
    .orderBy('conversations.external_id')
    .orderBy('attachments.message_index')
    .orderBy('attachments.ref')
    .execute();
  return rows.map((row) => ({
    conversation: row.external_id,
    messageIndex: Number(row.message_index),
    name: row.name,
    contentType: row.content_type,
    size: row.size === null ? null : Number(row.size),
    kind: row.kind,
    stored: row.blob_id !== null,
  }));
}

const count = async (t: TestContext, table: 'attachment_blobs' | 'attachment_chunks' | 'attachments') =>
  Number(
    (
      await t.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The bytes of an attachment, read from the store its blob names. */
async function bytesOf(t: TestContext, name: string): Promise<Uint8Array> {
  const row = await t.deps.db
    .selectFrom('attachments')
    .select('blob_id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  const parts: Uint8Array[] = [];
  for await (const part of t.deps.attachments.read(row.blob_id!)) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}

async function imported(t: TestContext, body: Uint8Array, options = ZIP) {
  const response = await postExport(t, body, options);
  const answer = await json(response);
  assert.equal(response.status, 200, JSON.stringify(answer));
  return answer;
}

describe('attachments from exports', () => {
  test('up to 2025: file-<id>-<name> uploads and dalle-generations/, named by the message, typed by their bytes; a pointer to a file the zip lacks is listed, not stored', async () => {
    const t = await setup();
    const answer = await imported(t, storedZip(chatgptPre2025()));
    assert.equal(answer.attachmentCount, 4);
    assert.deepEqual(await attachmentsOf(t, answer.connectionId), [
      {
        conversation: 'c-2024',
        messageIndex: 0,
        name: 'cat.jpg',
        contentType: 'image/jpeg',
        size: JPEG.length,
        kind: 'image',
        stored: true,
      },
      {
        conversation: 'c-2024',
        messageIndex: 2,
        name: 'report.pdf',
        contentType: 'application/pdf',
        size: PDF.length,
        kind: 'file',
        stored: true,
      },
      {
        conversation: 'c-2024',
        messageIndex: 3,
        name: '4b9f6c1e-2d3a-4e5f-8a7b-9c0d1e2f3a4b.webp',
        contentType: 'image/webp',
        size: WEBP.length,
        kind: 'image',
        stored: true,
      },
      {
        conversation: 'c-2024',
        messageIndex: 5,
        name: 'file-Missing4444444444444444',
        contentType: 'application/octet-stream',
        size: 1234,
        kind: 'image',
        stored: false,
      },
    ]);
    assert.deepEqual(await bytesOf(t, 'cat.jpg'), JPEG);
    // The placeholders stay in the text.
    const [conversation] = (await json(await t.request(`/api/conversations?connectionId=${answer.connectionId}`)))
      .conversations;
    assert.equal(conversation.payload.messages[2].content, 'Read this and draw it\n[file: report.pdf]');
  });

  test('March 2026: per-conversation folders and user- folders; the same photo uploaded twice is stored once; files before or after the conversations alike', async () => {
    const { blobs, conversations } = chatgptMarch2026();
    const expected = [
      {
        conversation: MARCH_CONVERSATION,
        messageIndex: 0,
        name: 'IMG_0001.png',
        contentType: 'image/png',
        size: PNG.length,
        kind: 'image',
        stored: true,
      },
      {
        conversation: MARCH_CONVERSATION,
        messageIndex: 0,
        name: 'notes.txt',
        contentType: 'text/plain; charset=utf-8',
        size: 12,
        kind: 'file',
        stored: true,
      },
      {
        conversation: MARCH_CONVERSATION,
        messageIndex: 2,
        name: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d.wav',
        contentType: 'audio/wav',
        size: wav().length,
        kind: 'audio',
        stored: true,
      },
      {
        conversation: MARCH_CONVERSATION,
        messageIndex: 3,
        name: '2b3c4d5e-6f7a-4b9c-8d0e-1f2a3b4c5d6e.png',
        contentType: 'image/png',
        size: PNG.length + 1,
        kind: 'image',
        stored: true,
      },
      {
        conversation: '7b0d2510-8e21-94f9-b9e9-8a044657cb30',
        messageIndex: 0,
        name: 'IMG_0001 copy.png',
        contentType: 'image/png',
        size: PNG.length,
        kind: 'image',
        stored: true,
      },
    ];
    for (const order of [
      { ...blobs, ...conversations },
      { ...conversations, ...blobs },
    ]) {
      const t = await setup();
      const answer = await imported(t, storedZip(order));
      assert.deepEqual(
        (await attachmentsOf(t, answer.connectionId)).sort((a, b) =>
          `${a.conversation}${a.messageIndex}${a.name}` < `${b.conversation}${b.messageIndex}${b.name}` ? -1 : 1,
        ),
        expected,
      );
      // Five attachments, four distinct files: the photo's bytes are one blob.
      assert.equal(answer.attachmentCount, 5);
      assert.equal(await count(t, 'attachment_blobs'), 4);
      const photos = await t.deps.db
        .selectFrom('attachments')
        .select('blob_id')
        .where('ref', 'in', [MARCH_IDS.photo, MARCH_IDS.again])
        .execute();
      assert.equal(new Set(photos.map((row) => row.blob_id)).size, 1);
    }
  });

  test('June 2026: .dat files named by conversation_asset_file_names.json, typed by their bytes; a generated image linked only by library_files.json goes on the answer', async () => {
    const t = await setup();
    const answer = await imported(t, storedZip(chatgptJune2026()));
    assert.deepEqual(await attachmentsOf(t, answer.connectionId), [
      {
        conversation: JUNE_CONVERSATION,
        messageIndex: 0,
        name: 'photo.jpg',
        contentType: 'image/jpeg',
        size: JPEG.length,
        kind: 'image',
        stored: true,
      },
      {
        conversation: JUNE_CONVERSATION,
        messageIndex: 1,
        name: 'Monochrome Motorbike Mirror Selfie.png',
        contentType: 'image/png',
        size: PNG.length,
        kind: 'image',
        stored: true,
      },
      {
        conversation: JUNE_CONVERSATION,
        messageIndex: 2,
        name: 'Iceland.pdf',
        contentType: 'application/pdf',
        size: PDF.length,
        kind: 'file',
        stored: true,
      },
    ]);
    // The library file whose message is nowhere is kept by nothing: its bytes are not kept.
    assert.equal(await count(t, 'attachment_blobs'), 3);
    const blobs = await t.deps.db.selectFrom('attachment_blobs').select(['source', 'size', 'import_id']).execute();
    assert.ok(blobs.every((blob) => blob.import_id === null && blob.source !== `${JUNE_IDS.unlinked}.dat`));
    assert.ok(!blobs.some((blob) => Number(blob.size) === OTHER_JPEG.length && blob.source.includes('unlinked')));
  });

  test('a type that is a list (`image/png; q=1, text/html`) counts as none given: the bytes say PNG, and nothing says HTML', async () => {
    const t = await setup();
    const conversation = chatgptConversation('c-list', 'Polyglot', [
      message('root', 'user', text('')),
      message('u1', 'user', text('Look'), {
        attachments: [{ id: 'file-List5555555555555555', name: 'photo.png', mime_type: 'image/png; q=1, text/html' }],
      }),
    ]);
    const polyglot = new Uint8Array([...PNG, ...strToU8('<form><input type="password"></form>')]);
    const answer = await imported(
      t,
      storedZip({
        'conversations.json': strToU8(JSON.stringify([conversation])),
        'file-List5555555555555555-photo.png': polyglot,
      }),
    );
    assert.deepEqual(
      (await attachmentsOf(t, answer.connectionId)).map(({ contentType, kind }) => ({ contentType, kind })),
      [{ contentType: 'image/png', kind: 'image' }],
    );
  });

  test('Claude: a paste is a stored text document named paste.txt; a file in files[] is listed, not stored', async () => {
    const t = await setup();
    const answer = await imported(t, strToU8(JSON.stringify(claudeWithFiles())), { contentType: 'application/json' });
    assert.deepEqual(await attachmentsOf(t, answer.connectionId), [
      {
        conversation: 'c-claude',
        messageIndex: 0,
        name: '1773102082181_image.png',
        contentType: 'image/png',
        size: null,
        kind: 'image',
        stored: false,
      },
      {
        conversation: 'c-claude',
        messageIndex: 0,
        name: 'paste.txt',
        contentType: 'text/plain; charset=utf-8',
        size: 23,
        kind: 'document',
        stored: true,
      },
    ]);
    assert.equal(new TextDecoder().decode(await bytesOf(t, 'paste.txt')), 'Pasted text, two lines\n');
  });

  test('all or nothing: a zip cut short after some files leaves no attachment, no blob, no chunk', async () => {
    const t = await setup();
    const { blobs, conversations } = chatgptMarch2026();
    const whole = storedZip({ ...conversations, ...blobs });
    const response = await postExport(t, whole.subarray(0, whole.length - 200), ZIP);
    assert.equal(response.status, 400);
    assert.deepEqual(
      [await count(t, 'attachments'), await count(t, 'attachment_blobs'), await count(t, 'attachment_chunks')],
      [0, 0, 0],
    );
  });

  test('MAX_ATTACHMENT_BYTES: a larger file refuses the export, whether its size is in its header or only known once read', async () => {
    const t = await setup({ MAX_ATTACHMENT_BYTES: String(PNG.length) });
    const { blobs, conversations } = chatgptMarch2026();
    const files = { ...conversations, ...blobs };
    const headed = await postExport(t, storedZip(files), ZIP);
    assert.equal(headed.status, 413);
    assert.deepEqual(await json(headed), { error: 'Export file too large: MAX_ATTACHMENT_BYTES' });
    // Streamed: each member's sizes come after its data.
    const chunks: Uint8Array[] = [];
    const zip = new Zip((error, chunk) => {
      if (error) throw error;
      chunks.push(chunk);
    });
    for (const [name, bytes] of Object.entries(files)) {
      const member = new ZipPassThrough(name);
      zip.add(member);
      member.push(bytes, true);
    }
    zip.end();
    const streamed = await postExport(t, new Uint8Array(Buffer.concat(chunks)), ZIP);
    assert.deepEqual(
      [streamed.status, await json(streamed)],
      [413, { error: 'Export file too large: MAX_ATTACHMENT_BYTES' }],
    );
    assert.deepEqual([await count(t, 'attachment_blobs'), await count(t, 'attachment_chunks')], [0, 0]);
  });

  test('a re-import writes no byte again and keeps every attachment id; a changed conversation keeps its attachments', async () => {
    const t = await setup();
    let created = 0;
    const store = t.deps.attachments;
    const counting: AttachmentStores = {
      ...store,
      create: (blobId) => {
        created++;
        return store.create(blobId);
      },
    };
    t.deps.attachments = counting;
    // Without the library file no message shows: nothing keeps it, so each import reads it again.
    const { [`${JUNE_IDS.unlinked}.dat`]: _unlinked, ...files } = chatgptJune2026();
    const first = await imported(t, storedZip(files));
    assert.equal(created, 3);
    const ids = async () =>
      (await t.deps.db.selectFrom('attachments').select(['id', 'ref']).orderBy('ref').execute()).map(
        (row) => `${row.ref}=${row.id}`,
      );
    const before = await ids();
    const chunks = await count(t, 'attachment_chunks');

    const again = await imported(t, storedZip(files));
    assert.deepEqual([again.unchanged, again.attachmentCount, created], [1, 3, 3]);
    assert.deepEqual(await ids(), before);
    assert.equal(await count(t, 'attachment_chunks'), chunks);

    // A new message in the conversation: it is read again, its files are not.
    const shard = JSON.parse(new TextDecoder().decode(files['conversations-000.json']));
    shard[0].mapping.a3 = {
      id: 'a3',
      parent: 'a2',
      message: {
        id: 'a3',
        author: { role: 'assistant' },
        content: { content_type: 'text', parts: ['More.'] },
        metadata: {},
      },
    };
    shard[0].current_node = 'a3';
    const changed = await imported(
      t,
      storedZip({ ...files, 'conversations-000.json': strToU8(JSON.stringify(shard)) }),
    );
    assert.deepEqual([changed.updated, changed.attachmentCount, created], [1, 3, 3]);
    assert.deepEqual(await ids(), before);
    assert.equal(first.connectionId, changed.connectionId);
  });

  test('maintenance removes the blobs an import that died left, with their bytes, and nothing else', async () => {
    const t = await setup();
    const answer = await imported(t, storedZip(chatgptJune2026()));
    const now = t.clock.now();
    for (const [id, age] of [
      ['dead', 25 * 3_600_000],
      ['running', 60_000],
    ] as const) {
      await insertStagedBlob(t.deps.db, {
        id,
        import_id: `import-${id}`,
        store: 'database',
        source: 'x.dat',
        created_at: now - age,
      });
      const writer = t.deps.attachments.create(id);
      await writer.write(JPEG);
      await writer.close();
    }
    const held = await count(t, 'attachment_chunks');
    await discardAbandonedStaging(t.deps.db, now - 24 * 3_600_000);
    const left = await t.deps.db
      .selectFrom('attachment_blobs')
      .select('id')
      .where('connection_id', 'is', null)
      .execute();
    assert.deepEqual(
      left.map((row) => row.id),
      ['running'],
    );
    assert.equal(await count(t, 'attachment_chunks'), held - 1);
    assert.equal(answer.attachmentCount, await count(t, 'attachments'));
  });

  test('a large stored file arriving in chunks that are whole buffers: its bytes are copied before they move between threads, so the zip still reads', async () => {
    const t = await setup();
    const { conversations, blobs } = chatgptMarch2026();
    const big = new Uint8Array(300 * 1024).map((_, i) => (i * 7) & 0xff);
    big.set(PNG.subarray(0, 8));
    const name = Object.keys(blobs).find((member) => member.includes(MARCH_IDS.photo))!;
    const zip = storedZip({ ...conversations, ...blobs, [name]: big });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < zip.length; at += 64 * 1024) controller.enqueue(zip.slice(at, at + 64 * 1024));
        controller.close();
      },
    });
    const answer = await json(
      await t.request('/api/ingest-export?userRef=u1', {
        method: 'POST',
        headers: { 'Content-Type': 'application/zip' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    assert.equal(answer.attachmentCount, 5, JSON.stringify(answer));
    const photo = await t.deps.db
      .selectFrom('attachments')
      .select('blob_id')
      .where('ref', '=', MARCH_IDS.photo)
      .executeTakeFirstOrThrow();
    const parts: Uint8Array[] = [];
    for await (const part of t.deps.attachments.read(photo.blob_id!)) parts.push(part);
    assert.deepEqual(new Uint8Array(Buffer.concat(parts)), big);
  });

  test('a re-import whose zip holds a file the first lacked: the reader finds it (conversations already stored) and the conversation read again links it', async () => {
    const t = await setup();
    const { blobs, conversations } = chatgptMarch2026();
    const voice = Object.keys(blobs).find((member) => member.includes(MARCH_IDS.voice))!;
    const { [voice]: _voice, ...without } = blobs;
    const first = await imported(t, storedZip({ ...conversations, ...without }));
    const audio = async () =>
      (await attachmentsOf(t, first.connectionId)).filter((attachment) => attachment.kind === 'audio');
    assert.deepEqual(
      (await audio()).map((attachment) => attachment.stored),
      [false],
    );
    // The newer export: the first conversation renamed, so it is read again; the second unchanged.
    const shard = JSON.parse(new TextDecoder().decode(conversations['conversations-000.json']));
    shard[0].title = 'Folders, renamed';
    const again = await imported(t, storedZip({ 'conversations-000.json': strToU8(JSON.stringify(shard)), ...blobs }));
    assert.deepEqual([again.updated, again.unchanged, again.attachmentCount], [1, 1, 5]);
    assert.deepEqual(await audio(), [
      {
        conversation: MARCH_CONVERSATION,
        messageIndex: 2,
        name: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d.wav',
        contentType: 'audio/wav',
        size: wav().length,
        kind: 'audio',
        stored: true,
      },
    ]);
    assert.equal(await count(t, 'attachment_blobs'), 4);
  });
});
