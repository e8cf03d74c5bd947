import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, MemoriesTable } from './database.ts';
import { countRows, rowsOf } from './sql-fragments.ts';

/** A memory as the API answers it: its project by Parley's id, and a project memory titled by its project's name. */
export interface MemoryRow {
  id: string;
  external_id: string;
  scope: MemoriesTable['scope'];
  project_id: string | null;
  title: string | null;
  content: string;
  updated_at: string | null;
}

/** A connection's memories, or with `changedAfter` those stored or changed after it (ISO 8601). */
const ofConnection = (connectionId: string, changedAfter: string | undefined) =>
  changedAfter === undefined
    ? sql<SqlBool>`m.connection_id = ${connectionId}`
    : sql<SqlBool>`m.connection_id = ${connectionId} AND m.changed_at > ${changedAfter}`;

/** A page of a connection's memories, newest update first (those without one last), then id. */
export const listMemoriesPage = (db: Db, connectionId: string, limit: number, offset: number, changedAfter?: string) =>
  listMemoriesIn(db, ofConnection(connectionId, changedAfter), limit, offset);

export const countMemories = (db: Db, connectionId: string, changedAfter?: string) =>
  countMemoriesIn(db, ofConnection(connectionId, changedAfter));

/** A page of the memories `scope` (a condition on `m`) admits, newest update first (those without one last), then id. */
export function listMemoriesIn(
  db: Db,
  scope: RawBuilder<SqlBool>,
  limit: number,
  offset: number,
): Promise<MemoryRow[]> {
  // The project is linked by the export's id, whichever import brought it.
  return rowsOf<MemoryRow>(
    db,
    sql`SELECT m.id, m.external_id, m.scope, p.id AS project_id, COALESCE(m.title, p.name) AS title, m.content, m.updated_at
      FROM memories m LEFT JOIN projects p ON p.connection_id = m.connection_id AND p.external_id = m.project_external_id
      WHERE ${scope}
      ORDER BY m.updated_at DESC NULLS LAST, m.id LIMIT ${limit} OFFSET ${offset}`,
  );
}

export const countMemoriesIn = (db: Db, scope: RawBuilder<SqlBool>) => countRows(db, sql`memories m WHERE ${scope}`);

/** Every memory of a connection as stored: an import compares what it read with them. */
export const memoriesOfConnection = (db: Db, connectionId: string) =>
  db.selectFrom('memories').selectAll().where('connection_id', '=', connectionId).execute();

/** Inserts the row; returns its id. */
export async function insertMemory(db: Db, row: MemoriesTable): Promise<string> {
  await db.insertInto('memories').values(row).execute();
  return row.id;
}

export async function updateMemory(
  db: Db,
  id: string,
  changes: Pick<MemoriesTable, 'scope' | 'project_external_id' | 'title' | 'content' | 'updated_at' | 'changed_at'>,
): Promise<void> {
  await db.updateTable('memories').set(changes).where('id', '=', id).execute();
}

/** Deletes a connection's memories (a disconnect); returns how many. */
export async function deleteMemoriesOfConnection(db: Db, connectionId: string): Promise<number> {
  const result = await db.deleteFrom('memories').where('connection_id', '=', connectionId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A memory of one app's user, with its connection; undefined for another's, as for one that does not exist. */
export async function findMemoryOfUser(db: Db, appId: string, userRef: string, memoryId: string) {
  const [row] = await rowsOf<MemoryRow & { connection_id: string; provider: string }>(
    db,
    sql`SELECT m.id, m.external_id, m.scope, p.id AS project_id, COALESCE(m.title, p.name) AS title, m.content,
        m.updated_at, m.connection_id, c.provider
      FROM memories m JOIN connections c ON c.id = m.connection_id JOIN users u ON u.id = c.user_id
      LEFT JOIN projects p ON p.connection_id = m.connection_id AND p.external_id = m.project_external_id
      WHERE m.id = ${memoryId} AND u.app_id = ${appId} AND u.user_ref = ${userRef} AND u.import_id IS NULL`,
  );
  return row;
}

export async function deleteMemoryRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('memories').where('id', '=', id).execute();
}
