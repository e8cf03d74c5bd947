import { Kysely, SqliteDialect, type Generated, type SqliteDatabase, type SqliteStatement } from 'kysely';

export interface AppsTable {
  id: string;
  name: string;
  secret: string;
  secret_hash: string;
  allowed_scopes: string;
  created_at: string;
  webhook_url: string | null;
  webhook_secret: string | null;
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
}

export type ConnectionStatus = 'active' | 'needs_reauth' | 'revoked';

export interface ConnectionsTable {
  id: string;
  user_id: string;
  provider: string;
  status: ConnectionStatus;
  captured_at: string;
  last_sync_at: string | null;
  conversation_count: number;
}

export interface ConversationsTable {
  id: string;
  connection_id: string;
  external_id: string;
  title: string | null;
  payload: string | null;
  update_time: string | null;
  created_at: string;
}

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
  payload: string;
  update_time: string | null;
  /** The file of the export it came from, and its place in the upload: of two copies, the later in name order counts. */
  source: string;
  seq: number;
}

export interface ImportRecordsTable {
  import_id: string;
  group_key: string;
  time: number;
  seq: number;
  record: string;
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

export interface Database {
  apps: AppsTable;
  api_keys: ApiKeysTable;
  users: UsersTable;
  connections: ConnectionsTable;
  conversations: ConversationsTable;
  rate_buckets: RateBucketsTable;
  used_links: UsedLinksTable;
  import_staging: ImportStagingTable;
  import_records: ImportRecordsTable;
  page_sessions: PageSessionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type Db = Kysely<Database>;

/**
 * What every SQLite driver adapter offers: kysely's statement interface, plus
 * `exec` for the multi-statement schema and `close`.
 */
export interface SqliteConnection extends SqliteDatabase {
  exec(sql: string): void;
}

/** The pragmas every connection gets, whatever the runtime. */
function configureConnection(connection: SqliteConnection, { file }: { file: boolean }): void {
  if (file) connection.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  // secure_delete overwrites purged text on disk instead of leaving it in free pages.
  connection.exec('PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA secure_delete = ON;');
  connection.exec(STAGING_SCHEMA);
}

/**
 * An import streams its conversations into this table in small transactions,
 * then moves them into `conversations` in one: a failed or interrupted import
 * leaves nothing visible. It is a TEMP table: private to this connection, kept in
 * a temporary file (not the database and its WAL), and gone with the process.
 */
const STAGING_SCHEMA = `
  PRAGMA temp_store = FILE;
  CREATE TEMP TABLE import_staging (
    import_id TEXT NOT NULL,
    external_id TEXT NOT NULL,
    -- The id the conversation gets if it turns out to be new.
    conversation_id TEXT NOT NULL,
    title TEXT,
    payload TEXT NOT NULL,
    update_time TEXT,
    source TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (import_id, external_id)
  );
  -- Records that several make one conversation (Gemini's exchanges, Copilot's
  -- rows), read back in this key's order to be grouped.
  CREATE TEMP TABLE import_records (
    import_id TEXT NOT NULL,
    group_key TEXT NOT NULL,
    time INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (import_id, group_key, time, seq)
  );`;

/**
 * Applies the sections of schema.sql newer than the file's user_version, each in
 * one transaction with its version bump, so a crash never leaves half a version.
 */
function migrate(connection: SqliteConnection, schemaSql: string): void {
  const [row] = connection.prepare('PRAGMA user_version').all([]) as Array<{ user_version: number }>;
  const current = row?.user_version ?? 0;
  const sections = schemaSql.split(/^-- version (\d+)\s*$/m);
  for (let i = 1; i < sections.length; i += 2) {
    const target = Number(sections[i]);
    if (target !== (i + 1) / 2) throw new Error(`schema.sql: expected version ${(i + 1) / 2}, found ${target}`);
    if (target <= current) continue;
    connection.exec('BEGIN IMMEDIATE');
    try {
      connection.exec(`${sections[i + 1]}\n;PRAGMA user_version = ${target};`);
      connection.exec('COMMIT');
    } catch (error) {
      connection.exec('ROLLBACK');
      throw error;
    }
  }
}

/** Prepares a freshly opened connection (pragmas, schema) and wraps it in kysely. */
export function openDb(connection: SqliteConnection, schemaSql: string, { file }: { file: boolean }): Db {
  configureConnection(connection, { file });
  migrate(connection, schemaSql);
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
}

const CACHED_STATEMENTS = 256;

/**
 * kysely prepares every query anew, and preparing costs more than running most
 * of Parley's queries. Values are always bound parameters, so the distinct SQL
 * texts are few and their statements can be kept and reused.
 */
function withStatementCache(connection: SqliteConnection): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => connection.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
        statement = connection.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
