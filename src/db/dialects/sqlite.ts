import { Kysely, sql, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { ofUser } from '../conversation-search.ts';
import type { Database, Db } from '../database.ts';
import { createFoldersFor } from '../database-folder.ts';
import { fixedSql } from '../fixed-sql.ts';
import { versionsToApply } from '../schema-versions.ts';
import type { SqliteConnection, SqliteDriver } from '../sqlite-driver.ts';
import { nextTurn, writeTransaction } from '../transaction.ts';
import { withDialect, type DatabaseDialect, type IndexScope } from './dialect.ts';
import { TwoConnectionDialect } from './sqlite-connections.ts';

/** SQLite: one file (DATABASE_PATH), written by one transaction at a time, read meanwhile (WAL). */
export const sqlite: DatabaseDialect = {
  schemaFile: 'schema.sql',
  placeholders: (text) => text,
  // The payload is stored as text; its bytes are the text's, UTF-8.
  payloadBytes: (column) => `CAST(${column} AS BLOB)`,
  payloadText: (column) => column,
  storedPayload: (column) => column,
  // BEGIN IMMEDIATE takes the write lock up front: a deferred transaction that
  // reads and then writes can fail outright when another process wrote in
  // between; this one waits its turn (busy_timeout) instead.
  beginWrite: 'BEGIN IMMEDIATE',
  // Write transactions never overlap: nothing to lock.
  lockRows: '',
  // Statements run on the server's own thread, each taking it for a few milliseconds.
  writeBatch: { delete: 200, merge: 250 },
  // FTS5's query language; quoted although the words hold no operator characters, so no word (AND, NEAR) reads as one.
  searchQuery: (words) => words.map((word, i) => `"${word}"${i === words.length - 1 ? '*' : ''}`).join(' '),
  // The FTS5 table is joined to its conversations through its stable keys (schema.sql, version 9); the title weighs more.
  searchMatches: (scope) => ({
    from: `conversation_search JOIN conversation_search_keys k ON k.key = conversation_search.rowid
           JOIN conversations c ON c.id = k.conversation_id WHERE conversation_search MATCH ? AND ${scope}`,
    order: 'bm25(conversation_search, 4.0, 1.0)',
  }),
  indexPending,
  // Connections do not checkpoint as they commit (wal_autocheckpoint is off): an
  // import's final commit would make its uploader wait while everything it wrote
  // is copied. The background work does it every second instead, once the answer
  // is on its way: in a checkpoint worker of its own where the runtime gives one
  // (see checkpoint.ts), else here.
  async checkpoint(db, erasing) {
    const { rows } = await sql.raw<CheckpointResult>(checkpointSql(erasing)).execute(db);
    return rows[0]!.busy === 0;
  },
  // Another connection held the write lock for longer than busy_timeout (another
  // process on the file: a CLI command, or an old server process still shutting
  // down), in each runtime driver's words.
  isBusy: (error) =>
    error instanceof Error &&
    (/^SQLITE_BUSY/.test(String((error as { code?: unknown }).code)) || /\bdatabase is locked\b/.test(error.message)),
  async backup(db, out) {
    await sql`VACUUM INTO ${out}`.execute(db);
  },
};

/**
 * PASSIVE copies what it can without waiting for, or holding up, any reader or
 * writer. After people's text was deleted, the log still holds it (the frames
 * of the pages before secure_delete overwrote them): TRUNCATE copies all of it,
 * waiting briefly for readers, and empties the log file. `busy` is 1 when it
 * could not finish: a reader was still on an older state.
 */
export const checkpointSql = (erasing: boolean) => `PRAGMA wal_checkpoint(${erasing ? 'TRUNCATE' : 'PASSIVE'})`;

export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * Opens (creating its folder) the SQLite file at `path`, or `:memory:`, with a
 * runtime's driver, and brings its schema up to date. A file is opened twice,
 * the second connection only reading, so that reads never wait behind a write
 * (see sqlite-connections.ts); an in-memory database, private to its one
 * connection, has one.
 */
export function openSqlite(driver: SqliteDriver, path: string, schemaSql: string): Db {
  const file = path !== ':memory:';
  if (file) createFoldersFor(path);
  const connection = driver(path);
  configureConnection(connection, { file });
  migrate(connection, schemaSql);
  if (!file)
    return new Kysely<Database>({
      dialect: withDialect(new SqliteDialect({ database: withStatementCache(connection) }), sqlite),
    });
  const reader = driver(path);
  reader.exec(`PRAGMA busy_timeout = 5000; PRAGMA query_only = ON; PRAGMA cache_size = -${PAGE_CACHE_KIB};`);
  return new Kysely<Database>({
    dialect: withDialect(new TwoConnectionDialect(withStatementCache(connection), withStatementCache(reader)), sqlite),
  });
}

/**
 * The page cache of each connection and schema (the database's, the TEMP
 * staging tables'), in KiB: SQLite's own default. better-sqlite3 builds
 * SQLite with 16 MB caches instead, and an import fills all three (the
 * writer's two, the reader's), which then stay full for the life of the
 * process; the smaller caches cost an import no measurable time (what they
 * miss is in the operating system's file cache).
 */
const PAGE_CACHE_KIB = 2000;

/** The pragmas every connection gets, whatever the runtime. */
function configureConnection(connection: SqliteConnection, { file }: { file: boolean }): void {
  // The background work checkpoints the log (see checkpoint.ts), not each commit.
  if (file) connection.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0;');
  // secure_delete overwrites purged text on disk instead of leaving it in free pages.
  connection.exec('PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA secure_delete = ON;');
  connection.exec(STAGING_SCHEMA);
  connection.exec(`PRAGMA main.cache_size = -${PAGE_CACHE_KIB}; PRAGMA temp.cache_size = -${PAGE_CACHE_KIB};`);
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
    payload TEXT,
    update_time TEXT,
    source_hash TEXT,
    source TEXT NOT NULL,
    seq INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    attachments TEXT,
    message_ids TEXT,
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
    created_at INTEGER NOT NULL,
    PRIMARY KEY (import_id, group_key, time, seq)
  );`;

/**
 * Applies the sections of schema.sql newer than the file's user_version, each in
 * one transaction with its version bump, so a crash never leaves half a version.
 */
function migrate(connection: SqliteConnection, schemaSql: string): void {
  const [row] = connection.prepare('PRAGMA user_version').all([]) as Array<{ user_version: number }>;
  const current = row?.user_version ?? 0;
  for (const { version, sql: statements } of versionsToApply(schemaSql, sqlite.schemaFile, current)) {
    connection.exec('BEGIN IMMEDIATE');
    try {
      connection.exec(`${statements}\n;PRAGMA user_version = ${version};`);
      connection.exec('COMMIT');
    } catch (error) {
      connection.exec('ROLLBACK');
      throw error;
    }
  }
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
    prepare(text) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
        statement = connection.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** Conversations indexed per transaction: other requests get their turn between two. */
const INDEX_BATCH = 500;

/**
 * An import's new conversations are indexed after it commits (schema.sql,
 * version 9): by the server's background work just after each import, and by a
 * search first, so that it finds everything stored. A shutdown stops between
 * two batches: the connection stays noted, and the next start goes on.
 */
export async function indexPending(
  db: Db,
  scope: IndexScope,
  signal?: AbortSignal,
  batch = INDEX_BATCH,
): Promise<void> {
  for (const connectionId of await connectionsToIndex(db, scope)) {
    for (let after = await indexConversations(db, connectionId, batch); after !== null && !signal?.aborted; ) {
      await nextTurn();
      after = await indexConversations(db, connectionId, batch, after);
    }
    if (signal?.aborted) return;
  }
}

/** The connections with conversations still to index. */
export async function connectionsToIndex(db: Db, scope: IndexScope): Promise<string[]> {
  const [where, parameters] =
    scope === undefined
      ? // Not a connection an import still writes into (see import-connection.ts): the uploader waits on that import.
        [
          `WHERE NOT EXISTS (SELECT 1 FROM connections c JOIN users u ON u.id = c.user_id
             WHERE c.id = p.connection_id AND u.import_id IS NOT NULL)`,
          [],
        ]
      : 'connectionId' in scope
        ? ['WHERE p.connection_id = ?', [scope.connectionId]]
        : [`WHERE ${ofUser('p.connection_id')}`, [scope.appId, scope.userRef]];
  const rows = await fixedSql<{ connection_id: string }>(
    db,
    `SELECT p.connection_id FROM conversation_search_pending p ${where}`,
    parameters,
  );
  return rows.map((row) => row.connection_id);
}

/**
 * Indexes up to `limit` of the connection's conversations that are not yet,
 * in one transaction, going on in external-id order after `after` (the value a
 * previous call returned), so that each batch starts where the last ended
 * rather than passing over every conversation already indexed. Returns where
 * to go on from, or null once none is left, the connection then taken off the
 * list. New keys are handed out above every earlier one (AUTOINCREMENT), so the
 * conversations just keyed are those past the highest key before.
 */
export function indexConversations(
  db: Db,
  connectionId: string,
  limit: number,
  after?: string,
): Promise<string | null> {
  return writeTransaction(db, async (trx) => {
    const [before] = await fixedSql<{ last: number }>(
      trx,
      'SELECT coalesce(max(key), 0) AS last FROM conversation_search_keys',
      [],
    );
    await fixedSql(
      trx,
      `INSERT INTO conversation_search_keys (conversation_id)
       SELECT c.id FROM conversations c WHERE c.connection_id = ?${after === undefined ? '' : ' AND c.external_id > ?'}
         AND NOT EXISTS (SELECT 1 FROM conversation_search_keys k WHERE k.conversation_id = c.id)
       ORDER BY c.external_id LIMIT ?`,
      [connectionId, ...(after === undefined ? [] : [after]), limit],
    );
    await fixedSql(
      trx,
      `INSERT INTO conversation_search (rowid, title, body)
       SELECT k.key, t.title, t.body FROM conversation_search_keys k JOIN conversation_search_text t ON t.id = k.conversation_id
       WHERE k.key > ?`,
      [before!.last],
    );
    const [keyed] = await fixedSql<{ count: number; last: string | null }>(
      trx,
      `SELECT count(*) AS count, max(c.external_id) AS last FROM conversation_search_keys k JOIN conversations c ON c.id = k.conversation_id WHERE k.key > ?`,
      [before!.last],
    );
    if (Number(keyed!.count) === limit) return keyed!.last;
    await fixedSql(trx, 'DELETE FROM conversation_search_pending WHERE connection_id = ?', [connectionId]);
    return null;
  });
}
