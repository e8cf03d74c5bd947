import { refreshStoredBytes } from '../db/connections.ts';
import * as attachments from '../db/attachments.ts';
import { rememberDeleted } from '../db/deleted-items.ts';
import * as memories from '../db/memories.ts';
import * as projects from '../db/projects.ts';
import type { Db } from '../db/database.ts';
import { writeTransaction } from '../db/transaction.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { attachmentView } from './attachments.ts';
import { connectionOf, type Owner } from './ownership.ts';

const utf8Bytes = (...texts: Array<string | null>) =>
  texts.reduce((sum, text) => sum + (text === null ? 0 : new TextEncoder().encode(text).length), 0);

/** A page of what a connection holds besides its conversations, newest first, and how many in all. */
async function pageOf<Row>(
  deps: Pick<Deps, 'db'>,
  owner: Owner,
  connectionId: string,
  page: { limit: number; offset: number },
  list: (db: Db, connectionId: string, limit: number, offset: number) => Promise<Row[]>,
  count: (db: Db, connectionId: string) => Promise<number>,
) {
  const connection = await connectionOf(deps, owner, connectionId);
  const rows = await list(deps.db, connection.id, page.limit, page.offset);
  return { connection, rows, total: await count(deps.db, connection.id) };
}

/** A page of a connection's memories, as the manage page lists them. */
export const memoryPage = (
  deps: Pick<Deps, 'db'>,
  owner: Owner,
  connectionId: string,
  page: { limit: number; offset: number },
) => pageOf(deps, owner, connectionId, page, memories.listMemoriesPage, memories.countMemories);

/** A page of a connection's projects, as the manage page lists them. */
export const projectPage = (
  deps: Pick<Deps, 'db'>,
  owner: Owner,
  connectionId: string,
  page: { limit: number; offset: number },
) => pageOf(deps, owner, connectionId, page, projects.listProjectsPage, projects.countProjects);

/** The owner's memory, and what deleting it deletes (its text, in bytes); 404 for another's. */
export async function memoryOf(deps: Pick<Deps, 'db'>, owner: Owner, memoryId: string) {
  const memory = await memories.findMemoryOfUser(deps.db, owner.appId, owner.userRef, memoryId);
  if (!memory) throw new ParleyError('memoryNotFound');
  return { ...memory, bytes: utf8Bytes(memory.title, memory.content) };
}

/** The owner's project, its knowledge files, and what deleting it deletes (its texts and stored files, in bytes); 404 for another's. */
export async function projectOf(deps: Pick<Deps, 'db'>, owner: Owner, projectId: string) {
  const project = await projects.findProjectOfUser(deps.db, owner.appId, owner.userRef, projectId);
  if (!project) throw new ParleyError('projectNotFound');
  const files = await attachments.knowledgeOfProjects(deps.db, [project.id]);
  const stored = files.reduce((sum, file) => sum + (file.blob_id === null ? 0 : Number(file.size)), 0);
  return { ...project, files, bytes: utf8Bytes(project.name, project.description, project.instructions) + stored };
}

/** The owner's project as its page shows it: its knowledge files with the start of their text. */
export async function projectToRead(deps: Pick<Deps, 'db' | 'attachments'>, owner: Owner, projectId: string) {
  const { files, ...project } = await projectOf(deps, owner, projectId);
  const knowledge = [];
  for (const file of files) knowledge.push(await attachmentView(deps, file));
  return { ...project, knowledge };
}

/** The person deletes one memory. */
export async function deleteMemory(deps: Pick<Deps, 'db' | 'clock' | 'erased'>, owner: Owner, memoryId: string) {
  const deleted = await writeTransaction(deps.db, async (db) => {
    const memory = await memoryOf({ db }, owner, memoryId);
    await rememberDeleted(db, 'memory', memory, isoTime(deps.clock.now()));
    await memories.deleteMemoryRow(db, memory.id);
    return memory;
  });
  deps.erased?.();
  return deleted;
}

/**
 * The person deletes one project: its knowledge files go with it, their bytes
 * too where nothing else shows them; its conversations stay, in no project.
 */
export async function deleteProject(deps: Pick<Deps, 'db' | 'clock' | 'erased'>, owner: Owner, projectId: string) {
  const deleted = await writeTransaction(deps.db, async (db) => {
    const project = await projects.findProjectOfUser(db, owner.appId, owner.userRef, projectId);
    if (!project) throw new ParleyError('projectNotFound');
    await rememberDeleted(db, 'project', project, isoTime(deps.clock.now()));
    await projects.deleteProjectRow(db, project.id);
    await refreshStoredBytes(db, project.connection_id);
    return project;
  });
  deps.erased?.();
  return deleted;
}
