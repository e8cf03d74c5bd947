import { Unzip, UnzipInflate, UnzipPassThrough, type UnzipDecoder, type UnzipDecoderConstructor } from 'fflate';
import { ParleyError } from '../../errors.ts';
import { concatBytes } from '../../bytes.ts';
import { OPEN_BRACE } from '../../json-bytes.ts';
import { PLAIN_TEXT, type ExportFormat, type NotReadWhat } from '../formats/format.ts';
import { CsvRecords } from './csv-records.ts';
import {
  fileNotAnExport,
  HTML_NOT_AN_EXPORT,
  invalidExport,
  misexportedExport,
  unrecognizedExport,
} from '../import-errors.ts';
import { JsonElementSplitter, parseElement } from './json-elements.ts';

/** A local file header starts a zip; an end-of-directory record alone is an empty zip. */
const isZip = (head: Uint8Array) =>
  head[0] === 0x50 &&
  head[1] === 0x4b &&
  ((head[2] === 0x03 && head[3] === 0x04) || (head[2] === 0x05 && head[3] === 0x06));

/**
 * fflate inflates all it is given in one go, into a buffer it grows by doubling,
 * and deflate expands up to 1032-fold: compressed bytes are handed to it in
 * slices small enough that each comes out as about this many bytes.
 */
const INFLATE_OUTPUT_BYTES = 256 * 1024;
const MIN_INFLATE_SLICE = 256;

/**
 * Reading runs on the thread that serves requests in a first import (see
 * scansOnThisThread), and a few kilobytes of zip may hold millions of records:
 * after this many milliseconds of it the reading waits for the event loop's
 * next turn, so that other requests are answered in between rather than after
 * the whole chunk (a zip bomb's refusal included). Awaiting a promise alone
 * would not do: it never lets I/O in.
 */
const TURN_MS = 5;
const ioTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface ReadLimits {
  /** The largest single conversation's JSON (or CSV row). */
  maxConversationBytes: number;
  /** The most bytes read out of an archive. */
  maxExpandedBytes: number;
  /** The largest file of attachment bytes. */
  maxAttachmentBytes: number;
  /** The most records (JSON elements, CSV rows) and files of zips one upload may hold. */
  maxExportRecords: number;
}

/**
 * The most records handed on at once. A record costs far more than its bytes
 * once it is hashed, decoded and sent to the reader, and the smallest take
 * three bytes (`{},`): a megabyte inflated makes hundreds of thousands. So
 * records go on in batches of this many, each once the one before was taken
 * (see ExportScanner); real conversations, kilobytes each at the least, seldom
 * fill one.
 */
export const MAX_BATCH_RECORDS = 512;

/**
 * A document's bytes go to its JSON or CSV reader in pieces of at most this
 * many, with full batches handed on between two, so that what one piece
 * completes — at most a few thousand records — is all that waits.
 */
const PIECE_BYTES = 4 * 1024;

/**
 * A zip member's name and uncompressed size, as `blobKey` writes them: a
 * blob the connection already holds, not read again.
 */
export const blobKey = (member: string, size: number) => `${size}:${member}`;

/**
 * A record as the provider wrote it: a JSON object's bytes, still to be parsed,
 * or a CSV row; or how many JSON elements in a row were not objects (no format
 * reads one: each is checked and counted, never sent on); or the next bytes of
 * a blob (`final` on its last), or a blob not read because the
 * connection holds it (`known`, its size); and the file it came from ('' for an
 * upload that is the file itself).
 */
export type SourcedRecord = { source: string } & (
  | { bytes: Uint8Array }
  | { value: Record<string, string> }
  | { notObjects: number }
  | { blob: Uint8Array; final: boolean }
  | { known: number }
  | { notRead: NotReadCount }
);

/**
 * What a format names as not kept, passed over: a file of a zip (ExportFormat.notRead,
 * one each) or the elements of an array of its JSON (ExportFormat.notReadArrays).
 */
export interface NotReadCount {
  provider: string;
  what: NotReadWhat;
  count: number;
}

/** Where a document's records go, chunk by chunk. */
interface RecordSource {
  push(chunk: Uint8Array): void | Promise<void>;
  end(): void | Promise<void>;
}

/** Where a document's JSON elements and rows go, and a blob's bytes. */
interface RecordSink {
  json(bytes: Uint8Array): void;
  /** A record that is already text by name: a CSV row, or one an HTML page holds. */
  row(value: Record<string, string>): void;
  blob(bytes: Uint8Array, final: boolean): void;
  known(size: number): void;
  /** What a format names as not kept, passed over. */
  notRead(counted: NotReadCount): void;
  /** One element of an array a format names as not kept, passed over: counted as a record is (MAX_EXPORT_RECORDS). */
  passed(): void;
  /** Hands on every full batch of the records made so far, each once it is taken. */
  handOut(): Promise<void>;
}

/** Where a zip's readers put what they find. */
interface ZipOutput {
  sinkFor(source: string): RecordSink;
  /** One more file of a zip, counted as a record is (MAX_EXPORT_RECORDS). */
  countFile(): void;
  /** As a sink's: between two pieces a zip inflates. */
  handOut: RecordSink['handOut'];
}

/** Where an ExportScanner hands its records on: a batch is taken once the promise settles. */
export type RecordsTaker = (records: SourcedRecord[]) => Promise<void> | void;

/**
 * Reads an export — the provider's zip, or the file in it that holds the
 * conversations (JSON or CSV) — pushed as byte chunks, and hands its records
 * (raw, as the provider wrote them) to `take` as they complete, at most
 * MAX_BATCH_RECORDS at once, waiting for each batch to be taken before it reads
 * on. Nothing is held beyond the record being read and one batch. `formats`
 * say which files of a zip are read.
 */
export class ExportScanner {
  private ready: SourcedRecord[] = [];
  /** The text of elements that are not objects, still to be checked (see element). */
  private unchecked: string[] = [];
  private input: RecordSource | undefined;
  private head: Uint8Array = new Uint8Array(0);
  /** Records and files of zips found so far: what MAX_EXPORT_RECORDS bounds. */
  private records = 0;
  /** When the event loop last had a turn. */
  private turnedAt = performance.now();
  private readonly decoder = new TextDecoder();

  /** `knownBlobs`: the blobs (blobKey) the connection holds, not to read again. */
  constructor(
    private readonly limits: ReadLimits,
    private readonly formats: readonly ExportFormat[],
    private readonly take: RecordsTaker,
    private readonly knownBlobs: ReadonlySet<string> = new Set(),
  ) {}

  /** Reads the chunk; the records it completed have been taken when this settles. */
  async push(chunk: Uint8Array): Promise<void> {
    if (!this.input) {
      // Four bytes tell a zip from a document; a first chunk may be shorter.
      this.head = concatBytes([this.head, chunk]);
      if (this.head.length < 4) return;
      this.input = this.open(this.head);
      chunk = this.head;
    }
    await this.input.push(chunk);
    await this.handOut(true);
  }

  /** Reads to the end, the last records taken; a document or archive cut short is refused. */
  async end(): Promise<void> {
    if (!this.input) {
      this.input = this.open(this.head);
      await this.input.push(this.head);
    }
    await this.input.end();
    await this.handOut(true);
  }

  private open(start: Uint8Array): RecordSource {
    const handOut = () => this.handOut(false);
    const sinkFor = (source: string): RecordSink => ({
      json: (bytes) => this.element(source, bytes),
      row: (value) => {
        this.count();
        this.ready.push({ source, value });
      },
      blob: (blob, final) => void this.ready.push({ source, blob, final }),
      known: (size) => void this.ready.push({ source, known: size }),
      notRead: (notRead) => void this.ready.push({ source, notRead }),
      passed: () => this.count(),
      handOut,
    });
    return isZip(start)
      ? new ZipRecords({ sinkFor, handOut, countFile: () => this.count() }, this.limits, this.formats, this.knownBlobs)
      : new DocumentRecords(sinkFor(''), this.limits, this.formats);
  }

  /**
   * A JSON element: an object is a record. Anything else (a number, a string,
   * an array…) no format reads: it is checked, as JSON.parse would check it in
   * the reader, and counted with the others in a row, never hashed or sent on.
   * The check parses the elements of a piece together, as one array: one by
   * one, a million `0`s cost seconds.
   */
  private element(source: string, bytes: Uint8Array): void {
    this.count();
    if (bytes[0] === OPEN_BRACE) {
      this.ready.push({ source, bytes });
      return;
    }
    this.unchecked.push(this.decoder.decode(bytes));
    const last = this.ready.at(-1);
    if (last && 'notObjects' in last && last.source === source) last.notObjects++;
    else this.ready.push({ source, notObjects: 1 });
  }

  private count(): void {
    if (++this.records > this.limits.maxExportRecords) throw new ParleyError('tooManyRecords');
  }

  /** Hands on the full batches of ready records, each once the one before is taken; `all`: the rest too. */
  private async handOut(all: boolean): Promise<void> {
    if (this.unchecked.length > 0) {
      parseElement(`[${this.unchecked.join(',')}]`);
      this.unchecked = [];
    }
    while (this.ready.length >= MAX_BATCH_RECORDS || (all && this.ready.length > 0)) {
      await this.take(this.ready.splice(0, MAX_BATCH_RECORDS));
      await this.turnIfDue();
    }
    await this.turnIfDue();
  }

  /** Lets the event loop turn once TURN_MS have passed since it last did: after every batch, every piece read and every slice inflated. */
  private async turnIfDue(): Promise<void> {
    if (performance.now() - this.turnedAt < TURN_MS) return;
    await ioTurn();
    this.turnedAt = performance.now();
  }
}

const isBlank = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];
const LESS_THAN = 0x3c;
/** Enough of a document to see its header line, if it is a CSV file. */
const SNIFF_BYTES = 64 * 1024;

/**
 * One file: JSON (an array of records, an object holding them, or one record),
 * a CSV file, an HTML page or a format's plain text, told apart by content.
 * Anything starting like JSON is JSON; a tag is HTML; a first line a format's
 * `plainText` matches is that text; a first line with commas is a CSV header;
 * everything else is read as JSON and refused as such.
 */
class DocumentRecords implements RecordSource {
  private reader: RecordSource | undefined;
  private head: Uint8Array[] = [];
  private headBytes = 0;

  constructor(
    private readonly sink: RecordSink,
    private readonly limits: ReadLimits,
    private readonly formats: readonly ExportFormat[],
  ) {}

  async push(chunk: Uint8Array): Promise<void> {
    if (this.reader) return this.read(this.reader, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    const start = concatBytes(this.head);
    const kind = documentKind(start, this.headBytes >= SNIFF_BYTES, this.formats);
    if (kind === undefined) return;
    this.reader = this.open(kind);
    this.head = [];
    await this.read(this.reader, start);
  }

  async end(): Promise<void> {
    if (!this.reader) {
      const start = concatBytes(this.head);
      this.reader = this.open(documentKind(start, true, this.formats)!);
      await this.read(this.reader, start);
    }
    await this.reader.end();
  }

  /** Reads `bytes` PIECE_BYTES at a time, handing records on between two pieces. */
  private async read(reader: RecordSource, bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
      await reader.push(bytes.subarray(at, at + PIECE_BYTES));
      await this.sink.handOut();
    }
  }

  private open(kind: DocumentKind): RecordSource {
    const max = this.limits.maxConversationBytes;
    if (kind === 'html') return new WholeDocument(max, (html) => readHtmlPage(html, this.sink, this.formats));
    // A format's plain text goes on as the one record `{plainText: <its text>}`, hashed as any JSON record is.
    if (kind === 'text')
      return new WholeDocument(max, (text) =>
        this.sink.json(new TextEncoder().encode(JSON.stringify({ [PLAIN_TEXT]: text }))),
      );
    return kind === 'csv'
      ? new CsvRecords(this.sink.row, max)
      : new JsonElementSplitter(this.sink.json, max, this.countedArrays(), this.sink.passed);
  }

  /** The arrays of a JSON object that formats name as not kept, each with where its count goes. */
  private countedArrays(): Map<string, (elements: number) => void> {
    return new Map(
      this.formats.flatMap(({ provider, notReadArrays = [] }) =>
        notReadArrays.map(({ what, key }) => [key, (count: number) => this.sink.notRead({ provider, what, count })]),
      ),
    );
  }
}

type DocumentKind = 'json' | 'csv' | 'html' | 'text';

/**
 * A document read as one — an HTML page, or a format's plain text — held whole
 * within MAX_CONVERSATION_BYTES (like a conversation's JSON), then given to
 * `read` as text (TextDecoder drops a byte order mark; the rest is as the file has it).
 */
class WholeDocument implements RecordSource {
  private chunks: Uint8Array[] = [];
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly read: (text: string) => void,
  ) {}

  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) throw new ParleyError('conversationTooLarge');
    // A copy: the chunk may be a view of bytes the zip's reading reuses.
    this.chunks.push(chunk.slice());
  }

  end(): void {
    const text = new TextDecoder().decode(concatBytes(this.chunks));
    this.chunks = [];
    this.read(text);
  }
}

/** An HTML page's records, from the first format that reads it; a page none of them reads is no export. */
function readHtmlPage(html: string, sink: RecordSink, formats: readonly ExportFormat[]): void {
  for (const format of formats) {
    const records = format.htmlRecords?.(html) ?? [];
    if (records.length === 0) continue;
    for (const record of records) sink.row(record);
    return;
  }
  throw fileNotAnExport(HTML_NOT_AN_EXPORT);
}

/** JSON, CSV, HTML or a format's plain text, from a document's first bytes; undefined while they cannot tell yet. */
function documentKind(
  start: Uint8Array,
  complete: boolean,
  formats: readonly ExportFormat[],
): DocumentKind | undefined {
  let i = BYTE_ORDER_MARK.every((byte, j) => start[j] === byte) ? 3 : 0;
  while (i < start.length && isBlank(start[i]!)) i++;
  if (i === start.length) return complete ? 'json' : undefined;
  const first = start[i]!;
  // [ { " - 0-9 t f n: JSON, readable or not.
  if ([0x5b, 0x7b, 0x22, 0x2d, 0x74, 0x66, 0x6e].includes(first) || (first >= 0x30 && first <= 0x39)) return 'json';
  if (first === LESS_THAN) return 'html';
  const lineEnd = start.indexOf(0x0a, i);
  if (lineEnd === -1 && !complete) return undefined;
  const line = start.subarray(i, lineEnd === -1 ? start.length : lineEnd);
  const text = new TextDecoder().decode(line);
  if (formats.some((format) => format.plainText?.test(text))) return 'text';
  return line.includes(0x2c) ? 'csv' : 'json';
}

/** The end-of-central-directory record's signature, and its size without the comment. */
const END_RECORD = [0x50, 0x4b, 0x05, 0x06];
const END_RECORD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;

/** Inflated data of a file, waiting to be read once fflate's synchronous callback has returned. */
interface Inflated {
  reader: RecordSource;
  data: Uint8Array;
  final: boolean;
}

/**
 * A zip at the top of an export's zip, opened in turn: the privacy portal wraps
 * ChatGPT's export in an outer archive, Claude ships `conversations-000.zip`.
 * Not an upload the person once attached (`file-<id>-<name>.zip`,
 * `file_<hex>-<name>.zip`), nor a zip inside an opened one.
 */
const NESTED_ZIP = /^(?!file[-_])[^/]+\.zip$/i;

/** A blob's bytes as they are inflated, to the sink, within MAX_ATTACHMENT_BYTES. */
class BlobRecords implements RecordSource {
  private bytes = 0;

  constructor(
    private readonly sink: RecordSink,
    private readonly maxBytes: number,
  ) {}

  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) throw new ParleyError('attachmentTooLarge');
    this.sink.blob(chunk, false);
  }

  end(): void {
    this.sink.blob(new Uint8Array(0), true);
  }
}

/**
 * fflate's decoder of a compression method (`Decoder`; none for a method fflate
 * cannot read) that lets a member started while `discarding()` pass unread:
 * fflate keeps every byte of a member never started for as long as the zip is
 * read, so a member not read is started and its bytes dropped as they come,
 * whatever its method. A member to read whose method has no decoder cannot
 * start.
 */
function decoderOf(
  compression: number,
  Decoder: UnzipDecoderConstructor | undefined,
  discarding: () => boolean,
): UnzipDecoderConstructor {
  return class implements UnzipDecoder {
    static readonly compression = compression;
    ondata: UnzipDecoder['ondata'] = () => {};
    private readonly inner: UnzipDecoder | undefined;

    constructor(name: string, size?: number, originalSize?: number) {
      if (discarding()) return;
      if (!Decoder) throw new Error(`no decoder for compression method ${compression}`);
      this.inner = new Decoder(name, size, originalSize);
      this.inner.ondata = (error, data, final) => this.ondata(error, data, final);
    }

    push(data: Uint8Array, final: boolean): void {
      if (this.inner) this.inner.push(data, final);
      else if (final) this.ondata(null, new Uint8Array(0), true);
    }

    terminate(): void {
      this.inner?.terminate?.();
    }
  };
}

/**
 * A provider's zip: the files some format reads (each a document, in archive
 * order), the blobs of attachments (their bytes as they come), and the files
 * of one nested zip; everything else skipped unread.
 */
class ZipRecords implements RecordSource {
  private readonly unzip = new Unzip();
  private readonly inflated: Inflated[] = [];
  private filesRead = 0;
  /** Files passed over that a format names as not kept: a zip of only such is that format's (its reader decides). */
  private filesNotRead = 0;
  private open = 0;
  /** Why the export cannot be read, if a file says it was made wrongly and nothing else is read. */
  private misexported: string | undefined;
  /** Bytes read out of this archive, and bytes of it read in so far. */
  private expanded = 0;
  private compressed = 0;
  /** Bytes read out of the export's zip and the zips in it: what MAX_EXPANDED_BYTES bounds. */
  private expandedInAll = 0;
  /** The last chunks, enough to hold the end record and its comment. */
  private tail: Uint8Array[] = [];
  private tailBytes = 0;

  /** Whether the member being started is to pass unread (see decoderOf), and the methods with a decoder registered. */
  private discarding = false;
  private readonly methods = new Set<number>();

  /** `outer`: the export's zip, when this one is a zip inside it, at `prefix` (its name and `/`). */
  constructor(
    private readonly output: ZipOutput,
    limits: ReadLimits,
    formats: readonly ExportFormat[],
    knownBlobs: ReadonlySet<string>,
    private readonly outer?: ZipRecords,
    prefix = '',
  ) {
    const root = outer ?? this;
    const { sinkFor } = output;
    this.register(UnzipInflate.compression, UnzipInflate);
    this.register(UnzipPassThrough.compression, UnzipPassThrough);
    const skip = (file: { compression: number; start(): void; ondata: unknown }) => {
      if (!this.methods.has(file.compression)) this.register(file.compression, undefined);
      file.ondata = () => {};
      this.discarding = true;
      try {
        file.start();
      } finally {
        this.discarding = false;
      }
    };
    this.unzip.onfile = (file) => {
      output.countFile();
      forgetEarlierMembers(this.unzip);
      const nested = outer === undefined && NESTED_ZIP.test(file.name);
      const read =
        nested ||
        formats.some(
          (format) =>
            format.zipMembers.test(file.name) ||
            format.beside?.zipMember.test(file.name) ||
            format.fileNames?.zipMember.test(file.name) ||
            format.library?.zipMember.test(file.name),
        );
      const blob = !read && formats.some((format) => format.blobs?.zipMember.test(file.name));
      if (!read && !blob) {
        root.misexported ??= formats.find((format) =>
          format.misexported?.zipMember.test(file.name),
        )?.misexported?.reason;
        for (const format of formats) {
          const notRead = format.notRead?.find(({ zipMember }) => zipMember.test(file.name));
          if (notRead) {
            root.filesNotRead++;
            sinkFor(`${prefix}${file.name}`).notRead({ provider: format.provider, what: notRead.what, count: 1 });
          }
        }
        return skip(file);
      }
      const source = `${prefix}${file.name}`;
      const sink = sinkFor(source);
      if (blob && file.originalSize !== undefined) {
        if (file.originalSize > limits.maxAttachmentBytes) throw new ParleyError('attachmentTooLarge');
        if (knownBlobs.has(blobKey(source, file.originalSize))) {
          sink.known(file.originalSize);
          return skip(file);
        }
      }
      const reader = nested
        ? new ZipRecords(output, limits, formats, knownBlobs, this, `${source}/`)
        : blob
          ? new BlobRecords(sink, limits.maxAttachmentBytes)
          : new DocumentRecords(sink, limits, formats);
      if (!nested && !blob) root.filesRead++;
      this.open++;
      file.ondata = (error, data, final) => {
        // Our own verdicts (a limit, bad JSON) come back through fflate's callback as they are.
        if (error) throw error instanceof ParleyError ? error : damaged(error);
        this.expanded += data.length;
        root.expandedInAll += data.length;
        if (root.expandedInAll > limits.maxExpandedBytes) throw new ParleyError('expandedTooLarge');
        this.inflated.push({ reader, data, final });
      };
      try {
        file.start();
      } catch {
        throw invalidExport(`${file.name} uses a compression method Parley cannot read`);
      }
    };
  }

  private register(compression: number, Decoder: UnzipDecoderConstructor | undefined): void {
    this.unzip.register(decoderOf(compression, Decoder, () => this.discarding));
    this.methods.add(compression);
  }

  async push(chunk: Uint8Array): Promise<void> {
    this.remember(chunk);
    for (let offset = 0; offset < chunk.length; ) {
      // Until a file has been inflated, assume the worst ratio.
      const ratio = this.expanded > 0 ? Math.max(1, this.expanded / this.compressed) : 1032;
      const slice = Math.max(MIN_INFLATE_SLICE, Math.floor(INFLATE_OUTPUT_BYTES / ratio));
      const part = chunk.subarray(offset, offset + slice);
      this.compressed += part.length;
      this.feed(part, false);
      offset += part.length;
      await this.readInflated();
      // A slice may inflate nothing read (a member dropped as it streams): the event loop still turns.
      await this.output.handOut();
    }
  }

  async end(): Promise<void> {
    this.feed(new Uint8Array(0), true);
    await this.readInflated();
    if (this.open > 0) throw invalidExport('the zip ends in the middle of a file (truncated?)');
    // fflate reads local headers as they come and never needs the directory at
    // the end: without this, garbage after a zip signature would pass as a zip
    // holding nothing.
    if (!this.endsWithEndRecord()) throw invalidExport('the zip is damaged or cut short (no end of central directory)');
    // A zip inside the export's may hold nothing read: the export's zip answers for all.
    if (this.outer === undefined && this.filesRead === 0 && this.filesNotRead === 0)
      throw this.misexported ? misexportedExport(this.misexported) : unrecognizedExport();
  }

  private feed(chunk: Uint8Array, final: boolean): void {
    try {
      this.unzip.push(chunk, final);
    } catch (error) {
      throw error instanceof ParleyError ? error : damaged(error);
    }
  }

  private async readInflated(): Promise<void> {
    for (const { reader, data, final } of this.inflated.splice(0)) {
      await reader.push(data);
      if (final) {
        await reader.end();
        this.open--;
      }
      await this.output.handOut();
    }
  }

  private remember(chunk: Uint8Array): void {
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - this.tail[0]!.length >= END_RECORD_BYTES + MAX_COMMENT_BYTES)
      this.tailBytes -= this.tail.shift()!.length;
  }

  /** Whether an end record sits where it must: its comment reaching exactly to the last byte. */
  private endsWithEndRecord(): boolean {
    const tail = concatBytes(this.tail);
    for (
      let at = tail.length - END_RECORD_BYTES;
      at >= 0 && at >= tail.length - END_RECORD_BYTES - MAX_COMMENT_BYTES;
      at--
    ) {
      if (
        END_RECORD.every((byte, i) => tail[at + i] === byte) &&
        at + END_RECORD_BYTES + (tail[at + 20]! | (tail[at + 21]! << 8)) === tail.length
      )
        return true;
    }
    return false;
  }
}

/**
 * fflate's Unzip puts a list at the front of another (`k`, its own field) for
 * every member it meets, and only ever reads the first two: moving the rest
 * along made reading a zip quadratic in its members, a zip of tiny members
 * minutes long. The older ones are dropped as each member is met.
 */
function forgetEarlierMembers(unzip: Unzip): void {
  const lists = (unzip as unknown as { k?: unknown[] }).k;
  if (lists && lists.length > 2) lists.length = 2;
}

const damaged = (error: unknown) =>
  invalidExport(`the zip is damaged (${error instanceof Error ? error.message : String(error)})`);
