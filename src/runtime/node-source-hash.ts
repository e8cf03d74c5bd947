import { createHash } from 'node:crypto';
import type { SourceHash } from '../import/worker/record-batcher.ts';

/**
 * SHA-256 by node:crypto, which Deno and Bun provide too: Web Crypto's digest
 * costs a promise per call, more than hashing one conversation, and re-imports
 * are mostly hashing (docs/performance.md has the figures, Deno's higher peak too).
 */
export const nodeSourceHash: SourceHash = (bytes) => createHash('sha256').update(bytes).digest('base64url');
