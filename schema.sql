-- Parley's schema. Each "-- version N" section upgrades a database whose
-- PRAGMA user_version is N-1; sections are applied in order at start-up, each in
-- its own transaction, so a newer release upgrades an older file in place.
-- Times are ISO 8601 UTC text (they sort as they read); rate windows are unix ms.

-- version 1
CREATE TABLE apps (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- Kept in the clear: links are verified with an HMAC of it. The hash finds the
  -- app when an older integration still sends the secret as its Bearer value.
  secret TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  allowed_scopes TEXT NOT NULL DEFAULT 'conversations:read',
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  key_hash TEXT NOT NULL UNIQUE,
  start TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
) STRICT;
CREATE INDEX api_keys_by_app ON api_keys (app_id, created_at);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  user_ref TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (app_id, user_ref)
) STRICT;

CREATE TABLE connections (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'needs_reauth', 'revoked')),
  captured_at TEXT NOT NULL,
  last_sync_at TEXT,
  conversation_count INTEGER NOT NULL DEFAULT 0
) STRICT;
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
  payload TEXT,
  update_time TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (connection_id, external_id)
) STRICT;
-- SQLite sorts NULL lowest, so DESC puts conversations without update_time last.
CREATE INDEX conversations_by_connection ON conversations (connection_id, update_time DESC, id);

CREATE TABLE rate_buckets (
  app_id TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (app_id, window_start)
) STRICT, WITHOUT ROWID;

CREATE TABLE used_links (
  jti TEXT PRIMARY KEY,
  app_id TEXT NOT NULL,
  used_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;

-- version 2
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
) STRICT, WITHOUT ROWID;
CREATE INDEX page_sessions_by_last_seen ON page_sessions (last_seen_at);
CREATE INDEX used_links_by_expiry ON used_links (expires_at);

-- version 3
-- Webhooks: one endpoint per app, and an outbox written in the same transaction
-- as the change it reports, so an event exists exactly when its change committed.
ALTER TABLE apps ADD COLUMN webhook_url TEXT;
ALTER TABLE apps ADD COLUMN webhook_secret TEXT;

CREATE TABLE webhook_deliveries (
  -- The order events happened in; first attempts to an endpoint follow it.
  seq INTEGER PRIMARY KEY,
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
  -- timeout, so a process that dies mid-attempt leaves it due again later.
  next_attempt_at INTEGER NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_app ON webhook_deliveries (app_id, seq DESC);

-- version 4
-- Work that one process at a time may do (an app's webhook deliveries, the
-- hourly maintenance): held until `expires_at` (unix ms) by `holder`.
CREATE TABLE leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- version 5
-- The SHA-256 of each conversation's bytes in the export it last came from: a
-- re-import finds an unchanged conversation by it without reading it again.
ALTER TABLE conversations ADD COLUMN source_hash TEXT;

-- version 6
-- source_hash sits after the payload in each row: reading it from the table walks
-- the payload's overflow pages. This index answers a re-import's look-ups (which
-- conversations are unchanged, and are they still) without touching the rows.
-- UNIQUE (as it is anyway) so that SQLite's planner prefers it to the
-- (connection_id, external_id) one wherever all three columns are compared.
CREATE UNIQUE INDEX conversations_by_source ON conversations (connection_id, external_id, source_hash);

-- version 7
-- When Parley last stored or changed each conversation, by its own clock: a
-- backend asks for only what changed since its last poll (`updatedSince`).
-- Conversations from before this version count as changed when they were created.
-- (SQLite adds a NOT NULL column only with a default; every write sets it.)
ALTER TABLE conversations ADD COLUMN changed_at TEXT NOT NULL DEFAULT '';
UPDATE conversations SET changed_at = created_at;
CREATE INDEX conversations_by_change ON conversations (connection_id, changed_at);

-- version 8
-- Full-text search over each conversation's title and message text (decisions
-- §15's `q`). Triggers on `conversations` keep the index in step with every write
-- and delete, cascades from connections and users included, in the same
-- transaction: no code path can forget it.
--
-- The index is keyed by an integer of its own: `conversations` has a TEXT primary
-- key, so its rowid is not stable (VACUUM, and so backups by VACUUM INTO, may
-- renumber it). `key` is an INTEGER PRIMARY KEY, which VACUUM keeps, and
-- AUTOINCREMENT never hands out a deleted conversation's key again.
CREATE TABLE conversation_search_keys (
  key INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL UNIQUE
) STRICT;
-- Contentless: the text is already in `conversations`; the index holds only
-- tokens. contentless_delete (SQLite 3.43) deletes by key without the old text,
-- and secure-delete (3.44) removes a deleted conversation's tokens from the index
-- itself, as secure_delete does for the rows: purged words leave no trace.
-- unicode61 folds case and diacritics (remove_diacritics 2 also folds those
-- unicode61's first version missed) in every alphabet. Scripts written without
-- spaces (Chinese, Japanese) are indexed by their runs between punctuation, so
-- a word inside a run is found only by the run's start (the last word is
-- matched as a prefix): trigram would find it, but costs an index several times
-- the text and matches no term under three characters.
CREATE VIRTUAL TABLE conversation_search USING fts5 (
  title, body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO conversation_search (conversation_search, rank) VALUES ('secure-delete', 1);

-- What is indexed of each conversation, once for the triggers and the build
-- below: the first 1,000 characters of its title, 200,000 of its messages.
CREATE VIEW conversation_search_text AS
  SELECT id, substr(title, 1, 1000) AS title,
    substr((SELECT group_concat(m.value ->> 'content', char(10)) FROM json_each(payload, '$.messages') AS m), 1, 200000) AS body
  FROM conversations;

CREATE TRIGGER conversations_search_insert AFTER INSERT ON conversations BEGIN
  INSERT INTO conversation_search_keys (conversation_id) VALUES (new.id);
  INSERT INTO conversation_search (rowid, title, body)
    SELECT k.key, t.title, t.body FROM conversation_search_keys k JOIN conversation_search_text t ON t.id = k.conversation_id
    WHERE k.conversation_id = new.id;
END;
-- Not on source_hash or changed_at alone: only new text is indexed anew.
CREATE TRIGGER conversations_search_update AFTER UPDATE OF title, payload ON conversations
  WHEN old.title IS NOT new.title OR old.payload IS NOT new.payload BEGIN
  DELETE FROM conversation_search WHERE rowid = (SELECT key FROM conversation_search_keys WHERE conversation_id = old.id);
  INSERT INTO conversation_search (rowid, title, body)
    SELECT k.key, t.title, t.body FROM conversation_search_keys k JOIN conversation_search_text t ON t.id = k.conversation_id
    WHERE k.conversation_id = new.id;
END;
-- Foreign-key cascades (a connection's or user's deletion) fire this too.
CREATE TRIGGER conversations_search_delete AFTER DELETE ON conversations BEGIN
  DELETE FROM conversation_search WHERE rowid = (SELECT key FROM conversation_search_keys WHERE conversation_id = old.id);
  DELETE FROM conversation_search_keys WHERE conversation_id = old.id;
END;

-- The conversations already stored, indexed.
INSERT INTO conversation_search_keys (conversation_id) SELECT id FROM conversations ORDER BY rowid;
INSERT INTO conversation_search (rowid, title, body)
  SELECT k.key, t.title, t.body FROM conversation_search_keys k JOIN conversation_search_text t ON t.id = k.conversation_id;

-- version 9
-- An import's new conversations are indexed just after it commits, not in its
-- final transaction: that transaction holds the write lock and the caller waits
-- on it, and indexing 200 MB of export took 1.2–1.5 s of it. The insert trigger
-- now only notes the connection as having conversations to index; the server
-- indexes each noted connection in the background within a second, and a search
-- indexes its connections' first if they are still noted, so it never misses a
-- stored conversation. Changes and deletions stay in the triggers above: changed
-- text is indexed anew, and gone text is out of the index, in the same transaction.
CREATE TABLE conversation_search_pending (
  connection_id TEXT PRIMARY KEY REFERENCES connections (id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
DROP TRIGGER conversations_search_insert;
CREATE TRIGGER conversations_search_pending AFTER INSERT ON conversations BEGIN
  INSERT OR IGNORE INTO conversation_search_pending (connection_id) VALUES (new.connection_id);
END;
-- FTS5 holds the tokens a transaction adds in memory and writes them out as a
-- new segment, to be merged later, each time they pass `hashsize` (1 MB unless
-- set). At 16 MB a batch of conversations indexed together (500: see
-- indexConversations) makes one segment instead of several; indexing all of a
-- 200 MB import at once took 0.3 s less, for at most 16 MB more memory.
INSERT INTO conversation_search (conversation_search, rank) VALUES ('hashsize', 16777216);

-- version 10
-- What the hosted pages show of the app (its brand), and where a link may send
-- the person back to. Each is optional: the pages fall back to the app's name
-- and Parley's own colours.
ALTER TABLE apps ADD COLUMN display_name TEXT;
ALTER TABLE apps ADD COLUMN accent_color TEXT;
ALTER TABLE apps ADD COLUMN privacy_url TEXT;
-- The logo, served by Parley itself (the pages' CSP allows images from 'self'
-- only). Its own table: the app row is read on every request, the image only
-- when a browser asks for it. `sha256` versions its URL, so browsers may cache it.
CREATE TABLE app_logos (
  app_id TEXT PRIMARY KEY REFERENCES apps (id) ON DELETE CASCADE,
  content_type TEXT NOT NULL,
  bytes BLOB NOT NULL,
  sha256 TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
-- The origins (scheme, host, port) a link's returnUrl may point at: the pages
-- never send anyone to an address the app did not register.
CREATE TABLE app_return_origins (
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  origin TEXT NOT NULL,
  PRIMARY KEY (app_id, origin)
) STRICT, WITHOUT ROWID;
-- The link a session was opened by (its jti, to send a browser coming back to
-- that link to its session) and where the pages offer to return to.
ALTER TABLE page_sessions ADD COLUMN link_jti TEXT;
ALTER TABLE page_sessions ADD COLUMN return_url TEXT;

-- version 11
-- Requests are counted in a database of their own (DATABASE_PATH-counters, see
-- src/db/rate-buckets.ts), whose write lock is not this file's: the table here
-- was left unused.
DROP TABLE rate_buckets;

-- version 12
-- Files and images from exports. The bytes of each distinct file are a blob,
-- kept once per connection (content-addressed by SHA-256); an attachment is a
-- file as one message showed it, with the name it had there. An attachment
-- whose bytes the export did not hold has no blob (`stored: false`).
--
-- A blob is written while its import runs, out of sight: `connection_id` is NULL
-- and `import_id` names the import until its final transaction adopts it. A
-- failed import deletes its blobs; maintenance deletes those of an import that
-- died (by `created_at`, unix ms).
CREATE TABLE attachment_blobs (
  id TEXT PRIMARY KEY,
  connection_id TEXT REFERENCES connections (id) ON DELETE CASCADE,
  import_id TEXT,
  -- Where the bytes are: 'database' (attachment_chunks) or 's3' (an object named by id).
  store TEXT NOT NULL CHECK (store IN ('database', 's3')),
  -- SHA-256 of the bytes, base64url; '' until they are all written.
  sha256 TEXT NOT NULL DEFAULT '',
  size INTEGER NOT NULL DEFAULT 0,
  -- Sniffed from the first bytes where the export gives no type.
  content_type TEXT NOT NULL DEFAULT 'application/octet-stream',
  -- The zip member the bytes came from: with its size, a re-import knows an
  -- unchanged file before reading it, and writes nothing.
  source TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX attachment_blobs_by_content ON attachment_blobs (connection_id, sha256)
  WHERE connection_id IS NOT NULL;
CREATE INDEX attachment_blobs_by_source ON attachment_blobs (connection_id, source, size);
CREATE INDEX attachment_blobs_by_import ON attachment_blobs (import_id) WHERE import_id IS NOT NULL;

-- The bytes of a blob in the database, in order.
CREATE TABLE attachment_chunks (
  blob_id TEXT NOT NULL REFERENCES attachment_blobs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  -- Offset of this chunk's first byte in the blob: a range request finds its first chunk.
  start_byte INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (blob_id, seq)
) STRICT;

CREATE TABLE attachments (
  id TEXT PRIMARY KEY,
  connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  -- The message that showed it: its index in the conversation's messages.
  message_index INTEGER NOT NULL,
  -- Its place among the conversation's attachments, in the export's order.
  position INTEGER NOT NULL DEFAULT 0,
  -- What the export calls it within the conversation (a file id, say): a
  -- re-import finds the same attachment, and it keeps its id.
  ref TEXT NOT NULL,
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER,
  kind TEXT NOT NULL CHECK (kind IN ('image', 'file', 'audio', 'document')),
  blob_id TEXT REFERENCES attachment_blobs (id),
  created_at TEXT NOT NULL,
  UNIQUE (conversation_id, ref)
) STRICT;
CREATE INDEX attachments_by_conversation ON attachments (conversation_id, message_index);
CREATE INDEX attachments_by_blob ON attachments (blob_id) WHERE blob_id IS NOT NULL;
-- A connection's attachments in id order: "Download my data" pages through them, and a
-- connection's deletion finds them.
CREATE INDEX attachments_by_connection ON attachments (connection_id, id);

-- Objects in S3-compatible storage whose blob is gone, to delete. Written by the
-- trigger below in the transaction that deletes the blob (a purge, a
-- conversation's or attachment's deletion, a disconnect, a failed import), so no
-- path forgets one and a restart loses none; a background task empties it.
CREATE TABLE attachment_deletions (
  blob_id TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;
CREATE TRIGGER attachment_blobs_delete_object AFTER DELETE ON attachment_blobs WHEN old.store = 's3' BEGIN
  INSERT OR IGNORE INTO attachment_deletions (blob_id) VALUES (old.id);
END;
-- A blob goes with the last attachment that shows it.
CREATE TRIGGER attachments_delete_blob AFTER DELETE ON attachments
  WHEN old.blob_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM attachments WHERE blob_id = old.blob_id) BEGIN
  DELETE FROM attachment_blobs WHERE id = old.blob_id;
END;

-- version 13
-- An import that opens a user's connection writes its conversations straight
-- into a connection of its own, instead of staging them to copy them in its
-- final transaction (the copy was most of that transaction, and the uploader
-- waited on it). Until then the connection belongs to a user of the import's
-- own, whose ref is longer than any userRef, so that no request can name it:
-- the final transaction gives the connection to the real user. `import_id`
-- marks such a user; maintenance removes those an import that died left (by
-- `created_at`), and search indexes none of their conversations.
ALTER TABLE users ADD COLUMN import_id TEXT;
CREATE INDEX users_of_imports ON users (created_at) WHERE import_id IS NOT NULL;

-- version 14
-- A link's `jti` is its app's to choose: used links are keyed by app and jti,
-- so that one app's link never uses up, or is refused for, another app's with
-- the same jti. SQLite changes no primary key in place: the table is copied.
CREATE TABLE used_links_by_app (
  jti TEXT NOT NULL,
  app_id TEXT NOT NULL,
  used_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (app_id, jti)
) STRICT, WITHOUT ROWID;
INSERT INTO used_links_by_app (jti, app_id, used_at, expires_at) SELECT jti, app_id, used_at, expires_at FROM used_links;
DROP TABLE used_links;
ALTER TABLE used_links_by_app RENAME TO used_links;
CREATE INDEX used_links_by_expiry ON used_links (expires_at);

-- The imports under way, so that a purge refuses them: a purge of a user, or of
-- one of their connections, marks every import of the app then under way with
-- the user's ref (`import_purges`), in its transaction, and an import's final
-- transaction commits only if no mark names the user it is for. Else an import
-- begun before the purge committed after it and brought the user back. Marks,
-- rather than the import's row going: a form may name its user only after its
-- file. A handful of rows, each gone when its import ends: no index. No
-- foreign key from the marks: a purge marking an import that is just ending
-- must not fail for it (maintenance removes such a mark).
CREATE TABLE imports (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  -- Unix ms: maintenance removes the rows of imports that died.
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE import_purges (
  import_id TEXT NOT NULL,
  user_ref TEXT NOT NULL,
  PRIMARY KEY (import_id, user_ref)
) STRICT, WITHOUT ROWID;

-- What each connection stores, in bytes: its conversations' payloads and its
-- files. Brought up to date wherever its content changes (an import's commit,
-- a deletion), as conversation_count is, so that an import is held to
-- MAX_STORED_BYTES_PER_USER and _PER_APP without reading a conversation.
-- octet_length reads a payload's size from its row's header, not its pages.
ALTER TABLE connections ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
UPDATE connections SET stored_bytes =
  (SELECT coalesce(sum(octet_length(payload)), 0) FROM conversations WHERE connection_id = connections.id)
  + (SELECT coalesce(sum(size), 0) FROM attachment_blobs WHERE connection_id = connections.id);

-- version 15
-- Resumable uploads (tus): a file sent in parts, each PATCH one part, that an
-- import reads once it is whole. A part's bytes are a blob of the attachments'
-- store (the database or S3), so that they outlive the process that took them
-- and another instance continues the upload. `received` is what the server
-- acknowledged: a part counts only once the transaction that adds its size
-- to it commits, and only where it starts at `received` (two requests racing
-- for the same bytes: the second is refused). `size` is NULL while its PATCH
-- runs; a part left so by a process that died goes with its upload.
CREATE TABLE uploads (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  -- From Upload-Metadata: a purge of this user removes the upload.
  user_ref TEXT,
  -- Upload-Metadata as the client sent it, which HEAD answers.
  metadata TEXT NOT NULL,
  length INTEGER NOT NULL,
  received INTEGER NOT NULL DEFAULT 0,
  -- Unix ms: UPLOAD_EXPIRY_HOURS after its last byte; maintenance removes it then.
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX uploads_by_user ON uploads (app_id, user_ref);
CREATE INDEX uploads_by_expiry ON uploads (expires_at);
CREATE TABLE upload_parts (
  blob_id TEXT PRIMARY KEY,
  upload_id TEXT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
  start_byte INTEGER NOT NULL,
  size INTEGER
) STRICT;
CREATE INDEX upload_parts_by_upload ON upload_parts (upload_id, start_byte);
-- A part's bytes go with it (and so its object in S3, through the blob's trigger).
CREATE TRIGGER upload_parts_delete_blob AFTER DELETE ON upload_parts BEGIN
  DELETE FROM attachment_blobs WHERE id = old.blob_id;
END;

-- version 16
-- What the assistant remembers of the person (memories) and the projects they
-- set up, kept beside the conversations in the same connection (providers.md
-- §10). `changed_at` is Parley's clock, for the listings' `updatedSince`;
-- `created_at`/`updated_at` are the export's. A project memory names its
-- project by the export's id, so that it is linked (`projectId`) whichever
-- upload brings the project.
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
) STRICT;
CREATE INDEX projects_by_connection ON projects (connection_id, updated_at DESC, id);
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
) STRICT;
CREATE INDEX memories_by_connection ON memories (connection_id, updated_at DESC, id);
-- A conversation of a project (ChatGPT's `g-p-…`): the project's row, named by the
-- export's id only.
ALTER TABLE conversations ADD COLUMN project_id TEXT REFERENCES projects (id) ON DELETE SET NULL;

-- A project's knowledge files are attachments of the project, not of a
-- conversation: served, downloaded and deleted as any attachment is. SQLite
-- drops no NOT NULL in place: the table is copied (its triggers and indexes
-- made again).
CREATE TABLE attachments_of_both (
  id TEXT PRIMARY KEY,
  connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  conversation_id TEXT REFERENCES conversations (id) ON DELETE CASCADE,
  project_id TEXT REFERENCES projects (id) ON DELETE CASCADE,
  message_index INTEGER NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  ref TEXT NOT NULL,
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER,
  kind TEXT NOT NULL CHECK (kind IN ('image', 'file', 'audio', 'document')),
  blob_id TEXT REFERENCES attachment_blobs (id),
  created_at TEXT NOT NULL,
  UNIQUE (conversation_id, ref),
  CHECK ((conversation_id IS NULL) <> (project_id IS NULL))
) STRICT;
INSERT INTO attachments_of_both
  (id, connection_id, conversation_id, project_id, message_index, position, ref, name, content_type, size, kind, blob_id, created_at)
  SELECT id, connection_id, conversation_id, NULL, message_index, position, ref, name, content_type, size, kind, blob_id, created_at
  FROM attachments;
DROP TABLE attachments;
ALTER TABLE attachments_of_both RENAME TO attachments;
CREATE INDEX attachments_by_conversation ON attachments (conversation_id, message_index);
CREATE INDEX attachments_by_blob ON attachments (blob_id) WHERE blob_id IS NOT NULL;
CREATE INDEX attachments_by_connection ON attachments (connection_id, id);
CREATE UNIQUE INDEX attachments_of_projects ON attachments (project_id, ref);
CREATE TRIGGER attachments_delete_blob AFTER DELETE ON attachments
  WHEN old.blob_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM attachments WHERE blob_id = old.blob_id) BEGIN
  DELETE FROM attachment_blobs WHERE id = old.blob_id;
END;

-- version 17
-- Agent tokens (decisions §17): a short-lived, read-only grant to one user's
-- data, for the app's own assistant. Only the token's hash is kept. It goes with
-- its user (a purge) and with the API key that minted it (a revoked key's
-- tokens are refused; a deleted key's go); expired ones are deleted by
-- maintenance. `api_key_id` is NULL for one minted with the app secret.
CREATE TABLE agent_tokens (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  api_key_id TEXT REFERENCES api_keys (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT;
CREATE INDEX agent_tokens_by_user ON agent_tokens (user_id);
CREATE INDEX agent_tokens_by_key ON agent_tokens (api_key_id) WHERE api_key_id IS NOT NULL;
CREATE INDEX agent_tokens_by_expiry ON agent_tokens (expires_at);

-- What the person's manage page shows of who read their data: per user (so per
-- app), UTC day and channel ('api': the app's server; 'agent': its assistant
-- over /mcp), how many requests read it and how many of them searched. One
-- upsert per request; kept 90 days (maintenance), gone with the user.
CREATE TABLE access_log (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  channel TEXT NOT NULL CHECK (channel IN ('api', 'agent')),
  reads INTEGER NOT NULL DEFAULT 0,
  searches INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, day, channel)
) STRICT, WITHOUT ROWID;
CREATE INDEX access_log_by_day ON access_log (day);

-- version 18
-- A resumable upload the connect page makes belongs to its page session (the
-- hash of its cookie), not to the app at large: no other session, and no API
-- key, reaches it, and it goes with the session (its end, a purge).
ALTER TABLE uploads ADD COLUMN page_session TEXT REFERENCES page_sessions (token_hash) ON DELETE CASCADE;
CREATE INDEX uploads_by_page_session ON uploads (page_session) WHERE page_session IS NOT NULL;

-- version 19
-- What the person deleted on the manage page (a conversation, a memory, a
-- project, a file), by the export's identity of it, so that no later import of
-- the same export brings it back: `external_id` is the conversation's, memory's
-- or project's; for a file, its conversation's external id (or
-- `project:<external id>` for a knowledge file), a line feed, and its ref. They
-- go with their connection (a purge) and when the person disconnects it.
CREATE TABLE deleted_items (
  connection_id TEXT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('conversation', 'memory', 'project', 'attachment')),
  external_id TEXT NOT NULL,
  deleted_at TEXT NOT NULL,
  PRIMARY KEY (connection_id, kind, external_id)
) STRICT, WITHOUT ROWID;

-- version 20
-- Unix ms until which an import is reading the upload (null: none is). A second
-- import of it meanwhile — the connect page reloaded during its import sends it
-- again — is refused rather than run beside the first, which deletes the upload
-- at its end. An import that died with its process lets go at that time.
ALTER TABLE uploads ADD COLUMN importing_until INTEGER;

-- version 21
-- FTS5 merges a level's segments once 8 of them are there, not 4 (its default):
-- a large import's background indexing does about a third less merging work for
-- an index of the same size, and a search reads at most 8 segments a level.
INSERT INTO conversation_search (conversation_search, rank) VALUES ('automerge', 8);
