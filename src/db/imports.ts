import type { Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';
import { fixedSql } from './fixed-sql.ts';
import { writeTransaction } from './transaction.ts';

/*
 * The imports under way, so that a purge refuses them (schema.sql, version 14):
 * an import that began before a purge must not commit after it and bring the
 * purged user back. Where transactions overlap (PostgreSQL), an import that
 * names its user as it begins locks the user's row, as a purge does first: so
 * either the import began first and the purge marks it, or the purge ended
 * before the import began. (An import's commit holds that lock too: one of
 * the same user beginning meanwhile waits for it, before reading its file.)
 */

/** Records an import as under way, for the user of `owner` if it names one as it begins. */
export function beginImport(
  db: Db,
  row: { id: string; app_id: string; created_at: number },
  owner: { userRef: string } | undefined,
): Promise<void> {
  return writeTransaction(db, async (trx) => {
    const { lockRows } = dialectOf(trx);
    if (owner && lockRows)
      await fixedSql(trx, `SELECT id FROM users WHERE app_id = ? AND user_ref = ?${lockRows}`, [
        row.app_id,
        owner.userRef,
      ]);
    await trx.insertInto('imports').values(row).execute();
  });
}

/**
 * In a purge's transaction, once it holds the user's lock: every import of the
 * app under way may no longer commit for `userRef`.
 */
export async function refuseImportsFor(db: Db, appId: string, userRef: string): Promise<void> {
  await fixedSql(
    db,
    `INSERT INTO import_purges (import_id, user_ref) SELECT id, ? FROM imports WHERE app_id = ?
     ON CONFLICT (import_id, user_ref) DO NOTHING`,
    [userRef, appId],
  );
}

/** In the import's final transaction, holding the user's lock: whether a purge refused it `userRef`. */
export async function isImportRefused(db: Db, importId: string, userRef: string): Promise<boolean> {
  const rows = await fixedSql(db, 'SELECT 1 AS refused FROM import_purges WHERE import_id = ? AND user_ref = ?', [
    importId,
    userRef,
  ]);
  return rows.length > 0;
}

/** The import has ended, committed or not: its row and its marks go. */
export async function endImport(db: Db, importId: string): Promise<void> {
  await db.deleteFrom('imports').where('id', '=', importId).execute();
  await db.deleteFrom('import_purges').where('import_id', '=', importId).execute();
}

/**
 * Removes the rows of imports that died (with their instance) before `before`
 * (unix ms), and every mark of an import no longer under way.
 */
export async function discardAbandonedImports(db: Db, before: number): Promise<void> {
  await db.deleteFrom('imports').where('created_at', '<', before).execute();
  await fixedSql(db, 'DELETE FROM import_purges WHERE import_id NOT IN (SELECT id FROM imports)', []);
}
