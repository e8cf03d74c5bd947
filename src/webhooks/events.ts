import type { EventType, ParleyEvent } from 'parley-sdk';
import { randomBase62 } from '../crypto.ts';
import * as apps from '../db/apps.ts';
import type { Db } from '../db/database.ts';
import { insertDelivery } from '../db/webhook-deliveries.ts';
import { isoTime, type Deps } from '../deps.ts';

export type { EventType };

/** What an event of `type` carries: the SDK's types are what is sent, checked here. */
type EventData<T extends EventType> = Extract<ParleyEvent, { type: T }>['data'];

/**
 * Puts an event in the outbox. Call it with the transaction that makes the change
 * it reports: if that commits the event will be delivered, if it rolls back the
 * event never existed. Apps without a webhook endpoint record nothing.
 */
export async function recordEvent<T extends EventType>(
  db: Db,
  deps: Pick<Deps, 'clock' | 'random'>,
  appId: string,
  type: T,
  data: EventData<T>,
): Promise<void> {
  const app = await apps.findApp(db, appId);
  if (!app?.webhook_url) return;
  const now = deps.clock.now();
  const { id, body } = eventMessage(deps, type, data);
  await insertDelivery(db, {
    id,
    app_id: appId,
    event_type: type,
    body,
    next_attempt_at: now,
    created_at: isoTime(now),
  });
}

/** An event as sent: a new message id (`webhook-id`) and its JSON body, timestamped now. */
export function eventMessage<T extends EventType>(
  deps: Pick<Deps, 'clock' | 'random'>,
  type: T,
  data: EventData<T>,
): { id: string; body: string } {
  return {
    id: `msg_${randomBase62(deps.random.bytes, 24)}`,
    body: JSON.stringify({ type, timestamp: isoTime(deps.clock.now()), data }),
  };
}
