import type { Memory, Project } from 'parley-sdk';
import { memoryJson, projectJson, type ConversationsWithAttachments } from '../wire/wire-json.ts';
import * as attachments from '../db/attachments.ts';
import type { ListedConnectionRow } from '../db/connections.ts';
import * as conversations from '../db/conversations.ts';
import * as memories from '../db/memories.ts';
import * as projects from '../db/projects.ts';
import type { Db } from '../db/database.ts';
import type { Deps } from '../deps.ts';
import { savedName } from '../attachments/content-type.ts';
import { blobBytes } from './attachments.ts';
import { connectionsOf } from './manage.ts';
import type { Owner } from './ownership.ts';

/** Conversations read per query: enough to keep round trips few, few enough that memory stays flat. */
export const DOWNLOAD_PAGE_SIZE = 200;

/** One connection in a download, and a way to read its conversations a page at a time. */
export interface ConnectionDownload {
  connection: ListedConnectionRow;
  /** Its memories and projects, as the API lists them: a person has a handful. */
  beside(): Promise<{ memories: Memory[]; projects: Project[] }>;
  conversationPages(): AsyncIterable<ConversationsWithAttachments>;
  /** Its stored attachments, page by page. */
  attachmentPages(): AsyncIterable<attachments.StoredAttachmentRow[]>;
}

/**
 * Everything held for one user of one app, for the manage page's "Download my
 * data" (the right to data portability): their connections in the listing's
 * order — revoked ones too, which show their status and, their conversations
 * deleted, none — each with its conversations to be read page by page. Nothing
 * is read beyond the connections until the caller asks for the pages, so a
 * download of any size holds a page or two at a time.
 */
export async function downloadOf(deps: Pick<Deps, 'db'>, owner: Owner): Promise<ConnectionDownload[]> {
  const connections = await connectionsOf(deps, owner);
  return connections.map((connection) => ({
    connection,
    beside: () => besideOf(deps.db, connection.id),
    conversationPages: () => conversationPages(deps.db, connection.id),
    attachmentPages: () => attachmentPages(deps.db, connection.id),
  }));
}

async function besideOf(db: Db, connectionId: string) {
  const all = async <Row>(page: (offset: number) => Promise<Row[]>) => {
    const rows: Row[] = [];
    for (let offset = 0; ; offset += DOWNLOAD_PAGE_SIZE) {
      const more = await page(offset);
      rows.push(...more);
      if (more.length < DOWNLOAD_PAGE_SIZE) return rows;
    }
  };
  const memoryRows = await all((offset) => memories.listMemoriesPage(db, connectionId, DOWNLOAD_PAGE_SIZE, offset));
  const projectRows = await all((offset) => projects.listProjectsPage(db, connectionId, DOWNLOAD_PAGE_SIZE, offset));
  const knowledge = await attachments.knowledgeOfProjects(
    db,
    projectRows.map((row) => row.id),
  );
  return { memories: memoryRows.map(memoryJson), projects: projectRows.map((row) => projectJson(row, knowledge)) };
}

async function* conversationPages(db: Db, connectionId: string) {
  let after: string | undefined;
  for (;;) {
    const rows = await conversations.listConversationsAfter(db, connectionId, after, DOWNLOAD_PAGE_SIZE);
    if (rows.length > 0)
      yield {
        rows,
        attachments: await attachments.attachmentsOfConversations(
          db,
          rows.map((row) => row.id),
        ),
      };
    if (rows.length < DOWNLOAD_PAGE_SIZE) return;
    after = rows.at(-1)!.external_id;
  }
}

async function* attachmentPages(db: Db, connectionId: string) {
  let after: string | undefined;
  for (;;) {
    const rows = await attachments.storedAttachmentsOfConnection(db, connectionId, after, DOWNLOAD_PAGE_SIZE);
    if (rows.length > 0) yield rows;
    if (rows.length < DOWNLOAD_PAGE_SIZE) return;
    after = rows.at(-1)!.id;
  }
}

/** The stored files of the connections, one after another, each read from its store only when its turn comes. */
export async function* downloadedFiles(deps: Pick<Deps, 'attachments'>, connections: readonly ConnectionDownload[]) {
  for (const { attachmentPages } of connections)
    for await (const rows of attachmentPages())
      for (const row of rows)
        yield {
          id: row.id,
          name: savedName({ name: row.name, contentType: row.content_type, kind: row.kind }),
          bytes: blobBytes(deps, { id: row.blob_id, store: row.store }),
        };
}
