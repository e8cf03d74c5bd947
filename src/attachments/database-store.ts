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

/**
 * Each chunk is written in a statement of its own: no write transaction stays
 * open while bytes stream in. The bytes gather in one buffer, written whole
 * and then filled again: a gigabyte streams through one megabyte, not through a
 * thousand of them left for the collector.
 */
class ChunkWriter implements BlobWriter {
  private readonly buffer = new Uint8Array(CHUNK_BYTES);
  private filled = 0;
  private seq = 0;
  private written = 0;

  constructor(
    private readonly db: Db,
    private readonly blobId: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    for (let at = 0; at < chunk.length; ) {
      const taken = Math.min(chunk.length - at, CHUNK_BYTES - this.filled);
      this.buffer.set(chunk.subarray(at, at + taken), this.filled);
      this.filled += taken;
      at += taken;
      if (this.filled === CHUNK_BYTES) await this.flush();
    }
  }

  async close(): Promise<void> {
    if (this.filled > 0 || this.seq === 0) await this.flush();
  }

  async abort(): Promise<void> {
    this.filled = 0;
    await chunks.deleteChunks(this.db, this.blobId);
  }

  /** The driver has the bytes once the statement is done: the buffer is free again. */
  private async flush(): Promise<void> {
    // A full buffer goes as it is; the last, shorter chunk as a copy (a view would be sent whole).
    const bytes = this.filled === CHUNK_BYTES ? this.buffer : this.buffer.slice(0, this.filled);
    await chunks.insertChunk(this.db, { blobId: this.blobId, seq: this.seq++, startByte: this.written, bytes });
    this.written += this.filled;
    this.filled = 0;
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
