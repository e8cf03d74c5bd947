import * as v from 'valibot';
import { base64 } from 'parley-sdk/encoding';
import { WEBHOOK_SECRET_PREFIX } from 'parley-sdk/webhooks';
import { requireApp } from '../apps/apps.ts';
import * as apps from '../db/apps.ts';
import type { DeliveryStatus } from '../db/database.ts';
import * as deliveries from '../db/webhook-deliveries.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { HttpUrl } from '../urls.ts';
import { eventMessage } from './events.ts';
import { sendFailure, sendWebhook, type Send } from './send-webhook.ts';
import { checkWebhookTarget } from './target.ts';

const STATUSES: DeliveryStatus[] = ['pending', 'delivered', 'failed'];
const LIST_LIMIT = 100;

/** Sets the app's endpoint; the secret is kept when one exists, unless a new one is asked for. */
export async function setWebhookEndpoint(
  deps: Pick<Deps, 'db' | 'random' | 'config' | 'resolveHost'>,
  appId: string,
  url: string,
  { newSecret = false } = {},
) {
  if (!v.is(HttpUrl, url)) throw new ParleyError('invalidWebhookUrl');
  await checkWebhookTarget(deps, new URL(url));
  const app = await requireApp(deps, appId);
  const secret =
    app.webhook_secret && !newSecret ? app.webhook_secret : WEBHOOK_SECRET_PREFIX + base64(deps.random.bytes(32));
  await apps.saveWebhookEndpoint(deps.db, appId, { url, secret });
  return { url, secret };
}

/** The app's latest deliveries, newest first, optionally only those of some statuses. */
export async function listWebhookDeliveries(deps: Pick<Deps, 'db'>, appId: string, statuses?: string[]) {
  await requireApp(deps, appId);
  if (statuses && !statuses.every((status) => STATUSES.includes(status as DeliveryStatus)))
    throw new ParleyError('invalidDeliveryStatus');
  const rows = await deliveries.listDeliveries(deps.db, appId, statuses as DeliveryStatus[] | undefined, LIST_LIMIT);
  return {
    deliveries: rows.map((row) => ({
      id: row.id,
      eventType: row.event_type,
      status: row.status,
      attempts: row.attempts,
      lastStatus: row.last_status,
      lastError: row.last_error,
      nextAttemptAt: row.status === 'pending' ? isoTime(row.next_attempt_at) : null,
      createdAt: row.created_at,
    })),
  };
}

/** Queues a delivery again, with the whole retry schedule ahead of it. */
export async function retryWebhookDelivery(deps: Pick<Deps, 'db' | 'clock'>, appId: string, deliveryId: string) {
  await requireApp(deps, appId);
  if (!(await deliveries.requeueDelivery(deps.db, appId, deliveryId, deps.clock.now())))
    throw new ParleyError('deliveryNotFound');
  return { ok: true as const };
}

/**
 * Sends one signed `webhook.test` event to the app's endpoint now, as a
 * delivery's attempt is sent but outside the outbox (never retried, never
 * listed): whether the receiver took it (a 2xx), its status or what stopped
 * the send, and how long that took.
 */
export async function sendTestWebhook(
  deps: Pick<Deps, 'db' | 'clock' | 'random' | 'config' | 'resolveHost'>,
  appId: string,
  send: Send = (url, init) => fetch(url, init),
) {
  const app = await requireApp(deps, appId);
  const message = {
    ...eventMessage(deps, 'webhook.test', { appId }),
    url: app.webhook_url,
    secret: app.webhook_secret,
  };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const { status, ok } = await sendWebhook(deps, send, message, new AbortController().signal);
    return { ok, url: app.webhook_url, id: message.id, status, durationMs: elapsed() };
  } catch (error) {
    return {
      ok: false,
      url: app.webhook_url,
      id: message.id,
      error: sendFailure(error, deps.config.webhookTimeoutMs),
      durationMs: elapsed(),
    };
  }
}
