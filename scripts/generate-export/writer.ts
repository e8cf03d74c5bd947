/**
 * Streams generated conversations to a file, one conversation at a time: as a
 * JSON array, as a JSON object with the array under a key, or as CSV rows — the
 * bare file, or inside the provider's zip (fflate's streaming `Zip`/`ZipDeflate`,
 * a fixed mtime so a zip is as deterministic as the JSON, optionally split over
 * several members). Memory stays small whatever the size.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { Zip, ZipDeflate } from 'fflate';
import type { Conversation, Framing, Provider, Shape } from './shape.ts';
import { account } from './text.ts';

export const MIB = 1024 * 1024;
/** Zip entries carry this time, so a zip is as deterministic as the JSON. */
const ZIP_MTIME = new Date(Date.UTC(2025, 0, 1));
const ZIP_LEVEL = 6;
const ZIP_BATCH = 64 * 1024;
/** fflate writes no Zip64: stay well below the 4 GiB limits of a plain zip. */
export const ZIP_MAX_MB = 3900;

// ---------------------------------------------------------------- framing

/** A record already serialised: for a key order that JSON.stringify cannot give (DeepSeek's "root" before "1", "2", …). */
export class RawJson {
  constructor(readonly json: string) {}
}

const stringify = (value: unknown) => (value instanceof RawJson ? value.json : JSON.stringify(value));

/**
 * `[record,record,…]`; with `indent`, each record pretty-printed and the records
 * joined as Takeout joins them: `[{\n  "header": …\n},{\n  …\n}]`.
 */
export function jsonArray(indent?: number): Framing {
  const record =
    indent === undefined
      ? stringify
      : (value: unknown) => JSON.stringify(value instanceof RawJson ? JSON.parse(value.json) : value, null, indent);
  return { head: '[', separator: ',', tail: ']', record };
}

/** `{"key": [record,…], …after}`: the array under the object's first key, the (small) other keys after it. */
export function jsonObject(key: string, after: Record<string, unknown>): Framing {
  const rest = Object.entries(after).map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`);
  return { head: `{${JSON.stringify(key)}:[`, separator: ',', tail: `]${rest.join('')}}`, record: stringify };
}

/** An RFC 4180 field: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** CSV rows (arrays of strings), each ended by CRLF, after a header row and a UTF-8 byte-order mark. */
export function csv(header: readonly string[], bom = true): Framing {
  const row = (fields: readonly string[]) => `${fields.map(csvField).join(',')}\r\n`;
  return {
    head: `${bom ? '\uFEFF' : ''}${row(header)}`,
    separator: '',
    tail: '',
    record: (value) => row(value as string[]),
  };
}

// ---------------------------------------------------------------- records

interface Output {
  open(index: number, first: Conversation): void;
  put(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

interface Written {
  conversations: number;
  messages: number;
  records: number;
  /** Bytes of the bare content (JSON, CSV or text), all files together. */
  contentBytes: number;
}

/**
 * Streams conversations until `target` content bytes are written, as one file or,
 * when `splitBytes` is finite, as files of at most that size (a conversation
 * larger than a whole file gets a file to itself; a `splitBytes` of 0 gives each
 * conversation its own). `open` starts a file with its first conversation, `put`
 * writes to it (and may wait), `close` ends it.
 */
async function writeRecords(
  shape: Shape,
  seed: number,
  target: number,
  splitBytes: number,
  out: Output,
): Promise<Written> {
  const framing = shape.layout.framing(account(seed), seed);
  const head = Buffer.from(framing.head);
  const tail = Buffer.from(framing.tail);
  const separator = Buffer.from(framing.separator);
  let conversations = 0;
  let messages = 0;
  let records = 0;
  let contentBytes = 0;
  let file = -1; // the current file's index
  let inFile = 0; // bytes in the current file, head included
  let count = 0; // conversations in the current file
  const start = async (first: Conversation) => {
    out.open(++file, first);
    await out.put(head);
    inFile = head.length;
    count = 0;
  };
  for (const conversation of shape.conversations(seed)) {
    const parts = conversation.records.map(framing.record);
    const bytes = Buffer.from(parts.length === 1 ? parts[0]! : parts.join(framing.separator));
    if (file === -1) await start(conversation);
    else if (inFile + separator.length + bytes.length + tail.length > splitBytes) {
      await out.put(tail);
      contentBytes += inFile + tail.length;
      await out.close();
      await start(conversation);
    }
    if (count > 0 && separator.length > 0) {
      await out.put(separator);
      inFile += separator.length;
    }
    await out.put(bytes);
    inFile += bytes.length;
    count++;
    conversations++;
    messages += conversation.messages;
    records += conversation.records.length;
    if (contentBytes + inFile >= target) break;
  }
  await out.put(tail);
  contentBytes += inFile + tail.length;
  await out.close();
  return { conversations, messages, records, contentBytes };
}

/** The bare file of the first `n` conversations, in memory (for unit tests). */
export function exportBytes(shape: Shape, seed: number, n: number): Uint8Array {
  if (shape.layout.zip.split === 'conversation' && n !== 1)
    throw new Error(`a bare ${shape.name} file holds one conversation`);
  const framing = shape.layout.framing(account(seed), seed);
  const parts: string[] = [];
  const conversations = shape.conversations(seed);
  for (let i = 0; i < n; i++) parts.push(...conversations.next().value.records.map(framing.record));
  return new TextEncoder().encode(`${framing.head}${parts.join(framing.separator)}${framing.tail}`);
}

// ---------------------------------------------------------------- files

/** A file write stream that makes callers wait while its buffer is full. */
class Sink {
  private readonly stream: WriteStream;
  private full = false;
  bytes = 0;

  constructor(file: string) {
    this.stream = createWriteStream(file);
    // Surface errors through `drain`/`close` rather than as an uncaught event.
    this.stream.on('error', () => {});
  }

  /** Writes without waiting; call `ready()` before producing more. */
  write(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) this.full = true;
  }

  async ready(): Promise<void> {
    if (this.stream.errored) throw this.stream.errored;
    if (!this.full) return;
    this.full = false;
    await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    this.stream.end();
    await finished(this.stream);
  }
}

export type Format = 'json' | 'csv' | 'txt' | 'zip';

export interface WriteOptions {
  shape: Shape;
  /** Content bytes (JSON, CSV or text) to write, at least: the last conversation goes past it; a bare `txt` is one conversation. */
  sizeMb: number;
  out: string;
  format: Format;
  /** Split the conversations over members of at most this size, where the provider does (ChatGPT). */
  splitMb: number;
  seed: number;
}

export interface Summary {
  file: string;
  bytes: number;
  conversations: number;
  messages: number;
  /** Array elements or CSV rows written: Gemini writes several activity entries per conversation, Copilot a row per message. */
  records: number;
  provider: Provider;
  format: Format;
  /** Zip only: the uncompressed JSON, CSV or text bytes of the conversations, and the archive's members. */
  jsonBytes?: number;
  csvBytes?: number;
  txtBytes?: number;
  members?: string[];
}

/** Writes the bare file (JSON, CSV or text, as the provider's layout says) or the provider's zip. */
export async function writeExport(options: WriteOptions): Promise<Summary> {
  const { shape, format } = options;
  if (format !== 'zip' && format !== shape.layout.bare)
    throw new Error(`--format ${format}: ${shape.provider} exports are ${shape.layout.bare} (or zip)`);
  const result = format === 'zip' ? await writeZip(options) : await writeBare(options);
  const { sink, written, members } = result;
  const summary: Summary = {
    file: options.out,
    bytes: sink.bytes,
    conversations: written.conversations,
    messages: written.messages,
    records: written.records,
    provider: shape.provider,
    format,
  };
  if (members) {
    summary[`${shape.layout.bare}Bytes`] = written.contentBytes;
    summary.members = members;
  }
  return summary;
}

async function writeBare(options: WriteOptions) {
  const sink = new Sink(options.out);
  // A file of one conversation ends after the first.
  const target = options.shape.layout.zip.split === 'conversation' ? 0 : options.sizeMb * MIB;
  const written = await writeRecords(options.shape, options.seed, target, Infinity, {
    open() {},
    async put(chunk) {
      sink.write(chunk);
      await sink.ready();
    },
    async close() {},
  });
  await sink.close();
  return { sink, written, members: undefined };
}

async function writeZip(options: WriteOptions) {
  const { shape, seed } = options;
  const { zip: layout } = shape.layout;
  const who = account(seed);
  const sink = new Sink(options.out);
  const members: string[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else sink.write(chunk);
  });
  const check = async () => {
    if (failure) throw failure;
    await sink.ready();
  };
  const entry = (name: string) => {
    const file = new ZipDeflate(name, { level: ZIP_LEVEL });
    file.mtime = ZIP_MTIME;
    zip.add(file);
    members.push(name);
    return file;
  };

  // The deflater gets batches of ZIP_BATCH bytes: fed a conversation (or a comma)
  // at a time it ends a deflate block on every push, slower and compressing worse.
  let current: ZipDeflate | undefined;
  let batch: Uint8Array[] = [];
  let batched = 0;
  const flush = (final: boolean) => {
    current!.push(batch.length === 1 ? batch[0]! : Buffer.concat(batch, batched), final);
    batch = [];
    batched = 0;
  };
  const written = await writeRecords(
    shape,
    seed,
    options.sizeMb * MIB,
    layout.split === 'conversation' ? 0 : layout.split ? options.splitMb * MIB : Infinity,
    {
      open(index, first) {
        current = entry(layout.member(index, who, first));
      },
      async put(chunk) {
        batch.push(chunk);
        batched += chunk.length;
        if (batched < ZIP_BATCH) return;
        flush(false);
        await check();
      },
      async close() {
        flush(true);
        await check();
      },
    },
  );

  for (const extra of layout.extras(who, seed)) {
    entry(extra.path).push(new TextEncoder().encode(extra.content), true);
    await check();
  }
  zip.end();
  await check();
  if (failure) throw failure;
  await sink.close();
  return { sink, written, members };
}
