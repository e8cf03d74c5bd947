import * as connections from '../db/connections.ts';
import { writeTransaction } from '../db/transaction.ts';
import { isoTime, type Deps } from '../deps.ts';
import { recordEvent } from '../webhooks/events.ts';

const DAY_MS = 86_400_000;

/**
 * Moves active connections not synced for STALE_AFTER_DAYS to `needs_reauth`,
 * each with its event; a later successful import makes them active again.
 */
export async function markStaleConnections(deps: Pick<Deps, 'db' | 'clock' | 'random' | 'config'>): Promise<number> {
  const days = deps.config.staleAfterDays;
  if (days <= 0) return 0;
  const before = isoTime(deps.clock.now() - days * DAY_MS);
  return writeTransaction(deps.db, async (db) => {
    const stale = await connections.findStaleConnections(db, before);
    for (const connection of stale) {
      await connections.updateConnection(db, connection.id, { status: 'needs_reauth' });
      await recordEvent(db, deps, connection.app_id, 'connection.needs_reauth', {
        userRef: connection.user_ref,
        connectionId: connection.id,
      });
    }
    return stale.length;
  });
}
