import { base64, timingSafeEqual } from './encoding.ts';
import { WebhookVerificationError } from './errors.ts';
import type { ParleyEvent } from './types.ts';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** How far a delivery's timestamp may be from now, either way (Standard Webhooks' default). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

const encoder = new TextEncoder();

/**
 * The Standard Webhooks signature of one delivery: `v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body`, keyed with the base64-decoded part of the secret after `whsec_`.
 */
export async function webhookSignature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const keyBytes = Uint8Array.from(
    atob(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret),
    (c) => c.charCodeAt(0),
  );
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${base64(new Uint8Array(mac))}`;
}

/** Request headers as Fetch has them, or as Node's http and most frameworks do. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks that a delivery is Parley's and recent, and returns its event; throws
 * WebhookVerificationError otherwise. `body` is the exact bytes received (not
 * JSON parsed and written again); `headers` carries `webhook-id`,
 * `webhook-timestamp` and `webhook-signature` (one or more `v1,…`, space
 * separated: any one matching will do, as while a secret is being replaced).
 * Deduplicate by `webhook-id`: a retry carries the same one.
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  { now = Date.now(), toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS }: { now?: number; toleranceSeconds?: number } = {},
): Promise<ParleyEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header');
  const seconds = /^\d+$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  if (Number.isNaN(seconds)) throw new WebhookVerificationError('Invalid webhook-timestamp header');
  if (Math.abs(now / 1000 - seconds) > toleranceSeconds)
    throw new WebhookVerificationError('Webhook timestamp is too old or too new');
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  let expected: string;
  try {
    expected = await webhookSignature(secret, id, seconds, text);
  } catch {
    throw new WebhookVerificationError('Invalid webhook secret');
  }
  // Each candidate is compared in full, so timing says nothing of how close a forgery came.
  const matches = signatures.split(' ').filter((candidate) => timingSafeEqual(candidate, expected));
  if (matches.length === 0) throw new WebhookVerificationError('No matching webhook signature');
  try {
    return JSON.parse(text) as ParleyEvent;
  } catch {
    throw new WebhookVerificationError('Webhook body is not JSON');
  }
}
