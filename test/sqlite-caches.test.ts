import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { openBetterSqlite3 } from '../src/db/better-sqlite3.ts';

const dir = mkdtempSync(join(tmpdir(), 'parley-caches-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("every SQLite page cache is SQLite's own 2 MB, not the 16 MB better-sqlite3 builds in", async () => {
  const db = openBetterSqlite3(join(dir, 'parley.db'));
  try {
    // PRAGMA statements go to the writing connection, SELECTs to the reading one.
    const writer = async (schema: 'main' | 'temp') =>
      (await sql<{ cache_size: number }>`PRAGMA ${sql.raw(schema)}.cache_size`.execute(db)).rows[0]!.cache_size;
    assert.equal(await writer('main'), -2000);
    assert.equal(await writer('temp'), -2000);
    const [reader] = (await sql<{ cache_size: number }>`SELECT cache_size FROM pragma_cache_size()`.execute(db)).rows;
    assert.equal(reader!.cache_size, -2000);
  } finally {
    await db.destroy();
  }
});
