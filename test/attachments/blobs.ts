/**
 * Attachment rows for the tests, written straight through kysely (the import
 * writes them in the running server) and bytes through a store, as the import
 * does: a blob row first, then its bytes, then its hash and size.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { AttachmentStore } from '../../src/attachments/attachment-store.ts';
import type { Db } from '../../src/db/database.ts';
import { isoTime } from '../../src/deps.ts';
import { FIXED_NOW } from '../helpers.ts';

/** `length` bytes that differ from blob to blob (`seed`) and from position to position. */
export function testBytes(length: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed * 2654435761;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

/** Writes `bytes` through `store` in pieces of the sizes given, cycling through them. */
export async function writeInPieces(
  store: AttachmentStore,
  blobId: string,
  bytes: Uint8Array,
  sizes: number[] = [bytes.length || 1],
): Promise<void> {
  const writer = store.create(blobId);
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    await writer.write(bytes.subarray(at, at + size));
    at += size;
  }
  await writer.close();
}

/** All the bytes a read gives, in one array. */
export async function readAll(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return new Uint8Array(Buffer.concat(parts));
}

type BlobOwner = { connectionId: string } | { importId: string };

/** A blob row (of the connection, or staged by `importId`) whose bytes `store` holds. */
export async function storeBlob(db: Db, store: AttachmentStore, bytes: Uint8Array, owner: BlobOwner): Promise<string> {
  const id = await blobRow(db, store, owner);
  await writeInPieces(store, id, bytes, [65_537]);
  const sha256 = createHash('sha256').update(bytes).digest('base64url');
  await db.updateTable('attachment_blobs').set({ sha256, size: bytes.length }).where('id', '=', id).execute();
  return id;
}

/** A blob's row as the import writes it before the bytes: with no hash yet. */
export async function blobRow(db: Db, store: AttachmentStore, owner: BlobOwner): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto('attachment_blobs')
    .values({
      id,
      connection_id: 'connectionId' in owner ? owner.connectionId : null,
      import_id: 'importId' in owner ? owner.importId : null,
      store: store.name,
      sha256: '',
      size: 0,
      content_type: 'application/octet-stream',
      source: `file-${id}.bin`,
      created_at: FIXED_NOW,
    })
    .execute();
  return id;
}

/** An attachment of the conversation's first message showing the blob; its id. */
export async function attach(db: Db, conversationId: string, blobId: string | null): Promise<string> {
  const conversation = await db
    .selectFrom('conversations')
    .select('connection_id')
    .where('id', '=', conversationId)
    .executeTakeFirstOrThrow();
  const id = crypto.randomUUID();
  await db
    .insertInto('attachments')
    .values({
      id,
      connection_id: conversation.connection_id,
      conversation_id: conversationId,
      message_index: 0,
      position: 0,
      ref: `file-${id}`,
      name: 'photo.jpg',
      content_type: 'image/jpeg',
      size: null,
      kind: 'image',
      blob_id: blobId,
      created_at: isoTime(FIXED_NOW),
    })
    .execute();
  return id;
}

/** The ids of the connection's conversations, newest first. */
export async function conversationIds(db: Db, connectionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('conversations')
    .select('id')
    .where('connection_id', '=', connectionId)
    .orderBy('update_time', 'desc')
    .execute();
  return rows.map((row) => row.id);
}

/** Rows of the attachment tables, per table. */
export async function attachmentRowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['attachment_blobs', 'attachment_chunks', 'attachments', 'attachment_deletions']) {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}
