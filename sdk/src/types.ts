/** The providers Parley imports from. */
export const PROVIDERS = [
  'openai',
  'anthropic',
  'google',
  'microsoft',
  'xai',
  'deepseek',
  'perplexity',
  'duckduckgo',
] as const;
export type Provider = (typeof PROVIDERS)[number];

export const CONNECTION_STATUSES = ['active', 'needs_reauth', 'revoked'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export interface Connection {
  id: string;
  provider: Provider;
  status: ConnectionStatus;
  /** ISO 8601: when the connection was first made. */
  capturedAt: string;
  /** ISO 8601: the last import's end; null before any. */
  lastSyncAt: string | null;
  conversationCount: number;
}

/** `GET /api/conversations?userRef=`: newest capture first. */
export interface ConnectionList {
  connections: Connection[];
  userRef: string;
}

export const ROLES = ['user', 'assistant', 'system', 'tool'] as const;
export type Role = (typeof ROLES)[number];

export interface Message {
  role: Role;
  /** Markdown. */
  content: string;
  /** ISO 8601 UTC, when the export says. */
  timestamp: string | null;
  /** The model that wrote an assistant message, where the export names it. */
  model?: string;
  /** The reasoning shown with an assistant answer (Markdown), kept out of `content`; absent where the export has none. */
  reasoning?: string;
  /** The files and images the message showed; empty where it showed none. */
  attachments: Attachment[];
}

export type AttachmentKind = 'image' | 'file' | 'audio' | 'document';

/** A file or image as a message showed it. Its bytes: `GET /api/attachments/{id}` (`client.attachment(id)`). */
export interface Attachment {
  id: string;
  /** The name the export gave it. */
  name: string;
  /** From the export, or sniffed from the bytes where it gave none. */
  contentType: string;
  /** Bytes; null when not stored and the export does not say. */
  size: number | null;
  /** `document`: text the export holds (a pasted or attached document). */
  kind: AttachmentKind;
  /** False: the export named the file but did not hold its bytes. */
  stored: boolean;
}

/** A conversation's messages, normalised from whichever provider's export. */
export interface ConversationPayload {
  /** '' where the export has none. */
  title: string;
  messages: Message[];
}

export interface Conversation {
  id: string;
  /** The provider's id of the conversation. */
  external_id: string;
  title: string | null;
  /** The interface allows null; every conversation Parley imports has one. */
  payload: ConversationPayload | null;
  /** ISO 8601 UTC, the provider's last update. */
  update_time: string | null;
}

/** `GET /api/conversations?connectionId=`: newest update first. */
export interface ConversationPage {
  conversations: Conversation[];
  total: number;
  limit: number;
  offset: number;
}

/** `POST /api/ingest-export`. */
export interface IngestResult {
  ok: true;
  userRef: string;
  connectionId: string;
  provider: Provider;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  conversationCount: number;
  /** The connection's attachments (files and images of its messages) after the import. */
  attachmentCount: number;
}

/** `POST /api/purge`: what was deleted. */
export interface PurgeResult {
  ok: true;
  deleted: { users: number; connections: number; conversations: number };
}

interface EventOf<Type extends string, Data> {
  type: Type;
  /** ISO 8601: when the change happened. */
  timestamp: string;
  data: { userRef: string } & Data;
}

/** Every webhook Parley sends; `type` tells which. */
export type ParleyEvent =
  | EventOf<'connection.created', { connectionId: string; provider: Provider }>
  | EventOf<
      'connection.synced',
      {
        connectionId: string;
        provider: Provider;
        created: number;
        updated: number;
        unchanged: number;
        skipped: number;
        conversationCount: number;
        attachmentCount: number;
      }
    >
  | EventOf<'connection.needs_reauth', { connectionId: string }>
  | EventOf<'connection.revoked', { connectionId: string; conversationsDeleted: number }>
  | EventOf<'connection.purged', { connectionId: string; conversations: number }>
  | EventOf<'user.purged', { users: number; connections: number; conversations: number }>
  | EventOf<
      'conversation.deleted',
      { connectionId: string; conversationId: string; externalId: string; conversationCount: number }
    >;

export type EventType = ParleyEvent['type'];
