import type { ImportRecordsTable, ImportStagingTable } from '../db/database.ts';
import * as staging from '../db/import-staging.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { GROUPING_GAP_MS, wellFormed, type ExportFormat, type GroupedFormat, type Json, type NormalizedConversation, type RecordPlacement } from './conversation.ts';

/**
 * Staged rows are written in batches of about this many bytes or rows. Small
 * batches die young in V8's heap: with 4 MB ones a 1 GB import peaked at 287 MB
 * RSS, with these at 219 MB, at the same speed.
 */
const BATCH_BYTES = 1024 * 1024;
const BATCH_ROWS = 100;
/** Grouped records are read back this many at a time. */
const RECORDS_PAGE = 500;

/**
 * One import's conversations, normalised as their records arrive and written out
 * of sight in small batches; records that several make one conversation are
 * staged as they are and grouped once all have arrived. Nothing here is visible
 * until the import's final transaction merges it.
 */
export class StagedImport {
  /** Conversations staged, copies of one id included, and records that could not be read. */
  read = 0;
  unreadable = 0;
  private seq = 0;
  private conversations: ImportStagingTable[] = [];
  private records: ImportRecordsTable[] = [];
  private batchBytes = 0;

  /** When the import started, on its staged rows: maintenance removes those an import that died left. */
  private readonly startedAt: number;

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'random' | 'config' | 'clock'>,
    readonly importId: string,
  ) {
    this.startedAt = deps.clock.now();
  }

  /** Takes one record of `format`, from the file `source` of the export. */
  async add(record: Json, source: string, format: ExportFormat): Promise<void> {
    if (format.kind === 'record') {
      const conversation = format.normalize(record);
      if (conversation) await this.addConversation(conversation, source);
      else this.unreadable++;
      return;
    }
    const placement = format.placement(record);
    if (placement === 'ignored') return;
    if (placement === 'unreadable') {
      this.unreadable++;
      return;
    }
    const text = JSON.stringify(record);
    this.records.push({ import_id: this.importId, group_key: placement.key, time: placement.time, seq: this.seq++, record: text, created_at: this.startedAt });
    await this.batched(text.length);
  }

  /** Call once every record is in: writes what is pending and assembles grouped conversations. */
  async finish(format: ExportFormat): Promise<void> {
    await this.flush();
    if (format.kind === 'grouped') {
      await this.assemble(format);
      await this.flush();
    }
  }

  private async addConversation(normalized: NormalizedConversation, source: string): Promise<void> {
    const conversation = wellFormed(normalized);
    const payload = JSON.stringify(conversation.payload);
    this.conversations.push({
      import_id: this.importId,
      external_id: conversation.externalId,
      conversation_id: this.deps.random.uuid(),
      title: conversation.title,
      payload,
      update_time: conversation.updateTime,
      source,
      seq: this.seq++,
      created_at: this.startedAt,
    });
    this.read++;
    await this.batched(payload.length);
  }

  private async batched(bytes: number): Promise<void> {
    this.batchBytes += bytes;
    if (this.conversations.length + this.records.length >= BATCH_ROWS || this.batchBytes >= BATCH_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.conversations.length > 0) await staging.stageConversations(this.deps.db, this.conversations);
    if (this.records.length > 0) await staging.stageRecords(this.deps.db, this.records);
    this.conversations = [];
    this.records = [];
    this.batchBytes = 0;
  }

  /**
   * Reads the staged records back ordered by key and time, holding only the
   * conversation being assembled: a run of one key is one conversation, cut
   * where a gap of 30 minutes or more lies between two of its records (for
   * formats whose key alone does not name the conversation).
   */
  private async assemble(format: GroupedFormat): Promise<void> {
    let group: Json[] = [];
    let groupBytes = 0;
    let previous: { key: string; time: number } | undefined;
    // The conversations a page completes are normalised together: awaiting each
    // in turn (Copilot hashes names with Web Crypto) left the process idle.
    let completed: Array<Promise<NormalizedConversation>> = [];
    const close = () => {
      if (group.length > 0) completed.push(format.normalize(group));
      group = [];
      groupBytes = 0;
    };
    const stageCompleted = async () => {
      for (const conversation of await Promise.all(completed)) await this.addConversation(conversation, '');
      completed = [];
    };
    for (let after: staging.RecordPosition | undefined; ; ) {
      const page = await staging.nextRecords(this.deps.db, this.importId, after, RECORDS_PAGE);
      for (const row of page) {
        const record = JSON.parse(row.record) as Json;
        const placement = format.placement(record) as RecordPlacement;
        const gap = previous !== undefined && row.time - previous.time >= GROUPING_GAP_MS;
        if (previous === undefined || previous.key !== row.group_key || (placement.splitsOnGap && gap)) close();
        groupBytes += row.record.length;
        if (groupBytes > this.deps.config.maxConversationBytes) throw new ApiError('conversationTooLarge');
        group.push(record);
        previous = { key: row.group_key, time: row.time };
      }
      await stageCompleted();
      if (page.length < RECORDS_PAGE) break;
      after = page.at(-1);
    }
    close();
    await stageCompleted();
  }
}
