import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import { ApiError } from '../errors.ts';
import { concatBytes } from '../bytes.ts';
import { invalidExport, unrecognizedExport } from './import-errors.ts';
import { JsonElementSplitter } from './json-elements.ts';

/** conversations.json, or the conversations-000.json … split files of newer ChatGPT archives. */
const CONVERSATIONS_FILE = /(^|\/)conversations(-\d+)?\.json$/;

/** A local file header starts a zip; an end-of-directory record alone is an empty zip. */
const isZip = (head: Uint8Array) => head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 0x03 && head[3] === 0x04) || (head[2] === 0x05 && head[3] === 0x06));

/** Input is read on in slices of at most this many bytes, so batches stay small. */
const SLICE_BYTES = 64 * 1024;

/**
 * fflate inflates all it is given in one go, into a buffer it grows by doubling,
 * and deflate expands up to 1032-fold: compressed bytes are handed to it in
 * slices small enough that each comes out as about this many bytes.
 */
const INFLATE_OUTPUT_BYTES = 1024 * 1024;
const MIN_INFLATE_SLICE = 1024;

export interface ReadLimits {
  /** The largest single conversation's JSON. */
  maxConversationBytes: number;
  /** The most bytes read out of an archive. */
  maxExpandedBytes: number;
}

/**
 * Reads an export — a conversations JSON file or the provider's zip — from a byte
 * stream and yields its conversations (raw, as the provider wrote them) in small
 * batches as they complete. Nothing is buffered beyond the conversation being read.
 */
export async function* readExportConversations(bytes: AsyncIterable<Uint8Array>, limits: ReadLimits): AsyncGenerator<unknown[]> {
  let ready: unknown[] = [];
  const collect = (value: unknown) => void ready.push(value);
  let input: { push(chunk: Uint8Array): void; end(): void } | undefined;
  let head: Uint8Array = new Uint8Array(0);
  const open = (start: Uint8Array) =>
    isZip(start) ? new ZipConversations(collect, limits) : new JsonElementSplitter(collect, limits.maxConversationBytes);

  for await (let chunk of bytes) {
    if (!input) {
      // Four bytes tell a zip from JSON; a first chunk may be shorter.
      head = concatBytes([head, chunk]);
      if (head.length < 4) continue;
      input = open(head);
      chunk = head;
    }
    for (let offset = 0; offset < chunk.length; offset += SLICE_BYTES) {
      input.push(chunk.subarray(offset, offset + SLICE_BYTES));
      if (ready.length > 0) {
        yield ready;
        ready = [];
      }
    }
  }
  if (!input) {
    input = open(head);
    input.push(head);
  }
  input.end();
  if (ready.length > 0) yield ready;
}

/** The end-of-central-directory record's signature, and its size without the comment. */
const END_RECORD = [0x50, 0x4b, 0x05, 0x06];
const END_RECORD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;

class ZipConversations {
  private readonly unzip = new Unzip();
  private conversationFiles = 0;
  private open = 0;
  /** Bytes read out of the archive, and bytes of it read in so far. */
  private expanded = 0;
  private compressed = 0;
  /** The last chunks, enough to hold the end record and its comment. */
  private tail: Uint8Array[] = [];
  private tailBytes = 0;

  constructor(
    onConversation: (value: unknown) => void,
    limits: ReadLimits,
  ) {
    this.unzip.register(UnzipInflate);
    this.unzip.register(UnzipPassThrough);
    this.unzip.onfile = (file) => {
      if (!CONVERSATIONS_FILE.test(file.name)) return;
      const splitter = new JsonElementSplitter(onConversation, limits.maxConversationBytes);
      this.conversationFiles++;
      this.open++;
      file.ondata = (error, data, final) => {
        // Our own verdicts (a limit, bad JSON) come back through fflate's callback as they are.
        if (error) throw error instanceof ApiError ? error : damaged(error);
        this.expanded += data.length;
        if (this.expanded > limits.maxExpandedBytes) throw new ApiError('expandedTooLarge');
        splitter.push(data);
        if (final) {
          splitter.end();
          this.open--;
        }
      };
      try {
        file.start();
      } catch {
        throw invalidExport(`${file.name} uses a compression method Parley cannot read`);
      }
    };
  }

  push(chunk: Uint8Array): void {
    this.remember(chunk);
    for (let offset = 0; offset < chunk.length; ) {
      // Until a file has been inflated, assume the worst ratio.
      const ratio = this.expanded > 0 ? Math.max(1, this.expanded / this.compressed) : 1032;
      const slice = Math.max(MIN_INFLATE_SLICE, Math.floor(INFLATE_OUTPUT_BYTES / ratio));
      const part = chunk.subarray(offset, offset + slice);
      this.compressed += part.length;
      this.feed(part, false);
      offset += part.length;
    }
  }

  end(): void {
    this.feed(new Uint8Array(0), true);
    if (this.open > 0) throw invalidExport('the zip ends in the middle of a file (truncated?)');
    // fflate reads local headers as they come and never needs the directory at
    // the end: without this, garbage after a zip signature would pass as a zip
    // holding nothing.
    if (!this.endsWithEndRecord()) throw invalidExport('the zip is damaged or cut short (no end of central directory)');
    if (this.conversationFiles === 0) throw unrecognizedExport();
  }

  private feed(chunk: Uint8Array, final: boolean): void {
    try {
      this.unzip.push(chunk, final);
    } catch (error) {
      throw error instanceof ApiError ? error : damaged(error);
    }
  }

  private remember(chunk: Uint8Array): void {
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - this.tail[0]!.length >= END_RECORD_BYTES + MAX_COMMENT_BYTES) this.tailBytes -= this.tail.shift()!.length;
  }

  /** Whether an end record sits where it must: its comment reaching exactly to the last byte. */
  private endsWithEndRecord(): boolean {
    const tail = concatBytes(this.tail);
    for (let at = tail.length - END_RECORD_BYTES; at >= 0 && at >= tail.length - END_RECORD_BYTES - MAX_COMMENT_BYTES; at--) {
      if (END_RECORD.every((byte, i) => tail[at + i] === byte) && at + END_RECORD_BYTES + (tail[at + 20]! | (tail[at + 21]! << 8)) === tail.length) return true;
    }
    return false;
  }
}

const damaged = (error: unknown) => invalidExport(`the zip is damaged (${error instanceof Error ? error.message : String(error)})`);
