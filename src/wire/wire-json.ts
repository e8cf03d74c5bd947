import type { Attachment, ConversationSummary, Memory, Project } from 'parley-sdk';
import { attachmentContentType } from '../attachments/content-type.ts';
import type { AttachmentListRow, KnowledgeListRow } from '../db/attachments.ts';
import type { ListedConnectionRow } from '../db/connections.ts';
import type { ConversationBytesRow, ConversationSummaryRow } from '../db/conversations.ts';
import type { MemoryRow } from '../db/memories.ts';
import type { ProjectRow } from '../db/projects.ts';
import { messageEnds, writeWithFields, writtenLength } from './message-fields.ts';

const encoder = new TextEncoder();
const NULL_JSON = encoder.encode('null');
const NO_ATTACHMENTS = encoder.encode('"attachments":[]');

/** A connection as the API answers it; the manage page's download writes the same. */
export const connectionJson = (row: ListedConnectionRow) => ({
  id: row.id,
  provider: row.provider,
  status: row.status,
  capturedAt: row.captured_at,
  lastSyncAt: row.last_sync_at,
  conversationCount: row.conversation_count,
  memoryCount: Number(row.memory_count),
  projectCount: Number(row.project_count),
});

/** A conversation without its payload (`fields=summary`), as the API answers it. */
export const conversationSummaryJson = (row: ConversationSummaryRow): ConversationSummary => ({
  id: row.id,
  external_id: row.external_id,
  title: row.title,
  update_time: row.update_time,
  message_count: row.message_count,
});

/** A memory as the API answers it. */
export const memoryJson = (row: MemoryRow): Memory => ({
  id: row.id,
  externalId: row.external_id,
  scope: row.scope,
  projectId: row.project_id,
  title: row.title,
  content: row.content,
  updatedAt: row.updated_at,
});

/** A project as the API answers it, with its knowledge files (those of the page's projects). */
export function projectJson(row: ProjectRow, knowledge: readonly KnowledgeListRow[]): Project {
  return {
    id: row.id,
    externalId: row.external_id,
    name: row.name,
    description: row.description,
    instructions: row.instructions,
    knowledge: knowledge.filter((file) => file.project_id === row.id).map(attachmentJson),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** An attachment as a message (or a project) lists it. */
export const attachmentJson = (row: Omit<AttachmentListRow, 'conversation_id' | 'message_index'>): Attachment => ({
  id: row.id,
  name: row.name,
  contentType: attachmentContentType(row.content_type),
  size: row.size,
  kind: row.kind,
  stored: row.blob_id !== null,
});

/** Conversations read for an answer, with the attachments of their messages (one query for the lot). */
export interface ConversationsWithAttachments {
  rows: readonly ConversationBytesRow[];
  attachments: readonly AttachmentListRow[];
}

/** Each conversation's `"attachments":[…]` members, by message index. */
function attachmentFields(attachments: readonly AttachmentListRow[]): Map<string, Map<number, Uint8Array>> {
  const grouped = new Map<string, Map<number, AttachmentListRow[]>>();
  for (const row of attachments) {
    const messages = grouped.get(row.conversation_id) ?? new Map<number, AttachmentListRow[]>();
    grouped.set(row.conversation_id, messages);
    const rows = messages.get(row.message_index);
    if (rows) rows.push(row);
    else messages.set(row.message_index, [row]);
  }
  return new Map(
    [...grouped].map(([conversationId, messages]) => [
      conversationId,
      new Map(
        [...messages].map(([index, rows]) => [
          index,
          encoder.encode(`"attachments":${JSON.stringify(rows.map(attachmentJson))}`),
        ]),
      ),
    ]),
  );
}

/**
 * Conversations as the API answers them, comma-separated, as one part of a JSON
 * text. Payloads are stored as the JSON we wrote; splicing their bytes in
 * avoids parsing, re-serialising and re-encoding every conversation. Each
 * message gains its `attachments` (`[]` for most) the same way, before its
 * closing brace; everything is written into one buffer, with no copy or part
 * per message.
 */
export function conversationsJson(
  { rows, attachments }: ConversationsWithAttachments,
  leadingComma = false,
): Uint8Array {
  const fields = attachmentFields(attachments);
  const pieces = rows.map((row, i) => {
    const ofConversation = fields.get(row.id);
    const json = row.payload ?? NULL_JSON;
    const ends = row.payload ? messageEnds(row.payload) : [];
    return {
      head: encoder.encode(
        `${leadingComma || i ? ',' : ''}{"id":${JSON.stringify(row.id)},"external_id":${JSON.stringify(row.external_id)},"title":${JSON.stringify(row.title)},"payload":`,
      ),
      payload: { json, ends, fields: ends.map((_, index) => ofConversation?.get(index) ?? NO_ATTACHMENTS) },
      tail: encoder.encode(
        `,"update_time":${JSON.stringify(row.update_time)}${row.project_id === null ? '' : `,"projectId":${JSON.stringify(row.project_id)}`}}`,
      ),
    };
  });
  const out = new Uint8Array(
    pieces.reduce((length, piece) => length + piece.head.length + writtenLength(piece.payload) + piece.tail.length, 0),
  );
  let at = 0;
  for (const { head, payload, tail } of pieces) {
    out.set(head, at);
    at = writeWithFields(out, at + head.length, payload);
    out.set(tail, at);
    at += tail.length;
  }
  return out;
}
