import type { ConnectionRow } from '../db/connections.ts';
import type { ConversationBytesRow } from '../db/conversations.ts';

const encoder = new TextEncoder();
const NULL_JSON = encoder.encode('null');

/** A connection as the API answers it; the manage page's download writes the same. */
export const connectionJson = (row: ConnectionRow) => ({
  id: row.id,
  provider: row.provider,
  status: row.status,
  capturedAt: row.captured_at,
  lastSyncAt: row.last_sync_at,
  conversationCount: row.conversation_count,
});

/**
 * Conversations as the API answers them, comma-separated, as the parts of one
 * JSON text. Payloads are stored as the JSON we wrote; splicing their bytes in
 * avoids parsing, re-serialising and re-encoding every conversation.
 */
export function conversationsJsonParts(rows: readonly ConversationBytesRow[], leadingComma = false): Uint8Array[] {
  return rows.flatMap((row, i) => [
    encoder.encode(
      `${leadingComma || i ? ',' : ''}{"id":${JSON.stringify(row.id)},"external_id":${JSON.stringify(row.external_id)},"title":${JSON.stringify(row.title)},"payload":`,
    ),
    row.payload ?? NULL_JSON,
    encoder.encode(`,"update_time":${JSON.stringify(row.update_time)}}`),
  ]);
}
