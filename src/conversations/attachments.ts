import type { ByteRange } from '../attachments/attachment-store.ts';
import type { AttachmentStoreName } from '../db/database.ts';
import * as attachments from '../db/attachments.ts';
import { refreshStoredBytes } from '../db/connections.ts';
import { fileIdentity, rememberDeleted } from '../db/deleted-items.ts';
import { knowledgeKey, textKey } from '../import/staging/staged-blobs.ts';
import { writeTransaction } from '../db/transaction.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import type { Attachment } from 'parley-sdk';
import { attachmentJson } from '../wire/wire-json.ts';
import { isInlineImage } from '../attachments/inline-types.ts';
import type { Owner } from './ownership.ts';

/** A stored attachment: one whose bytes can be served. */
export type StoredAttachment = attachments.AttachmentRow & { blob: NonNullable<attachments.AttachmentRow['blob']> };

/** An attachment of the app (of its user, with `userRef`); 404 for another's, as for one that does not exist. */
export async function attachmentOf(deps: Pick<Deps, 'db'>, scope: { appId: string; userRef?: string }, id: string) {
  const attachment = await attachments.findAttachment(deps.db, scope, id);
  if (!attachment) throw new ParleyError('attachmentNotFound');
  return attachment;
}

/** As attachmentOf, for its bytes: one the export named without holding it has none to serve, 404. */
export async function storedAttachmentOf(
  deps: Pick<Deps, 'db'>,
  scope: { appId: string; userRef?: string },
  id: string,
): Promise<StoredAttachment> {
  const attachment = await attachmentOf(deps, scope, id);
  if (!attachment.blob) throw new ParleyError('attachmentNotFound');
  return attachment as StoredAttachment;
}

/**
 * A blob's bytes (those of `range` only, with one), from the store its row
 * names: the one the blob was written to, whichever is configured now.
 */
export function blobBytes(
  deps: Pick<Deps, 'attachments'>,
  blob: { id: string; store: AttachmentStoreName },
  range?: ByteRange,
): AsyncIterable<Uint8Array> {
  return deps.attachments.forBlob(blob.store).read(blob.id, range);
}

/**
 * The start of a stored text (a document's pasted text), at most `maxBytes` of
 * it, decoded as UTF-8 without a character cut in two; `complete` when that
 * was all of it.
 */
export async function textStart(
  deps: Pick<Deps, 'attachments'>,
  blob: { id: string; store: AttachmentStoreName; size: number },
  maxBytes: number,
): Promise<{ text: string; complete: boolean }> {
  const decoder = new TextDecoder();
  let text = '';
  // Never a range past the end: S3 refuses one of an empty object.
  for await (const chunk of blobBytes(deps, blob, { start: 0, end: Math.min(maxBytes, blob.size) }))
    text += decoder.decode(chunk, { stream: true });
  const complete = blob.size <= maxBytes;
  // Cut short, a character's first bytes are left in the decoder rather than shown as U+FFFD.
  return { text: complete ? text + decoder.decode() : text, complete };
}

/** How much of a document's text the manage page shows in place; the rest is a download. */
export const DOCUMENT_PREVIEW_BYTES = 4096;

/** An attachment as the manage page shows it. */
export interface AttachmentView extends Attachment {
  /** A raster image it may show in an `<img>` (never SVG). */
  inlineImage: boolean;
  /** A stored document's first DOCUMENT_PREVIEW_BYTES, as text. */
  preview?: { text: string; complete: boolean };
}

/** An attachment as the manage page shows it: a document with the start of its text. */
export async function attachmentView(
  deps: Pick<Deps, 'attachments'>,
  row: Omit<attachments.AttachmentListRow, 'conversation_id' | 'message_index'>,
): Promise<AttachmentView> {
  const stored = row.blob_id !== null;
  return {
    ...attachmentJson(row),
    inlineImage: stored && row.kind === 'image' && isInlineImage(row.content_type, row.sniffed_type!),
    ...(stored && row.kind === 'document'
      ? {
          preview: await textStart(
            deps,
            { id: row.blob_id!, store: row.store!, size: row.size! },
            DOCUMENT_PREVIEW_BYTES,
          ),
        }
      : {}),
  };
}

/** A conversation's attachments as the manage page shows them, by message index. */
export async function attachmentViews(
  deps: Pick<Deps, 'db' | 'attachments'>,
  conversationId: string,
): Promise<Map<number, AttachmentView[]>> {
  const byMessage = new Map<number, AttachmentView[]>();
  for (const row of await attachments.attachmentsOfConversations(deps.db, [conversationId])) {
    const view = await attachmentView(deps, row);
    const views = byMessage.get(row.message_index);
    if (views) views.push(view);
    else byMessage.set(row.message_index, [view]);
  }
  return byMessage;
}

/**
 * The person deletes one attachment; the bytes go in the same transaction when
 * no other message shows them. No later import of it brings it back.
 */
export async function deleteAttachment(
  deps: Pick<Deps, 'db' | 'clock' | 'erased'>,
  owner: Owner,
  attachmentId: string,
) {
  const deleted = await writeTransaction(deps.db, async (db) => {
    const attachment = await attachmentOf({ db }, owner, attachmentId);
    const { ref, conversation, project } = await fileIdentity(db, attachment.id);
    const now = isoTime(deps.clock.now());
    await rememberDeleted(
      db,
      'attachment',
      { connection_id: attachment.connection_id, external_id: textKey(conversation ?? knowledgeKey(project!), ref) },
      now,
    );
    await attachments.deleteAttachmentRow(db, attachment, now);
    await refreshStoredBytes(db, attachment.connection_id);
    return attachment;
  });
  deps.erased?.();
  return deleted;
}
