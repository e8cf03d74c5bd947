import { base64 } from '../crypto.ts';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * The Standard Webhooks signature: base64 HMAC-SHA256 of `id.timestamp.body`,
 * keyed with the base64-decoded part of the secret after `whsec_`.
 */
export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const keyBytes = Uint8Array.from(atob(secret.slice(WEBHOOK_SECRET_PREFIX.length)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${base64(new Uint8Array(mac))}`;
}
