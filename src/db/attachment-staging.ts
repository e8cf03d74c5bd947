import { sql } from 'kysely';
import type { AttachmentBlobsTable, AttachmentsTable, Db } from './database.ts';
import { fixedSql } from './fixed-sql.ts';
import { andAfter, countRows, rowsOf } from './sql-fragments.ts';

/** What linking needs of a blob: where it is and what it holds. */
export type BlobFacts = Pick<AttachmentBlobsTable, 'id' | 'sha256' | 'size' | 'content_type' | 'source'>;

/** A blob's row, written before its first byte: staged under its import, no connection's yet. */
export async function insertStagedBlob(
  db: Db,
  blob: Pick<AttachmentBlobsTable, 'id' | 'import_id' | 'store' | 'source' | 'created_at'>,
): Promise<void> {
  await fixedSql(db, 'INSERT INTO attachment_blobs (id, import_id, store, source, created_at) VALUES (?, ?, ?, ?, ?)', [
    blob.id,
    blob.import_id,
    blob.store,
    blob.source,
    blob.created_at,
  ]);
}

/** A staged blob's bytes are all written: what they hash to, their size and type. */
export async function completeStagedBlob(
  db: Db,
  blob: Pick<AttachmentBlobsTable, 'id' | 'sha256' | 'size' | 'content_type'>,
): Promise<void> {
  await fixedSql(db, 'UPDATE attachment_blobs SET sha256 = ?, size = ?, content_type = ? WHERE id = ?', [
    blob.sha256,
    blob.size,
    blob.content_type,
    blob.id,
  ]);
}

/** The blobs an import wrote, oldest first. */
export const stagedBlobs = (db: Db, importId: string) =>
  fixedSql<BlobFacts>(
    db,
    'SELECT id, sha256, size, content_type, source FROM attachment_blobs WHERE import_id = ? ORDER BY created_at, id',
    [importId],
  ).then(numericSizes);

/** The connection's blob with these bytes, if it has one. */
export const blobOfContent = (db: Db, connectionId: string, sha256: string) =>
  fixedSql<BlobFacts>(
    db,
    'SELECT id, sha256, size, content_type, source FROM attachment_blobs WHERE connection_id = ? AND sha256 = ?',
    [connectionId, sha256],
  ).then((rows) => numericSizes(rows)[0]);

/** The connection's blob read from the zip member `source` of `size` bytes, if it has one. */
export const blobOfSource = (db: Db, connectionId: string, source: string, size: number) =>
  fixedSql<BlobFacts>(
    db,
    'SELECT id, sha256, size, content_type, source FROM attachment_blobs WHERE connection_id = ? AND source = ? AND size = ? ORDER BY id LIMIT 1',
    [connectionId, source, size],
  ).then((rows) => numericSizes(rows)[0]);

/** A staged blob becomes the connection's. */
export async function adoptBlob(db: Db, blobId: string, connectionId: string): Promise<void> {
  await fixedSql(db, 'UPDATE attachment_blobs SET connection_id = ?, import_id = NULL WHERE id = ?', [
    connectionId,
    blobId,
  ]);
}

export async function deleteBlob(db: Db, blobId: string): Promise<void> {
  await fixedSql(db, 'DELETE FROM attachment_blobs WHERE id = ?', [blobId]);
}

/**
 * The zip members (blobKey's name and size) whose blobs the user's
 * connections hold — the named one, or those of the provider, or all open
 * ones: a re-import does not read them again.
 */
export async function knownBlobs(
  db: Db,
  where: { appId: string; userRef: string; connectionId?: string | undefined; provider?: string | undefined },
): Promise<Array<{ source: string; size: number }>> {
  const rows = await db
    .selectFrom('attachment_blobs')
    .innerJoin('connections', 'connections.id', 'attachment_blobs.connection_id')
    .innerJoin('users', 'users.id', 'connections.user_id')
    .select(['attachment_blobs.source', 'attachment_blobs.size'])
    .where('users.app_id', '=', where.appId)
    .where('users.user_ref', '=', where.userRef)
    .where('connections.status', '<>', 'revoked')
    .where('attachment_blobs.source', '<>', '')
    .$if(where.connectionId !== undefined, (query) => query.where('connections.id', '=', where.connectionId!))
    .$if(where.provider !== undefined, (query) => query.where('connections.provider', '=', where.provider!))
    .execute();
  return rows.map((row) => ({ source: row.source, size: Number(row.size) }));
}

/** A staged conversation's attachments as the export names them, and its node ids' messages. */
export interface StagedAttachmentRow {
  external_id: string;
  conversation_id: string;
  attachments: string | null;
  message_ids: string | null;
}

const STAGED_ATTACHMENT_COLUMNS = sql`s.external_id, c.id AS conversation_id, s.attachments, s.message_ids`;

/** The FROM and WHERE of the import's staged conversations (`s`) read, not skipped as unchanged, as stored in the connection (`c`). */
const stagedInConnection = (importId: string, connectionId: string) =>
  sql`import_staging s JOIN conversations c ON c.connection_id = ${connectionId} AND c.external_id = s.external_id
     WHERE s.import_id = ${importId} AND s.payload IS NOT NULL`;

/** The staged conversations (read, not skipped as unchanged) with these external ids, as stored in the connection. */
export async function stagedByExternalIds(
  db: Db,
  importId: string,
  connectionId: string,
  externalIds: string[],
): Promise<StagedAttachmentRow[]> {
  if (externalIds.length === 0) return [];
  return rowsOf<StagedAttachmentRow>(
    db,
    sql`SELECT ${STAGED_ATTACHMENT_COLUMNS} FROM ${stagedInConnection(importId, connectionId)}
     AND s.external_id IN (${sql.join(externalIds)})`,
  );
}

/** The next `limit` staged conversations with attachments after `after` (by external id), as stored in the connection. */
export const nextStagedWithAttachments = (
  db: Db,
  importId: string,
  connectionId: string,
  after: string | undefined,
  limit: number,
) =>
  rowsOf<StagedAttachmentRow>(
    db,
    sql`SELECT ${STAGED_ATTACHMENT_COLUMNS} FROM ${stagedInConnection(importId, connectionId)}
     AND s.attachments IS NOT NULL${andAfter('s.external_id', after)} ORDER BY s.external_id LIMIT ${limit}`,
  );

/** A staged conversation's attachments, with those the zip's library links to it. */
export async function restageAttachments(
  db: Db,
  importId: string,
  externalId: string,
  attachments: string,
): Promise<void> {
  await fixedSql(db, 'UPDATE import_staging SET attachments = ? WHERE import_id = ? AND external_id = ?', [
    attachments,
    importId,
    externalId,
  ]);
}

/**
 * Removes the attachments of the conversations the import read again and found
 * none in: what a message no longer shows goes (its blob with it, by trigger,
 * once nothing else shows it).
 */
export async function clearAttachmentsOfStagedWithout(db: Db, importId: string, connectionId: string): Promise<void> {
  await fixedSql(
    db,
    `DELETE FROM attachments WHERE connection_id = ? AND conversation_id IN (
       SELECT c.id FROM import_staging s JOIN conversations c ON c.connection_id = ? AND c.external_id = s.external_id
       WHERE s.import_id = ? AND s.payload IS NOT NULL AND s.attachments IS NULL)`,
    [connectionId, connectionId, importId],
  );
}

/** An attachment's row as the parameters of `INSERT INTO attachments (${ATTACHMENT_COLUMNS})`. */
export const attachmentParameters = (row: Omit<AttachmentsTable, 'project_id'>) => [
  row.id,
  row.connection_id,
  row.conversation_id,
  row.message_index,
  row.position,
  row.ref,
  row.name,
  row.content_type,
  row.size,
  row.kind,
  row.blob_id,
  row.created_at,
];

/** The columns attachmentParameters gives, in its order. */
export const ATTACHMENT_COLUMNS =
  'id, connection_id, conversation_id, message_index, position, ref, name, content_type, size, kind, blob_id, created_at';

/**
 * Writes the attachments of some conversations: each by (conversation, ref), so
 * one a re-import finds again keeps its id; those of the conversations' refs no
 * longer shown go.
 */
export async function replaceAttachments(db: Db, conversationIds: string[], rows: AttachmentsTable[]): Promise<void> {
  for (let at = 0; at < rows.length; at += ATTACHMENTS_PER_STATEMENT) {
    const batch = rows.slice(at, at + ATTACHMENTS_PER_STATEMENT);
    await fixedSql(
      db,
      `INSERT INTO attachments (${ATTACHMENT_COLUMNS})
       VALUES ${'(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), '.repeat(batch.length).slice(0, -2)}
       ON CONFLICT (conversation_id, ref) DO UPDATE SET
         message_index = excluded.message_index, position = excluded.position, name = excluded.name, content_type = excluded.content_type,
         size = excluded.size, kind = excluded.kind, blob_id = excluded.blob_id`,
      batch.flatMap(attachmentParameters),
    );
  }
  const kept = new Set(rows.map((row) => `${row.conversation_id}\n${row.ref}`));
  for (let at = 0; at < conversationIds.length; at += ATTACHMENTS_PER_STATEMENT) {
    const ids = conversationIds.slice(at, at + ATTACHMENTS_PER_STATEMENT);
    const stale = (
      await fixedSql<{ id: string; conversation_id: string; ref: string }>(
        db,
        `SELECT id, conversation_id, ref FROM attachments WHERE conversation_id IN (${ids.map(() => '?').join(', ')})`,
        ids,
      )
    ).filter((row) => !kept.has(`${row.conversation_id}\n${row.ref}`));
    for (let from = 0; from < stale.length; from += ATTACHMENTS_PER_STATEMENT) {
      const gone = stale.slice(from, from + ATTACHMENTS_PER_STATEMENT).map((row) => row.id);
      await fixedSql(db, `DELETE FROM attachments WHERE id IN (${gone.map(() => '?').join(', ')})`, gone);
    }
  }
}

/** Rows per INSERT: 12 values each, well under every driver's limit on parameters. */
const ATTACHMENTS_PER_STATEMENT = 50;

/**
 * Removes the connection's blobs no attachment shows: those of this import
 * that no message links to, and those an update moved an attachment off.
 */
export async function deleteUnreferencedBlobs(db: Db, connectionId: string): Promise<void> {
  await fixedSql(
    db,
    `DELETE FROM attachment_blobs WHERE connection_id = ?
       AND NOT EXISTS (SELECT 1 FROM attachments a WHERE a.blob_id = attachment_blobs.id)`,
    [connectionId],
  );
}

export const countAttachments = (db: Db, connectionId: string) =>
  countRows(db, sql`attachments WHERE connection_id = ${connectionId}`);

const numericSizes = (rows: BlobFacts[]) => rows.map((row) => ({ ...row, size: Number(row.size) }));
