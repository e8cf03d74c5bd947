-- Parley's schema on PostgreSQL (DATABASE_URL). Each "-- version N" section
-- upgrades a database whose parley_schema_version is N-1; sections are applied
-- in order at start-up, each in one transaction that holds an advisory lock, so
-- instances starting together apply each version once. The tables, columns and
-- rules are those of schema.sql; the types are PostgreSQL's own where they
-- matter: payloads are bytea (the listing splices the stored bytes), counts and
-- unix-ms times bigint. Times stay ISO 8601 UTC text, as toISOString writes
-- them, so they sort, compare and read back byte for byte as under SQLite.

-- version 1
CREATE TABLE apps (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- Kept in the clear: links are verified with an HMAC of it. The hash finds the
  -- app when an older integration still sends the secret as its Bearer value.
  secret TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  allowed_scopes TEXT NOT NULL DEFAULT 'conversations:read',
  created_at TEXT NOT NULL,
  webhook_url TEXT,
  webhook_secret TEXT
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  key_hash TEXT NOT NULL UNIQUE,
  start TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX api_keys_by_app ON api_keys (app_id, created_at);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  user_ref TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (app_id, user_ref)
);

CREATE TABLE connections (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'needs_reauth', 'revoked')),
  captured_at TEXT NOT NULL,
  last_sync_at TEXT,
  conversation_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX connections_by_user ON connections (user_id, captured_at DESC, id);
-- Imports without a connectionId go to the user's open connection of that
-- provider; this makes concurrent first imports agree on one.
CREATE UNIQUE INDEX connections_one_open_per_provider
  ON connections (user_id, provider) WHERE status <> 'revoked';

CREATE TABLE conversations (
  id TEXT PRIMARY KEY,
  connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  external_id TEXT NOT NULL,
  title TEXT,
  -- The payload's JSON as UTF-8: served as stored.
  payload BYTEA,
  update_time TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (connection_id, external_id)
);
CREATE INDEX conversations_by_connection ON conversations (connection_id, update_time DESC NULLS LAST, id);

CREATE TABLE rate_buckets (
  app_id TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (app_id, window_start)
);

CREATE TABLE used_links (
  jti TEXT PRIMARY KEY,
  app_id TEXT NOT NULL,
  used_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX used_links_by_expiry ON used_links (expires_at);

-- A hosted-page session, opened by consuming a signed link. Only a hash of the
-- cookie value is kept, so a copy of the database opens no session.
CREATE TABLE page_sessions (
  token_hash TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  user_ref TEXT NOT NULL,
  purpose TEXT NOT NULL CHECK (purpose IN ('connect', 'manage')),
  csrf_token TEXT NOT NULL,
  -- The connect page's last import, shown after its redirect (JSON).
  last_result TEXT,
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
);
CREATE INDEX page_sessions_by_last_seen ON page_sessions (last_seen_at);

-- Webhooks: an outbox written in the same transaction as the change it reports,
-- so an event exists exactly when its change committed.
CREATE TABLE webhook_deliveries (
  -- The order events happened in; first attempts to an endpoint follow it.
  seq BIGSERIAL PRIMARY KEY,
  -- Sent as webhook-id on every attempt: receivers deduplicate by it.
  id TEXT NOT NULL UNIQUE,
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_status INTEGER,
  last_error TEXT,
  -- Unix ms. While an attempt is under way it is pushed past the attempt's
  -- timeout, so an instance that dies mid-attempt leaves it due again later.
  next_attempt_at BIGINT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_app ON webhook_deliveries (app_id, seq DESC);

-- Work that one instance at a time may do (an app's webhook deliveries, the
-- hourly maintenance): held until `expires_at` (unix ms) by `holder`.
CREATE TABLE leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);

-- An import's conversations, out of sight until its final transaction merges
-- them. Shared by every instance and unlogged (nothing here must survive a
-- crash); `created_at` lets maintenance remove what a dead instance left.
CREATE UNLOGGED TABLE import_staging (
  import_id TEXT NOT NULL,
  external_id TEXT NOT NULL,
  -- The id the conversation gets if it turns out to be new.
  conversation_id TEXT NOT NULL,
  title TEXT,
  payload TEXT NOT NULL,
  update_time TEXT,
  source TEXT NOT NULL,
  seq INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (import_id, external_id)
);
-- Records that several make one conversation (Gemini's exchanges, Copilot's
-- rows), read back in this key's order to be grouped.
CREATE UNLOGGED TABLE import_records (
  import_id TEXT NOT NULL,
  group_key TEXT NOT NULL,
  time BIGINT NOT NULL,
  seq INTEGER NOT NULL,
  record TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (import_id, group_key, time, seq)
);

-- version 2
-- The SHA-256 of each conversation's bytes in the export it last came from: a
-- re-import finds an unchanged conversation by it without reading it again.
ALTER TABLE conversations ADD COLUMN source_hash TEXT;
ALTER TABLE import_staging ALTER COLUMN payload DROP NOT NULL;
ALTER TABLE import_staging ADD COLUMN source_hash TEXT;

-- version 3
-- When Parley last stored or changed each conversation, by its own clock: a
-- backend asks for only what changed since its last poll (`updatedSince`).
-- Conversations from before this version count as changed when they were created.
ALTER TABLE conversations ADD COLUMN changed_at TEXT NOT NULL DEFAULT '';
UPDATE conversations SET changed_at = created_at;
ALTER TABLE conversations ALTER COLUMN changed_at DROP DEFAULT;
CREATE INDEX conversations_by_change ON conversations (connection_id, changed_at);

-- version 4
-- Full-text search over each conversation's title and message text (decisions
-- §15's `q`): a generated column, so every write and delete keeps it in step, and
-- this version builds it for the conversations already stored.
-- 'simple' stems nothing and drops no stop words: the same in every language.
-- Case and diacritics are folded (NFD, combining marks dropped) on both sides,
-- as SQLite's unicode61 does; the unaccent extension is not needed.
CREATE FUNCTION parley_search_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT normalize(regexp_replace(normalize($1, NFD), '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]', '', 'g'), NFC) $$;
-- convert_from is only STABLE (it depends on the database's encoding, which
-- never changes), so a generated column needs this IMMUTABLE wrapper. The title
-- weighs more than the messages (ts_rank's 'A' over 'D'). A tsvector holds at
-- most 1 MB: the first 1,000 characters of the title and 200,000 of the
-- messages stay well below it whatever the text (SQLite indexes the same).
-- ASCII punctuation becomes space first: the parser would otherwise drop what
-- looks like an HTML tag and keep an e-mail address or URL as one word, where a
-- search's words (and SQLite) split them.
CREATE FUNCTION parley_search_words(text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT parley_search_fold(regexp_replace($1, '[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]', ' ', 'g')) $$;
CREATE FUNCTION parley_search_document(title text, payload bytea) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT
    setweight(to_tsvector('simple', coalesce(parley_search_words(left(title, 1000)), '')), 'A')
    || setweight(to_tsvector('simple', coalesce(parley_search_words(left((
         SELECT string_agg(m #>> '{}', E'\n') FROM jsonb_path_query(convert_from(payload, 'UTF8')::jsonb, '$.messages[*].content') AS m
       ), 200000)), '')), 'D') $$;
ALTER TABLE conversations ADD COLUMN search tsvector GENERATED ALWAYS AS (parley_search_document(title, payload)) STORED;
CREATE INDEX conversations_search ON conversations USING GIN (search);

-- version 5
-- What the hosted pages show of the app (its brand), and where a link may send
-- the person back to: as schema.sql's version 10.
ALTER TABLE apps ADD COLUMN display_name TEXT;
ALTER TABLE apps ADD COLUMN accent_color TEXT;
ALTER TABLE apps ADD COLUMN privacy_url TEXT;
CREATE TABLE app_logos (
  app_id TEXT PRIMARY KEY REFERENCES apps (id) ON DELETE CASCADE,
  content_type TEXT NOT NULL,
  bytes BYTEA NOT NULL,
  sha256 TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE app_return_origins (
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  origin TEXT NOT NULL,
  PRIMARY KEY (app_id, origin)
);
ALTER TABLE page_sessions ADD COLUMN link_jti TEXT;
ALTER TABLE page_sessions ADD COLUMN return_url TEXT;

-- version 6
-- Files and images from exports: as schema.sql's version 12, which says why.
-- Chunks go to a table of their own (TOAST keeps each out of line).
CREATE TABLE attachment_blobs (
  id TEXT PRIMARY KEY,
  connection_id TEXT REFERENCES connections (id) ON DELETE CASCADE,
  import_id TEXT,
  store TEXT NOT NULL CHECK (store IN ('database', 's3')),
  sha256 TEXT NOT NULL DEFAULT '',
  size BIGINT NOT NULL DEFAULT 0,
  content_type TEXT NOT NULL DEFAULT 'application/octet-stream',
  source TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX attachment_blobs_by_content ON attachment_blobs (connection_id, sha256)
  WHERE connection_id IS NOT NULL;
CREATE INDEX attachment_blobs_by_source ON attachment_blobs (connection_id, source, size);
CREATE INDEX attachment_blobs_by_import ON attachment_blobs (import_id) WHERE import_id IS NOT NULL;
CREATE TABLE attachment_chunks (
  blob_id TEXT NOT NULL REFERENCES attachment_blobs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  start_byte BIGINT NOT NULL,
  bytes BYTEA NOT NULL,
  PRIMARY KEY (blob_id, seq)
);
-- Already compressed (images, PDFs) or not worth the time: stored as they are.
ALTER TABLE attachment_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;
CREATE TABLE attachments (
  id TEXT PRIMARY KEY,
  connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  message_index INTEGER NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  ref TEXT NOT NULL,
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size BIGINT,
  kind TEXT NOT NULL CHECK (kind IN ('image', 'file', 'audio', 'document')),
  blob_id TEXT REFERENCES attachment_blobs (id),
  created_at TEXT NOT NULL,
  UNIQUE (conversation_id, ref)
);
CREATE INDEX attachments_by_conversation ON attachments (conversation_id, message_index);
CREATE INDEX attachments_by_blob ON attachments (blob_id) WHERE blob_id IS NOT NULL;
-- A connection's attachments in id order: "Download my data" pages through them, and a
-- connection's deletion finds them.
CREATE INDEX attachments_by_connection ON attachments (connection_id, id);
CREATE TABLE attachment_deletions (
  blob_id TEXT PRIMARY KEY
);
CREATE FUNCTION parley_attachment_blob_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO attachment_deletions (blob_id) VALUES (old.id) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER attachment_blobs_delete_object AFTER DELETE ON attachment_blobs
  FOR EACH ROW WHEN (old.store = 's3') EXECUTE FUNCTION parley_attachment_blob_deleted();
CREATE FUNCTION parley_attachment_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM attachments WHERE blob_id = old.blob_id) THEN
    DELETE FROM attachment_blobs WHERE id = old.blob_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER attachments_delete_blob AFTER DELETE ON attachments
  FOR EACH ROW WHEN (old.blob_id IS NOT NULL) EXECUTE FUNCTION parley_attachment_deleted();
-- A staged conversation's attachments as the export names them, and the message
-- each of its node ids goes with: linked to the import's blobs at its commit.
ALTER TABLE import_staging ADD COLUMN attachments TEXT;
ALTER TABLE import_staging ADD COLUMN message_ids TEXT;

-- version 7
-- An import's own connection, until its final transaction gives it to the
-- user: as schema.sql's version 13, which says why.
ALTER TABLE users ADD COLUMN import_id TEXT;
CREATE INDEX users_of_imports ON users (created_at) WHERE import_id IS NOT NULL;

-- version 8
-- Used links are keyed by app and jti: as schema.sql's version 14, which says why.
ALTER TABLE used_links DROP CONSTRAINT used_links_pkey, ADD PRIMARY KEY (app_id, jti);

-- The imports under way, which a purge refuses: as schema.sql's version 14,
-- which says why.
CREATE TABLE imports (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL
);
CREATE TABLE import_purges (
  import_id TEXT NOT NULL,
  user_ref TEXT NOT NULL,
  PRIMARY KEY (import_id, user_ref)
);

-- What each connection stores, in bytes: as schema.sql's version 14 (a
-- payload's octet_length is read from its TOAST pointer, not its bytes).
ALTER TABLE connections ADD COLUMN stored_bytes BIGINT NOT NULL DEFAULT 0;
UPDATE connections SET stored_bytes =
  (SELECT coalesce(sum(octet_length(payload)), 0) FROM conversations WHERE connection_id = connections.id)
  + (SELECT coalesce(sum(size), 0) FROM attachment_blobs WHERE connection_id = connections.id);

-- version 9
-- Resumable uploads and their parts: as schema.sql's version 15, which says why.
CREATE TABLE uploads (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  user_ref TEXT,
  metadata TEXT NOT NULL,
  length BIGINT NOT NULL,
  received BIGINT NOT NULL DEFAULT 0,
  expires_at BIGINT NOT NULL
);
CREATE INDEX uploads_by_user ON uploads (app_id, user_ref);
CREATE INDEX uploads_by_expiry ON uploads (expires_at);
CREATE TABLE upload_parts (
  blob_id TEXT PRIMARY KEY,
  upload_id TEXT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
  start_byte BIGINT NOT NULL,
  size BIGINT
);
CREATE INDEX upload_parts_by_upload ON upload_parts (upload_id, start_byte);
CREATE FUNCTION parley_upload_part_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM attachment_blobs WHERE id = old.blob_id;
  RETURN NULL;
END $$;
CREATE TRIGGER upload_parts_delete_blob AFTER DELETE ON upload_parts
  FOR EACH ROW EXECUTE FUNCTION parley_upload_part_deleted();

-- version 10
-- Memories and projects, and projects' knowledge files as attachments: as
-- schema.sql's version 15, which says why.
CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  external_id TEXT NOT NULL,
  name TEXT,
  description TEXT,
  instructions TEXT,
  created_at TEXT,
  updated_at TEXT,
  changed_at TEXT NOT NULL,
  UNIQUE (connection_id, external_id)
);
CREATE INDEX projects_by_connection ON projects (connection_id, updated_at DESC NULLS LAST, id);
CREATE TABLE memories (
  id TEXT PRIMARY KEY,
  connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  external_id TEXT NOT NULL,
  scope TEXT NOT NULL CHECK (scope IN ('account', 'project')),
  project_external_id TEXT,
  title TEXT,
  content TEXT NOT NULL,
  updated_at TEXT,
  changed_at TEXT NOT NULL,
  UNIQUE (connection_id, external_id)
);
CREATE INDEX memories_by_connection ON memories (connection_id, updated_at DESC NULLS LAST, id);
ALTER TABLE conversations ADD COLUMN project_id TEXT REFERENCES projects (id) ON DELETE SET NULL;
ALTER TABLE attachments ALTER COLUMN conversation_id DROP NOT NULL;
ALTER TABLE attachments ADD COLUMN project_id TEXT REFERENCES projects (id) ON DELETE CASCADE;
ALTER TABLE attachments ADD CONSTRAINT attachments_of_one CHECK ((conversation_id IS NULL) <> (project_id IS NULL));
CREATE UNIQUE INDEX attachments_of_projects ON attachments (project_id, ref);

-- version 11
-- Agent tokens and the access log: as schema.sql's version 15, which says why.
CREATE TABLE agent_tokens (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  api_key_id TEXT REFERENCES api_keys (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX agent_tokens_by_user ON agent_tokens (user_id);
CREATE INDEX agent_tokens_by_key ON agent_tokens (api_key_id) WHERE api_key_id IS NOT NULL;
CREATE INDEX agent_tokens_by_expiry ON agent_tokens (expires_at);

CREATE TABLE access_log (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  channel TEXT NOT NULL CHECK (channel IN ('api', 'agent')),
  reads INTEGER NOT NULL DEFAULT 0,
  searches INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, day, channel)
);
CREATE INDEX access_log_by_day ON access_log (day);

-- version 12
-- The connect page's uploads: as schema.sql's version 18, which says why.
ALTER TABLE uploads ADD COLUMN page_session TEXT REFERENCES page_sessions (token_hash) ON DELETE CASCADE;
CREATE INDEX uploads_by_page_session ON uploads (page_session) WHERE page_session IS NOT NULL;

-- version 13
-- What the person deleted, not to be imported again: as schema.sql's version 19, which says why.
CREATE TABLE deleted_items (
  connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('conversation', 'memory', 'project', 'attachment')),
  external_id TEXT NOT NULL,
  deleted_at TEXT NOT NULL,
  PRIMARY KEY (connection_id, kind, external_id)
);

-- version 14
-- An import reading the upload: as schema.sql's version 20, which says why.
ALTER TABLE uploads ADD COLUMN importing_until BIGINT;
