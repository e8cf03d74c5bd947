import type { Db, DeletedItemsTable, DeletedKind } from './database.ts';

/** What an import knows a file by: its ref, in its conversation (by external id) or its project (a knowledge file). */
export function fileIdentity(db: Db, attachmentId: string) {
  return db
    .selectFrom('attachments as a')
    .leftJoin('conversations as c', 'c.id', 'a.conversation_id')
    .leftJoin('projects as p', 'p.id', 'a.project_id')
    .select(['a.ref', 'c.external_id as conversation', 'p.external_id as project'])
    .where('a.id', '=', attachmentId)
    .executeTakeFirstOrThrow();
}

/**
 * Remembers what the person deleted — a row of `kind` by its connection and
 * external id (a file's: fileIdentity's key) — so that no later import brings
 * it back (deleted again: kept as it was).
 */
export async function rememberDeleted(
  db: Db,
  kind: DeletedKind,
  { connection_id, external_id }: Pick<DeletedItemsTable, 'connection_id' | 'external_id'>,
  deletedAt: string,
): Promise<void> {
  await db
    .insertInto('deleted_items')
    .values({ connection_id, kind, external_id, deleted_at: deletedAt })
    .onConflict((conflict) => conflict.columns(['connection_id', 'kind', 'external_id']).doNothing())
    .execute();
}

/** The external ids of what the person deleted of one kind from the connection: one lookup per import. */
export async function deletedExternalIds(db: Db, connectionId: string, kind: DeletedKind): Promise<Set<string>> {
  const rows = await db
    .selectFrom('deleted_items')
    .select('external_id')
    .where('connection_id', '=', connectionId)
    .where('kind', '=', kind)
    .execute();
  return new Set(rows.map((row) => row.external_id));
}

/**
 * Drops the import's staged conversations that the person deleted from the
 * connection, in one statement (the staged rows and the deletions meet by
 * their indexes): they are not merged, and count as skipped.
 */
export async function unstageDeleted(db: Db, importId: string, connectionId: string): Promise<void> {
  await db
    .deleteFrom('import_staging')
    .where('import_id', '=', importId)
    .where('external_id', 'in', (deleted) =>
      deleted
        .selectFrom('deleted_items')
        .select('external_id')
        .where('connection_id', '=', connectionId)
        .where('kind', '=', 'conversation'),
    )
    .execute();
}

/** Forgets what the person deleted from the connection: they disconnected it, and a new import starts afresh. */
export async function forgetDeleted(db: Db, connectionId: string): Promise<void> {
  await db.deleteFrom('deleted_items').where('connection_id', '=', connectionId).execute();
}
