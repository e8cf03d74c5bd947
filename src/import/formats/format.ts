import { jsonText } from './nesting.ts';
import type { AttachmentKind, Message as ApiMessage, Provider, Role } from 'parley-sdk';

// What every provider's export is normalised to: the API's own types, as the SDK
// gives them, less what Parley adds to a message when it serves it.
export type Message = Omit<ApiMessage, 'attachments'>;
export type { Role };

/** A conversation's stored payload: the API's, without the attachments served beside it. */
export interface StoredPayload {
  title: string;
  messages: Message[];
}

export interface NormalizedConversation {
  externalId: string;
  title: string | null;
  /** ISO 8601, UTC. */
  updateTime: string | null;
  payload: StoredPayload;
  /** The files and images its messages show, stored beside the payload as rows (none: absent or empty). */
  attachments?: AttachmentRef[];
  /**
   * The message each node of the export names goes with (ChatGPT: the assistant
   * answer a node of the model's side led to), for files the export links to a
   * message id only (`library_files.json`).
   */
  messageIds?: Record<string, number>;
  /** The project it belongs to, by the export's id (ChatGPT's `g-p-…`): listed as a project of its own, with no name. */
  projectExternalId?: string;
}

/**
 * A file or image one message showed, as the export names it. Each field the
 * export leaves out (null) is filled in when the import links it to its bytes:
 * from the zip's lists of names, from the file itself (its type sniffed).
 */
export interface AttachmentRef {
  /** Index of the message in the payload's messages. */
  messageIndex: number;
  /** Unique within the conversation, the same on every import of it: the file id, mostly. */
  ref: string;
  /** The file the bytes are in, by id (`file-…`, `file_…`), when the export holds them in its zip. */
  fileId?: string;
  name: string | null;
  contentType: string | null;
  size: number | null;
  kind: AttachmentKind | null;
  /** The attachment's bytes are this text (Claude's `extracted_content`). */
  text?: string;
}

/**
 * One provider's export: where its records are, how to recognise one, and how
 * records become conversations — one record each, or several grouped.
 */
export type ExportFormat = RecordFormat | GroupedFormat;

/**
 * What an export holds that Parley does not keep, as the import's answer names
 * it: a short English noun phrase, which the pages translate.
 */
export const NOT_READ_WHATS = [
  'design chats',
  'artifact versions',
  'feedback files',
  'account files',
  'voice recordings',
  'chat.html pages',
  'shared conversation lists',
  'projects',
  'tasks',
  'media posts',
] as const;
export type NotReadWhat = (typeof NOT_READ_WHATS)[number];

interface FormatBase {
  provider: Provider;
  /**
   * The version of the reader: bump it whenever the reader would make something
   * else of the same bytes. A conversation stored by an older version is read
   * again on the next import of its bytes (and updated if it now reads
   * differently) rather than skipped as unchanged.
   */
  readerVersion: number;
  /** The files of the provider's zip that hold its records (at any depth), read in name order. */
  zipMembers: RegExp;
  /** A file in the zip that means the export was made wrongly, when nothing else is readable. */
  misexported?: { zipMember: RegExp; reason: string };
  recognizes(record: Json): boolean;
  /**
   * A record that holds several (Meta AI's JSON: one object whose tree of
   * labels holds every conversation): the records in it, each read as one;
   * undefined for any other record. Refuses (`Invalid export file`) such a
   * record holding none.
   */
  unfold?(record: Json): Json[] | undefined;
  /**
   * An HTML page of the export (Meta AI's `your_ai_conversations.html`): the
   * records it holds, none when it is no page of this provider's.
   */
  htmlRecords?(html: string): Array<Record<string, string>>;
  /**
   * A file of the zip that names the files the conversations refer to (ChatGPT's
   * `conversation_asset_file_names.json`): read whole into FileNames for the
   * conversations after it in the zip (it is read as it streams in).
   */
  fileNames?: { zipMember: RegExp; read(record: Json): Array<[fileId: string, name: string]> };
  /**
   * The files of a zip that hold the bytes of attachments (images, uploads, voice),
   * streamed into storage as they are read, and the file id each one's name says
   * (undefined: only the zip's lists of names tell).
   */
  blobs?: { zipMember: RegExp; fileId(member: string): string | undefined };
  /**
   * A file of the zip listing the person's files with the message each came from
   * (ChatGPT's `library_files.json`, an array): each of its records read into one.
   */
  library?: {
    zipMember: RegExp;
    read(record: Json): LibraryFile | undefined;
    /**
     * The files whose conversations a library may link to (zips of the years
     * that have one): only their conversations keep their node ids (messageIds).
     */
    linksConversationsOf: RegExp;
  };
  /** The records kept beside the conversations (Claude's memories and projects), and where a zip holds them. */
  beside?: BesideReader;
  /**
   * What the provider's zip holds that Parley deliberately does not keep (design
   * chats, voice recordings, account files), by the files that hold it: each such
   * file passed over is counted, and the import's answer says so (`notRead`).
   */
  notRead?: ReadonlyArray<{ what: NotReadWhat; zipMember: RegExp }>;
  /**
   * What the top-level object of its JSON holds beside the conversations and
   * Parley does not keep (Grok's `tasks`), by the member array that holds it:
   * the array's elements are counted as the file streams, never held, and
   * said as notRead is.
   */
  notReadArrays?: ReadonlyArray<{ what: NotReadWhat; key: string }>;
  /**
   * The ids an older reader gave conversations the current one names otherwise
   * (and may cut differently). Such a stored conversation is replaced: removed
   * once the connection's other conversations hold every message of it.
   */
  formerIds?: RegExp;
  /**
   * The first line of the provider's plain-text files (Duck.ai's `.txt`): a file,
   * neither JSON nor CSV, that begins with such a line is one record,
   * `{plainText: <the whole text>}` (see PLAIN_TEXT).
   */
  plainText?: RegExp;
  /**
   * Its exports may write times without a zone, read in the upload's
   * `timeZone`: the same bytes read in another zone read differently.
   */
  zonelessTimes?: true;
}

/** The one key of the record a plain-text file is read as. */
export const PLAIN_TEXT = 'plainText';

/** How a record is read: which node ids to keep (see NormalizedConversation), and the zone of times written without one. */
export interface NormalizeOptions {
  messageIds?: boolean;
  /** IANA name: times an export writes without a zone are read in it, else as UTC; times with an offset never move. */
  timeZone?: string | undefined;
}

/**
 * What the assistant remembers of the person, as the export writes it
 * (nothing rewritten): `content` the export's Markdown as it is.
 */
export interface NormalizedMemory {
  externalId: string;
  scope: 'account' | 'project';
  /** A project memory's project, by the export's id. */
  projectExternalId: string | null;
  title: string | null;
  content: string;
  /** ISO 8601, UTC. */
  updatedAt: string | null;
}

/** A project the person set up: its instructions, and its knowledge files' text exactly as exported. */
export interface NormalizedProject {
  externalId: string;
  name: string | null;
  description: string | null;
  instructions: string | null;
  /** ISO 8601, UTC. */
  createdAt: string | null;
  updatedAt: string | null;
  /** `ref`: unique within the project, the same on every import of it. */
  knowledge: Array<{ ref: string; name: string; text: string }>;
}

/** A record beside the conversations, as read: what it holds (none for a record that is deliberately not kept). */
export type BesideRecord =
  | { kind: 'memory'; memory: NormalizedMemory }
  | { kind: 'project'; project: NormalizedProject };

/** How a format reads the records it keeps beside the conversations. */
export interface BesideReader {
  /** The files of a zip that hold them (at any depth). */
  zipMember: RegExp;
  recognizes(record: Json): boolean;
  /** Null when the record cannot be read (no id): it is counted as skipped. */
  read(record: Json): BesideRecord[] | null;
}

/** A file of the person's library and the message that made it (a generated image, mostly). */
export interface LibraryFile {
  fileId: string;
  name: string | null;
  contentType: string | null;
  size: number | null;
  /** The conversation (external id) and the message (node id) it came from. */
  conversationId: string;
  messageId: string;
}

/** The names a zip gives its files, by file id (empty when it gives none). */
export type FileNames = ReadonlyMap<string, string>;

/** Each record is one conversation (ChatGPT, Claude, DeepSeek, Grok). */
export interface RecordFormat extends FormatBase {
  kind: 'record';
  /**
   * Null when the conversation cannot be read (no id): it is skipped and counted.
   * `messageIds`: whether to say which message each node id goes with.
   */
  normalize(record: Json, fileNames: FileNames, options?: NormalizeOptions): NormalizedConversation | null;
}

/**
 * Several records make one conversation (Gemini's exchanges, Copilot's rows):
 * they are staged, read back ordered by key and time, and a conversation is
 * every run of records with one key, cut where a run breaks.
 */
export interface GroupedFormat extends FormatBase {
  kind: 'grouped';
  /** Where a record belongs; `ignored` records are no messages and are not counted. */
  placement(record: Json): RecordPlacement | 'ignored' | 'unreadable';
  /** Whether a gap of GROUPING_GAP_MS or more after the previous record of the key starts a new conversation. */
  splitsOnGap(key: string): boolean;
  normalize(records: Json[]): Promise<NormalizedConversation>;
}

export interface RecordPlacement {
  /** Records of one conversation share it. */
  key: string;
  /** Unix ms. */
  time: number;
}

/** conversations.json, or the conversations-000.json … split files of newer ChatGPT archives (ChatGPT, Claude, DeepSeek). */
export const CONVERSATIONS_FILE = /(^|\/)conversations(-\d+)?\.json$/;

/** Exchanges further apart than this are separate conversations (Gemini and Copilot). */
export const GROUPING_GAP_MS = 30 * 60_000;

/**
 * Text as it can be stored anywhere: valid Unicode (a lone surrogate, a `\ud800`
 * escape in the export, say, made U+FFFD) and no U+0000 (PostgreSQL's text and
 * jsonb cannot hold it), made U+FFFD too.
 */
export const storableText = (text: string) => text.toWellFormed().replaceAll('\0', '\ufffd');

/** The payload with every text of it storable. */
export function storablePayload(payload: NormalizedConversation['payload']): NormalizedConversation['payload'] {
  return {
    title: storableText(payload.title),
    messages: payload.messages.map(({ model, reasoning, ...message }) => ({
      ...message,
      content: storableText(message.content),
      ...(model === undefined ? {} : { model: storableText(model) }),
      ...(reasoning === undefined ? {} : { reasoning: storableText(reasoning) }),
    })),
  };
}

/** `Tool call: <name>` and its input as a person reads it: strings as they are, anything else as indented JSON. */
export function toolCallText(name: string, input: unknown): string {
  const lines = [`Tool call: ${name}`];
  if (typeof input === 'string') lines.push(input);
  else if (isObject(input)) {
    for (const [key, value] of Object.entries(input)) {
      if (typeof value === 'string') lines.push(value.includes('\n') ? `${key}:\n${value}` : `${key}: ${value}`);
      else lines.push(`${key}: ${jsonText(value, true)}`);
    }
  } else if (input !== undefined && input !== null) lines.push(jsonText(input, true));
  return lines.join('\n');
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A date and time without a zone: read in the person's zone when the upload names it, else as UTC (never the server's, as Date.parse would). */
const ZONELESS = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * Unix seconds (ChatGPT's numbers) or an ISO 8601 string, with or without an
 * offset, to unix ms; anything else is null. A string without an offset is a
 * time in `timeZone` (UTC without one).
 */
export function msFrom(value: unknown, timeZone?: string): number | null {
  let ms: number;
  if (typeof value === 'number') ms = value * 1000;
  else if (typeof value === 'string' && value !== '') {
    if (/^\d+(\.\d+)?$/.test(value)) ms = Number(value) * 1000;
    else if (ZONELESS.test(value)) ms = zonedMs(Date.parse(`${value}Z`), timeZone);
    else ms = Date.parse(value);
  } else return null;
  return Number.isFinite(ms) && !Number.isNaN(new Date(ms).getTime()) ? ms : null;
}

/** As msFrom, in ISO 8601 UTC. */
export function isoFrom(value: unknown, timeZone?: string): string | null {
  const ms = msFrom(value, timeZone);
  return ms === null ? null : new Date(ms).toISOString();
}

/** Whether `name` is a time zone this runtime knows (IANA: `Europe/Paris`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    zoneFormat(name);
    return true;
  } catch {
    return false;
  }
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** How far ahead of UTC the zone's clocks are at the instant `ms`, in ms. */
function zoneOffset(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const { type, value } of zoneFormat(timeZone).formatToParts(ms)) parts[type] = Number(value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a wall-clock time (written as if UTC: `wallMs`) is in `timeZone`.
 * The offset is that of the instant it gives; around a change of offset the
 * second guess settles it.
 */
function zonedMs(wallMs: number, timeZone: string | undefined): number {
  if (timeZone === undefined || !Number.isFinite(wallMs)) return wallMs;
  const first = wallMs - zoneOffset(wallMs, timeZone);
  return wallMs - zoneOffset(first, timeZone);
}

/** A conversation id as the provider wrote it: a non-empty string (numbers are kept as text). */
export function externalIdFrom(...candidates: unknown[]): string | null {
  for (const value of candidates) {
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

/** A cited web page as a Markdown list item: `- [title](url)`, or `- url` without a title. */
export function sourceLine(source: Json): string {
  const url = asString(source.url) ?? '';
  const title = asString(source.title);
  return title ? `- [${title}](${url})` : `- ${url}`;
}

/** Longest a title made from the person's first words may be, its `…` counted. */
const MAX_MADE_TITLE = 80;

/**
 * A title from the person's first question (providers that name no
 * conversation): its first line, then, if longer than 80 characters, cut on a
 * word boundary to end in `…` within 80. Null when there is no text.
 */
export function titleFromQuestion(question: unknown): string | null {
  const line = typeof question === 'string' ? (question.trim().split(/\r?\n/)[0] ?? '').trim() : '';
  if (line === '') return null;
  // No more UTF-16 units than 80 is no more than 80 characters: most titles are not split into characters.
  if (line.length <= MAX_MADE_TITLE) return line;
  const characters = [...line];
  if (characters.length <= MAX_MADE_TITLE) return line;
  const kept = characters.slice(0, MAX_MADE_TITLE - 1).join('');
  // Cut before the word the limit falls in, unless it falls between two words.
  const cut = /\s/.test(characters[MAX_MADE_TITLE - 1]!) ? kept.length : kept.search(/\s\S*$/);
  return `${(cut > 0 ? kept.slice(0, cut) : kept).trimEnd()}…`;
}

export const titleFrom = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;
