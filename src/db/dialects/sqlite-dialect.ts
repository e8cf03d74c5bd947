import { sql } from 'kysely';
import type { DatabaseDialect } from './dialect.ts';
import { indexPendingInBatches } from './sqlite-search-index.ts';

/** SQLite: one file (DATABASE_PATH), written by one transaction at a time, read meanwhile (WAL). */
export const sqlite: DatabaseDialect = {
  schemaFile: 'schema.sql',
  placeholders: (text) => text,
  // The payload is stored as text; its bytes are the text's, UTF-8.
  payloadBytes: (column) => `CAST(${column} AS BLOB)`,
  payloadText: (column) => column,
  messageCount: (column) => `coalesce(json_array_length(${column}, '$.messages'), 0)`,
  storedPayload: (column) => column,
  // The main file's pages: the write-ahead log beside it is emptied at each checkpoint.
  databaseSize: 'SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()',
  // BEGIN IMMEDIATE takes the write lock up front: a deferred transaction that
  // reads and then writes can fail outright when another process wrote in
  // between; this one waits its turn (busy_timeout) instead.
  beginWrite: 'BEGIN IMMEDIATE',
  // Write transactions never overlap: nothing to lock.
  lockRows: '',
  // Statements run on the server's own thread, each taking it for a few milliseconds.
  writeBatch: { delete: 200, merge: 250 },
  // The FTS5 table is joined to its conversations through its stable keys (schema.sql, version 9); the title weighs more.
  searchMatches: (words, scope) => ({
    from: sql`conversation_search JOIN conversation_search_keys k ON k.key = conversation_search.rowid
           JOIN conversations c ON c.id = k.conversation_id WHERE conversation_search MATCH ${ftsQuery(words)} AND ${scope}`,
    order: sql`bm25(conversation_search, 4.0, 1.0)`,
  }),
  indexPending: indexPendingInBatches,
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

/** FTS5's query language; quoted although the words hold no operator characters, so no word (AND, NEAR) reads as one. */
const ftsQuery = (words: readonly string[]) =>
  words.map((word, i) => `"${word}"${i === words.length - 1 ? '*' : ''}`).join(' ');

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
