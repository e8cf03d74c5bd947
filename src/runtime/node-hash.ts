import { createHash } from 'node:crypto';
import type { SourceHash } from '../import/record-batch.ts';

/** SHA-256 of an export's bytes under Node: its Web Crypto costs more per call than the hashing itself. */
export const nodeSourceHash: SourceHash = (bytes) => createHash('sha256').update(bytes).digest('base64url');
