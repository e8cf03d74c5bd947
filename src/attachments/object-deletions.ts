import { dequeueObjectDeletions, queuedObjectDeletions } from '../db/attachment-deletions.ts';
import { takeLease } from '../db/leases.ts';
import type { Deps } from '../deps.ts';
import type { ObjectStore } from './s3-store.ts';

/** Objects deleted at once: a batch's requests go out together. */
const BATCH = 32;

/**
 * One pass over the deletion queue (filled by the schema's trigger whenever an
 * S3 blob's row is deleted): each object is deleted, then its queue row. An
 * object whose deletion fails keeps its row, and the next pass tries it again;
 * a process that stops between the two steps leaves the row, and deleting an
 * object twice does no harm. Stops between batches once `signal` is aborted.
 */
export async function deleteQueuedObjects(
  deps: Pick<Deps, 'db' | 'log'>,
  objects: ObjectStore,
  signal?: AbortSignal,
): Promise<{ deleted: number; failed: number }> {
  let deleted = 0;
  let failed = 0;
  let firstError: unknown;
  let after: string | undefined;
  while (!signal?.aborted) {
    const blobIds = await queuedObjectDeletions(deps.db, after, BATCH);
    if (blobIds.length === 0) break;
    const results = await Promise.allSettled(blobIds.map((blobId) => objects.delete(blobId)));
    const done = blobIds.filter((_, i) => results[i]!.status === 'fulfilled');
    await dequeueObjectDeletions(deps.db, done);
    deleted += done.length;
    for (const result of results) {
      if (result.status === 'rejected') {
        failed++;
        firstError ??= result.reason;
      }
    }
    after = blobIds.at(-1);
  }
  // One line a pass, not one an object: an unreachable store would fail them all.
  if (failed > 0) deps.log.warn('attachment objects not deleted', { failed, deleted, error: String(firstError) });
  return { deleted, failed };
}

/**
 * The background task's run: a pass when the queue holds anything, by one
 * instance at a time (the lease's holder, who keeps it while it runs; another
 * takes over once it lapses).
 */
export async function runObjectDeletions(
  deps: Pick<Deps, 'db' | 'log' | 'clock'>,
  objects: ObjectStore,
  holder: string,
  leaseMs: number,
  signal?: AbortSignal,
): Promise<void> {
  // A read first: an empty queue, the usual case, costs no write.
  if ((await queuedObjectDeletions(deps.db, undefined, 1)).length === 0) return;
  const now = deps.clock.now();
  if (!(await takeLease(deps.db, 'attachment-deletions', holder, now, now + leaseMs))) return;
  await deleteQueuedObjects(deps, objects, signal);
}
