import type { Db } from './database.ts';
import { fixedSql } from './fixed-sql.ts';

/**
 * Up to `limit` blob ids whose objects are to be deleted, in id order after
 * `after`: a pass over the queue goes on past ids whose deletion failed, which
 * the next pass tries again.
 */
export async function queuedObjectDeletions(db: Db, after: string | undefined, limit: number): Promise<string[]> {
  const rows =
    after === undefined
      ? await fixedSql<{ blob_id: string }>(db, 'SELECT blob_id FROM attachment_deletions ORDER BY blob_id LIMIT ?', [
          limit,
        ])
      : await fixedSql<{ blob_id: string }>(
          db,
          'SELECT blob_id FROM attachment_deletions WHERE blob_id > ? ORDER BY blob_id LIMIT ?',
          [after, limit],
        );
  return rows.map((row) => row.blob_id);
}

/** Takes the blobs whose objects are gone off the queue. */
export async function dequeueObjectDeletions(db: Db, blobIds: string[]): Promise<void> {
  if (blobIds.length === 0) return;
  await db.deleteFrom('attachment_deletions').where('blob_id', 'in', blobIds).execute();
}
