import { createHash } from 'node:crypto';
import type { BlobHasher } from '../attachments/blob-hash.ts';
import type { SourceHash } from '../import/worker/record-batcher.ts';

/**
 * SHA-256 by node:crypto, which Deno and Bun provide too: Web Crypto's digest
 * costs a promise per call, more than hashing one conversation, and re-imports
 * are mostly hashing (docs/performance.md has the figures, Deno's higher peak too).
 */
export const nodeSourceHash: SourceHash = (bytes) => createHash('sha256').update(bytes).digest('base64url');

/** An attachment's SHA-256 by node:crypto, as its bytes stream in. */
export const nodeBlobHash: BlobHasher = () => {
  const hash = createHash('sha256');
  return { update: (bytes) => void hash.update(bytes), digest: () => hash.digest('base64url') };
};
