import { sql } from 'kysely';
import type { Db, ImportRecordsTable, ImportStagingTable } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';
import { fixedSql } from './fixed-sql.ts';
import { andAfter, countRows, rowsOf } from './sql-fragments.ts';
import { nextTurn } from './transaction.ts';

/**
 * Of two rows with the same external id, the one later in (source, seq) order:
 * the last copy in the file, or in the later-named file of an archive, whatever
 * order the archive holds them in.
 */
export function latestCopies<Row extends Pick<ImportStagingTable, 'external_id' | 'source' | 'seq'>>(
  rows: Row[],
): Row[] {
  const latest = new Map<string, Row>();
  for (const row of rows) {
    const kept = latest.get(row.external_id);
    if (!kept || row.source > kept.source || (row.source === kept.source && row.seq > kept.seq))
      latest.set(row.external_id, row);
  }
  return [...latest.values()];
}

/**
 * Stages rows in one statement, and returns the external ids of those it kept:
 * of two copies of one (here or staged before), the later (see latestCopies).
 * Fixed SQL: building and compiling a query of a hundred rows costs more than
 * SQLite takes to write them.
 */
export async function stageConversations(db: Db, rows: ImportStagingTable[]): Promise<string[]> {
  // One statement may not hold a key twice on PostgreSQL: the later copy goes in alone.
  const staged = latestCopies(rows);
  const parameters = staged.flatMap((row) => [
    row.import_id,
    row.external_id,
    row.conversation_id,
    row.title,
    row.payload,
    row.update_time,
    row.source_hash,
    row.source,
    row.seq,
    row.created_at,
    row.attachments,
    row.message_ids,
  ]);
  const values = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), '.repeat(staged.length).slice(0, -2);
  const kept = await fixedSql<{ external_id: string }>(
    db,
    `INSERT INTO import_staging (import_id, external_id, conversation_id, title, payload, update_time, source_hash, source, seq, created_at, attachments, message_ids)
     VALUES ${values}
     ON CONFLICT (import_id, external_id) DO UPDATE SET
       title = excluded.title, payload = excluded.payload, update_time = excluded.update_time,
       source_hash = excluded.source_hash, source = excluded.source, seq = excluded.seq,
       attachments = excluded.attachments, message_ids = excluded.message_ids
     WHERE (excluded.source, excluded.seq) > (import_staging.source, import_staging.seq)
     RETURNING external_id`,
    parameters,
  );
  return kept.map((row) => row.external_id);
}

/**
 * Stages records to be grouped into conversations once all have been read. They
 * are many and small: fixed SQL skips building and compiling a query per batch.
 */
export async function stageRecords(db: Db, rows: ImportRecordsTable[]): Promise<void> {
  const parameters = rows.flatMap((row) => [
    row.import_id,
    row.group_key,
    row.time,
    row.seq,
    row.record,
    row.created_at,
  ]);
  const values = '(?, ?, ?, ?, ?, ?), '.repeat(rows.length).slice(0, -2);
  await fixedSql(
    db,
    `INSERT INTO import_records (import_id, group_key, time, seq, record, created_at) VALUES ${values}`,
    parameters,
  );
}

/** The position of a staged record in grouping order: (group_key, time, seq). */
export type RecordPosition = Pick<ImportRecordsTable, 'group_key' | 'time' | 'seq'>;

/** The next `limit` staged records after `after`, in grouping order. */
export const nextRecords = (db: Db, importId: string, after: RecordPosition | undefined, limit: number) =>
  db
    .selectFrom('import_records')
    .select(['group_key', 'time', 'seq', 'record'])
    .where('import_id', '=', importId)
    .$if(after !== undefined, (query) =>
      query.where(sql<boolean>`(group_key, time, seq) > (${after!.group_key}, ${after!.time}, ${after!.seq})`),
    )
    .orderBy('group_key')
    .orderBy('time')
    .orderBy('seq')
    .limit(limit)
    .execute();

/** How many conversations the import staged (copies of one id as one). */
export const countStaged = (db: Db, importId: string) =>
  countRows(db, sql`import_staging WHERE import_id = ${importId}`);

/** How many staged conversations the connection does not have yet, and how many are staged. */
export async function countNewStaged(db: Db, importId: string, connectionId: string) {
  const [row] = await fixedSql<{ staged: number; created: number }>(
    db,
    `SELECT count(*) AS staged,
            count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM conversations c
              WHERE c.connection_id = ? AND c.external_id = s.external_id)) AS created
     FROM import_staging s WHERE s.import_id = ?`,
    [connectionId, importId],
  );
  return { staged: Number(row!.staged), created: Number(row!.created) };
}

/**
 * Moves the staged conversations into the connection and returns how many rows
 * it wrote (new plus changed). Unchanged ones are not written at all:
 * re-importing the same file touches no conversation row. A conversation whose
 * content is unchanged but whose bytes now hash differently (the export was
 * written another way) keeps its content and takes the new hash. Call it in the
 * import's transaction: it goes through the staged rows in batches of external
 * ids (the dialect's writeBatch, else all in one), letting other requests in
 * between two (`nextTurn`). The payloads are those staged, or those written into
 * the import's own connection (`own`, see import-connection.ts).
 */
export async function mergeStaged(
  db: Db,
  importId: string,
  connectionId: string,
  now: string,
  own?: string,
): Promise<number> {
  const dialect = dialectOf(db);
  const payload =
    own === undefined
      ? // Staged as text, stored as the dialect stores a payload.
        sql.raw(dialect.storedPayload('s.payload'))
      : sql`(SELECT o.payload FROM conversations o WHERE o.connection_id = ${own} AND o.external_id = s.external_id)`;
  const batchSize = dialect.writeBatch?.merge;
  let written = 0;
  for (let after: string | undefined; ; await nextTurn()) {
    const [last] =
      batchSize === undefined
        ? []
        : await rowsOf<{ external_id: string }>(
            db,
            sql`SELECT external_id FROM import_staging
              WHERE import_id = ${importId}${andAfter('external_id', after)} ORDER BY external_id LIMIT 1 OFFSET ${batchSize - 1}`,
          );
    const upTo = last?.external_id;
    // The batch's external ids, in `column`: of the staged rows or of the connection's.
    const inBatch = (column: string) =>
      sql`TRUE${andAfter(column, after)}${upTo === undefined ? sql`` : sql` AND ${sql.ref(column)} <= ${upTo}`}`;
    const batch = sql`s.import_id = ${importId} AND ${inBatch('s.external_id')}`;
    const result = await sql`
      INSERT INTO conversations (id, connection_id, external_id, title, payload, update_time, created_at, changed_at, source_hash)
      SELECT s.conversation_id, ${connectionId}, s.external_id, s.title, ${payload}, s.update_time, ${now}, ${now}, s.source_hash
      FROM import_staging s WHERE ${batch} AND s.payload IS NOT NULL
      ON CONFLICT (connection_id, external_id) DO UPDATE SET
        title = excluded.title, payload = excluded.payload, update_time = excluded.update_time, source_hash = excluded.source_hash,
        changed_at = excluded.changed_at
      WHERE conversations.title IS DISTINCT FROM excluded.title OR conversations.payload IS DISTINCT FROM excluded.payload
        OR conversations.update_time IS DISTINCT FROM excluded.update_time`.execute(db);
    written += Number(result.numAffectedRows ?? 0);
    await sql`
      UPDATE conversations SET source_hash = (
        SELECT s.source_hash FROM import_staging s WHERE s.import_id = ${importId} AND s.external_id = conversations.external_id)
      WHERE connection_id = ${connectionId} AND ${inBatch('conversations.external_id')} AND EXISTS (
        SELECT 1 FROM import_staging s WHERE ${batch} AND s.external_id = conversations.external_id
          AND s.payload IS NOT NULL AND s.source_hash IS DISTINCT FROM conversations.source_hash)`.execute(db);
    if (upTo === undefined) return written;
    after = upTo;
  }
}

/**
 * How many staged markers (conversations whose bytes were those of a stored one)
 * the connection no longer has with those bytes: another import or a deletion
 * changed it while this file was uploading.
 */
export async function countStaleMarkers(db: Db, importId: string, connectionId: string): Promise<number> {
  const [row] = await fixedSql<{ stale: number }>(
    db,
    `SELECT count(*) AS stale FROM import_staging s
     WHERE s.import_id = ? AND s.payload IS NULL AND NOT EXISTS (SELECT 1 FROM conversations c
       WHERE c.connection_id = ? AND c.external_id = s.external_id AND c.source_hash = s.source_hash)`,
    [importId, connectionId],
  );
  return Number(row!.stale);
}

/**
 * The conversations a user has in their open connections, by the hash of their
 * bytes in the export they came from: what a new import of them need not read.
 * Only the named connection's, or only the provider's, when the import says which.
 */
export function knownSources(
  db: Db,
  where: { appId: string; userRef: string; connectionId?: string | undefined; provider?: string | undefined },
) {
  return db
    .selectFrom('conversations')
    .innerJoin('connections', 'connections.id', 'conversations.connection_id')
    .innerJoin('users', 'users.id', 'connections.user_id')
    .select(['conversations.source_hash as hash', 'conversations.external_id as externalId', 'connections.provider'])
    .where('users.app_id', '=', where.appId)
    .where('users.user_ref', '=', where.userRef)
    .where('connections.status', '<>', 'revoked')
    .where('conversations.source_hash', 'is not', null)
    .$if(where.connectionId !== undefined, (query) => query.where('connections.id', '=', where.connectionId!))
    .$if(where.provider !== undefined, (query) => query.where('connections.provider', '=', where.provider!))
    .execute() as Promise<Array<{ hash: string; externalId: string; provider: string }>>;
}

/**
 * Removes what imports that died (with their instance) left staged before
 * `before` (unix ms): rows, and blobs no commit adopted (their chunks go with
 * them; an S3 object by the deletion queue).
 */
export async function discardAbandonedStaging(db: Db, before: number): Promise<void> {
  await db.deleteFrom('import_staging').where('created_at', '<', before).execute();
  await db.deleteFrom('import_records').where('created_at', '<', before).execute();
  await db
    .deleteFrom('attachment_blobs')
    .where('import_id', 'is not', null)
    .where('connection_id', 'is', null)
    .where('created_at', '<', before)
    .execute();
}

/** Removes an import's staged rows and the blobs it wrote that its commit did not adopt (all of them, if it failed). */
export async function discardStaged(db: Db, importId: string): Promise<void> {
  await db.deleteFrom('import_staging').where('import_id', '=', importId).execute();
  await db.deleteFrom('import_records').where('import_id', '=', importId).execute();
  await db.deleteFrom('attachment_blobs').where('import_id', '=', importId).execute();
}
