import { markStaleConnections } from './conversations/staleness.ts';
import { deleteExpiredPageState } from './db/page-sessions.ts';
import { isoTime, type Deps } from './deps.ts';
import { SESSION_IDLE_MS } from './links/page-sessions.ts';
import { createDeliveryWorker, type DeliveryWorkerOptions } from './webhooks/delivery-worker.ts';

const HOUR_MS = 3_600_000;

/** Housekeeping that keeps the file small and the connection states current. */
async function runMaintenance(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await deleteExpiredPageState(deps.db, { idleBefore: isoTime(now - SESSION_IDLE_MS), now: isoTime(now) });
  await markStaleConnections(deps);
}

/**
 * The work a server process does besides answering requests: webhook delivery
 * and hourly maintenance. The same on every runtime: timers and fetch only.
 */
export function startBackgroundWork(deps: Deps, options: DeliveryWorkerOptions & { maintenanceMs?: number } = {}) {
  const worker = createDeliveryWorker(deps, options);
  const maintain = () => runMaintenance(deps).catch((error) => deps.log.error('maintenance', { error: String(error) }));
  // One run at a time, and stop() waits for the one under way: the database closes after.
  let running = maintain();
  const timer = setInterval(() => (running = running.then(maintain)), options.maintenanceMs ?? HOUR_MS);
  worker.start();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await worker.stop();
    },
  };
}
