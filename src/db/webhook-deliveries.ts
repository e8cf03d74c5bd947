import { sql } from 'kysely';
import type { Db, DeliveryStatus } from './database.ts';

export async function insertDelivery(
  db: Db,
  row: { id: string; app_id: string; event_type: string; body: string; next_attempt_at: number; created_at: string },
): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .values({ ...row, status: 'pending', attempts: 0 })
    .execute();
}

/** Apps with a delivery due now, leaving out those whose deliveries are already under way here. */
export async function appsWithDueDeliveries(db: Db, now: number, busyApps: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('app_id')
    .distinct()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .$if(busyApps.length > 0, (query) => query.where('app_id', 'not in', busyApps))
    .execute();
  return rows.map((row) => row.app_id);
}

/**
 * Claims the app's oldest due delivery with one UPDATE … RETURNING: its next
 * attempt moves to `leaseUntil`, so no other worker takes it while it is being
 * sent. The outer WHERE repeats the conditions: PostgreSQL re-checks them on a
 * row another transaction just claimed, where the subquery's choice stands.
 */
export async function claimNextDelivery(db: Db, appId: string, now: number, leaseUntil: number) {
  const { rows } = await sql<{
    seq: number;
    id: string;
    event_type: string;
    body: string;
    attempts: number;
    url: string | null;
    secret: string | null;
  }>`
    UPDATE webhook_deliveries SET next_attempt_at = ${leaseUntil}
    WHERE status = 'pending' AND next_attempt_at <= ${now} AND seq = (
      SELECT seq FROM webhook_deliveries
      WHERE app_id = ${appId} AND status = 'pending' AND next_attempt_at <= ${now}
      ORDER BY seq LIMIT 1)
    RETURNING seq, id, event_type, body, attempts,
      (SELECT webhook_url FROM apps WHERE apps.id = app_id) AS url,
      (SELECT webhook_secret FROM apps WHERE apps.id = app_id) AS secret`.execute(db);
  return rows[0];
}

/** Puts a claimed delivery back, due now, without counting an attempt (shutdown cut it short). */
export async function releaseDelivery(db: Db, seq: number, now: number): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ next_attempt_at: now }).where('seq', '=', seq).execute();
}

export async function recordAttempt(
  db: Db,
  seq: number,
  outcome: {
    status: DeliveryStatus;
    attempts: number;
    lastStatus: number | null;
    lastError: string | null;
    nextAttemptAt: number;
  },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      attempts: outcome.attempts,
      last_status: outcome.lastStatus,
      last_error: outcome.lastError,
      next_attempt_at: outcome.nextAttemptAt,
    })
    .where('seq', '=', seq)
    .execute();
}

export const listDeliveries = (db: Db, appId: string, statuses: DeliveryStatus[] | undefined, limit: number) => {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('app_id', '=', appId);
  if (statuses) query = query.where('status', 'in', statuses);
  return query.orderBy('seq', 'desc').limit(limit).execute();
};

/** Queues a delivery again from the start of the retry schedule; false if there is none. */
export async function requeueDelivery(db: Db, appId: string, deliveryId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now })
    .where('id', '=', deliveryId)
    .where('app_id', '=', appId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
