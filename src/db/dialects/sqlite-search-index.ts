import { sql, type SqlBool } from 'kysely';
import { ofUser } from '../conversation-search.ts';
import type { Db } from '../database.ts';
import { fixedSql } from '../fixed-sql.ts';
import { andAfter, rowsOf } from '../sql-fragments.ts';
import { nextTurn, writeTransaction } from '../transaction.ts';
import type { IndexScope } from './dialect.ts';

/**
 * Conversations indexed per transaction, and the most of their stored bytes
 * (but at least one): the text of a batch is indexed in one statement that
 * holds this thread, and other requests get their turn between two.
 */
const INDEX_BATCH: IndexBatch = { rows: 500, bytes: 1024 * 1024 };

export interface IndexBatch {
  rows: number;
  bytes: number;
}

/**
 * An import's new conversations are indexed after it commits (schema.sql,
 * version 9): by the server's background work just after each import, and by a
 * search first, so that it finds everything stored. A shutdown stops between
 * two batches: the connection stays noted, and the next start goes on.
 */
export async function indexPendingInBatches(
  db: Db,
  scope: IndexScope,
  signal?: AbortSignal,
  batch: IndexBatch = INDEX_BATCH,
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
  const which =
    scope === undefined
      ? // Not a connection an import still writes into (see import-connection.ts): the uploader waits on that import.
        sql<SqlBool>`NOT EXISTS (SELECT 1 FROM connections c JOIN users u ON u.id = c.user_id
          WHERE c.id = p.connection_id AND u.import_id IS NOT NULL)`
      : 'connectionId' in scope
        ? sql<SqlBool>`p.connection_id = ${scope.connectionId}`
        : ofUser('p.connection_id', scope);
  const rows = await rowsOf<{ connection_id: string }>(
    db,
    sql`SELECT p.connection_id FROM conversation_search_pending p WHERE ${which}`,
  );
  return rows.map((row) => row.connection_id);
}

/**
 * Indexes a batch (IndexBatch) of the connection's conversations that are not yet,
 * in one transaction, going on in external-id order after `after` (the value a
 * previous call returned), so that each batch starts where the last ended
 * rather than passing over every conversation already indexed. Returns where
 * to go on from, or null once none was left, the connection then taken off the
 * list. New keys are handed out above every earlier one (AUTOINCREMENT), so the
 * conversations just keyed are those past the highest key before.
 */
export function indexConversations(
  db: Db,
  connectionId: string,
  batch: IndexBatch,
  after?: string,
): Promise<string | null> {
  return writeTransaction(db, async (trx) => {
    const [before] = await fixedSql<{ last: number }>(
      trx,
      'SELECT coalesce(max(key), 0) AS last FROM conversation_search_keys',
      [],
    );
    // The first `rows` not yet keyed, then as many of those as `bytes` holds.
    // octet_length, not length: SQLite reads a value's size from its row's header,
    // where length() reads (and counts the characters of) every page of each payload.
    await sql`INSERT INTO conversation_search_keys (conversation_id)
       SELECT id FROM (
         SELECT id, row_number() OVER w AS n, sum(size) OVER w AS bytes FROM (
           SELECT c.id, c.external_id, octet_length(c.payload) AS size FROM conversations c
           WHERE c.connection_id = ${connectionId}${andAfter('c.external_id', after)}
             AND NOT EXISTS (SELECT 1 FROM conversation_search_keys k WHERE k.conversation_id = c.id)
           ORDER BY c.external_id LIMIT ${batch.rows})
         WINDOW w AS (ORDER BY external_id))
       WHERE n = 1 OR bytes <= ${batch.bytes}`.execute(trx);
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
    if (Number(keyed!.count) > 0) return keyed!.last;
    await fixedSql(trx, 'DELETE FROM conversation_search_pending WHERE connection_id = ?', [connectionId]);
    return null;
  });
}
