import {
  asArray,
  asString,
  CONVERSATIONS_FILE,
  externalIdFrom,
  isObject,
  isoFrom,
  msFrom,
  sourceLine,
  titleFrom,
  toolCallText,
  type AttachmentRef,
  type Json,
  type Message,
  type RecordFormat,
  type Role,
} from './format.ts';
import { claudeBeside } from './claude-beside.ts';

const SENDER_ROLES: Record<string, Role> = { human: 'user', user: 'user', assistant: 'assistant', system: 'system' };

/** The parent of a conversation's first message. */
const ROOT_PARENT = '00000000-0000-4000-8000-000000000000';

/** Blocks that only tell the app how to run, and show the person nothing. */
const BOOKKEEPING_BLOCKS = new Set(['token_budget']);

/** Legacy artifact types whose language the export does not name. */
const ARTIFACT_LANGUAGES: Record<string, string> = {
  'application/vnd.ant.react': 'jsx',
  'application/vnd.ant.mermaid': 'mermaid',
  'text/html': 'html',
  'text/markdown': 'markdown',
  'image/svg+xml': 'svg',
};

/**
 * Claude (`anthropic`): a conversation's `chat_messages`, in the order of their
 * `parent_message_uuid` chain (or of their times: the array is not in order in
 * real exports), each message's blocks read one by one.
 */
export const claudeExport: RecordFormat = {
  kind: 'record',
  provider: 'anthropic',
  // conversations.json of the combined zip, of the 2026 category zip conversations-000.zip, or in shards.
  // 2: attachments.
  readerVersion: 2,
  zipMembers: CONVERSATIONS_FILE,
  beside: claudeBeside,
  // The 2026 category zips Parley does not read (design_chats-000.zip, frames-000.zip,
  // feedback-000.zip, light_metadata-000.zip), also inside a combined zip.
  notRead: [
    { what: 'design chats', zipMember: /(^|\/)design_chats\/[^/]+\.json$/ },
    { what: 'artifact versions', zipMember: /(^|\/)versions\/[^/]+\.html$/ },
    { what: 'feedback files', zipMember: /(^|\/)reflections\/[^/]+\.json$/ },
    { what: 'account files', zipMember: /(^|\/)(users|login_history|user)\.json$/ },
  ],
  recognizes: (raw) => 'chat_messages' in raw,
  normalize(raw) {
    const externalId = externalIdFrom(raw.uuid, raw.id);
    if (externalId === null) return null;
    const title = titleFrom(raw.name);
    const ordered = displayedOrder(
      asArray(raw.chat_messages).filter(isObject),
      asString(raw.current_leaf_message_uuid),
    );
    const writer = new MessageWriter(asString(raw.model));
    const messages = writer.write(ordered);
    return {
      externalId,
      title,
      updateTime: isoFrom(raw.updated_at) ?? isoFrom(raw.created_at),
      payload: { title: title ?? '', messages },
      ...(writer.attachments.length > 0 && { attachments: writer.attachments }),
    };
  },
};

/**
 * The messages the person saw, in order: with `parent_message_uuid`, the chain
 * from the leaf (the conversation's current one, else the newest message no
 * other names as parent) up to the root, reversed; without, by time, the
 * person's message first at equal times.
 */
function displayedOrder(messages: Json[], currentLeaf: string | undefined): Json[] {
  const times = timesOf(messages);
  if (!messages.some((message) => typeof message.parent_message_uuid === 'string')) {
    const rank = (message: Json) => (message.sender === 'human' ? 0 : 1);
    return messages
      .map((message, i) => ({ message, time: times[i]! }))
      .sort((a, b) => a.time - b.time || rank(a.message) - rank(b.message))
      .map(({ message }) => message);
  }
  const byId = new Map<string, Json>();
  for (const message of messages) {
    const id = asString(message.uuid);
    if (id !== undefined) byId.set(id, message);
  }
  let leaf = currentLeaf === undefined ? undefined : byId.get(currentLeaf);
  if (!leaf) {
    const parents = new Set(messages.map((message) => message.parent_message_uuid));
    let latest = -Infinity;
    for (const [i, message] of messages.entries()) {
      // Ties go to the last in the file.
      if (!parents.has(message.uuid) && times[i]! >= latest) [leaf, latest] = [message, times[i]!];
    }
  }
  const chain: Json[] = [];
  const seen = new Set<Json>();
  for (let message = leaf; message && !seen.has(message); ) {
    seen.add(message);
    chain.push(message);
    const parent = asString(message.parent_message_uuid);
    message = parent === undefined || parent === ROOT_PARENT ? undefined : byId.get(parent);
  }
  return chain.reverse();
}

/** Each message's time in ms; one without takes the time of the message before it, so it keeps its place. */
function timesOf(messages: Json[]): number[] {
  let previous = -Infinity;
  return messages.map((message) => (previous = msFrom(message.created_at) ?? previous));
}

/**
 * Turns a conversation's messages into Parley's: one Claude message may become
 * several — its text in the sender's role, each generic tool call or result a
 * `tool` message, in the order the blocks came. Thinking is held until the
 * answer it precedes and becomes that answer's `reasoning`.
 */
class MessageWriter {
  private readonly out: Message[] = [];
  /** The files of the messages written. */
  readonly attachments: AttachmentRef[] = [];
  private reasoning: string[] = [];
  /** When the last thinking held was written: the time of an answer made only of it. */
  private reasoningTime: string | null = null;
  /** Legacy artifacts' titles by id: an update names only the id. */
  private readonly artifactTitles = new Map<string, string>();

  constructor(private readonly model: string | undefined) {}

  write(messages: Json[]): Message[] {
    for (const message of messages) this.message(message);
    this.settleReasoning();
    return this.out;
  }

  private message(message: Json): void {
    const role = SENDER_ROLES[asString(message.sender) ?? ''] ?? 'assistant';
    const timestamp = isoFrom(message.created_at);
    let text: string[] = [];
    const flush = () => {
      const content = text
        .filter((part) => part !== '')
        .join('\n')
        .trim();
      text = [];
      if (content !== '') this.push({ role, content, timestamp });
    };
    const blocks = asArray(message.content).filter(isObject);
    if (blocks.length === 0 && typeof message.text === 'string') text.push(message.text);
    for (const block of blocks) {
      const type = asString(block.type) ?? '';
      if (type === 'thinking') {
        const thought = thinkingText(block);
        if (thought !== '') {
          this.reasoning.push(thought);
          this.reasoningTime = timestamp;
        }
      } else if (type === 'tool_use') {
        const shown = artifactText(block, this.artifactTitles);
        // On lines of its own, so that Markdown keeps it apart from the text around it.
        if (shown !== undefined) text.push(`\n${shown}\n`);
        else {
          flush();
          this.push({ role: 'tool', content: toolCallText(asString(block.name) ?? 'tool', block.input), timestamp });
        }
      } else if (type === 'tool_result') {
        flush();
        const content = toolResultText(block);
        if (content !== '') this.push({ role: 'tool', content, timestamp });
      } else if (!BOOKKEEPING_BLOCKS.has(type)) text.push(blockText(block, type));
    }
    text.push(...attachmentPlaceholders(message));
    const before = this.out.length;
    flush();
    if (this.out.length > before) this.attachments.push(...attachmentsOf(message, this.out.length - 1));
  }

  private push(message: Message): void {
    // Thinking no answer followed before the person spoke again belongs to the answer already given.
    if (message.role === 'user') this.settleReasoning();
    if (message.role === 'assistant') {
      if (this.model !== undefined) message.model = this.model;
      if (this.reasoning.length > 0) message.reasoning = this.takeReasoning();
    }
    this.out.push(message);
  }

  /**
   * Thinking no answer followed goes with the answer given since the person last
   * spoke, or, when there is none, stands as an (empty) answer of its own.
   */
  private settleReasoning(): void {
    if (this.reasoning.length === 0) return;
    const last = this.out.findLast((message) => message.role !== 'tool');
    if (last?.role !== 'assistant') {
      this.push({ role: 'assistant', content: '', timestamp: this.reasoningTime });
      return;
    }
    last.reasoning = [last.reasoning, this.takeReasoning()].filter(Boolean).join('\n\n');
  }

  private takeReasoning(): string {
    const reasoning = this.reasoning.join('\n\n');
    this.reasoning = [];
    return reasoning;
  }
}

/** The thinking as shown, or its summaries when the export keeps only those. */
function thinkingText(block: Json): string {
  const thinking = asString(block.thinking)?.trim();
  if (thinking) return thinking;
  return asArray(block.summaries)
    .map((summary) => (isObject(summary) ? asString(summary.summary) : asString(summary)) ?? '')
    .filter((summary) => summary.trim() !== '')
    .join('\n');
}

/** A text block with the pages it cites as links; a voice note's transcript; any other block's text, or its type. */
function blockText(block: Json, type: string): string {
  if (type === 'text') {
    const seen = new Set<string>();
    const sources = asArray(block.citations)
      .filter(isObject)
      .map((citation) => (isObject(citation.details) ? citation.details : citation))
      .filter((source) => typeof source.url === 'string' && !seen.has(source.url) && seen.add(source.url))
      .map(sourceLine);
    return [asString(block.text) ?? '', sources.join('\n')].filter(Boolean).join('\n\n');
  }
  if (type === 'voice_note') return asString(block.transcript) ?? '[voice note]';
  return asString(block.text) ?? `[${type}]`;
}

/**
 * The artifacts and file tools Claude shows in the answer itself: a created file
 * as a fenced block under its name, an edit as a diff, files shown or read as one
 * line. Undefined for any other tool.
 */
function artifactText(block: Json, artifactTitles: Map<string, string>): string | undefined {
  const input = isObject(block.input) ? block.input : {};
  switch (block.name) {
    case 'create_file': {
      const path = asString(input.path) ?? '';
      const display = displayContent(block.display_content);
      const code = asString(input.file_text) ?? asString(display.code) ?? '';
      return fenced(basename(path), code, asString(display.language) ?? extension(path));
    }
    case 'str_replace':
      return diff(basename(asString(input.path) ?? ''), input);
    case 'present_files':
      return `Presented: ${asArray(input.filepaths)
        .map((path) => basename(String(path)))
        .join(', ')}`;
    case 'view':
      return `Viewed: ${asString(input.path) ?? ''}`;
    case 'artifacts': {
      const id = asString(input.id) ?? '';
      const title = asString(input.title);
      if (title !== undefined) artifactTitles.set(id, title);
      const name = artifactTitles.get(id) ?? (id || 'artifact');
      if (input.command === 'update') return diff(name, input);
      if (input.command === 'view') return `Viewed: ${name}`;
      const type = asString(input.type) ?? '';
      return fenced(name, asString(input.content) ?? '', asString(input.language) ?? ARTIFACT_LANGUAGES[type] ?? '');
    }
    default:
      return undefined;
  }
}

/** `display_content` as an object: a `json_block` is JSON written into a string, read a second time. */
function displayContent(value: unknown): Json {
  if (!isObject(value)) return {};
  if (typeof value.json_block === 'string') {
    try {
      const parsed: unknown = JSON.parse(value.json_block);
      return isObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return isObject(value.code_block) ? value.code_block : value;
}

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);

const extension = (path: string) => {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/** Code under a bold name, fenced with more backticks than any run inside it. */
function fenced(name: string, code: string, language: string): string {
  const longest = Math.max(2, ...Array.from(code.matchAll(/`+/g), (run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const heading = name === '' ? '' : `**${name}**\n\n`;
  return `${heading}${fence}${language}\n${code.replace(/\n$/, '')}\n${fence}`;
}

/** An edit as a diff: the old lines removed, the new lines added. */
function diff(name: string, input: Json): string {
  const lines = (value: unknown, sign: string) => (asString(value) ?? '').split('\n').map((line) => `${sign}${line}`);
  return fenced(name, [...lines(input.old_str, '-'), ...lines(input.new_str, '+')].join('\n'), 'diff');
}

/** A tool result's items: text as it is, search results as links, files and other items by name. */
function toolResultText(block: Json): string {
  const content =
    typeof block.content === 'string'
      ? block.content
      : asArray(block.content)
          .filter(isObject)
          .map(resultItemText)
          .filter((text) => text !== '')
          .join('\n');
  return (block.is_error === true ? `Tool error: ${content}` : content).trim();
}

function resultItemText(item: Json): string {
  switch (item.type) {
    case 'knowledge':
      return sourceLine(item);
    case 'local_resource': {
      const name = asString(item.name) || basename(asString(item.file_path) ?? '');
      return name ? `[file: ${name}]` : '[file]';
    }
    default:
      return asString(item.text) ?? `[${asString(item.type) ?? 'unknown content'}]`;
  }
}

/**
 * A message's files: each of `attachments` a document whose bytes are its
 * extracted text, each of `files` (images, PDFs) named only: the export holds
 * no bytes of them.
 */
function attachmentsOf(message: Json, messageIndex: number): AttachmentRef[] {
  const id = asString(message.uuid) ?? String(messageIndex);
  const documents = asArray(message.attachments)
    .filter(isObject)
    .map((attachment, i): AttachmentRef => {
      const text = asString(attachment.extracted_content);
      const name = asString(attachment.file_name) || 'paste.txt';
      return text === undefined
        ? { messageIndex, ref: `${id}/attachment/${i}`, name, contentType: null, size: null, kind: null }
        : {
            messageIndex,
            ref: `${id}/attachment/${i}`,
            name,
            contentType: 'text/plain; charset=utf-8',
            size: null,
            kind: 'document',
            text,
          };
    });
  const files = (Array.isArray(message.files_v2) ? message.files_v2 : asArray(message.files)).filter(isObject).map(
    (file, i): AttachmentRef => ({
      messageIndex,
      ref: asString(file.file_uuid) || `${id}/file/${i}`,
      name: asString(file.file_name) || 'file',
      contentType: null,
      size: null,
      kind: null,
    }),
  );
  // A file listed twice (an id repeats, or `files` names an attachment whose text is here) is one attachment.
  const refs = new Set<string>();
  const documentNames = new Set(documents.map((document) => document.name));
  return [...documents, ...files.filter((file) => !documentNames.has(file.name))].filter(
    (ref) => !refs.has(ref.ref) && refs.add(ref.ref),
  );
}

/** Uploaded files are not in the export; a placeholder with the name keeps their place. */
function attachmentPlaceholders(message: Json): string[] {
  const seen = new Set<string>();
  const placeholders: string[] = [];
  const add = (kind: string, name: string | undefined) => {
    const key = name || `#${placeholders.length}`;
    if (seen.has(key)) return;
    seen.add(key);
    placeholders.push(name ? `[${kind}: ${name}]` : `[${kind}]`);
  };
  for (const attachment of asArray(message.attachments))
    add('attachment', isObject(attachment) ? asString(attachment.file_name) : undefined);
  const files = Array.isArray(message.files_v2) ? message.files_v2 : asArray(message.files);
  for (const file of files)
    add('file', typeof file === 'string' ? file : isObject(file) ? asString(file.file_name) : undefined);
  return placeholders;
}
