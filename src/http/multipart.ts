import { concatBytes, indexOfBytes } from '../bytes.ts';
import { ParleyError } from '../errors.ts';
import { invalidExport } from '../import/import-errors.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const HEADER_END = encoder.encode('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;
/** A form's text fields, on each side of its file: more, or a longer one, is 413. */
export const MAX_FIELDS = 100;
export const MAX_FIELD_BYTES = 64 * 1024;

/** One file of an upload: the name the form gives it, if any, and its bytes, streamed. */
export interface UploadedFile {
  name: string | undefined;
  bytes: AsyncIterable<Uint8Array>;
}

export interface MultipartUpload {
  /** The text fields that came before the first file part. */
  fields: Record<string, string>;
  /**
   * The parts holding files (named `file`, or unnamed with a filename), in order,
   * each streamed: the next is found once the one before has been read, to its
   * end or past the rest of it.
   */
  files: AsyncIterable<UploadedFile>;
  /**
   * The text fields after the first file part: those read with the files, and,
   * when the files were not all read, those found by reading past the rest.
   */
  fieldsAfter(): Promise<Record<string, string>>;
}

/** A part's head: its name and filename, as its Content-Disposition says. */
type Disposition = { name?: string; filename?: string };

/**
 * Reads a multipart/form-data body up to its first file part and hands its file
 * parts on as streams, one after the other, so an upload of any size passes
 * through in bounded memory. Fields may come on either side of the files
 * (browsers send them in form order, `curl -F` in argument order, a FormData
 * in the order of its appends): those after the first are known once the files
 * have been read.
 */
export async function readMultipartUpload(body: AsyncIterable<Uint8Array>, boundary: string): Promise<MultipartUpload> {
  const reader = new BufferedReader(body[Symbol.asyncIterator]());
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  // The first delimiter has no CRLF before it when there is no preamble.
  const first = await reader.skipPast(delimiter.subarray(2));
  if (!first) throw invalidExport('the form data has no parts');
  const fields: Record<string, string> = {};
  /** The head of the file part the reader is in, or undefined once the body is read. */
  let file = await readFields(reader, delimiter, fields, { count: 0 });
  if (!file) throw invalidExport('the form has no "file" field');

  const later: Record<string, string> = {};
  const counted = { count: 0 };
  // From wherever reading the file stopped: past the rest of it, then the fields up to the next file, or the end.
  const nextFile = async () => {
    if (!(await reader.skipPast(delimiter))) throw invalidExport('the upload ends before the file does');
    file = await readFields(reader, delimiter, later, counted);
    if (!file) await reader.drain();
  };
  let after: Promise<Record<string, string>> | undefined;
  const fieldsAfter = () => {
    after ??= (async () => {
      while (file) await nextFile();
      return later;
    })();
    return after;
  };
  async function* files() {
    while (file) {
      yield { name: file.filename, bytes: reader.streamUntil(delimiter) };
      await nextFile();
    }
  }
  return { fields, files: files(), fieldsAfter };
}

/**
 * Reads parts from just past a delimiter, each text field into `fields`, to the
 * head of the next file part (its disposition), or to the end of the body
 * (undefined). `counted` counts the fields of one side of the first file.
 */
async function readFields(
  reader: BufferedReader,
  delimiter: Uint8Array,
  fields: Record<string, string>,
  counted: { count: number },
): Promise<Disposition | undefined> {
  while (await reader.startsPart()) {
    const head = await reader.readUntil(HEADER_END, MAX_HEADER_BYTES);
    if (head === null || head === 'too long') throw invalidExport('the form data is cut short or malformed');
    const disposition = partDisposition(decoder.decode(head));
    const { name, filename } = disposition;
    if (name === 'file' || (name === undefined && filename !== undefined)) return disposition;
    if (++counted.count > MAX_FIELDS) throw new ParleyError('bodyTooLarge');
    const value = await reader.readUntil(delimiter, MAX_FIELD_BYTES);
    if (value === 'too long') throw new ParleyError('bodyTooLarge');
    if (value === null) throw invalidExport('the form data is cut short or malformed');
    if (name !== undefined) fields[name] = decoder.decode(value);
  }
  return undefined;
}

function partDisposition(head: string): Disposition {
  const disposition = /^content-disposition:(.*)$/im.exec(head)?.[1] ?? '';
  const param = (key: string) =>
    new RegExp(`(?:^|;)\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(disposition)?.[1] /* unquoted */ ??
    new RegExp(`(?:^|;)\\s*${key}=([^;\\s]+)`, 'i').exec(disposition)?.[1];
  const result: Disposition = {};
  const name = param('name');
  const filename = param('filename');
  if (name !== undefined) result.name = name;
  if (filename !== undefined) result.filename = filename;
  return result;
}

/** Byte-level reading over an async iterator of chunks, with one buffer of what is not yet consumed. */
class BufferedReader {
  private buffer: Uint8Array = new Uint8Array(0);
  private ended = false;

  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const { done, value } = await this.source.next();
    if (done) {
      this.ended = true;
      return false;
    }
    this.buffer = this.buffer.length === 0 ? value : concatBytes([this.buffer, value]);
    return true;
  }

  /** Consumes everything up to and including `needle`; false when the input ends first. */
  async skipPast(needle: Uint8Array): Promise<boolean> {
    for (;;) {
      const at = indexOfBytes(this.buffer, needle);
      if (at !== -1) {
        this.buffer = this.buffer.subarray(at + needle.length);
        return true;
      }
      this.buffer = this.buffer.subarray(Math.max(0, this.buffer.length - needle.length + 1));
      if (!(await this.fill())) return false;
    }
  }

  /** Reads the rest of the input, keeping none of it (a body's epilogue). */
  async drain(): Promise<void> {
    this.buffer = new Uint8Array(0);
    while (await this.fill()) this.buffer = new Uint8Array(0);
  }

  /** After a delimiter: CRLF starts another part, `--` ends the body. */
  async startsPart(): Promise<boolean> {
    while (this.buffer.length < 2) if (!(await this.fill())) return false;
    const isCrlf = this.buffer[0] === 0x0d && this.buffer[1] === 0x0a;
    if (isCrlf) this.buffer = this.buffer.subarray(2);
    return isCrlf;
  }

  /** The bytes before `needle` (consumed with it); null if the input ends first, 'too long' once `max` is passed. */
  async readUntil(needle: Uint8Array, max: number): Promise<Uint8Array | null | 'too long'> {
    for (;;) {
      const at = indexOfBytes(this.buffer, needle);
      if (at !== -1) {
        if (at > max) return 'too long';
        const found = this.buffer.slice(0, at);
        this.buffer = this.buffer.subarray(at + needle.length);
        return found;
      }
      if (this.buffer.length > max + needle.length) return 'too long';
      if (!(await this.fill())) return null;
    }
  }

  /** Streams the bytes before `needle`, keeping back only what could be the start of it; `needle` is left unread. */
  async *streamUntil(needle: Uint8Array): AsyncGenerator<Uint8Array> {
    for (;;) {
      const at = indexOfBytes(this.buffer, needle);
      if (at !== -1) {
        const before = this.buffer.subarray(0, at);
        this.buffer = this.buffer.subarray(at);
        if (before.length > 0) yield before;
        return;
      }
      const safe = this.buffer.length - needle.length + 1;
      if (safe > 0) {
        yield this.buffer.subarray(0, safe);
        this.buffer = this.buffer.subarray(safe);
      }
      if (!(await this.fill())) throw invalidExport('the upload ends before the file does');
    }
  }
}
