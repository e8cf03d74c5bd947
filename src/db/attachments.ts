import { sql } from 'kysely';
import type { AttachmentKind, AttachmentStoreName, Db } from './database.ts';
import { fixedSql } from './fixed-sql.ts';
import { andAfter, rowsOf } from './sql-fragments.ts';

/** An attachment as a message lists it: its size is its blob's where stored (the export's claim otherwise). */
export interface AttachmentListRow {
  id: string;
  conversation_id: string;
  message_index: number;
  name: string;
  content_type: string;
  size: number | null;
  kind: AttachmentKind;
  /** The blob's id; null when not stored. */
  blob_id: string | null;
  /** The blob's store and the type sniffed from its bytes; null when not stored. */
  store: AttachmentStoreName | null;
  sniffed_type: string | null;
}

/** Attachments in the order a message lists them: the export's order within the conversation (as written), then id. */
const LIST_ORDER = 'a.conversation_id, a.message_index, a.position, a.id';

const LIST_COLUMNS = `a.id, a.conversation_id, a.message_index, a.name, a.content_type,
  COALESCE(b.size, a.size) AS size, a.kind, a.blob_id, b.store, b.content_type AS sniffed_type`;

/**
 * The attachments of these conversations (a page of the listing), in one query;
 * none for most pages, whose conversations hold no files.
 */
export async function attachmentsOfConversations(
  db: Db,
  conversationIds: readonly string[],
): Promise<AttachmentListRow[]> {
  if (conversationIds.length === 0) return [];
  return fixedSql<AttachmentListRow>(
    db,
    `SELECT ${LIST_COLUMNS} FROM attachments a LEFT JOIN attachment_blobs b ON b.id = a.blob_id
     WHERE a.conversation_id IN (${conversationIds.map(() => '?').join(', ')}) ORDER BY ${LIST_ORDER}`,
    conversationIds,
  );
}

/** A project's knowledge file as its project lists it. */
export type KnowledgeListRow = Omit<AttachmentListRow, 'conversation_id' | 'message_index'> & { project_id: string };

/** The knowledge files of these projects (a page of the listing), in the export's order, in one query. */
export async function knowledgeOfProjects(db: Db, projectIds: readonly string[]): Promise<KnowledgeListRow[]> {
  if (projectIds.length === 0) return [];
  return fixedSql<KnowledgeListRow>(
    db,
    `SELECT ${LIST_COLUMNS}, a.project_id FROM attachments a LEFT JOIN attachment_blobs b ON b.id = a.blob_id
     WHERE a.project_id IN (${projectIds.map(() => '?').join(', ')}) ORDER BY a.project_id, a.position, a.id`,
    projectIds,
  );
}

/** One attachment with what serving its bytes needs: its blob (absent when not stored) and where the bytes are. */
export interface AttachmentRow extends AttachmentListRow {
  connection_id: string;
  /** Whose it is: the access log counts a read of it. */
  user_id: string;
  blob: { id: string; store: AttachmentStoreName; sha256: string; size: number; content_type: string } | null;
}

/**
 * An attachment of one app (of one of its users, `userRef` given); undefined
 * for one of another app or user, as for one that does not exist.
 */
export async function findAttachment(
  db: Db,
  scope: { appId: string; userRef?: string },
  attachmentId: string,
): Promise<AttachmentRow | undefined> {
  const ofUserRef = scope.userRef === undefined ? sql`` : sql` AND u.user_ref = ${scope.userRef}`;
  const [row] = await rowsOf<AttachmentListRow & { connection_id: string; user_id: string; sha256: string | null }>(
    db,
    sql`SELECT ${sql.raw(LIST_COLUMNS)}, a.connection_id, u.id AS user_id, b.sha256
     FROM attachments a
     JOIN connections c ON c.id = a.connection_id
     JOIN users u ON u.id = c.user_id
     LEFT JOIN attachment_blobs b ON b.id = a.blob_id
     WHERE a.id = ${attachmentId} AND u.app_id = ${scope.appId}${ofUserRef}`,
  );
  if (!row) return undefined;
  const { sha256, ...attachment } = row;
  return {
    ...attachment,
    blob:
      attachment.blob_id === null
        ? null
        : {
            id: attachment.blob_id,
            store: attachment.store!,
            sha256: sha256!,
            size: attachment.size!,
            content_type: attachment.sniffed_type!,
          },
  };
}

/**
 * Deletes one attachment; its blob goes with it when no other attachment shows
 * it (schema.sql's trigger). Its conversation counts as changed at `changedAt`
 * (ISO 8601): the listing's `updatedSince` then shows it without the file. Call
 * it in a transaction.
 */
export async function deleteAttachmentRow(
  db: Db,
  attachment: { id: string; conversation_id: string },
  changedAt: string,
): Promise<void> {
  await fixedSql(db, 'DELETE FROM attachments WHERE id = ?', [attachment.id]);
  await fixedSql(db, 'UPDATE conversations SET changed_at = ? WHERE id = ?', [changedAt, attachment.conversation_id]);
}

/** A stored attachment in a download: which blob to read, and the name it goes out under. */
export interface StoredAttachmentRow {
  id: string;
  name: string;
  content_type: string;
  kind: AttachmentKind;
  blob_id: string;
  store: AttachmentStoreName;
  size: number;
}

/**
 * Up to `limit` of the stored attachments of a connection after `afterId` (from
 * the first without it), by id: keyset pages for reading all of them, however many.
 */
export async function storedAttachmentsOfConnection(
  db: Db,
  connectionId: string,
  afterId: string | undefined,
  limit: number,
): Promise<StoredAttachmentRow[]> {
  const rows = await rowsOf<StoredAttachmentRow>(
    db,
    sql`SELECT a.id, a.name, a.content_type, a.kind, a.blob_id, b.store, b.size
     FROM attachments a JOIN attachment_blobs b ON b.id = a.blob_id
     WHERE a.connection_id = ${connectionId}${andAfter('a.id', afterId)} ORDER BY a.id LIMIT ${limit}`,
  );
  return rows.map((row) => ({ ...row, size: Number(row.size) }));
}
