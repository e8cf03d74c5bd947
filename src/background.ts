import { deleteExpiredTokens } from './agents/agent-tokens.ts';
import { deleteOldAccess } from './users/access-log.ts';
import { runObjectDeletions } from './attachments/object-deletions.ts';
import { markStaleConnections } from './conversations/staleness.ts';
import { checkpoint } from './db/checkpoint.ts';
import { indexPending } from './db/conversation-search.ts';
import { discardAbandonedImportConnections } from './db/import-connection.ts';
import { discardAbandonedStaging } from './db/import-staging.ts';
import { discardAbandonedImports } from './db/imports.ts';
import { takeLease } from './db/leases.ts';
import { deleteExpiredPageState } from './db/page-sessions.ts';
import { deleteExpiredUploads } from './db/uploads.ts';
import { removeLeftoverPartFiles } from './uploads/resumable-uploads.ts';
import { isoTime, type Deps } from './deps.ts';
import { connectSessionMs, SESSION_IDLE_MS } from './links/page-sessions.ts';
import { runEvery } from './periodic.ts';
import { createDeliveryWorker, type DeliveryWorkerOptions } from './webhooks/delivery-worker.ts';

const HOUR_MS = 3_600_000;
const CHECKPOINT_MS = 1_000;
const SEARCH_INDEX_MS = 1_000;
/** How soon an S3 object whose blob was deleted is gone. */
const OBJECT_DELETION_MS = 10_000;

/** What an import that died (with its process) left staged, or in its own connection, or as under way, is removed after this long. */
const ABANDONED_STAGING_MS = 24 * HOUR_MS;

/**
 * Housekeeping that keeps the database small and the connection states current.
 * One process or instance a period does it: it holds the lease until the next is due.
 */
async function runMaintenance(deps: Deps, holder: string, periodMs: number): Promise<void> {
  const now = deps.clock.now();
  if (!(await takeLease(deps.db, 'maintenance', holder, now, now + periodMs))) return;
  await deleteExpiredPageState(deps.db, {
    idleBefore: isoTime(now - SESSION_IDLE_MS),
    connectOpenedBefore: isoTime(now - connectSessionMs(deps.config)),
    now: isoTime(now),
  });
  await discardAbandonedStaging(deps.db, now - ABANDONED_STAGING_MS);
  await discardAbandonedImports(deps.db, now - ABANDONED_STAGING_MS);
  // What they wrote is people's text, in the database file.
  if (await discardAbandonedImportConnections(deps.db, now - ABANDONED_STAGING_MS)) deps.erased?.();
  // Resumable uploads not continued for UPLOAD_EXPIRY_HOURS, with their bytes.
  await deleteExpiredUploads(deps.db, now);
  // Those too that went with their app or page session.
  await removeLeftoverPartFiles(deps);
  await markStaleConnections(deps);
  await deleteExpiredTokens(deps);
  await deleteOldAccess(deps);
}

/**
 * The work a server process does besides answering requests: webhook delivery,
 * hourly maintenance, indexing for search what the database left unindexed,
 * checkpoints, and (with S3 storage) deleting the objects of deleted blobs. The
 * same on every runtime: timers and fetch only.
 */
export interface BackgroundOptions extends DeliveryWorkerOptions {
  maintenanceMs?: number;
  objectDeletionMs?: number;
  /** How one checkpoint is made: by the runtime's checkpoint worker (see checkpoint.ts); on the app's own connection without one. */
  checkpoint?: (erasing: boolean) => Promise<boolean>;
}

export function startBackgroundWork(deps: Deps, options: BackgroundOptions = {}) {
  const worker = createDeliveryWorker(deps, options);
  const periodMs = options.maintenanceMs ?? HOUR_MS;
  const holder = deps.random.uuid();
  const logged = (work: string) => (error: unknown) => deps.log.error(work, { error: String(error) });
  const maintenance = runEvery(periodMs, () => runMaintenance(deps, holder, periodMs), logged('maintenance'), {
    immediately: true,
  });
  const runCheckpoint = options.checkpoint ?? ((erasing: boolean) => checkpoint(deps.db, erasing));
  // Set when people's text was deleted: the next checkpoint empties the log, and the one after tries again if it could not.
  let erasing = false;
  const checkpoints = runEvery(
    CHECKPOINT_MS,
    async () => {
      const erase = erasing;
      erasing = false;
      let complete = false;
      try {
        complete = await runCheckpoint(erase);
      } finally {
        if (erase && !complete) erasing = true;
      }
    },
    logged('checkpoint'),
  );
  const stopping = new AbortController();
  const indexing = runEvery(
    SEARCH_INDEX_MS,
    () => indexPending(deps.db, undefined, stopping.signal),
    logged('search index'),
  );
  // Queued while ATTACHMENTS_URL is unset, deletions wait until it names the bucket again.
  const objects = deps.attachments.objects;
  const deletionMs = options.objectDeletionMs ?? OBJECT_DELETION_MS;
  const objectDeletions =
    objects &&
    runEvery(
      deletionMs,
      // The lease outlasts a period, so its holder keeps it from one run to the next.
      () => runObjectDeletions(deps, objects, holder, 3 * deletionMs, stopping.signal),
      logged('attachment deletions'),
      { immediately: true },
    );
  worker.start();
  return {
    /** People's text was deleted: the SQLite log that still holds it is emptied within a second or two. */
    erased() {
      erasing = true;
    },
    /** Stops every kind of work between two of its steps, and waits for that (the database closes after): what is left is done after the next start. */
    async stop() {
      stopping.abort();
      await Promise.all([maintenance.stop(), checkpoints.stop(), indexing.stop(), objectDeletions?.stop()]);
      await worker.stop();
    },
  };
}
