import { createHash } from 'node:crypto';
import type { SourceHash } from '../import/worker/record-batcher.ts';

/**
 * SHA-256 by node:crypto, which Deno and Bun provide too: Web Crypto's digest
 * costs a promise per call, more than hashing one conversation. A 200 MB
 * re-import on Deno took 1.2–1.5 s with Web Crypto, 0.8–0.9 s with this —
 * for 15–40 MB more at Deno's peak, for reasons not yet known (README, Performance).
 */
export const nodeSourceHash: SourceHash = (bytes) => createHash('sha256').update(bytes).digest('base64url');
