/**
 * schema.sql's version 16 copies the attachments table (so that a project's
 * knowledge file needs no conversation): every attachment of an older database
 * comes through, and its blob still goes with the last attachment showing it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { readSchema } from '../src/db/schema-file.ts';
import { schemaVersions } from '../src/db/schema-versions.ts';

test('schema version 16 keeps every attachment of a version-15 database, and the trigger that deletes an unshown blob', () => {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  const versions = schemaVersions(readSchema(), 'schema.sql');
  for (const { version, sql } of versions.filter(({ version }) => version <= 15)) {
    db.exec(sql);
    db.pragma(`user_version = ${version}`);
  }
  db.exec(`
    INSERT INTO apps (id, name, secret, secret_hash, allowed_scopes, created_at) VALUES ('a', 'A', 's', 'h', '', 't');
    INSERT INTO users (id, app_id, user_ref, created_at) VALUES ('u', 'a', 'u1', 't');
    INSERT INTO connections (id, user_id, provider, status, captured_at) VALUES ('c', 'u', 'openai', 'active', 't');
    INSERT INTO conversations (id, connection_id, external_id, created_at, changed_at) VALUES ('v', 'c', 'x', 't', 't');
    INSERT INTO attachment_blobs (id, connection_id, store, created_at) VALUES ('b', 'c', 'database', 0);
    INSERT INTO attachments (id, connection_id, conversation_id, message_index, ref, name, content_type, kind, blob_id, created_at)
      VALUES ('f', 'c', 'v', 0, 'r', 'a.png', 'image/png', 'image', 'b', 't');
  `);
  const rowsBefore = db.prepare('SELECT * FROM attachments').all();
  const version16 = versions.find(({ version }) => version === 16)!;
  db.exec(version16.sql);
  assert.deepEqual(
    db.prepare('SELECT * FROM attachments').all(),
    rowsBefore.map((row) => ({ ...(row as object), project_id: null })),
  );
  assert.deepEqual(db.prepare('PRAGMA foreign_key_check').all(), []);
  db.exec("DELETE FROM attachments WHERE id = 'f'");
  assert.deepEqual(db.prepare('SELECT id FROM attachment_blobs').all(), []);
  db.close();
});
