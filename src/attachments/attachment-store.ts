import type { AttachmentStoreName } from '../db/database.ts';

/** Bytes [start, end) of a blob. */
export interface ByteRange {
  start: number;
  end: number;
}

/** One blob's bytes going into a store as they arrive. */
export interface BlobWriter {
  /** Takes the next bytes; resolves once the store can take more (its back-pressure). */
  write(chunk: Uint8Array): Promise<void>;
  /** All bytes are in and durable. */
  close(): Promise<void>;
  /** Stops and removes what was written. */
  abort(): Promise<void>;
}

/**
 * Where attachment bytes are kept: the database (the default: several instances
 * share it with no other service) or S3-compatible object storage. The blob's
 * row in `attachment_blobs` says which; the row, not the store, decides whether
 * a blob exists.
 */
export interface AttachmentStore {
  readonly name: AttachmentStoreName;
  /** Starts writing the bytes of the blob `blobId`, whose row exists. */
  create(blobId: string): BlobWriter;
  /** The blob's bytes (those of `range` only, with one), in order, read as they are asked for. */
  read(blobId: string, range?: ByteRange): AsyncIterable<Uint8Array>;
}
