import type { ColumnType, Generated, Kysely } from 'kysely';
import type { AttachmentKind, ConnectionStatus } from 'parley-sdk';

export interface AppsTable {
  id: string;
  name: string;
  secret: string;
  secret_hash: string;
  allowed_scopes: string;
  created_at: string;
  webhook_url: string | null;
  webhook_secret: string | null;
  /** The brand the hosted pages show: the name (else `name`), #rrggbb, the privacy policy's URL. */
  display_name: string | null;
  accent_color: string | null;
  privacy_url: string | null;
}

export interface AppLogosTable {
  app_id: string;
  content_type: string;
  bytes: Uint8Array;
  sha256: string;
  updated_at: string;
}

export interface AppReturnOriginsTable {
  app_id: string;
  origin: string;
}

export interface ApiKeysTable {
  id: string;
  app_id: string;
  key_hash: string;
  start: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface UsersTable {
  id: string;
  app_id: string;
  user_ref: string;
  created_at: string;
  /** Set on the user that an import's own connection belongs to while the import runs (schema.sql, version 13). */
  import_id: ColumnType<string | null, string | undefined, never>;
}

export type { ConnectionStatus };

export interface ConnectionsTable {
  id: string;
  user_id: string;
  provider: string;
  status: ConnectionStatus;
  captured_at: string;
  last_sync_at: string | null;
  conversation_count: number;
  /** Its conversations' payloads and its files, in bytes (schema.sql, version 14). */
  stored_bytes: ColumnType<number, number | undefined, number>;
}

export interface ConversationsTable {
  id: string;
  connection_id: string;
  external_id: string;
  title: string | null;
  payload: string | null;
  update_time: string | null;
  created_at: string;
  /** ISO 8601, Parley's clock: when the conversation was last stored or changed. */
  changed_at: string;
  /** The SHA-256 of the conversation's bytes in the export it last came from and the version of the reader that read them (`<hash>.<version>`): unchanged bytes read by the current reader are not read again. */
  source_hash: string | null;
  /** The project it belongs to (schema.sql, version 16): ChatGPT's projects group conversations. */
  project_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** On SQLite in the counters database (see rate-buckets.ts). */
export interface RateBucketsTable {
  app_id: string;
  window_start: number;
  count: number;
}

export interface UsedLinksTable {
  jti: string;
  app_id: string;
  used_at: string;
  expires_at: string;
}

export interface ImportStagingTable {
  import_id: string;
  external_id: string;
  conversation_id: string;
  title: string | null;
  /**
   * Null for a conversation whose bytes hash to the stored one's: counted, never
   * written. `''` for one written into the import's own connection (see import-connection.ts).
   */
  payload: string | null;
  update_time: string | null;
  /** The SHA-256 of the conversation's bytes in the export, if they were hashed. */
  source_hash: string | null;
  /** The file of the export it came from, and its place in the upload: of two copies, the later in name order counts. */
  source: string;
  seq: number;
  /** Unix ms: lets maintenance remove what an import that died left (PostgreSQL, where staging is shared). */
  created_at: number;
  /** Its attachments as the export names them (JSON), to be linked to their bytes when the import commits. */
  attachments: string | null;
  /** The message each node id of the export goes with (JSON): files linked to a message id only find theirs. */
  message_ids: string | null;
}

export interface ImportRecordsTable {
  import_id: string;
  group_key: string;
  time: number;
  seq: number;
  record: string;
  created_at: number;
}

/** An import under way (schema.sql, version 14): a purge marks it in import_purges. */
export interface ImportsTable {
  id: string;
  app_id: string;
  /** Unix ms. */
  created_at: number;
}

/** A purge of `user_ref` while the import was under way: it may not commit for that user. */
export interface ImportPurgesTable {
  import_id: string;
  user_ref: string;
}

export type PagePurpose = 'connect' | 'manage';

export interface PageSessionsTable {
  token_hash: string;
  app_id: string;
  user_ref: string;
  purpose: PagePurpose;
  csrf_token: string;
  last_result: string | null;
  created_at: string;
  last_seen_at: string;
  /** The jti of the link that opened the session. */
  link_jti: string | null;
  /** The link's returnUrl, its origin registered when the session opened. */
  return_url: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  id: string;
  app_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: number;
  created_at: string;
}

/** A short-lived grant to read one user's data (schema.sql, version 17): only the token's hash is kept. */
export interface AgentTokensTable {
  id: string;
  token_hash: string;
  user_id: string;
  /** The key that minted it; null when the app secret did. */
  api_key_id: string | null;
  created_at: string;
  expires_at: string;
}

export type AccessChannel = 'api' | 'agent';

/** Reads of one user's data per UTC day (`YYYY-MM-DD`) and channel. */
export interface AccessLogTable {
  user_id: string;
  day: string;
  channel: AccessChannel;
  reads: number;
  searches: number;
}

export interface Database {
  agent_tokens: AgentTokensTable;
  access_log: AccessLogTable;
  apps: AppsTable;
  app_logos: AppLogosTable;
  app_return_origins: AppReturnOriginsTable;
  api_keys: ApiKeysTable;
  users: UsersTable;
  connections: ConnectionsTable;
  conversations: ConversationsTable;
  rate_buckets: RateBucketsTable;
  used_links: UsedLinksTable;
  import_staging: ImportStagingTable;
  import_records: ImportRecordsTable;
  imports: ImportsTable;
  import_purges: ImportPurgesTable;
  page_sessions: PageSessionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  leases: LeasesTable;
  attachment_blobs: AttachmentBlobsTable;
  attachment_chunks: AttachmentChunksTable;
  attachments: AttachmentsTable;
  attachment_deletions: AttachmentDeletionsTable;
  uploads: UploadsTable;
  upload_parts: UploadPartsTable;
  memories: MemoriesTable;
  projects: ProjectsTable;
  deleted_items: DeletedItemsTable;
}

export type DeletedKind = 'conversation' | 'memory' | 'project' | 'attachment';

/** See schema.sql, version 19: what the person deleted, by the export's identity of it. */
export interface DeletedItemsTable {
  connection_id: string;
  kind: DeletedKind;
  external_id: string;
  deleted_at: string;
}

export type MemoryScope = 'account' | 'project';

/** See schema.sql, version 16. Times ISO 8601 UTC; `changed_at` is Parley's clock, the others the export's. */
export interface MemoriesTable {
  id: string;
  connection_id: string;
  external_id: string;
  scope: MemoryScope;
  /** A project memory's project, by the export's id: linked to whichever project of the connection has it. */
  project_external_id: string | null;
  title: string | null;
  content: string;
  updated_at: string | null;
  changed_at: string;
}

export interface ProjectsTable {
  id: string;
  connection_id: string;
  external_id: string;
  name: string | null;
  description: string | null;
  instructions: string | null;
  created_at: string | null;
  updated_at: string | null;
  changed_at: string;
}

/** See schema.sql, version 12. */
export interface AttachmentBlobsTable {
  id: string;
  /** Null while the import writing it runs. */
  connection_id: string | null;
  import_id: string | null;
  store: AttachmentStoreName;
  /** SHA-256 of the bytes, base64url; '' until all are written. */
  sha256: string;
  size: number;
  content_type: string;
  /** The zip member the bytes came from. */
  source: string;
  /** Unix ms. */
  created_at: number;
}

export type AttachmentStoreName = 'database' | 's3';

export interface AttachmentChunksTable {
  blob_id: string;
  seq: number;
  /** Where in the blob the chunk starts. */
  start_byte: number;
  bytes: Uint8Array;
}

export interface AttachmentsTable {
  id: string;
  connection_id: string;
  /** The conversation whose message showed it, or (a knowledge file) the project it belongs to: one of the two. */
  conversation_id: string | null;
  project_id?: string | null;
  message_index: number;
  /** Its place among the conversation's attachments, in the export's order. */
  position: number;
  /** What the export calls it within the conversation (a file id). */
  ref: string;
  name: string;
  content_type: string;
  size: number | null;
  kind: AttachmentKind;
  /** Null: the export named it but did not hold its bytes. */
  blob_id: string | null;
  created_at: string;
}

export type { AttachmentKind };

export interface AttachmentDeletionsTable {
  blob_id: string;
}

export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: number;
}

export type Db = Kysely<Database>;

/** An operator's command the database cannot carry out, with what to do instead. */
export class OperationRefused extends Error {}

/** See schema.sql, version 15. */
export interface UploadsTable {
  id: string;
  app_id: string;
  user_ref: string | null;
  metadata: string;
  length: number;
  received: ColumnType<number, number | undefined, number>;
  /** Unix ms. */
  expires_at: number;
  /** The connect page's session that made it (its token's hash); null for one made with an API key. */
  page_session: string | null;
  /** Unix ms until which an import reads it; null when none does. */
  importing_until: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface UploadPartsTable {
  blob_id: string;
  upload_id: string;
  start_byte: number;
  /** Null while its PATCH runs. */
  size: number | null;
}
