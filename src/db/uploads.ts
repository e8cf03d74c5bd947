import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { AttachmentStoreName, Database, Db, UploadsTable } from './database.ts';
import { insertStagedBlob } from './attachment-staging.ts';
import { dialectOf } from './dialects/dialect.ts';
import { lockRow } from './sql-fragments.ts';
import { nextTurn, writeTransaction } from './transaction.ts';

export type UploadRow = Omit<UploadsTable, 'received' | 'importing_until'> & { received: number };

/** PostgreSQL's BIGINT columns come back as strings. */
const numeric = (row: UploadRow): UploadRow => ({
  ...row,
  length: Number(row.length),
  received: Number(row.received),
  expires_at: Number(row.expires_at),
});

/**
 * Creates the upload if the app's open uploads, with it, declare at most
 * `maxOpenBytes`; false (and nothing written) if not.
 */
export function insertUpload(db: Db, upload: Omit<UploadRow, 'received'>, maxOpenBytes: number): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    // Two creations at once must not both count the open bytes without the other.
    await lockRow(trx, 'apps', upload.app_id);
    const open = await trx
      .selectFrom('uploads')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('length'), eb.lit(0)).as('bytes'))
      .where('app_id', '=', upload.app_id)
      .executeTakeFirstOrThrow();
    if (Number(open.bytes) + upload.length > maxOpenBytes) return false;
    await trx.insertInto('uploads').values(upload).execute();
    return true;
  });
}

/** The app's upload `id` made by `pageSession` (null: with an API key), unless it has expired. */
export async function uploadOfApp(
  db: Db,
  { appId, pageSession }: { appId: string; pageSession: string | null },
  id: string,
  now: number,
): Promise<UploadRow | undefined> {
  const row = await db
    .selectFrom('uploads')
    .selectAll()
    .where('id', '=', id)
    .where('app_id', '=', appId)
    .where('page_session', pageSession === null ? 'is' : '=', pageSession)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row && numeric(row);
}

/**
 * A part about to be written from `startByte`: its blob's row (in `store`), then
 * the part's; with `store` null, the part's row only (its bytes are a file of
 * its own, see part-files.ts).
 */
export async function beginPart(
  db: Db,
  part: { blobId: string; uploadId: string; startByte: number; store: AttachmentStoreName | null; now: number },
): Promise<void> {
  await writeTransaction(db, async (trx) => {
    // No import's and no connection's: the part's row holds it (see schema.sql, version 15).
    if (part.store !== null)
      await insertStagedBlob(trx, {
        id: part.blobId,
        import_id: null,
        store: part.store,
        source: '',
        created_at: part.now,
      });
    await trx
      .insertInto('upload_parts')
      .values({ blob_id: part.blobId, upload_id: part.uploadId, start_byte: part.startByte, size: null })
      .execute();
  });
}

/**
 * The part's `size` bytes are durable: they count, and the upload's expiry moves,
 * if the upload has received exactly up to where the part starts. Else (another
 * request took these bytes first, or the upload is gone) the part is removed.
 * The upload's bytes received after it, or undefined when the part was refused.
 */
export function commitPart(
  db: Db,
  part: { blobId: string; uploadId: string; startByte: number; size: number; expiresAt: number },
): Promise<number | undefined> {
  return writeTransaction(db, async (trx) => {
    const moved = await trx
      .updateTable('uploads')
      .set((eb) => ({ received: eb('received', '+', part.size), expires_at: part.expiresAt }))
      .where('id', '=', part.uploadId)
      .where('received', '=', part.startByte)
      .returning('received')
      .executeTakeFirst();
    if (!moved) {
      await trx.deleteFrom('upload_parts').where('blob_id', '=', part.blobId).execute();
      return undefined;
    }
    await trx.updateTable('upload_parts').set({ size: part.size }).where('blob_id', '=', part.blobId).execute();
    return Number(moved.received);
  });
}

/** Removes a part whose bytes could not be kept. */
export async function deletePart(db: Db, blobId: string): Promise<void> {
  await db.deleteFrom('upload_parts').where('blob_id', '=', blobId).execute();
}

/** The upload's acknowledged parts in order, with the store each blob is in (null: a part file, see beginPart). */
export async function partsOf(
  db: Db,
  uploadId: string,
): Promise<Array<{ blob_id: string; store: AttachmentStoreName | null; size: number }>> {
  const rows = await db
    .selectFrom('upload_parts')
    .leftJoin('attachment_blobs', 'attachment_blobs.id', 'upload_parts.blob_id')
    .select(['upload_parts.blob_id', 'attachment_blobs.store', 'upload_parts.size'])
    .where('upload_parts.upload_id', '=', uploadId)
    .where('upload_parts.size', 'is not', null)
    .orderBy('upload_parts.start_byte')
    .execute();
  return rows.map((row) => ({ ...row, size: Number(row.size) }));
}

/** Those of the parts `partIds` that exist. */
export async function existingParts(db: Db, partIds: string[]): Promise<Set<string>> {
  const rows = await db.selectFrom('upload_parts').select('blob_id').where('blob_id', 'in', partIds).execute();
  return new Set(rows.map((row) => row.blob_id));
}

/** The acknowledged parts kept as files (no blob row, see beginPart). */
export async function filedParts(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('upload_parts')
    .leftJoin('attachment_blobs', 'attachment_blobs.id', 'upload_parts.blob_id')
    .select('upload_parts.blob_id')
    .where('attachment_blobs.id', 'is', null)
    .where('upload_parts.size', 'is not', null)
    .execute();
  return rows.map((row) => row.blob_id);
}

/** Gives an acknowledged part kept as a file its blob row in the database, for its bytes to be written there. */
export async function insertPartBlob(db: Db, blobId: string, now: number): Promise<void> {
  await insertStagedBlob(db, { id: blobId, import_id: null, store: 'database', source: '', created_at: now });
}

/**
 * Marks the app's uploads `ids` as read by an import until `until`, all or none:
 * false if one is being read by another import already (or is gone).
 */
export function claimUploads(db: Db, appId: string, ids: string[], now: number, until: number): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const claimed = await trx
      .updateTable('uploads')
      .set({ importing_until: until })
      .where('id', 'in', ids)
      .where('app_id', '=', appId)
      .where((eb) => eb.or([eb('importing_until', 'is', null), eb('importing_until', '<=', now)]))
      .returning('id')
      .execute();
    if (claimed.length === ids.length) return true;
    // Some were taken: the others are let go again, as they were.
    if (claimed.length > 0)
      await releaseUploads(
        trx,
        claimed.map((row) => row.id),
      );
    return false;
  });
}

/** Lets go of the uploads an import claimed (claimUploads) without importing them. */
export async function releaseUploads(db: Db, ids: string[]): Promise<void> {
  await db.updateTable('uploads').set({ importing_until: null }).where('id', 'in', ids).execute();
}

/** Chunk rows (a megabyte each) one statement deletes where the dialect deletes in batches. */
const CHUNKS_PER_DELETE = 8;

/**
 * Removes an upload with its parts and their bytes (the parts' trigger deletes
 * their blobs). Where the statements run on this thread (the dialect's
 * writeBatch), the upload is first expired, so that no one finds it any more,
 * and its chunks go a few at a time with other requests let in between:
 * SQLite's secure_delete overwrites every page it frees, and one statement
 * deleting a gigabyte held the event loop for seconds.
 */
export async function deleteUpload(db: Db, id: string): Promise<void> {
  if (dialectOf(db).writeBatch) {
    await db.updateTable('uploads').set({ expires_at: 0 }).where('id', '=', id).execute();
    const parts = await db.selectFrom('upload_parts').select('blob_id').where('upload_id', '=', id).execute();
    for (const { blob_id } of parts) while (await deleteFirstChunks(db, blob_id)) await nextTurn();
  }
  await db.deleteFrom('uploads').where('id', '=', id).execute();
}

/** Deletes the blob's first CHUNKS_PER_DELETE chunks; whether there were that many (more may be left). */
async function deleteFirstChunks(db: Db, blobId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('attachment_chunks')
    .where('blob_id', '=', blobId)
    .where('seq', 'in', (eb) =>
      eb
        .selectFrom('attachment_chunks')
        .select('seq')
        .where('blob_id', '=', blobId)
        .orderBy('seq')
        .limit(CHUNKS_PER_DELETE),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) === CHUNKS_PER_DELETE;
}

/** Removes the uploads `which` picks, each as deleteUpload does; how many. */
async function deleteUploadsWhere(
  db: Db,
  which: (eb: ExpressionBuilder<Database, 'uploads'>) => Expression<SqlBool>,
): Promise<number> {
  const picked = await db.selectFrom('uploads').select('id').where(which).execute();
  for (const { id } of picked) await deleteUpload(db, id);
  return picked.length;
}

/** Removes those of the uploads `ids` that are the app's and `pageSession`'s. */
export async function deleteUploadsOfSession(
  db: Db,
  { appId, pageSession }: { appId: string; pageSession: string },
  ids: string[],
): Promise<void> {
  await deleteUploadsWhere(db, (eb) =>
    eb.and([eb('id', 'in', ids), eb('app_id', '=', appId), eb('page_session', '=', pageSession)]),
  );
}

/** Removes the uploads that name this user. */
export async function deleteUploadsOfUser(db: Db, appId: string, userRef: string): Promise<void> {
  await deleteUploadsWhere(db, (eb) => eb.and([eb('app_id', '=', appId), eb('user_ref', '=', userRef)]));
}

/** Removes the uploads whose expiry has passed; how many. */
export const deleteExpiredUploads = (db: Db, now: number): Promise<number> =>
  deleteUploadsWhere(db, (eb) => eb('expires_at', '<=', now));
