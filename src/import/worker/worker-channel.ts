import { ParleyError } from '../../errors.ts';
import type { FromReader, WorkerLike } from './import-worker.ts';
import type { GroupedFormat } from '../formats/format.ts';
import {
  groupItem,
  type ConversationItem,
  type ImportItem,
  type ConversationReaderOptions,
  type RecordGroup,
} from './conversation-reader.ts';
import type { RecordBatch, UploadOptions } from './record-batcher.ts';

/**
 * Batches that may be with the reader, or read but not yet written, at once: the
 * writer waits past this many, so however fast the upload and however slow the
 * database, an import holds about this many chunks' worth of data.
 */
const IN_FLIGHT = 32;

/**
 * Of every GROUP_ROUND groups of records to normalise, the writer makes
 * GROUPS_MADE_HERE itself; it also reads the records back and writes the
 * conversations. With two of five here both threads stay busy throughout; with
 * all five in the reader, the writer sat idle most of the time.
 */
const GROUP_ROUND = 5;
const GROUPS_MADE_HERE = 2;

/**
 * The writing side of an import's reader (import-worker.ts): batches of records
 * (or slices of the upload's bytes) go in as the upload arrives, batches of items
 * come out in order. Each batch is answered by one batch of items, and counts as
 * in flight until the writer asks for the next — that is, until it has written
 * its items. After the end, groups of records go in one by one, each answered
 * by its conversation.
 */
export class WorkerChannel {
  private readonly batches: Array<{ items: ImportItem[]; last: boolean }> = [];
  /** Groups sent to be normalised and not yet answered, oldest first. */
  private readonly normalizing: Array<{ resolve(item: ConversationItem): void; reject(error: Error): void }> = [];
  private inFlight = 0;
  /** Groups normalised so far, here or by the reader. */
  private groups = 0;
  private failure: Error | undefined;
  /** The writer and the reader of batches, when waiting: both may at once. */
  private waiters: Array<() => void> = [];

  /** With `upload`, the reader reads the upload's bytes (writeBytes) rather than batches of its records. */
  constructor(
    private readonly worker: WorkerLike,
    options: ConversationReaderOptions,
    upload?: UploadOptions,
  ) {
    worker.onmessage = ({ data }: { data: FromReader }) => {
      if (data.type === 'items') this.batches.push(data);
      else if (data.type === 'normalized') this.normalizing.shift()!.resolve(data.item);
      else
        this.fail(
          data.code ? new ParleyError(data.code, { detail: data.detail }) : new Error(`import reader: ${data.message}`),
        );
      this.notify();
    };
    worker.postMessage({ type: 'start', options, ...(upload && { upload }) });
  }

  /** Hands the reader the next batch, once fewer than IN_FLIGHT are in flight. */
  async write(batch: RecordBatch): Promise<void> {
    await this.slot();
    this.worker.postMessage({ type: 'batch', batch });
  }

  /**
   * Hands the reader the next slice of the upload, once fewer than IN_FLIGHT are
   * in flight. The slice is moved to it, not copied, when it is all of its buffer
   * (as every chunk Node's server reads is): the caller must not use it again.
   */
  async writeBytes(slice: Uint8Array): Promise<void> {
    await this.slot();
    const bytes = slice.byteOffset === 0 && slice.byteLength === slice.buffer.byteLength ? slice : slice.slice();
    this.worker.postMessage({ type: 'bytes', bytes }, [bytes.buffer as ArrayBuffer]);
  }

  /**
   * The conversation `group` makes, once the reading has ended: made by the
   * reader, or here for GROUPS_MADE_HERE of every GROUP_ROUND, so that both
   * threads normalise while this one also reads and writes the staged rows.
   */
  normalize(format: GroupedFormat, group: RecordGroup): Promise<ConversationItem> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.groups++ % GROUP_ROUND < GROUPS_MADE_HERE) return groupItem(format, group);
    return new Promise((resolve, reject) => {
      this.normalizing.push({ resolve, reject });
      this.worker.postMessage({ type: 'group', group });
    });
  }

  end(): void {
    this.inFlight++;
    this.worker.postMessage({ type: 'end' });
  }

  /** The batches of items, in order, until the reader has read the end; the reader's refusal is thrown. */
  async *items(): AsyncGenerator<ImportItem[]> {
    for (;;) {
      while (this.batches.length === 0 && !this.failure) await this.changed();
      if (this.failure) throw this.failure;
      const batch = this.batches.shift()!;
      yield batch.items;
      // Written: the chunk it answered is no longer in flight.
      this.inFlight--;
      this.notify();
      if (batch.last) return;
    }
  }

  /** Stops the reader (a real worker is terminated). */
  close(): void {
    this.worker.terminate();
  }

  /** Stops waiting writers and readers with `error` (the upload failed, say). */
  fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.normalizing.splice(0)) waiting.reject(this.failure);
    this.notify();
  }

  private async slot(): Promise<void> {
    while (this.inFlight >= IN_FLIGHT && !this.failure) await this.changed();
    if (this.failure) throw this.failure;
    this.inFlight++;
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private notify(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
