/**
 * An import streams its conversations into this table in small transactions,
 * then moves them into `conversations` in one: a failed or interrupted import
 * leaves nothing visible. It is a TEMP table: private to this connection, kept in
 * a temporary file (not the database and its WAL), and gone with the process.
 */
export const STAGING_SCHEMA = `
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
