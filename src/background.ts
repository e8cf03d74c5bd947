import { markStaleConnections } from './conversations/staleness.ts';
import { checkpoint } from './db/checkpoint.ts';
import { indexPending } from './db/conversation-search.ts';
import { discardAbandonedStaging } from './db/import-staging.ts';
import { takeLease } from './db/leases.ts';
import { deleteExpiredPageState } from './db/page-sessions.ts';
import { isoTime, type Deps } from './deps.ts';
import { SESSION_IDLE_MS } from './links/page-sessions.ts';
import { createDeliveryWorker, type DeliveryWorkerOptions } from './webhooks/delivery-worker.ts';

const HOUR_MS = 3_600_000;
const CHECKPOINT_MS = 1_000;
const SEARCH_INDEX_MS = 1_000;

/** What an import that died (with its process) left staged is removed after this long. */
const ABANDONED_STAGING_MS = 24 * HOUR_MS;

/**
 * Housekeeping that keeps the database small and the connection states current.
 * One process or instance a period does it: it holds the lease until the next is due.
 */
async function runMaintenance(deps: Deps, holder: string, periodMs: number): Promise<void> {
  const now = deps.clock.now();
  if (!(await takeLease(deps.db, 'maintenance', holder, now, now + periodMs))) return;
  await deleteExpiredPageState(deps.db, { idleBefore: isoTime(now - SESSION_IDLE_MS), now: isoTime(now) });
  await discardAbandonedStaging(deps.db, now - ABANDONED_STAGING_MS);
  await markStaleConnections(deps);
}

/**
 * Runs `work` every `ms`, one run at a time: a tick that finds one still under
 * way (a large import's) lets it be. stop() returns the run under way, if any.
 */
function everyMs(ms: number, work: () => Promise<void>, onError: (error: unknown) => void) {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= work()
      .catch(onError)
      .finally(() => (running = undefined));
  }, ms);
  return {
    stop() {
      clearInterval(timer);
      return running;
    },
  };
}

/**
 * The work a server process does besides answering requests: webhook delivery,
 * hourly maintenance, indexing for search what the database left unindexed, and
 * checkpoints. The same on every runtime: timers and fetch only.
 */
export interface BackgroundOptions extends DeliveryWorkerOptions {
  maintenanceMs?: number;
  /** How one checkpoint is made: by the runtime's checkpoint worker (see checkpoint.ts); on the app's own connection without one. */
  checkpoint?: (erasing: boolean) => Promise<boolean>;
}

export function startBackgroundWork(deps: Deps, options: BackgroundOptions = {}) {
  const worker = createDeliveryWorker(deps, options);
  const periodMs = options.maintenanceMs ?? HOUR_MS;
  const holder = deps.random.uuid();
  const maintain = () => runMaintenance(deps, holder, periodMs).catch((error) => deps.log.error('maintenance', { error: String(error) }));
  // One run at a time, and stop() waits for the one under way: the database closes after.
  let running = maintain();
  const timer = setInterval(() => (running = running.then(maintain)), periodMs);
  const runCheckpoint = options.checkpoint ?? ((erasing: boolean) => checkpoint(deps.db, erasing));
  // Set when people's text was deleted: the next checkpoint empties the log, and the one after tries again if it could not.
  let erasing = false;
  const checkpoints = everyMs(
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
    (error) => deps.log.error('checkpoint', { error: String(error) }),
  );
  const stopping = new AbortController();
  const indexing = everyMs(SEARCH_INDEX_MS, () => indexPending(deps.db, undefined, stopping.signal), (error) => deps.log.error('search index', { error: String(error) }));
  worker.start();
  return {
    /** People's text was deleted: the SQLite log that still holds it is emptied within a second or two. */
    erased() {
      erasing = true;
    },
    /** Stops every kind of work between two of its steps: what is left is done after the next start. */
    async stop() {
      stopping.abort();
      clearInterval(timer);
      await Promise.all([running, checkpoints.stop(), indexing.stop()]);
      await worker.stop();
    },
  };
}
