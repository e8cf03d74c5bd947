import { concatBytes } from '../bytes.ts';
import * as chunks from '../db/attachment-chunks.ts';
import type { Db } from '../db/database.ts';
import type { AttachmentStore, BlobWriter, ByteRange } from './attachment-store.ts';

/**
 * Bytes per chunk row: large enough that a gigabyte is a thousand rows, small
 * enough that reading one for a range request or a stream holds little.
 */
export const CHUNK_BYTES = 1024 * 1024;

/** Attachment bytes in the database, as chunk rows of their blob (deleted with it). */
export function databaseStore(db: Db): AttachmentStore {
  return {
    name: 'database',
    create: (blobId) => new ChunkWriter(db, blobId),
    read: (blobId, range) => readChunks(db, blobId, range),
  };
}

/** Each chunk is written in a statement of its own: no write transaction stays open while bytes stream in. */
class ChunkWriter implements BlobWriter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private seq = 0;
  private written = 0;

  constructor(
    private readonly db: Db,
    private readonly blobId: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    while (this.pendingBytes >= CHUNK_BYTES) await this.flush(CHUNK_BYTES);
  }

  async close(): Promise<void> {
    if (this.pendingBytes > 0 || this.seq === 0) await this.flush(this.pendingBytes);
  }

  async abort(): Promise<void> {
    this.pending = [];
    await chunks.deleteChunks(this.db, this.blobId);
  }

  private async flush(length: number): Promise<void> {
    const all = concatBytes(this.pending);
    const bytes = all.subarray(0, length);
    const rest = all.subarray(length);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    // A view of a larger buffer the driver would send whole: copied, unless concatBytes already made it its own.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    await chunks.insertChunk(this.db, {
      blobId: this.blobId,
      seq: this.seq++,
      startByte: this.written,
      bytes: own ? bytes : bytes.slice(),
    });
    this.written += length;
  }
}

async function* readChunks(db: Db, blobId: string, range?: ByteRange): AsyncIterable<Uint8Array> {
  const start = range?.start ?? 0;
  const end = range?.end ?? Number.POSITIVE_INFINITY;
  if (start >= end) return;
  let chunk = await chunks.chunkAt(db, blobId, { at: start });
  while (chunk) {
    const from = Math.max(0, start - chunk.start_byte);
    const to = Math.min(chunk.bytes.length, end - chunk.start_byte);
    if (to > from) yield chunk.bytes.subarray(from, to);
    if (chunk.start_byte + chunk.bytes.length >= end) return;
    chunk = await chunks.chunkAt(db, blobId, { afterSeq: chunk.seq });
  }
}
