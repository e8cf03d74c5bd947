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
  'mistral',
  'meta',
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
  /** What the assistant remembers of the person (`GET /api/memories`). */
  memoryCount: number;
  /** The projects the person set up (`GET /api/projects`). */
  projectCount: number;
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
  /** The project it belongs to (`listProjects`); absent where the export links none (ChatGPT's projects do). */
  projectId?: string;
}

/** `GET /api/conversations?connectionId=`: newest update first. */
export interface ConversationPage {
  conversations: Conversation[];
  total: number;
  limit: number;
  offset: number;
}

/** What the assistant remembers of the person, as the export wrote it. */
export interface Memory {
  id: string;
  /** The export's id: a newer export of the same memory updates it. */
  externalId: string;
  /** `account`: of the person; `project`: of one of their projects. */
  scope: 'account' | 'project';
  /** A project memory's project; null until that project is imported. */
  projectId: string | null;
  /** The memory file's path, or its project's name; else null. */
  title: string | null;
  /** Markdown, exactly as exported. */
  content: string;
  /** ISO 8601 UTC, the export's time of it, where it gives one. */
  updatedAt: string | null;
}

/** `GET /api/memories?connectionId=`: newest update first. */
export interface MemoryPage {
  memories: Memory[];
  total: number;
  limit: number;
  offset: number;
}

/** A project the person set up: its instructions and knowledge files. */
export interface Project {
  id: string;
  externalId: string;
  /** Null where the export does not name it (ChatGPT). */
  name: string | null;
  description: string | null;
  /** The project's instructions to the assistant. */
  instructions: string | null;
  /** Its knowledge files, bytes exactly as exported: `client.attachment(id)`. */
  knowledge: Attachment[];
  /** ISO 8601 UTC, the export's times. */
  createdAt: string | null;
  updatedAt: string | null;
}

/** `GET /api/projects?connectionId=`: newest update first. */
export interface ProjectPage {
  projects: Project[];
  total: number;
  limit: number;
  offset: number;
}

/** A conversation without its payload (`fields: 'summary'`): for paging through thousands of titles. */
export interface ConversationSummary extends Omit<Conversation, 'payload'> {
  /** How many messages its payload holds. */
  message_count: number;
}

/** `GET /api/conversations?connectionId=&fields=summary`. */
export interface ConversationSummaryPage extends Omit<ConversationPage, 'conversations'> {
  conversations: ConversationSummary[];
}

/** `POST /api/agent-tokens`: a token that reads one user's data over `/mcp`, shown only now. */
export interface AgentToken {
  token: string;
  /** ISO 8601 UTC: when it stops working. */
  expiresAt: string;
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
  /** The connection's attachments (files and images of its messages, projects' knowledge files) after the import. */
  attachmentCount: number;
  memories: ImportCounts;
  projects: ImportCounts;
  /** The connection's memories and projects after the import. */
  memoryCount: number;
  projectCount: number;
  /** What the export holds that Parley does not keep, so nobody believes it was kept. */
  notRead: NotRead[];
}

/**
 * One kind of content an export held that Parley deliberately does not keep:
 * `what` a short English noun phrase (`"design chats"`, `"voice recordings"`,
 * more may come), `count` how many files or records.
 */
export interface NotRead {
  what: string;
  count: number;
}

/** How an import's memories, or its projects, went: new, changed, or as stored. */
export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
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
        memories: ImportCounts;
        projects: ImportCounts;
        memoryCount: number;
        projectCount: number;
        notRead: NotRead[];
      }
    >
  | EventOf<'connection.needs_reauth', { connectionId: string }>
  | EventOf<'connection.revoked', { connectionId: string; conversationsDeleted: number }>
  | EventOf<'connection.purged', { connectionId: string; conversations: number }>
  | EventOf<'user.purged', { users: number; connections: number; conversations: number }>
  | EventOf<
      'conversation.deleted',
      {
        connectionId: string;
        conversationId: string;
        externalId: string;
        conversationCount: number;
        memoryCount: number;
        projectCount: number;
      }
    >
  /** Sent only by `parley webhook test`, to check an endpoint receives and verifies: it changes nothing. */
  | { type: 'webhook.test'; timestamp: string; data: { appId: string } };

export type EventType = ParleyEvent['type'];
