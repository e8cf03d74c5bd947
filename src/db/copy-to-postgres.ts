import { sql } from 'kysely';
import { OperationRefused, type Database, type Db } from './database.ts';
import { countRows } from './sql-fragments.ts';

/**
 * The tables a copy carries, parents before children, each with its primary key.
 * Staging, leases and the imports under way (with their purges' marks) are never
 * copied: they belong to the processes running; nor are the rate counters (a
 * file of their own on SQLite, this minute's counts).
 * What an import wrote into its own connection is (rows of users, connections and
 * conversations): like staged blobs, the target's to discard as a dead import's.
 */
const TABLES: ReadonlyArray<{ table: keyof Database & string; key: string[]; batchRows?: number }> = [
  { table: 'apps', key: ['id'] },
  { table: 'app_logos', key: ['app_id'] },
  { table: 'app_return_origins', key: ['app_id', 'origin'] },
  { table: 'api_keys', key: ['id'] },
  { table: 'users', key: ['id'] },
  { table: 'connections', key: ['id'] },
  { table: 'conversations', key: ['id'] },
  { table: 'projects', key: ['id'] },
  { table: 'memories', key: ['id'] },
  // What the person deleted: so that no import on the target brings it back.
  { table: 'deleted_items', key: ['connection_id', 'kind', 'external_id'] },
  { table: 'used_links', key: ['app_id', 'jti'] },
  { table: 'page_sessions', key: ['token_hash'] },
  { table: 'webhook_deliveries', key: ['seq'] },
  // Staged blobs too: they are the target's to discard, as a dead import's (its staged rows are not copied).
  { table: 'attachment_blobs', key: ['id'] },
  // A chunk holds up to a megabyte: a few at a time.
  { table: 'attachment_chunks', key: ['blob_id', 'seq'], batchRows: 4 },
  { table: 'attachments', key: ['id'] },
  // Open resumable uploads: their parts' bytes are blobs (above), and a client goes on with them on the target.
  { table: 'uploads', key: ['id'] },
  { table: 'upload_parts', key: ['blob_id'] },
  // Objects still to delete from S3: the target's server deletes them.
  { table: 'attachment_deletions', key: ['blob_id'] },
];
/** Key columns that are numbers; the rest are text, compared byte by byte. */
const NUMERIC_KEYS = new Set(['seq']);

const BATCH_ROWS = 500;
const BATCH_BYTES = 4 * 1024 * 1024;

export interface CopyResult {
  /** Rows copied by this run, per table. */
  copied: Record<string, number>;
  /** Rows in both databases once done, per table (they are equal, or the copy fails). */
  counts: Record<string, number>;
}

/**
 * Copies a SQLite database (`source`, read as it is) into a PostgreSQL one
 * (`target`, its schema already in place) that is empty or holds an earlier,
 * interrupted copy of the same `sourceName`. Each table goes over in key order
 * in committed batches, so a copy that stops continues after the last key the
 * target has; rows already there are left as they are. Ends by comparing the row
 * counts of every table.
 */
export async function copySqliteToPostgres(source: Db, target: Db, sourceName: string): Promise<CopyResult> {
  await claimTarget(target, sourceName);
  const copied: Record<string, number> = {};
  const counts: Record<string, number> = {};
  const differences: string[] = [];
  for (const { table, key, batchRows = BATCH_ROWS } of TABLES) {
    const rowsIn = (db: Db) => countRows(db, sql.table(table));
    copied[table] = await copyTable(source, target, { table, key, batchRows }, 'after-last');
    // Rows the source gained below the last key copied (it was written to since
    // an earlier run) are found by one full pass that adds what is missing.
    if ((await rowsIn(source)) !== (await rowsIn(target)))
      copied[table] += await copyTable(source, target, { table, key, batchRows }, 'from-start');
    const [inSource, inTarget] = [await rowsIn(source), await rowsIn(target)];
    counts[table] = inSource;
    if (inSource !== inTarget) differences.push(`${table}: ${inSource} in SQLite, ${inTarget} in PostgreSQL`);
  }
  // The copied seq values are ahead of the sequence that numbers new deliveries.
  await sql`SELECT setval(pg_get_serial_sequence('webhook_deliveries', 'seq'), (SELECT coalesce(max(seq), 0) + 1 FROM webhook_deliveries), false)`.execute(
    target,
  );
  if (differences.length > 0) {
    throw new OperationRefused(
      `The copy does not match: ${differences.join('; ')}. Stop every server that writes to the SQLite file, then run the command again.`,
    );
  }
  await sql`UPDATE parley_copy SET finished_at = now()`.execute(target);
  return { copied, counts };
}

/** Marks the target as the copy of `sourceName`: refused if it holds anything else. */
async function claimTarget(target: Db, sourceName: string): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS parley_copy (source TEXT NOT NULL, started_at TIMESTAMPTZ NOT NULL, finished_at TIMESTAMPTZ)`.execute(
    target,
  );
  const { rows } = await sql<{ source: string }>`SELECT source FROM parley_copy`.execute(target);
  if (rows.length > 0) {
    if (rows[0]!.source !== sourceName)
      throw new OperationRefused(`The PostgreSQL database holds a copy of ${rows[0]!.source}, not of ${sourceName}.`);
    return;
  }
  if ((await countRows(target, sql.table('apps'))) > 0)
    throw new OperationRefused('The PostgreSQL database is not empty: copy into a new, empty database.');
  await sql`INSERT INTO parley_copy (source, started_at) VALUES (${sourceName}, now())`.execute(target);
}

/**
 * Copies the rows of `table` in key order — after the last key the target has,
 * or all of them — leaving those it has already; returns how many it copied.
 */
async function copyTable(
  source: Db,
  target: Db,
  { table, key, batchRows }: { table: string; key: string[]; batchRows: number },
  from: 'after-last' | 'from-start',
): Promise<number> {
  const keyList = sql.join(key.map((column) => sql.ref(column)));
  // Byte order on both sides (SQLite's BINARY, PostgreSQL's "C"), whatever the target's own collation.
  const orderedKeys = sql.join(
    key.map((column) =>
      NUMERIC_KEYS.has(column) ? sql`${sql.ref(column)} DESC` : sql`${sql.ref(column)} COLLATE "C" DESC`,
    ),
  );
  const last =
    from === 'from-start'
      ? { rows: [] }
      : await sql<
          Record<string, unknown>
        >`SELECT ${keyList} FROM ${sql.table(table)} ORDER BY ${orderedKeys} LIMIT 1`.execute(target);
  let after: unknown[] | undefined = last.rows[0] ? key.map((column) => last.rows[0]![column]) : undefined;
  let copied = 0;
  for (;;) {
    const past = after === undefined ? sql`1 = 1` : sql`(${keyList}) > (${sql.join(after)})`;
    const { rows } = await sql<
      Record<string, unknown>
    >`SELECT * FROM ${sql.table(table)} WHERE ${past} ORDER BY ${keyList} LIMIT ${batchRows}`.execute(source);
    if (rows.length === 0) return copied;
    for (const batch of byBytes(
      rows.map((row) => (table === 'conversations' ? { ...row, payload: payloadBytes(row.payload) } : row)),
    )) {
      const result = await target
        .insertInto(table as keyof Database)
        .values(batch as never)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      copied += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    after = key.map((column) => rows.at(-1)![column]);
  }
}

/** PostgreSQL keeps a payload as its UTF-8 bytes. */
const payloadBytes = (payload: unknown) => (typeof payload === 'string' ? new TextEncoder().encode(payload) : payload);

/** Rows in batches of at most BATCH_BYTES of payload or chunk bytes, so a page of large rows goes over in parts. */
function byBytes(rows: Array<Record<string, unknown>>): Array<Array<Record<string, unknown>>> {
  const batches: Array<Array<Record<string, unknown>>> = [];
  let batch: Array<Record<string, unknown>> = [];
  let bytes = 0;
  for (const row of rows) {
    const large = row.payload ?? row.bytes;
    const size = large instanceof Uint8Array ? large.length : 0;
    if (batch.length > 0 && bytes + size > BATCH_BYTES) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(row);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
