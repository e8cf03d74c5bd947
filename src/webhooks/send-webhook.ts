import { webhookSignature } from 'parley-sdk/webhooks';
import type { Deps } from '../deps.ts';
import { hasCredentials, refusedTarget, withoutCredentials } from './target.ts';

/** How a message goes out: fetch, or a test's stand-in. */
export type Send = (url: string, init: RequestInit) => Promise<Response>;

/** One message to an app's endpoint: its id (`webhook-id`) and the JSON body signed. */
export interface WebhookMessage {
  id: string;
  url: string | null;
  secret: string | null;
  body: string;
}

/**
 * Signs one message (Standard Webhooks) and POSTs it; answers the receiver's
 * status (ok: a 2xx, delivered), or throws what stopped it. The delivery worker's attempts and
 * `webhook test` both send through here, so a test proves what deliveries do.
 */
export async function sendWebhook(
  deps: Pick<Deps, 'clock' | 'config' | 'resolveHost'>,
  send: Send,
  message: WebhookMessage,
  signal: AbortSignal,
): Promise<{ status: number; ok: boolean }> {
  if (!message.url || !message.secret) throw new Error('the app has no webhook endpoint');
  // Set before these were refused, or resolving elsewhere now: not sent.
  const url = new URL(message.url);
  if (hasCredentials(url)) throw new Error('the webhook URL holds a user name or password: set it again without them');
  const refused = await refusedTarget(deps, url);
  if (refused) throw new Error(`refused: ${refused}`);
  const timestamp = Math.floor(deps.clock.now() / 1000);
  const response = await send(message.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Parley-Webhooks',
      'webhook-id': message.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': await webhookSignature(message.secret, message.id, timestamp, message.body),
    },
    body: message.body,
    redirect: 'manual',
    signal: AbortSignal.any([AbortSignal.timeout(deps.config.webhookTimeoutMs), signal]),
  });
  await response.body?.cancel();
  return { status: response.status, ok: response.ok };
}

/** What stopped a send, as `webhook list` and `webhook test` show it: never with a URL's password, whatever the error quotes. */
export const sendFailure = (error: unknown, timeoutMs: number): string =>
  error instanceof Error && error.name === 'TimeoutError'
    ? `no answer within ${timeoutMs} ms`
    : withoutCredentials(String(error instanceof Error ? error.message : error));
