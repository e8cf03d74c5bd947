import { sql } from 'kysely';
import type { Db, ImportStagingTable } from './database.ts';

/** Stages rows in one transaction; a later row with the same external id replaces the earlier. */
export async function stageConversations(db: Db, rows: ImportStagingTable[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
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
  });
}

/** How the staged conversations compare with what the connection holds. */
export async function compareStaged(db: Db, importId: string, connectionId: string) {
  const { rows } = await sql<{ staged: number; created: number; updated: number }>`
    SELECT count(*) AS staged,
           coalesce(sum(c.id IS NULL), 0) AS created,
           coalesce(sum(c.id IS NOT NULL AND (c.title IS NOT s.title OR c.payload IS NOT s.payload
             OR c.update_time IS NOT s.update_time)), 0) AS updated
    FROM import_staging s
    LEFT JOIN conversations c ON c.connection_id = ${connectionId} AND c.external_id = s.external_id
    WHERE s.import_id = ${importId}`.execute(db);
  const row = rows[0]!;
  return { staged: Number(row.staged), created: Number(row.created), updated: Number(row.updated) };
}

/**
 * Moves the staged conversations into the connection. Unchanged ones are not
 * written at all: re-importing the same file touches no conversation row.
 */
export async function mergeStaged(db: Db, importId: string, connectionId: string, now: string): Promise<void> {
  await sql`
    INSERT INTO conversations (id, connection_id, external_id, title, payload, update_time, created_at)
    SELECT conversation_id, ${connectionId}, external_id, title, payload, update_time, ${now}
    FROM import_staging WHERE import_id = ${importId}
    ON CONFLICT (connection_id, external_id) DO UPDATE SET
      title = excluded.title, payload = excluded.payload, update_time = excluded.update_time
    WHERE conversations.title IS NOT excluded.title OR conversations.payload IS NOT excluded.payload
      OR conversations.update_time IS NOT excluded.update_time`.execute(db);
  await discardStaged(db, importId);
}

export async function discardStaged(db: Db, importId: string): Promise<void> {
  await db.deleteFrom('import_staging').where('import_id', '=', importId).execute();
}

/** Rows left by imports that died with their process; no live import is that old. */
export async function discardStagedBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('import_staging').where('staged_at', '<', before).execute();
}
