import { sql } from 'kysely';
import { isPostgres, type Db } from './database.ts';

/**
 * Copies what SQLite's write-ahead log holds into the database file; nothing on
 * PostgreSQL. Connections do not do it as they commit (wal_autocheckpoint is
 * off, see sqlite.ts): an import's final commit would make its uploader wait
 * while everything it wrote is copied — 3 s of a 1 GB import. The background
 * work calls this every second instead, once the answer is on its way.
 */
export async function checkpoint(db: Db): Promise<void> {
  if (!isPostgres(db)) await sql`PRAGMA wal_checkpoint(PASSIVE)`.execute(db);
}
