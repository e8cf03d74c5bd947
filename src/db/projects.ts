import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AttachmentsTable, Db, ProjectsTable } from './database.ts';
import { ATTACHMENT_COLUMNS, attachmentParameters } from './attachment-staging.ts';
import { fixedSql } from './fixed-sql.ts';
import { countRows, rowsOf } from './sql-fragments.ts';

/** A project as the API answers it (its knowledge files apart: knowledgeOfProjects). */
export type ProjectRow = Omit<ProjectsTable, 'connection_id' | 'changed_at'>;

const ofConnection = (connectionId: string, changedAfter: string | undefined) =>
  changedAfter === undefined
    ? sql<SqlBool>`p.connection_id = ${connectionId}`
    : sql<SqlBool>`p.connection_id = ${connectionId} AND p.changed_at > ${changedAfter}`;

/** A page of a connection's projects, newest update first (those without one last), then id. */
export const listProjectsPage = (db: Db, connectionId: string, limit: number, offset: number, changedAfter?: string) =>
  listProjectsIn(db, ofConnection(connectionId, changedAfter), limit, offset);

export const countProjects = (db: Db, connectionId: string, changedAfter?: string) =>
  countProjectsIn(db, ofConnection(connectionId, changedAfter));

/** A page of the projects `scope` (a condition on `p`) admits, newest update first (those without one last), then id. */
export function listProjectsIn(
  db: Db,
  scope: RawBuilder<SqlBool>,
  limit: number,
  offset: number,
): Promise<ProjectRow[]> {
  return rowsOf<ProjectRow>(
    db,
    sql`SELECT p.id, p.external_id, p.name, p.description, p.instructions, p.created_at, p.updated_at
      FROM projects p WHERE ${scope}
      ORDER BY p.updated_at DESC NULLS LAST, p.id LIMIT ${limit} OFFSET ${offset}`,
  );
}

export const countProjectsIn = (db: Db, scope: RawBuilder<SqlBool>) => countRows(db, sql`projects p WHERE ${scope}`);

/** Every project of a connection as stored: an import compares what it read with them. */
export const projectsOfConnection = (db: Db, connectionId: string) =>
  db.selectFrom('projects').selectAll().where('connection_id', '=', connectionId).execute();

/** Inserts the row; returns its id. */
export async function insertProject(db: Db, row: ProjectsTable): Promise<string> {
  await db.insertInto('projects').values(row).execute();
  return row.id;
}

export async function updateProject(
  db: Db,
  id: string,
  changes: Omit<ProjectsTable, 'id' | 'connection_id' | 'external_id'>,
): Promise<void> {
  await db.updateTable('projects').set(changes).where('id', '=', id).execute();
}

/**
 * A project's knowledge files as an import read them: each kept (with its id)
 * or added by its ref, those no longer in the export removed (their blobs with
 * the last attachment showing them: schema.sql's trigger).
 */
export async function replaceKnowledge(
  db: Db,
  projectId: string,
  rows: Array<Omit<AttachmentsTable, 'conversation_id' | 'message_index'>>,
): Promise<void> {
  for (const row of rows)
    await fixedSql(
      db,
      `INSERT INTO attachments (${ATTACHMENT_COLUMNS}, project_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id, ref) DO UPDATE SET
         position = excluded.position, name = excluded.name, content_type = excluded.content_type,
         size = excluded.size, kind = excluded.kind, blob_id = excluded.blob_id`,
      [...attachmentParameters({ ...row, conversation_id: null, message_index: 0 }), projectId],
    );
  const kept = new Set(rows.map((row) => row.ref));
  const stored = await fixedSql<{ id: string; ref: string }>(
    db,
    'SELECT id, ref FROM attachments WHERE project_id = ?',
    [projectId],
  );
  for (const { id, ref } of stored)
    if (!kept.has(ref)) await fixedSql(db, 'DELETE FROM attachments WHERE id = ?', [id]);
}

/** Deletes a connection's projects (a disconnect), their knowledge files with them; returns how many. */
export async function deleteProjectsOfConnection(db: Db, connectionId: string): Promise<number> {
  const result = await db.deleteFrom('projects').where('connection_id', '=', connectionId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A project of one app's user, with its connection; undefined for another's, as for one that does not exist. */
export async function findProjectOfUser(db: Db, appId: string, userRef: string, projectId: string) {
  const [row] = await rowsOf<ProjectRow & { connection_id: string; provider: string }>(
    db,
    sql`SELECT p.id, p.external_id, p.name, p.description, p.instructions, p.created_at, p.updated_at,
        p.connection_id, c.provider
      FROM projects p JOIN connections c ON c.id = p.connection_id JOIN users u ON u.id = c.user_id
      WHERE p.id = ${projectId} AND u.app_id = ${appId} AND u.user_ref = ${userRef} AND u.import_id IS NULL`,
  );
  return row;
}

/** Deletes a project, its knowledge files with it (their blobs with the last attachment showing them). */
export async function deleteProjectRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('projects').where('id', '=', id).execute();
}
