import { sql } from 'kysely';
import type { Db, ImportStagingTable } from './database.ts';
import { fixedSql } from './fixed-sql.ts';

/** Stages rows in one statement; a later row with the same external id replaces the earlier. */
export async function stageConversations(db: Db, rows: ImportStagingTable[]): Promise<void> {
  await db
    .insertInto('import_staging')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['import_id', 'external_id']).doUpdateSet((eb) => ({
        title: eb.ref('excluded.title'),
        payload: eb.ref('excluded.payload'),
        update_time: eb.ref('excluded.update_time'),
      })),
    )
    .execute();
}

/** How many staged conversations the connection does not have yet, and how many are staged. */
export async function countNewStaged(db: Db, importId: string, connectionId: string) {
  const [row] = await fixedSql<{ staged: number; created: number }>(
    db,
    `SELECT count(*) AS staged,
            coalesce(sum(NOT EXISTS (SELECT 1 FROM conversations c
              WHERE c.connection_id = ? AND c.external_id = s.external_id)), 0) AS created
     FROM import_staging s WHERE s.import_id = ?`,
    [connectionId, importId],
  );
  return { staged: Number(row!.staged), created: Number(row!.created) };
}

/**
 * Moves the staged conversations into the connection and returns how many rows
 * it wrote (new plus changed). Unchanged ones are not written at all:
 * re-importing the same file touches no conversation row.
 */
export async function mergeStaged(db: Db, importId: string, connectionId: string, now: string): Promise<number> {
  const result = await sql`
    INSERT INTO conversations (id, connection_id, external_id, title, payload, update_time, created_at)
    SELECT conversation_id, ${connectionId}, external_id, title, payload, update_time, ${now}
    FROM import_staging WHERE import_id = ${importId}
    ON CONFLICT (connection_id, external_id) DO UPDATE SET
      title = excluded.title, payload = excluded.payload, update_time = excluded.update_time
    WHERE conversations.title IS NOT excluded.title OR conversations.payload IS NOT excluded.payload
      OR conversations.update_time IS NOT excluded.update_time`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export async function discardStaged(db: Db, importId: string): Promise<void> {
  await db.deleteFrom('import_staging').where('import_id', '=', importId).execute();
}
