import type { Owner } from '../../conversations/ownership.ts';
import type { ImportRecordsTable, ImportStagingTable } from '../../db/database.ts';
import { openImportConnection, writeOwnConversations, type OwnConversation } from '../../db/import-connection.ts';
import * as staging from '../../db/import-staging.ts';
import { isoTime, type Deps } from '../../deps.ts';
import { ParleyError } from '../../errors.ts';
import {
  GROUPING_GAP_MS,
  type ExportFormat,
  type GroupedFormat,
  type NormalizedMemory,
  type NormalizedProject,
  type NotReadWhat,
} from '../formats/format.ts';
import { formatFor, providerName, storedSourceHash, type KnownSource } from '../formats/registry.ts';
import { invalidExport } from '../import-errors.ts';
import type { ConversationItem, ImportItem, RecordGroup } from '../worker/conversation-reader.ts';
import { webCryptoSourceHash } from '../worker/record-batcher.ts';
import { knowledgeKey, StagedBlobs } from './staged-blobs.ts';

/**
 * Staged rows are written in batches of about this many bytes or rows. Small
 * batches die young in V8's heap, so a large import peaks lower at the same
 * speed than with batches of a few megabytes.
 */
const BATCH_BYTES = 1024 * 1024;
const BATCH_ROWS = 100;
/** Grouped records are read back this many at a time. */
const RECORDS_PAGE = 500;

/** A project's knowledge file as staged: its bytes are a text blob (StagedBlobs.byText, by knowledgeKey). */
export interface KnowledgeRef {
  ref: string;
  name: string;
}

/** Makes the conversation of a group of records. */
export type Normalize = (format: GroupedFormat, group: RecordGroup) => Promise<ConversationItem>;

/**
 * One import's items written out of sight in small batches: conversations (and
 * markers for those whose bytes are unchanged) in the staging table, or into the
 * import's own connection; records that several make one conversation in the
 * records table, grouped once all have arrived. Nothing here is visible until
 * the import's final transaction merges it, or gives the user its connection.
 */
export class StagedImport {
  /** The export's provider, once the reader knows it. */
  format: ExportFormat | undefined;
  /** Conversations staged, copies of one id included, and records that could not be read. */
  read = 0;
  unreadable = 0;
  /** The import's own connection, when it opened one: its conversations are written there. */
  own: string | undefined;
  /** The place after every item's so far: conversations assembled here go after the records. */
  private nextSeq = 0;
  /** Where the file being read starts among the places of the import's files (each reader counts from 0). */
  private fileSeq = 0;
  /** The name of the file being read, for a refusal that names it. */
  private fileName: string | undefined;
  private conversations: ImportStagingTable[] = [];
  private ownConversations: OwnConversation[] = [];
  private records: ImportRecordsTable[] = [];
  private batchBytes = 0;

  /** When the import started, on its staged rows: maintenance removes those an import that died left. */
  private readonly startedAt: number;
  /** The conversations already stored, by source hash: an assembled one whose records hash as one of them is not normalised again. */
  private readonly known: Map<string, KnownSource>;
  /** The attachment bytes written so far, and what the zip says of its files. */
  readonly blobs: StagedBlobs;
  /**
   * The memories and projects read, by external id (a later copy wins), held
   * until the commit writes them: a person has a handful, and a project's
   * knowledge files are written as blobs as they come, not held.
   */
  readonly memories = new Map<string, NormalizedMemory>();
  readonly projects = new Map<string, Omit<NormalizedProject, 'knowledge'> & { knowledge: KnowledgeRef[] }>();
  /** The project of each conversation read that names one: conversation's external id → project's. */
  readonly projectOf = new Map<string, string>();
  /** What the files held that Parley does not keep, counted over them all. */
  readonly notRead = new Map<NotReadWhat, number>();

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'random' | 'config' | 'clock' | 'sourceHash' | 'attachments' | 'blobHash'>,
    readonly importId: string,
    known: KnownSource[] = [],
    /** The user, when the import may open their connection: it then writes into one of its own (see import-connection.ts). */
    private readonly owner?: Owner,
    /** The zone times without one are read in: part of how a conversation was read (see storedSourceHash). */
    private readonly timeZone?: string,
  ) {
    this.startedAt = deps.clock.now();
    this.known = new Map(known.map((source) => [source.hash, source]));
    this.blobs = new StagedBlobs(deps, importId, this.startedAt);
  }

  /** The next file of the import is read from now on: its places follow the files' before it. */
  beginFile(name: string | undefined): void {
    this.fileSeq = this.nextSeq;
    this.fileName = name;
  }

  async add(item: ImportItem): Promise<void> {
    if ('seq' in item) {
      item.seq += this.fileSeq;
      this.nextSeq = Math.max(this.nextSeq, item.seq + 1);
    }
    switch (item.kind) {
      case 'format':
        if (this.format) {
          // The files of one import are one export: of one provider.
          if (item.provider !== this.format.provider)
            throw invalidExport(
              `${this.fileName ?? 'a file'} is a ${providerName(item.provider)} export, the others are ${providerName(this.format.provider)}`,
            );
          return;
        }
        this.format = formatFor(item.provider);
        if (this.owner)
          this.own = await openImportConnection(
            this.deps.db,
            {
              ...this.owner,
              importId: this.importId,
              provider: item.provider,
              userId: this.deps.random.uuid(),
              connectionId: this.deps.random.uuid(),
            },
            isoTime(this.startedAt),
          );
        return;
      case 'unreadable':
        this.unreadable += item.count;
        return;
      case 'notRead':
        for (const [what, count] of item.counts) this.notRead.set(what, (this.notRead.get(what) ?? 0) + count);
        return;
      case 'conversation':
        return this.addConversation(item);
      case 'blob':
      case 'knownBlob':
        return this.blobs.add(item);
      case 'fileNames':
        for (const [fileId, name] of item.names) this.blobs.fileNames.set(fileId, name);
        return;
      case 'library':
        this.blobs.library.push(item.file);
        return;
      case 'memory':
        this.memories.set(item.memory.externalId, item.memory);
        return;
      case 'project': {
        const { knowledge, ...project } = item.project;
        for (const file of knowledge) await this.blobs.text(knowledgeKey(project.externalId), file.ref, file.text);
        this.projects.set(project.externalId, {
          ...project,
          knowledge: knowledge.map(({ ref, name }) => ({ ref, name })),
        });
        return;
      }
      case 'unchanged':
        // Its bytes are those of the stored conversation: a marker, so that it is
        // counted (and outranks an earlier copy in the file) but never written.
        return this.stage(
          {
            external_id: item.externalId,
            title: null,
            payload: null,
            update_time: null,
            source: item.source,
            source_hash: item.sourceHash,
            seq: item.seq,
            attachments: null,
            message_ids: null,
          },
          0,
        );
      case 'record':
        this.records.push({
          import_id: this.importId,
          group_key: item.key,
          time: item.time,
          seq: item.seq,
          record: item.record,
          created_at: this.startedAt,
        });
        return this.batched(item.record.length);
    }
  }

  /**
   * Call once every item is in: writes what is pending and assembles grouped
   * conversations, each one `normalize`d (by either thread: see WorkerChannel.normalize).
   */
  async finish(normalize: Normalize): Promise<void> {
    await this.flush();
    if (this.format?.kind === 'grouped') {
      await this.assemble(this.format, normalize);
      await this.flush();
    }
  }

  private async addConversation(item: ConversationItem): Promise<void> {
    const { externalId, title, payload, updateTime, source, sourceHash, seq, attachments, messageIds, texts } = item;
    for (const [ref, text] of texts) await this.blobs.text(externalId, ref, text);
    if (item.projectExternalId !== null) this.projectOf.set(externalId, item.projectExternalId);
    return this.stage(
      {
        external_id: externalId,
        title,
        payload,
        update_time: updateTime,
        source,
        source_hash: sourceHash,
        seq,
        attachments,
        message_ids: messageIds,
      },
      payload.length + (attachments?.length ?? 0) + (messageIds?.length ?? 0),
    );
  }

  private async stage(
    row: Pick<
      ImportStagingTable,
      | 'external_id'
      | 'title'
      | 'payload'
      | 'update_time'
      | 'source'
      | 'source_hash'
      | 'seq'
      | 'attachments'
      | 'message_ids'
    >,
    bytes: number,
  ): Promise<void> {
    // Stored with the reader's version: a later reader reads these bytes again.
    const source_hash =
      row.source_hash === null ? null : storedSourceHash(this.format!, row.source_hash, this.timeZone);
    const staged = {
      ...row,
      source_hash,
      import_id: this.importId,
      conversation_id: this.deps.random.uuid(),
      created_at: this.startedAt,
    };
    if (this.own !== undefined && row.payload !== null)
      this.ownConversations.push({ ...staged, id: this.deps.random.uuid() });
    else this.conversations.push(staged);
    this.read++;
    await this.batched(bytes);
  }

  private async batched(bytes: number): Promise<void> {
    this.batchBytes += bytes;
    if (
      this.conversations.length + this.ownConversations.length + this.records.length >= BATCH_ROWS ||
      this.batchBytes >= BATCH_BYTES
    )
      await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.conversations.length > 0) await staging.stageConversations(this.deps.db, this.conversations);
    if (this.ownConversations.length > 0)
      await writeOwnConversations(this.deps.db, this.own!, this.ownConversations, isoTime(this.startedAt));
    if (this.records.length > 0) await staging.stageRecords(this.deps.db, this.records);
    this.conversations = [];
    this.ownConversations = [];
    this.records = [];
    this.batchBytes = 0;
  }

  /**
   * Reads the staged records back ordered by key and time, holding only the
   * conversation being assembled: a run of one key is one conversation, cut
   * where a gap of 30 minutes or more lies between two of its records (for
   * formats whose key alone does not name the conversation).
   */
  private async assemble(format: GroupedFormat, normalize: Normalize): Promise<void> {
    let group: string[] = [];
    let groupBytes = 0;
    let previous: { key: string; time: number } | undefined;
    // The conversations of one page are made (partly by the reader, on its own
    // thread) while the next page is read: they are staged a page later.
    let completed: Array<Promise<ImportItem>> = [];
    let making: Array<Promise<ImportItem>> = [];
    const close = () => {
      if (group.length > 0) {
        const item = this.assembled(format, group, this.nextSeq++, normalize);
        // Awaited a page later: should the import fail before, its failure is not unhandled.
        item.catch(() => {});
        completed.push(item);
      }
      group = [];
      groupBytes = 0;
    };
    const stageMade = async () => {
      for (const item of await Promise.all(making)) await this.add(item);
      making = completed;
      completed = [];
    };
    for (let after: staging.RecordPosition | undefined; ; ) {
      const page = await staging.nextRecords(this.deps.db, this.importId, after, RECORDS_PAGE);
      for (const row of page) {
        const gap = previous !== undefined && row.time - previous.time >= GROUPING_GAP_MS;
        if (previous === undefined || previous.key !== row.group_key || (gap && format.splitsOnGap(row.group_key)))
          close();
        groupBytes += row.record.length;
        if (groupBytes > this.deps.config.maxConversationBytes) throw new ParleyError('conversationTooLarge');
        group.push(row.record);
        previous = { key: row.group_key, time: row.time };
      }
      await stageMade();
      if (page.length < RECORDS_PAGE) break;
      after = page.at(-1);
    }
    close();
    await stageMade();
    await stageMade();
  }

  /**
   * One assembled conversation, hashed by its records as staged (one JSON text
   * each, so a line apart): when a stored conversation of this provider has that
   * hash, the same records made it, and it is only marked unchanged — a
   * re-import normalises nothing (Gemini's answers are HTML turned into Markdown).
   */
  private async assembled(
    format: GroupedFormat,
    records: string[],
    seq: number,
    normalize: Normalize,
  ): Promise<ImportItem> {
    const hash = await (this.deps.sourceHash ?? webCryptoSourceHash)(new TextEncoder().encode(records.join('\n')));
    const known = this.known.get(hash);
    if (known?.provider === format.provider)
      return { kind: 'unchanged', seq, source: '', sourceHash: hash, externalId: known.externalId };
    return normalize(format, { records, seq, hash });
  }
}
