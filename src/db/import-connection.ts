import { MAX_USER_REF_LENGTH } from 'parley-sdk/sign-link';
import { deleteConversationsOfConnection } from './conversations.ts';
import type { Db, ImportStagingTable } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';
import { fixedSql } from './fixed-sql.ts';
import { latestCopies, stageConversations } from './import-staging.ts';
import { writeTransaction } from './transaction.ts';

/*
 * An import that opens a user's connection writes its conversations straight
 * into a connection of its own, which its final transaction gives to the user
 * (schema.sql, version 13). Until then the connection belongs to a user of the
 * import's own: the app's, under a ref no request can name.
 */

/** Longer than any userRef, so that no request finds it. */
const importUserRef = (importId: string) => `import ${importId} `.padEnd(MAX_USER_REF_LENGTH + 1, '.');

/**
 * Opens the import's own connection of `provider` for the user, and returns its
 * id; or nothing when the user has an open connection of that provider already
 * (the import stages its conversations for it instead).
 */
export function openImportConnection(
  db: Db,
  row: { importId: string; appId: string; userRef: string; provider: string; userId: string; connectionId: string },
  now: string,
): Promise<string | undefined> {
  return writeTransaction(db, async (trx) => {
    const [open] = await fixedSql<{ id: string }>(
      trx,
      `SELECT c.id FROM users u JOIN connections c ON c.user_id = u.id
       WHERE u.app_id = ? AND u.user_ref = ? AND c.provider = ? AND c.status <> 'revoked'`,
      [row.appId, row.userRef, row.provider],
    );
    if (open) return undefined;
    await trx
      .insertInto('users')
      .values({
        id: row.userId,
        app_id: row.appId,
        user_ref: importUserRef(row.importId),
        created_at: now,
        import_id: row.importId,
      })
      .execute();
    await trx
      .insertInto('connections')
      .values({
        id: row.connectionId,
        user_id: row.userId,
        provider: row.provider,
        status: 'active',
        captured_at: now,
        last_sync_at: null,
        conversation_count: 0,
      })
      .execute();
    return row.connectionId;
  });
}

/** A conversation for the import's own connection: staged, and `id` there. */
export type OwnConversation = ImportStagingTable & { id: string };

/**
 * Writes conversations into the import's own connection, and stages each
 * without its payload (`''`): the staged row keeps its place in the file, and
 * what it links to at the commit. Of two copies of one external id, only the
 * one staging keeps (the later: see stageConversations) is written. `now`
 * stamps them; for `updatedSince` they count as stored when the commit captured
 * the connection (see listing.ts).
 */
export async function writeOwnConversations(
  db: Db,
  connectionId: string,
  rows: OwnConversation[],
  now: string,
): Promise<void> {
  const latest = latestCopies(rows);
  const kept = new Set(
    await stageConversations(
      db,
      latest.map(({ id, ...row }) => ({ ...row, payload: '' })),
    ),
  );
  const written = latest.filter((row) => kept.has(row.external_id));
  if (written.length === 0) return;
  const parameters = written.flatMap((row) => [
    row.id,
    connectionId,
    row.external_id,
    row.title,
    row.payload,
    row.update_time,
    now,
    now,
    row.source_hash,
  ]);
  const payload = dialectOf(db).storedPayload('?');
  const values = `(?, ?, ?, ?, ${payload}, ?, ?, ?, ?), `.repeat(written.length).slice(0, -2);
  await fixedSql(
    db,
    `INSERT INTO conversations (id, connection_id, external_id, title, payload, update_time, created_at, changed_at, source_hash)
     VALUES ${values}
     ON CONFLICT (connection_id, external_id) DO UPDATE SET
       title = excluded.title, payload = excluded.payload, update_time = excluded.update_time, source_hash = excluded.source_hash`,
    parameters,
  );
}

/**
 * Gives the import's own connection to the user, in the import's final
 * transaction, once no connection of theirs is open for its provider.
 */
export async function adoptImportConnection(
  db: Db,
  importId: string,
  connectionId: string,
  userId: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('connections')
    .set({ user_id: userId, captured_at: now })
    .where('id', '=', connectionId)
    .execute();
  await db.deleteFrom('users').where('import_id', '=', importId).execute();
}

/**
 * Removes what the import wrote into its own connection, if that was not given
 * to the user (a failed import, or one that found the user's connection open
 * at its commit); true if there was any.
 */
export async function discardImportConnection(db: Db, importId: string): Promise<boolean> {
  const owners = await db.selectFrom('users').select('id').where('import_id', '=', importId).execute();
  await discardImportUsers(db, owners);
  return owners.length > 0;
}

/** Removes what imports that died left in their own connections before `before` (unix ms); true if there was any. */
export async function discardAbandonedImportConnections(db: Db, before: number): Promise<boolean> {
  const owners = await db
    .selectFrom('users')
    .select('id')
    .where('import_id', 'is not', null)
    .where('created_at', '<', new Date(before).toISOString())
    .execute();
  await discardImportUsers(db, owners);
  return owners.length > 0;
}

/**
 * Deletes import users with their connections. The conversations go first, in
 * batches each a transaction of its own: nobody sees them, so nobody needs them
 * to go at once, and other writes wait for no long statement.
 */
async function discardImportUsers(db: Db, owners: Array<{ id: string }>): Promise<void> {
  for (const { id } of owners) {
    const connections = await db.selectFrom('connections').select('id').where('user_id', '=', id).execute();
    for (const connection of connections) await deleteConversationsOfConnection(db, connection.id);
    await db.deleteFrom('users').where('id', '=', id).execute();
  }
}
