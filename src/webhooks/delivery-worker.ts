import { releaseLease, takeLease } from '../db/leases.ts';
import * as deliveries from '../db/webhook-deliveries.ts';
import type { Deps } from '../deps.ts';
import { runEvery, type Periodic } from '../periodic.ts';
import { sendFailure, sendWebhook, type Send } from './send-webhook.ts';

export interface DeliveryWorker {
  /** Starts every due delivery chain now and waits for them all. */
  runOnce(): Promise<void>;
  /** Polls in the background until `stop`. */
  start(): void;
  /** Stops polling, cuts attempts under way short (they are sent again after a restart) and waits for that. */
  stop(): Promise<void>;
}

export interface DeliveryWorkerOptions {
  fetch?: Send;
  pollMs?: number;
}

/** How long past its timeout a claimed attempt stays claimed, in case this process dies. */
const LEASE_MARGIN_MS = 30_000;

/**
 * Sends the outbox. Each app's endpoint gets its deliveries one at a time, oldest
 * first, so first attempts arrive in event order; different endpoints are served
 * at once. A delivery waiting for a retry does not hold back later ones. Of all
 * the processes or instances on one database, one at a time works an app's
 * deliveries: it holds the app's lease while it does.
 */
export function createDeliveryWorker(
  deps: Pick<Deps, 'db' | 'clock' | 'random' | 'config' | 'log' | 'resolveHost'>,
  options: DeliveryWorkerOptions = {},
): DeliveryWorker {
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const pollMs = options.pollMs ?? 500;
  const { webhookTimeoutMs: timeoutMs, webhookRetrySchedule: schedule } = deps.config;
  const chains = new Map<string, Promise<void>>();
  const holder = deps.random.uuid();
  const leaseOf = (appId: string) => `webhooks:${appId}`;
  const stopping = new AbortController();
  let polling: Periodic | undefined;

  async function attempt(delivery: NonNullable<Awaited<ReturnType<typeof deliveries.claimNextDelivery>>>) {
    const attempts = delivery.attempts + 1;
    let lastStatus: number | null = null;
    let lastError: string | null = null;
    try {
      const answer = await sendWebhook(deps, send, delivery, stopping.signal);
      lastStatus = answer.status;
      if (answer.ok) {
        await deliveries.recordAttempt(deps.db, delivery.seq, {
          status: 'delivered',
          attempts,
          lastStatus,
          lastError,
          nextAttemptAt: deps.clock.now(),
        });
        deps.log.info('webhook delivered', { delivery: delivery.id, type: delivery.event_type, attempts });
        return;
      }
      lastError = `HTTP ${lastStatus}`;
    } catch (error) {
      if (stopping.signal.aborted) {
        // Shutting down mid-attempt: it goes out again after the restart, uncounted.
        await deliveries.releaseDelivery(deps.db, delivery.seq, deps.clock.now());
        return;
      }
      lastError = sendFailure(error, timeoutMs);
    }
    // 410 Gone: the receiver asks us to stop. Otherwise retry on the schedule.
    const delaySeconds = lastStatus === 410 ? undefined : schedule[attempts - 1];
    const failed = delaySeconds === undefined;
    const jitterMs = failed ? 0 : Math.floor((delaySeconds * 100 * deps.random.bytes(1)[0]!) / 255);
    await deliveries.recordAttempt(deps.db, delivery.seq, {
      status: failed ? 'failed' : 'pending',
      attempts,
      lastStatus,
      lastError,
      nextAttemptAt: deps.clock.now() + (failed ? 0 : delaySeconds * 1000 + jitterMs),
    });
    deps.log.warn(failed ? 'webhook failed' : 'webhook will retry', {
      delivery: delivery.id,
      type: delivery.event_type,
      attempts,
      lastStatus,
      lastError,
    });
  }

  /** Sends the app's due deliveries in order while it holds (and renews) the app's lease. */
  async function drainApp(appId: string) {
    try {
      while (!stopping.signal.aborted) {
        const now = deps.clock.now();
        const leaseUntil = now + timeoutMs + LEASE_MARGIN_MS;
        if (!(await takeLease(deps.db, leaseOf(appId), holder, now, leaseUntil))) return;
        const delivery = await deliveries.claimNextDelivery(deps.db, appId, now, leaseUntil);
        if (!delivery) return;
        await attempt(delivery);
      }
    } finally {
      await releaseLease(deps.db, leaseOf(appId), holder);
    }
  }

  /** Starts a chain for every app with a delivery due and none under way. */
  async function startDueChains() {
    const due = await deliveries.appsWithDueDeliveries(deps.db, deps.clock.now(), [...chains.keys()]);
    for (const appId of due) {
      const chain = drainApp(appId)
        .catch((error) => deps.log.error('webhook worker', { error: String(error) }))
        .finally(() => chains.delete(appId));
      chains.set(appId, chain);
    }
  }

  return {
    async runOnce() {
      await startDueChains();
      await Promise.all(chains.values());
    },
    start() {
      polling ??= runEvery(pollMs, startDueChains, (error) =>
        deps.log.error('webhook worker', { error: String(error) }),
      );
    },
    async stop() {
      stopping.abort();
      // A poll under way may still start chains: they see the abort and end at once.
      await polling?.stop();
      await Promise.all(chains.values());
    },
  };
}
