import type { BlobHasher } from './attachments/blob-hash.ts';
import type { AttachmentStores } from './attachments/stores.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { PartFiles } from './db/part-files.ts';
import type { WorkerLike } from './import/worker/import-worker.ts';
import type { SourceHash } from './import/worker/record-batcher.ts';
import type { Logger } from './log.ts';
import type { Metrics } from './metrics/metrics.ts';

/** Milliseconds since the epoch; tests pass a clock they move by hand. */
export interface Clock {
  now(): number;
}

export interface Random {
  bytes(length: number): Uint8Array;
  uuid(): string;
}

/** Everything the app is built from: nothing below the entry files reaches past these. */
export interface Deps {
  db: Db;
  /** Where requests are counted for the rate limit, when not in `db`: SQLite's counters database, which it needs (see rate-buckets.ts). */
  counters?: Db;
  /** Where attachment bytes are kept: new ones where ATTACHMENTS_URL says, each blob's where its row says (see stores.ts). */
  attachments: AttachmentStores;
  /**
   * On a SQLite file, where the parts of resumable uploads are kept: files beside
   * it (see part-files.ts), unless ATTACHMENTS_URL names a bucket. Without it,
   * they are blobs of the attachments' store.
   */
  partFiles?: PartFiles;
  config: Config;
  clock: Clock;
  random: Random;
  log: Logger;
  /** What GET /metrics reports: counted here as requests and imports end. */
  metrics: Metrics;
  /**
   * Told once a purge, a conversation's deletion or a disconnect has committed:
   * the server then empties SQLite's log within seconds, so the deleted text is
   * left neither there nor in the file (see checkpoint.ts).
   */
  erased?: () => void;
  /** The addresses of a host name (the runtime's resolver): WEBHOOK_ALLOW_PRIVATE=false checks what a webhook's host resolves to. */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /**
   * Starts a worker to read one import (the entry file knows how, on its
   * runtime); without it, imports are read on this thread.
   */
  importWorker?: () => WorkerLike;
  /**
   * How an import hashes each conversation's bytes: node:crypto on every
   * runtime (Web Crypto's digest costs a promise per call, more than the
   * hashing itself); Web Crypto without it.
   */
  sourceHash?: SourceHash;
  /**
   * How an import hashes attachment bytes as they stream in: node:crypto on
   * every runtime, several times faster than the portable one used without it.
   */
  blobHash?: BlobHasher;
}

export const systemClock: Clock = { now: () => Date.now() };

export const cryptoRandom: Random = {
  bytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
  uuid: () => crypto.randomUUID(),
};

export const isoTime = (ms: number): string => new Date(ms).toISOString();
