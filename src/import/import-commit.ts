import type { IngestResult } from 'parley-sdk';
import * as connections from '../db/connections.ts';
import * as conversations from '../db/conversations.ts';
import { deletedExternalIds, unstageDeleted } from '../db/deleted-items.ts';
import * as memories from '../db/memories.ts';
import * as projects from '../db/projects.ts';
import type { Db } from '../db/database.ts';
import { adoptImportConnection } from '../db/import-connection.ts';
import { isImportRefused } from '../db/imports.ts';
import * as staging from '../db/import-staging.ts';
import * as pageSessions from '../db/page-sessions.ts';
import { nextTurn, writeTransaction } from '../db/transaction.ts';
import * as users from '../db/users.ts';
import { isoTime, type Deps } from '../deps.ts';
import { unrevokedConnectionOf } from '../conversations/ownership.ts';
import { messagesOf } from '../conversations/payload.ts';
import { ParleyError } from '../errors.ts';
import { recordEvent } from '../webhooks/events.ts';
import type { ExportFormat, Message, NotReadWhat } from './formats/format.ts';
import { linkAttachments, type ProjectKnowledge } from './staging/attachment-links.ts';
import { checkStorageBounds } from './storage-bounds.ts';
import type { StagedImport } from './staging/staged-import.ts';

export interface ImportTarget {
  appId: string;
  userRef: string;
  /** The provider the caller says the file is from; the file must agree. */
  provider?: string | undefined;
  /** Import into this connection instead of the user's open one of the file's provider. */
  connectionId?: string | undefined;
  /** The hosted-page session uploading it (its token's hash): a purge that ends the session first wins, and nothing is stored. */
  pageSession?: string | undefined;
  /** The person's zone (IANA), for times the export writes without one: named before the file, or not at all. */
  timeZone?: string | undefined;
}

/** What an import answers: the SDK's IngestResult, so the two cannot drift apart (`notRead` naming only what Parley names). */
export type ImportResult = IngestResult & { notRead: Array<{ what: NotReadWhat; count: number }> };

/** What the final transaction answers, and how many conversations it deleted (their text is gone from the database). */
type CommittedImport = ImportResult & { replaced: number };

/** Stored conversations read per query when looking for those an older reader stored. */
const REPLACE_PAGE_SIZE = 200;

/** What each step of one import's final transaction works with. */
interface Commit {
  /** The transaction. */
  db: Db;
  deps: Pick<Deps, 'clock' | 'random' | 'config'>;
  /** The whole target, fields named after the file included. */
  target: ImportTarget;
  format: ExportFormat;
  staged: StagedImport;
  now: string;
}

/** The connection the import ends in, locked. */
interface ImportConnection {
  id: string;
  /** It is the import's own, now the user's: all its conversations are new, and written. */
  adopted: boolean;
}

/** How the import's conversations went, in the order the answer lists them. */
type ConversationCounts = Pick<ImportResult, 'created' | 'updated' | 'unchanged' | 'skipped'>;

/** What the connection holds after the import, as the events that change it say. */
type ConnectionCounts = Pick<ImportResult, 'conversationCount' | 'memoryCount' | 'projectCount'>;

/** How the import's memories, or its projects, went. */
type BesideCounts = ImportResult['memories'];

/**
 * The import's final transaction: what the import staged (or wrote into a
 * connection of its own) becomes the user's, in these steps and this order —
 * each under the locks the ones before it took — or nothing does.
 */
export function commitImport(
  deps: Pick<Deps, 'db' | 'clock' | 'random' | 'config'>,
  target: ImportTarget,
  format: ExportFormat,
  staged: StagedImport,
): Promise<CommittedImport> {
  const now = isoTime(deps.clock.now());
  return writeTransaction(deps.db, async (db) => {
    const commit: Commit = { db, deps, target, format, staged, now };
    const userId = await holdUser(commit);
    await holdUploadingSession(commit);
    await refusePurgedMeanwhile(commit);
    const connection = await resolveConnection(commit, userId);
    await refuseChangedMeanwhile(commit, connection);
    const merged = await mergeConversations(commit, connection);
    const replaced = await replaceFormerConversations(db, connection.id, format.formerIds);
    const conversationCount = await connections.refreshConversationCount(db, connection.id);
    const mergedProjects = await mergeProjects(commit, connection);
    await linkConversationsToProjects(commit, connection, mergedProjects.knowledge);
    const mergedMemories = await mergeMemories(commit, connection);
    const attachments = await linkAttachments(db, deps, {
      importId: staged.importId,
      format,
      staged: staged.blobs,
      connectionId: connection.id,
      now,
      knowledge: mergedProjects.knowledge,
    });
    await keepWithinStorageBounds(commit, connection, userId);
    const besideCounts = await connections.besideCounts(db, connection.id);
    await announceReplaced(commit, connection, replaced, { conversationCount, ...besideCounts });
    const counts = {
      ...merged,
      // What the person deleted is not brought back: skipped, whatever it is.
      skipped: merged.skipped + mergedMemories.deleted + mergedProjects.deleted + attachments.deleted,
      conversationCount,
      attachmentCount: attachments.count,
      memories: mergedMemories.counts,
      projects: mergedProjects.counts,
      ...besideCounts,
      notRead: [...staged.notRead].map(([what, count]) => ({ what, count })),
    };
    await markSynced(commit, connection, counts);
    return {
      ok: true as const,
      userRef: target.userRef,
      connectionId: connection.id,
      provider: format.provider,
      ...counts,
      replaced: replaced.length,
    };
  });
}

/**
 * The user, created on their first import, and locked first, as a purge locks
 * them first: a purge of them waits for this commit, or this one for the purge.
 * Imports opening their connection of a provider do so one after the other.
 */
async function holdUser({ db, deps, target, now }: Commit): Promise<string> {
  const user = await users.ensureUser(db, {
    id: deps.random.uuid(),
    app_id: target.appId,
    user_ref: target.userRef,
    created_at: now,
  });
  await users.lockUser(db, user.id);
  return user.id;
}

/** Purged since the import began (the user, or one of their connections): nothing of theirs may come back. */
async function refusePurgedMeanwhile({ db, target, staged }: Commit): Promise<void> {
  if (await isImportRefused(db, staged.importId, target.userRef)) throw new ParleyError('importPurged');
}

/** Within MAX_STORED_BYTES_PER_USER and _PER_APP once the connection's stored bytes count what it wrote. */
async function keepWithinStorageBounds({ db, deps, target }: Commit, connection: ImportConnection, userId: string) {
  await checkStorageBounds(db, deps.config, {
    grown: await connections.refreshStoredBytes(db, connection.id),
    appId: target.appId,
    userId,
  });
}

/** A hosted page's upload holds its session to the end: a purge that ended the session first wins. */
async function holdUploadingSession({ db, target }: Commit): Promise<void> {
  if (target.pageSession !== undefined && !(await pageSessions.lockPageSession(db, target.pageSession)))
    throw new ParleyError('sessionExpired');
}

/**
 * The connection the import ends in, locked: the one the request named, else the
 * user's open one of the provider, else a new one. Imports into one connection
 * count and merge one after the other.
 */
async function resolveConnection(commit: Commit, userId: string): Promise<ImportConnection> {
  const { db, target, format } = commit;
  if (target.connectionId === undefined) return usersConnection(commit, userId);
  // Checked again, under its lock: it may have been revoked while the file was uploading.
  await connections.lockConnection(db, target.connectionId);
  const named = await unrevokedConnectionOf({ db }, target, target.connectionId);
  if (named.provider !== format.provider) throw new ParleyError('invalidProvider');
  return { id: named.id, adopted: false };
}

/** The user's open connection of the provider, or a new one. */
async function usersConnection(commit: Commit, userId: string): Promise<ImportConnection> {
  const { db, format } = commit;
  const open = await connections.findOpenConnection(db, userId, format.provider);
  const connection = open ? { id: open.id, adopted: false } : await createConnection(commit, userId);
  await connections.lockConnection(db, connection.id);
  return connection;
}

/**
 * A new connection of the user's, announced: the import's own, with the
 * conversations it wrote there, when it opened one (see import-connection.ts).
 */
async function createConnection(
  { db, deps, target, format, staged, now }: Commit,
  userId: string,
): Promise<ImportConnection> {
  const connection = { id: staged.own ?? deps.random.uuid(), adopted: staged.own !== undefined };
  if (connection.adopted) await adoptImportConnection(db, staged.importId, connection.id, userId, now);
  else
    await connections.insertConnection(db, {
      id: connection.id,
      user_id: userId,
      provider: format.provider,
      captured_at: now,
    });
  await recordEvent(db, deps, target.appId, 'connection.created', {
    userRef: target.userRef,
    connectionId: connection.id,
    provider: format.provider,
  });
  return connection;
}

/** A conversation skipped as unchanged must still be so, under the lock: another import or a purge may have changed it. */
async function refuseChangedMeanwhile({ db, staged }: Commit, connection: ImportConnection): Promise<void> {
  if ((await staging.countStaleMarkers(db, staged.importId, connection.id)) > 0)
    throw new ParleyError('importConflict');
}

/** The staged conversations moved into the connection (an adopted one holds them already), counted. */
async function mergeConversations(
  { db, staged, now }: Commit,
  connection: ImportConnection,
): Promise<ConversationCounts> {
  const { importId, own, read, unreadable } = staged;
  let stagedCount: number;
  let created: number;
  let updated = 0;
  if (connection.adopted) stagedCount = created = await staging.countStaged(db, importId);
  else {
    // Those the person deleted are not merged: counted below as skipped.
    await unstageDeleted(db, importId, connection.id);
    ({ staged: stagedCount, created } = await staging.countNewStaged(db, importId, connection.id));
    updated = (await staging.mergeStaged(db, importId, connection.id, now, own)) - created;
  }
  return {
    created,
    updated,
    unchanged: stagedCount - created - updated,
    // Unreadable conversations, earlier copies of an id the file repeats, and those the person deleted.
    skipped: unreadable + (read - stagedCount),
  };
}

/**
 * The projects read (Claude's, and those ChatGPT names by id) become the
 * connection's, by external id; their knowledge files are linked with the
 * attachments (linkAttachments), their conversations after (linkConversationsToProjects).
 */
async function mergeProjects(
  { db, deps, staged, now }: Commit,
  connection: ImportConnection,
): Promise<{ counts: BesideCounts; deleted: number; knowledge: ProjectKnowledge[] }> {
  const { read, deleted } = await notDeleted(db, connection, 'project', [...staged.projects.values()]);
  const stored = read.length === 0 ? [] : await projects.projectsOfConnection(db, connection.id);
  const { counts, ids } = await mergeByExternalId(
    stored,
    read.map((project) => ({
      externalId: project.externalId,
      fields: {
        name: project.name,
        description: project.description,
        instructions: project.instructions,
        created_at: project.createdAt,
        updated_at: project.updatedAt,
      },
    })),
    {
      insert: (externalId, fields) =>
        projects.insertProject(db, {
          id: deps.random.uuid(),
          connection_id: connection.id,
          external_id: externalId,
          ...fields,
          changed_at: now,
        }),
      update: (id, fields) => projects.updateProject(db, id, { ...fields, changed_at: now }),
    },
  );
  const knowledge = read.map((project) => ({
    projectId: ids.get(project.externalId)!,
    externalId: project.externalId,
    files: project.knowledge,
  }));
  return { counts, deleted, knowledge };
}

/** Each conversation read that names its project (ChatGPT's) is linked to it. */
async function linkConversationsToProjects(
  { db, staged, now }: Commit,
  connection: ImportConnection,
  read: ProjectKnowledge[],
): Promise<void> {
  if (staged.projectOf.size === 0) return;
  const idOf = new Map(read.map(({ externalId, projectId }) => [externalId, projectId]));
  const links = new Map<string, string>();
  // A project the person deleted links none.
  for (const [conversation, project] of staged.projectOf) {
    const id = idOf.get(project);
    if (id !== undefined) links.set(conversation, id);
  }
  await conversations.linkProjects(db, connection.id, links, now);
}

/** The memories read become the connection's: a newer export's text of the same external id updates it. */
async function mergeMemories(
  { db, deps, staged, now }: Commit,
  connection: ImportConnection,
): Promise<{ counts: BesideCounts; deleted: number }> {
  const { read, deleted } = await notDeleted(db, connection, 'memory', [...staged.memories.values()]);
  const stored = read.length === 0 ? [] : await memories.memoriesOfConnection(db, connection.id);
  const { counts } = await mergeByExternalId(
    stored,
    read.map((memory) => ({
      externalId: memory.externalId,
      fields: {
        scope: memory.scope,
        project_external_id: memory.projectExternalId,
        title: memory.title,
        content: memory.content,
        updated_at: memory.updatedAt,
      },
    })),
    {
      insert: (externalId, fields) =>
        memories.insertMemory(db, {
          id: deps.random.uuid(),
          connection_id: connection.id,
          external_id: externalId,
          ...fields,
          changed_at: now,
        }),
      update: (id, fields) => memories.updateMemory(db, id, { ...fields, changed_at: now }),
    },
  );
  return { counts, deleted };
}

/** Of the memories or projects read, those the person did not delete from the connection, and how many they did. */
async function notDeleted<Read extends { externalId: string }>(
  db: Db,
  connection: ImportConnection,
  kind: 'memory' | 'project',
  read: Read[],
): Promise<{ read: Read[]; deleted: number }> {
  // A connection the import opened has had nothing deleted.
  if (read.length === 0 || connection.adopted) return { read, deleted: 0 };
  const deleted = await deletedExternalIds(db, connection.id, kind);
  const kept = read.filter(({ externalId }) => !deleted.has(externalId));
  return { read: kept, deleted: read.length - kept.length };
}

/**
 * Rows read merged into the stored ones by external id: a new one inserted, one
 * whose fields differ updated, the rest unchanged; counted, and each one's id.
 */
async function mergeByExternalId<Fields extends object>(
  stored: Array<Fields & { id: string; external_id: string }>,
  read: Array<{ externalId: string; fields: Fields }>,
  write: {
    insert(externalId: string, fields: Fields): Promise<string>;
    update(id: string, fields: Fields): Promise<void>;
  },
): Promise<{ counts: BesideCounts; ids: Map<string, string> }> {
  const byExternalId = new Map(stored.map((row) => [row.external_id, row]));
  const counts = { created: 0, updated: 0, unchanged: 0 };
  const ids = new Map<string, string>();
  for (const { externalId, fields } of read) {
    const row = byExternalId.get(externalId);
    if (!row) {
      ids.set(externalId, await write.insert(externalId, fields));
      counts.created++;
      continue;
    }
    ids.set(externalId, row.id);
    if (Object.entries(fields).some(([key, value]) => row[key as keyof Fields] !== value)) {
      await write.update(row.id, fields);
      counts.updated++;
    } else counts.unchanged++;
  }
  return { counts, ids };
}

/** A message as two readers of one export both write it. */
const messageKey = ({ timestamp, content }: Message) => `${timestamp}\n${content}`;

/**
 * Removes the connection's conversations stored under an older reader's ids
 * (`formerIds`) whose every message its other conversations now hold, so that a
 * re-import by the current reader leaves no copy behind. One with a message
 * found nowhere else is kept: nothing the person gave is lost. Returns those
 * removed, for the caller to announce.
 */
async function replaceFormerConversations(db: Db, connectionId: string, formerIds: RegExp | undefined) {
  // Most connections hold none: their ids alone, from the index, tell.
  if (!formerIds || !(await conversations.externalIdsOfConnection(db, connectionId)).some((id) => formerIds.test(id)))
    return [];
  const former: Array<{ id: string; externalId: string; messages: Message[] }> = [];
  const held = new Set<string>();
  for (let after: string | undefined; ; await nextTurn()) {
    const rows = await conversations.listConversationsAfter(db, connectionId, after, REPLACE_PAGE_SIZE);
    for (const row of rows) {
      const messages = messagesOf(row.payload && new TextDecoder().decode(row.payload));
      if (formerIds.test(row.external_id)) former.push({ id: row.id, externalId: row.external_id, messages });
      else for (const message of messages) held.add(messageKey(message));
    }
    if (rows.length < REPLACE_PAGE_SIZE) break;
    after = rows.at(-1)!.external_id;
  }
  const replaced = former.filter(({ messages }) => messages.every((message) => held.has(messageKey(message))));
  for (const { id } of replaced) await conversations.deleteConversationRow(db, id);
  return replaced;
}

/** A `conversation.deleted` event for each conversation an older reader stored that the import replaced. */
async function announceReplaced(
  { db, deps, target }: Commit,
  connection: ImportConnection,
  replaced: Array<{ id: string; externalId: string }>,
  counts: ConnectionCounts,
): Promise<void> {
  for (const { id, externalId } of replaced) {
    await recordEvent(db, deps, target.appId, 'conversation.deleted', {
      userRef: target.userRef,
      connectionId: connection.id,
      conversationId: id,
      externalId,
      ...counts,
    });
  }
}

/** The connection is active (a `needs_reauth` one comes back) and synced now, announced with the import's counts. */
async function markSynced(
  { db, deps, target, format, now }: Commit,
  connection: ImportConnection,
  counts: Omit<ImportResult, 'ok' | 'userRef' | 'connectionId' | 'provider'>,
): Promise<void> {
  await connections.updateConnection(db, connection.id, { status: 'active', last_sync_at: now });
  await recordEvent(db, deps, target.appId, 'connection.synced', {
    userRef: target.userRef,
    connectionId: connection.id,
    provider: format.provider,
    ...counts,
  });
}
