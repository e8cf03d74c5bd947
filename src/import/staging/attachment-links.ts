import { contentTypeOfName, canonicalContentType, kindOf } from '../../attachments/content-type.ts';
import * as blobs from '../../db/attachment-staging.ts';
import type { AttachmentsTable, Db } from '../../db/database.ts';
import { nextTurn } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { ParleyError } from '../../errors.ts';
import type { ExportFormat, LibraryFile } from '../formats/format.ts';
import type { StagedRef } from '../worker/conversation-reader.ts';
import { deletedExternalIds } from '../../db/deleted-items.ts';
import { replaceKnowledge } from '../../db/projects.ts';
import { knowledgeKey, TEXT_CONTENT_TYPE, textKey, type StagedBlobs } from './staged-blobs.ts';
import type { KnowledgeRef } from './staged-import.ts';

/** Staged conversations read back at a time to link their attachments. */
const LINK_PAGE = 200;

/** A project the import read, by Parley's id, and its knowledge files. */
export interface ProjectKnowledge {
  projectId: string;
  externalId: string;
  files: KnowledgeRef[];
}

/** A blob as linking sees it: the connection's, after adoption. */
type Blob = blobs.BlobFacts;

/**
 * In the import's final transaction: the import's blobs become the connection's
 * (one the connection already has the bytes of is dropped for that one), then
 * the attachments of every conversation the import read again are written —
 * linked to their bytes by file id, named from the message, the zip's lists or
 * the file itself, but for those the person deleted — and blobs no attachment
 * shows are removed. Returns the connection's attachments after it, and how
 * many files the person had deleted were found again (not brought back).
 */
export async function linkAttachments(
  db: Db,
  deps: Pick<Deps, 'random'>,
  {
    importId,
    format,
    staged,
    connectionId,
    now,
    knowledge,
  }: {
    importId: string;
    format: ExportFormat;
    staged: StagedBlobs;
    connectionId: string;
    now: string;
    /** The projects the import read: their knowledge files become attachments of theirs. */
    knowledge: ProjectKnowledge[];
  },
): Promise<{ count: number; deleted: number }> {
  const bySource = new Map<string, Blob>();
  const byBlobId = new Map<string, Blob>();
  // Members skipped as the connection's: still its, unless another import or a deletion took them meanwhile.
  for (const { source, size } of staged.known) {
    const blob = await blobs.blobOfSource(db, connectionId, source, size);
    if (!blob) throw new ParleyError('importConflict');
    bySource.set(source, blob);
  }
  for (const blob of await blobs.stagedBlobs(db, importId)) {
    const same = await blobs.blobOfContent(db, connectionId, blob.sha256);
    if (same) await blobs.deleteBlob(db, blob.id);
    else await blobs.adoptBlob(db, blob.id, connectionId);
    byBlobId.set(blob.id, same ?? blob);
  }
  for (const [source, id] of staged.bySource) bySource.set(source, byBlobId.get(id)!);
  const files = new FileIndex(format, staged, bySource);

  // Files the library links to a message: added to that conversation's own, as staged.
  const libraryOf = new Map<string, LibraryFile[]>();
  for (const file of staged.library) {
    const files = libraryOf.get(file.conversationId);
    if (files) files.push(file);
    else libraryOf.set(file.conversationId, [file]);
  }
  const library = [...libraryOf.keys()];
  for (let at = 0; at < library.length; at += LINK_PAGE) {
    for (const row of await blobs.stagedByExternalIds(db, importId, connectionId, library.slice(at, at + LINK_PAGE))) {
      const messageIds = row.message_ids ? (JSON.parse(row.message_ids) as Record<string, number>) : {};
      const refs = row.attachments ? (JSON.parse(row.attachments) as StagedRef[]) : [];
      const before = refs.length;
      for (const file of libraryOf.get(row.external_id)!) {
        const messageIndex = Object.hasOwn(messageIds, file.messageId) ? messageIds[file.messageId] : undefined;
        if (messageIndex === undefined || refs.some((ref) => ref.ref === file.fileId)) continue;
        refs.push({
          messageIndex,
          ref: file.fileId,
          fileId: file.fileId,
          name: null,
          contentType: null,
          size: null,
          kind: null,
        });
      }
      if (refs.length > before) await blobs.restageAttachments(db, importId, row.external_id, JSON.stringify(refs));
    }
  }
  // Conversations read again that show no attachment now: whatever they showed before goes.
  await blobs.clearAttachmentsOfStagedWithout(db, importId, connectionId);
  const deleted = await deletedExternalIds(db, connectionId, 'attachment');
  const linker = new AttachmentRows(deps, connectionId, now, files, deleted, (key) => {
    const id = staged.byText.get(key);
    return id === undefined ? undefined : byBlobId.get(id);
  });
  for (let after: string | undefined; ; await nextTurn()) {
    const page = await blobs.nextStagedWithAttachments(db, importId, connectionId, after, LINK_PAGE);
    await blobs.replaceAttachments(
      db,
      page.map((row) => row.conversation_id),
      page.flatMap((row) =>
        linker.rows(row.conversation_id, row.external_id, JSON.parse(row.attachments!) as StagedRef[]),
      ),
    );
    if (page.length < LINK_PAGE) break;
    after = page.at(-1)!.external_id;
  }
  for (const { projectId, externalId, files } of knowledge) {
    const refs = files.map(
      ({ ref, name }): StagedRef => ({
        messageIndex: 0,
        ref,
        name,
        // Named by its extension (`.md` is Markdown); its bytes are text whatever it is called.
        contentType: contentTypeOfName(name) ?? TEXT_CONTENT_TYPE,
        size: null,
        kind: 'document',
        fromText: true,
      }),
    );
    await replaceKnowledge(
      db,
      projectId,
      linker.rows('', knowledgeKey(externalId), refs).map(({ conversation_id, ...row }) => row),
    );
  }
  await blobs.deleteUnreferencedBlobs(db, connectionId);
  return { count: await blobs.countAttachments(db, connectionId), deleted: linker.deletedFound };
}

/** What the zip says of each file, by file id: its bytes (a blob), its names, its library entry. */
class FileIndex {
  private readonly blobs = new Map<string, { blob: Blob; member: string }>();
  private readonly library = new Map<string, LibraryFile>();

  constructor(
    format: ExportFormat,
    private readonly staged: StagedBlobs,
    bySource: Map<string, Blob>,
  ) {
    // A member whose name holds no file id (`dalle-generations/<uuid>.webp`) is the
    // value of its id in the zip's list of names.
    const idByName = new Map<string, string>();
    for (const [fileId, name] of staged.fileNames) idByName.set(name, fileId);
    for (const [source, blob] of bySource) {
      const fileId = format.blobs?.fileId(source) ?? idOfNamed(source, idByName);
      if (fileId !== undefined && !this.blobs.has(fileId)) this.blobs.set(fileId, { blob, member: source });
    }
    for (const file of staged.library) this.library.set(file.fileId, file);
  }

  blob(fileId: string | undefined): Blob | undefined {
    return fileId === undefined ? undefined : this.blobs.get(fileId)?.blob;
  }

  /** The file's name as the zip gives it: its list of names, its library, or the member's own name. */
  name(fileId: string): string | undefined {
    const member = this.blobs.get(fileId)?.member;
    return (
      this.staged.fileNames.get(fileId) ??
      this.library.get(fileId)?.name ??
      (member === undefined ? undefined : memberName(member, fileId))
    );
  }

  given(fileId: string | undefined): LibraryFile | undefined {
    return fileId === undefined ? undefined : this.library.get(fileId);
  }
}

/** The id whose listed name is the member's path (or a tail of it: a nested zip prefixes it). */
function idOfNamed(source: string, idByName: Map<string, string>): string | undefined {
  for (let at = 0; at !== -1; at = source.indexOf('/', at + 1)) {
    const id = idByName.get(source.slice(at === 0 ? 0 : at + 1));
    if (id !== undefined) return id;
  }
  return undefined;
}

/** A member's name as a file's: the original name after `file-<id>-`, else its last part. */
function memberName(member: string, fileId: string): string {
  const base = member.slice(member.lastIndexOf('/') + 1);
  if (base.startsWith(`${fileId}-`)) return base.slice(fileId.length + 1);
  return base;
}

/** The rows of a conversation's attachments, as the commit writes them: those the person deleted left out. */
class AttachmentRows {
  /** Files the person deleted that the import found again. */
  deletedFound = 0;

  constructor(
    private readonly deps: Pick<Deps, 'random'>,
    private readonly connectionId: string,
    private readonly now: string,
    private readonly files: FileIndex,
    /** The files the person deleted, by textKey: their conversation's external id (or knowledgeKey) and ref. */
    private readonly deleted: Set<string>,
    private readonly textBlob: (key: string) => Blob | undefined,
  ) {}

  rows(conversationId: string, externalId: string, refs: StagedRef[]): AttachmentsTable[] {
    const kept = refs.filter((ref) => !this.deleted.has(textKey(externalId, ref.ref)));
    this.deletedFound += refs.length - kept.length;
    return kept.map((ref, position) => {
      const blob = ref.fromText ? this.textBlob(textKey(externalId, ref.ref)) : this.files.blob(ref.fileId);
      const library = this.files.given(ref.fileId);
      const name =
        ref.name ?? (ref.fileId === undefined ? undefined : this.files.name(ref.fileId)) ?? ref.fileId ?? 'file';
      const contentType =
        canonicalContentType(ref.contentType ?? undefined) ??
        canonicalContentType(library?.contentType ?? undefined) ??
        (blob && blob.content_type !== 'application/octet-stream' ? blob.content_type : undefined) ??
        contentTypeOfName(name) ??
        'application/octet-stream';
      return {
        // Used for a new attachment only: one found again keeps its id.
        id: this.deps.random.uuid(),
        connection_id: this.connectionId,
        conversation_id: conversationId,
        message_index: ref.messageIndex,
        position,
        ref: ref.ref,
        name,
        content_type: contentType,
        size: blob ? blob.size : (ref.size ?? library?.size ?? null),
        kind: ref.kind ?? kindOf(contentType),
        blob_id: blob?.id ?? null,
        created_at: this.now,
      };
    });
  }
}
