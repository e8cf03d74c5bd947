import { ParleyError } from '../../errors.ts';
import {
  isObject,
  storableText,
  storablePayload,
  type ExportFormat,
  type GroupedFormat,
  type Json,
  type AttachmentRef,
  type LibraryFile,
  type BesideRecord,
  type NormalizedConversation,
  type NotReadWhat,
} from '../formats/format.ts';
import { jsonText } from '../formats/nesting.ts';
import { EXPORT_FORMATS, formatFor } from '../formats/registry.ts';
import { unrecognizedExport } from '../import-errors.ts';
import { parseElement } from '../scanning/json-elements.ts';
import { isBlobRecord, type BlobRecord, type RecordBatch, type WireRecord } from './record-batcher.ts';

/**
 * Records seen before any is recognised are held, parsed; a file of only such
 * is not an export. Held by count and by the length of their text, so that a few
 * large records no format knows cannot fill the worker's memory.
 */
const MAX_UNRECOGNISED_HELD = 100;
const MAX_UNRECOGNISED_HELD_CHARS = 16 * 1024 * 1024;

export interface ConversationReaderOptions {
  /** The provider the caller (or the named connection) says the file is from; another is refused. */
  expectedProvider?: string | undefined;
  /** The person's zone (IANA), for times an export writes without one. */
  timeZone?: string | undefined;
}

/**
 * What reading the records yields, as plain data (it crosses back from the
 * worker that reads): the provider, once known; conversations normalised and
 * serialised; conversations whose bytes are those already stored; records that
 * several make one conversation; and, last, how many records could not be read.
 * `seq` is the record's place in the upload.
 */
export type ImportItem =
  | { kind: 'format'; provider: string }
  | ConversationItem
  | { kind: 'unchanged'; seq: number; source: string; sourceHash: string; externalId: string }
  | { kind: 'record'; seq: number; key: string; time: number; record: string }
  | { kind: 'unreadable'; count: number }
  | BlobItem
  /** A memory or a project (its knowledge files' text with it). */
  | BesideRecord
  /** Names the zip gives its files (by file id), and a file of its library. */
  | { kind: 'fileNames'; names: Array<[fileId: string, name: string]> }
  | { kind: 'library'; file: LibraryFile }
  /** What the export's provider names as not kept, counted (NotReadCount), after its last records. */
  | { kind: 'notRead'; counts: Array<[what: NotReadWhat, count: number]> };

/**
 * A blob's next bytes (in a buffer of their own, moved between threads),
 * `final` on its last; or a member whose blob the connection holds, not read
 * (`known`, its size).
 */
export type BlobItem =
  | { kind: 'blob'; source: string; bytes: Uint8Array; final: boolean }
  | { kind: 'knownBlob'; source: string; size: number };

/** A blob's record as its item. */
export const blobItem = (record: BlobRecord): BlobItem =>
  'blob' in record
    ? { kind: 'blob', source: record.source, bytes: record.blob, final: record.final }
    : { kind: 'knownBlob', source: record.source, size: record.known };

/**
 * Items to move to the other thread, and the buffers to move with them: each
 * blob's bytes copied into a buffer of its own first — a stored member's
 * bytes are a view of the input, which the zip's reading still holds.
 */
export function movableItems(items: readonly ImportItem[]): { items: ImportItem[]; buffers: ArrayBuffer[] } {
  const buffers: ArrayBuffer[] = [];
  const movable = items.map((item) => {
    if (item.kind !== 'blob') return item;
    const bytes = item.bytes.slice();
    buffers.push(bytes.buffer);
    return { ...item, bytes };
  });
  return { items: movable, buffers };
}

export interface ConversationItem {
  kind: 'conversation';
  seq: number;
  source: string;
  /** The hash of the conversation's bytes in the export (none for a CSV row). */
  sourceHash: string | null;
  externalId: string;
  title: string | null;
  payload: string;
  updateTime: string | null;
  /** Its attachments (StagedRef[] as JSON), or null when it has none. */
  attachments: string | null;
  /** The message each of its node ids goes with (JSON), or null (see NormalizedConversation). */
  messageIds: string | null;
  /** The text that is the bytes of an attachment, by ref (Claude's extracted content). */
  texts: Array<[ref: string, text: string]>;
  /** Its project, by the export's id (see NormalizedConversation). */
  projectExternalId: string | null;
}

/**
 * The records (as staged: one JSON text each) that make one conversation of a
 * grouped format, its place after the upload's records, and their hash.
 */
export interface RecordGroup {
  records: string[];
  seq: number;
  hash: string;
}

/** Whether a file lists names or a library (see readFileNames, readLibrary): none of its records is a conversation. */
const isSideFile = (source: string) =>
  EXPORT_FORMATS.some((format) => format.fileNames?.zipMember.test(source) || format.library?.zipMember.test(source));

/** A record read before the provider was known. */
interface HeldRecord {
  place: Place;
  value: Json;
}

/** Where a record came from: its place in the upload, its file, the hash of its bytes. */
interface Place {
  seq: number;
  source: string;
  hash: string | null;
}

/**
 * Turns batches of records into import items, in order: parses each, recognises
 * the provider from the first record it knows (holding those before), and
 * normalises every record of that provider. Runs in the import's worker.
 */
export class ConversationReader {
  private format: ExportFormat | undefined;
  private held: HeldRecord[] = [];
  private heldChars = 0;
  private unreadable = 0;
  /** Records read, and those that made (or will make) a conversation: an export whose records made none is refused. */
  private recordsRead = 0;
  private made = 0;
  private items: ImportItem[] = [];
  /** What the zip names its files, from the file that lists them (read as it comes: see fileNames). */
  private readonly fileNames = new Map<string, string>();
  /** What formats name as not kept, passed over, counted by provider: the export's are said at the end. */
  private readonly notRead = new Map<string, Map<NotReadWhat, number>>();

  constructor(private readonly options: ConversationReaderOptions) {}

  read({ records }: RecordBatch): ImportItem[] {
    for (const record of records) this.readRecord(record);
    return this.take();
  }

  /** The last items, ending with the count of records that could not be read; an export no format recognises is refused. */
  end(): ImportItem[] {
    if (!this.format) {
      // An empty export is a user with no conversations, if the caller names the
      // provider, and a zip of only what one provider's exports hold and Parley
      // does not keep (Claude's design_chats-000.zip) is that provider's; a file
      // whose records no format recognises is no export.
      const [onlyNotRead, ...others] = this.notRead.keys();
      const provider = this.options.expectedProvider ?? (others.length === 0 ? onlyNotRead : undefined);
      const fallback = provider === undefined ? undefined : formatFor(provider);
      if (!fallback || this.held.length > 0 || this.unreadable > 0) throw unrecognizedExport();
      this.settle(fallback);
    }
    // Recognised, but not one conversation could be read from it: not an export Parley can read.
    if (this.recordsRead > 0 && this.made === 0) throw unrecognizedExport();
    const notRead = this.notRead.get(this.format!.provider);
    if (notRead) this.items.push({ kind: 'notRead', counts: [...notRead] });
    this.items.push({ kind: 'unreadable', count: this.unreadable });
    return this.take();
  }

  private readRecord(record: WireRecord): void {
    if (isBlobRecord(record)) {
      this.items.push(blobItem(record));
      return;
    }
    if ('notRead' in record) {
      const { provider, what, count } = record.notRead;
      const counts = this.notRead.get(provider) ?? new Map<NotReadWhat, number>();
      counts.set(what, (counts.get(what) ?? 0) + count);
      this.notRead.set(provider, counts);
      return;
    }
    if ('notObjects' in record) {
      // Read and unreadable, as an object no format reads is; a side file's elements count for nothing.
      if (!isSideFile(record.source)) {
        this.recordsRead += record.notObjects;
        this.unreadable += record.notObjects;
      }
      return;
    }
    if (
      'text' in record &&
      (this.readFileNames(record.source, record.text) || this.readLibrary(record.source, record.text))
    )
      return;
    this.recordsRead++;
    if ('unchanged' in record) {
      this.made++;
      const { hash, externalId, provider } = record.unchanged;
      this.settle(formatFor(provider)!);
      this.items.push({ kind: 'unchanged', seq: record.seq, source: record.source, sourceHash: hash, externalId });
      return;
    }
    const place: Place = { seq: record.seq, source: record.source, hash: 'hash' in record ? record.hash : null };
    const value = 'row' in record ? record.row : parseElement(record.text);
    if (!isObject(value)) {
      this.unreadable++;
      return;
    }
    const unfolded = unfoldedRecords(value);
    if (unfolded === undefined) this.readValue(value, place, 'text' in record ? record.text.length : 0);
    else {
      // Records read out of one: the hash of its bytes is none of theirs.
      this.recordsRead += unfolded.length - 1;
      for (const part of unfolded) this.readValue(part, { ...place, hash: null }, 0);
    }
  }

  /** A record parsed, `chars` the length of its text (held while no format is known). */
  private readValue(value: Json, place: Place, chars: number): void {
    if (this.readBeside(value)) return;
    const recognised = EXPORT_FORMATS.find((candidate) => candidate.recognizes(value));
    if (!this.format && !recognised) {
      this.heldChars += chars;
      if (this.held.push({ place, value }) > MAX_UNRECOGNISED_HELD || this.heldChars > MAX_UNRECOGNISED_HELD_CHARS)
        throw unrecognizedExport();
      return;
    }
    if (!this.format) this.settle(recognised!);
    else if (recognised && recognised !== this.format) {
      // A record of another provider inside this export cannot be read as this one.
      this.unreadable++;
      return;
    }
    this.itemOf(value, place);
  }

  /**
   * Whether the record is one a format keeps beside its conversations (a
   * memory, a project): it makes the export that format's as a conversation
   * would, so a file of memories alone is an export too.
   */
  private readBeside(value: Json): boolean {
    const format = EXPORT_FORMATS.find((candidate) => candidate.beside?.recognizes(value));
    if (!format) return false;
    if (!this.format) this.settle(format);
    else if (format !== this.format) {
      this.unreadable++;
      return true;
    }
    const read = format.beside!.read(value);
    if (read === null) this.unreadable++;
    else {
      this.made++;
      this.items.push(...read.map(storableBeside));
    }
    return true;
  }

  /** Whether the record is a format's list of file names (no conversation), read into fileNames. */
  private readFileNames(source: string, text: string): boolean {
    const names = EXPORT_FORMATS.find((format) => format.fileNames?.zipMember.test(source))?.fileNames;
    if (!names) return false;
    // Names only help placeholders: a list that does not parse names nothing, and the import goes on.
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return true;
    }
    if (!isObject(value)) return true;
    const read = names.read(value);
    for (const [fileId, name] of read) this.fileNames.set(fileId, name);
    this.items.push({ kind: 'fileNames', names: read });
    return true;
  }

  /** Whether the record is an entry of a format's library of files (no conversation), passed on as it reads. */
  private readLibrary(source: string, text: string): boolean {
    const library = EXPORT_FORMATS.find((format) => format.library?.zipMember.test(source))?.library;
    if (!library) return false;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return true;
    }
    const file = isObject(value) ? library.read(value) : undefined;
    if (file) this.items.push({ kind: 'library', file });
    return true;
  }

  /** A record of the export's provider, as its item. */
  private itemOf(value: Json, place: Place): void {
    const format = this.format!;
    if (format.kind === 'grouped') {
      const placement = format.placement(value);
      if (placement === 'unreadable') this.unreadable++;
      else if (placement !== 'ignored') {
        this.made++;
        this.items.push({
          kind: 'record',
          seq: place.seq,
          key: placement.key,
          time: placement.time,
          record: jsonText(value),
        });
      }
      return;
    }
    const normalized = format.normalize(value, this.fileNames, {
      messageIds: format.library?.linksConversationsOf.test(place.source) ?? false,
      timeZone: this.options.timeZone,
    });
    if (normalized) {
      this.made++;
      this.items.push(conversationItem(normalized, place));
      // A project the export names only by id: one with nothing but that id.
      if (normalized.projectExternalId !== undefined)
        this.items.push(
          storableBeside({
            kind: 'project',
            project: {
              externalId: normalized.projectExternalId,
              name: null,
              description: null,
              instructions: null,
              createdAt: null,
              updatedAt: null,
              knowledge: [],
            },
          }),
        );
    } else this.unreadable++;
  }

  /** One conversation of a grouped format, assembled by the writer from the records this reader read. */
  normalizeGroup(group: RecordGroup): Promise<ConversationItem> {
    return groupItem(this.format as GroupedFormat, group);
  }

  /** The export's provider is known: checked against the caller's, and the records held so far are read. */
  private settle(chosen: ExportFormat): void {
    if (this.format) return;
    // The provider found goes with the refusal (not in the API's message): the connect page offers it.
    if (this.options.expectedProvider !== undefined && chosen.provider !== this.options.expectedProvider)
      throw new ParleyError('invalidProvider', { detail: chosen.provider });
    this.format = chosen;
    this.items.push({ kind: 'format', provider: chosen.provider });
    for (const { value, place } of this.held) this.itemOf(value, place);
    this.held = [];
  }

  private take(): ImportItem[] {
    const items = this.items;
    this.items = [];
    return items;
  }
}

/** The records a record holds, where a format reads it as several (see ExportFormat.unfold). */
function unfoldedRecords(value: Json): Json[] | undefined {
  for (const format of EXPORT_FORMATS) {
    const records = format.unfold?.(value);
    if (records !== undefined) return records;
  }
  return undefined;
}

/** The conversation a group of records makes, as it is staged. */
export async function groupItem(format: GroupedFormat, { records, seq, hash }: RecordGroup): Promise<ConversationItem> {
  return conversationItem(await format.normalize(records.map((record) => JSON.parse(record) as Json)), {
    seq,
    source: '',
    hash,
  });
}

/**
 * JSON.stringify writes a lone surrogate as a `\ud8…`–`\udf…` escape, a valid pair
 * as it is, and U+0000 as `\u0000`: only a payload with such an escape needs a
 * pass over its text. One regular expression finds them several times faster
 * than looking for each escape with `includes`.
 */
const UNSTORABLE_ESCAPE = /\\u(?:d[89a-f]|0000)/;

/** A normalised conversation as it is staged: valid Unicode, its payload serialised. */
export function conversationItem(conversation: NormalizedConversation, { seq, source, hash }: Place): ConversationItem {
  const payload = JSON.stringify(conversation.payload);
  return {
    kind: 'conversation',
    seq,
    source,
    sourceHash: hash,
    externalId: storableText(conversation.externalId),
    title: conversation.title === null ? null : storableText(conversation.title),
    payload: UNSTORABLE_ESCAPE.test(payload) ? JSON.stringify(storablePayload(conversation.payload)) : payload,
    updateTime: conversation.updateTime,
    attachments: stagedAttachments(conversation),
    messageIds: conversation.messageIds ? JSON.stringify(conversation.messageIds) : null,
    texts: textsOf(conversation),
    projectExternalId:
      conversation.projectExternalId === undefined ? null : storableText(conversation.projectExternalId),
  };
}

/** A memory or project with every text of it storable. */
function storableBeside(record: BesideRecord): BesideRecord {
  if (record.kind === 'memory') {
    const { memory } = record;
    return {
      kind: 'memory',
      memory: {
        ...memory,
        externalId: storableText(memory.externalId),
        projectExternalId: memory.projectExternalId === null ? null : storableText(memory.projectExternalId),
        title: memory.title === null ? null : storableText(memory.title),
        content: storableText(memory.content),
      },
    };
  }
  const { project } = record;
  const text = (value: string | null) => (value === null ? null : storableText(value));
  return {
    kind: 'project',
    project: {
      ...project,
      externalId: storableText(project.externalId),
      name: text(project.name),
      description: text(project.description),
      instructions: text(project.instructions),
      knowledge: project.knowledge.map((file) => ({
        ref: storableText(file.ref),
        name: storableText(file.name),
        text: storableText(file.text),
      })),
    },
  };
}

/** An attachment as staged: its bytes, if any, in the zip (`fileId`) or in a text written apart (`fromText`). */
export type StagedRef = Omit<AttachmentRef, 'text'> & { fromText?: true };

/** A conversation's attachments as staged (StagedRef[] as JSON), null when it has none. */
function stagedAttachments({ attachments = [] }: NormalizedConversation): string | null {
  if (attachments.length === 0) return null;
  return JSON.stringify(
    attachments.map(
      ({ text, ...ref }): StagedRef => ({
        ...ref,
        ref: storableText(ref.ref),
        name: ref.name === null ? null : storableText(ref.name),
        ...(text !== undefined && { fromText: true }),
      }),
    ),
  );
}

const textsOf = ({ attachments = [] }: NormalizedConversation): Array<[string, string]> =>
  attachments.flatMap(
    ({ ref, text }): Array<[string, string]> => (text === undefined ? [] : [[storableText(ref), storableText(text)]]),
  );
