import type { Db } from './database.ts';
import { fixedSql } from './fixed-sql.ts';

/**
 * Takes (or renews) the lease `name` for `holder` until `until` (unix ms), if it
 * is free, has run out, or is the holder's already: one atomic upsert, so of
 * several processes or instances asking at once exactly one gets it.
 */
export async function takeLease(db: Db, name: string, holder: string, now: number, until: number): Promise<boolean> {
  const rows = await fixedSql(
    db,
    `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
     WHERE leases.expires_at <= ? OR leases.holder = excluded.holder
     RETURNING name`,
    [name, holder, until, now],
  );
  return rows.length === 1;
}

/** Gives the lease up, if `holder` still holds it. */
export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
}
