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

export interface MultipartUpload {
  /** The text fields that came before the file part. */
  fields: Record<string, string>;
  /** The bytes of the part named `file`, streamed; then the parts after it are read, to the end of the body. */
  file: AsyncIterable<Uint8Array>;
  /**
   * The text fields after the file part: those `file` read after it, or, when the
   * file was not read to its end, those found by reading past the rest of it.
   */
  fieldsAfter(): Promise<Record<string, string>>;
}

/**
 * Reads a multipart/form-data body up to its `file` part and hands that part on as
 * a stream, so an upload of any size passes through in bounded memory. Fields may
 * come on either side of the file (browsers send them in form order, `curl -F` in
 * argument order, a FormData in the order of its appends): those after it are
 * known once it has been read.
 */
export async function readMultipartUpload(body: AsyncIterable<Uint8Array>, boundary: string): Promise<MultipartUpload> {
  const reader = new BufferedReader(body[Symbol.asyncIterator]());
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  // The first delimiter has no CRLF before it when there is no preamble.
  const first = await reader.skipPast(delimiter.subarray(2));
  if (!first) throw invalidExport('the form data has no parts');
  const fields: Record<string, string> = {};
  if (!(await readFields(reader, delimiter, fields, 'stop'))) throw invalidExport('the form has no "file" field');

  let after: Promise<Record<string, string>> | undefined;
  // From wherever reading the file stopped: past the rest of it, then the parts after it.
  const readAfter = async () => {
    if (!(await reader.skipPast(delimiter))) throw invalidExport('the upload ends before the file does');
    const later: Record<string, string> = {};
    await readFields(reader, delimiter, later, 'skip');
    await reader.drain();
    return later;
  };
  const fieldsAfter = () => {
    after ??= readAfter();
    return after;
  };
  async function* file() {
    yield* reader.streamUntil(delimiter);
    await fieldsAfter();
  }
  return { fields, file: file(), fieldsAfter };
}

/**
 * Reads parts from just past a delimiter, each text field into `fields`, to the
 * end of the body (false) or, with `atFile` 'stop', to the head of the file part
 * (true); with 'skip', files are passed over.
 */
async function readFields(
  reader: BufferedReader,
  delimiter: Uint8Array,
  fields: Record<string, string>,
  atFile: 'stop' | 'skip',
): Promise<boolean> {
  let count = 0;
  while (await reader.startsPart()) {
    const head = await reader.readUntil(HEADER_END, MAX_HEADER_BYTES);
    if (head === null || head === 'too long') throw invalidExport('the form data is cut short or malformed');
    const { name, filename } = partDisposition(decoder.decode(head));
    if (name === 'file' || (name === undefined && filename !== undefined)) {
      if (atFile === 'stop') return true;
      if (!(await reader.skipPast(delimiter))) throw invalidExport('the form data is cut short or malformed');
      continue;
    }
    if (++count > MAX_FIELDS) throw new ParleyError('bodyTooLarge');
    const value = await reader.readUntil(delimiter, MAX_FIELD_BYTES);
    if (value === 'too long') throw new ParleyError('bodyTooLarge');
    if (value === null) throw invalidExport('the form data is cut short or malformed');
    if (name !== undefined) fields[name] = decoder.decode(value);
  }
  return false;
}

function partDisposition(head: string): { name?: string; filename?: string } {
  const disposition = /^content-disposition:(.*)$/im.exec(head)?.[1] ?? '';
  const param = (key: string) =>
    new RegExp(`(?:^|;)\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(disposition)?.[1] /* unquoted */ ??
    new RegExp(`(?:^|;)\\s*${key}=([^;\\s]+)`, 'i').exec(disposition)?.[1];
  const result: { name?: string; filename?: string } = {};
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
