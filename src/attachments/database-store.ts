import * as chunks from '../db/attachment-chunks.ts';
import type { Db } from '../db/database.ts';
import type { AttachmentStore, ByteRange } from './attachment-store.ts';
import { GatheringWriter } from './gathering-writer.ts';

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
class ChunkWriter extends GatheringWriter {
  private seq = 0;
  private written = 0;

  constructor(
    private readonly db: Db,
    private readonly blobId: string,
  ) {
    super(CHUNK_BYTES);
  }

  close(): Promise<void> {
    return this.flushRest();
  }

  async abort(): Promise<void> {
    await chunks.deleteChunks(this.db, this.blobId);
  }

  /** The driver has the bytes once the statement is done. */
  protected async flush(bytes: Uint8Array): Promise<void> {
    await chunks.insertChunk(this.db, { blobId: this.blobId, seq: this.seq++, startByte: this.written, bytes });
    this.written += bytes.length;
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
