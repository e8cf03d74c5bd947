import {
  asArray,
  asString,
  isObject,
  msFrom,
  titleFromQuestion,
  toolCallText,
  type AttachmentRef,
  type GroupedFormat,
  type Json,
  type Message,
} from './format.ts';

/** A conversation's file, `chat-<chatId>.json`, and not one of the person's files kept beside it. */
const CHAT_FILE = /^(?!(?:.*\/)?chat-[^/]+-files\/)(?:.*\/)?chat-[^/]+\.json$/;
/** The person's uploads: `chat-<chatId>-files/<name>`. */
const CHAT_UPLOAD = /(?:^|\/)chat-([^/]+)-files\/([^/]+)$/;

/** The id a file of the zip goes by: its conversation and its name, as a message's `files[]` names it. */
const uploadId = (chatId: string, name: string) => `${chatId}/${name}`;

/**
 * Mistral Le Chat (`mistral`): `chat-export-<ms>.zip` holds one
 * `chat-<chatId>.json` per conversation, a bare array of its messages with no
 * title and no model. Each message is a record, grouped by its `chatId` and
 * ordered by `createdAt` (exports may list them out of order).
 */
export const mistralExport: GroupedFormat = {
  kind: 'grouped',
  provider: 'mistral',
  readerVersion: 1,
  zipMembers: CHAT_FILE,
  blobs: {
    zipMember: CHAT_UPLOAD,
    fileId(member) {
      const [, chatId, name] = CHAT_UPLOAD.exec(member) ?? [];
      return chatId === undefined || name === undefined ? undefined : uploadId(chatId, name);
    },
  },
  recognizes: (raw) => typeof raw.chatId === 'string' && typeof raw.role === 'string' && 'createdAt' in raw,
  placement(raw) {
    const time = msFrom(raw.createdAt);
    return time === null || raw.chatId === '' ? 'unreadable' : { key: raw.chatId as string, time };
  },
  splitsOnGap: () => false,
  async normalize(records) {
    const chatId = records[0]!.chatId as string;
    const messages: Message[] = [];
    const attachments: AttachmentRef[] = [];
    for (const record of records) {
      const timestamp = new Date(msFrom(record.createdAt)!).toISOString();
      const user = record.role === 'user';
      const { tools, content, reasoning } = user
        ? { tools: [], content: textOf(record), reasoning: [] }
        : answer(record);
      for (const tool of tools) messages.push({ role: 'tool', content: tool, timestamp });
      const files = uploads(record, chatId, messages.length, attachments);
      const text = [content, canvases(record), ...files].filter((line) => line !== '').join('\n\n');
      if (text === '' && reasoning.length === 0) continue;
      const message: Message = { role: user ? 'user' : 'assistant', content: text, timestamp };
      if (reasoning.length > 0) message.reasoning = reasoning.join('\n\n');
      messages.push(message);
    }
    const title = titleFromQuestion(records.find((record) => record.role === 'user')?.content);
    return {
      externalId: chatId,
      title,
      updateTime: new Date(msFrom(records.at(-1)!.createdAt)!).toISOString(),
      payload: { title: title ?? '', messages },
      ...(attachments.length > 0 && { attachments }),
    };
  },
};

const textOf = (record: Json) => asString(record.content)?.trim() ?? '';

/**
 * An answer's chunks, in order: text marked as reasoning is its reasoning,
 * tool calls are messages of their own before it, images and elements
 * placeholders (naming what they name). `content` is the answer, also written as its last text chunk:
 * it stands where the first chunk it holds stands, and a text chunk is kept
 * apart only where `content` does not hold it.
 */
function answer(record: Json): { tools: string[]; content: string; reasoning: string[] } {
  const content = textOf(record);
  const tools: string[] = [];
  const reasoning: string[] = [];
  const parts: string[] = [];
  let placed = content === '';
  for (const chunk of asArray(record.contentChunks).filter(isObject)) {
    const type = asString(chunk.type) ?? 'unknown';
    const text = asString(chunk.text)?.trim() ?? '';
    const context = isObject(chunk._context) ? chunk._context : {};
    if (type === 'text' && context.type === 'reasoning') {
      if (text !== '') reasoning.push(text);
    } else if (type === 'text') {
      if (!content.includes(text)) parts.push(text);
      else if (!placed) {
        parts.push(content);
        placed = true;
      }
    } else if (type === 'tool_call')
      tools.push(toolCallText(asString(chunk.name) ?? 'tool', readable(chunk.publicArguments)));
    else if (type === 'image_url') parts.push('[image]');
    else if (type !== 'reference') {
      const name = asString(chunk.name);
      parts.push(name ? `[${type}: ${name}]` : `[${type}]`);
    }
  }
  if (!placed) parts.push(content);
  return { tools, content: parts.join('\n\n'), reasoning };
}

/** A tool call's arguments, written as a JSON text: its object where it is one, else the text. */
function readable(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

/** Each canvas of the message: its content under its title in bold, else a placeholder naming it. */
function canvases(record: Json): string {
  return asArray(record.canvas)
    .map((canvas) => {
      if (!isObject(canvas)) return '[canvas]';
      const title = asString(canvas.title);
      const content = asString(canvas.content);
      if (content === undefined) return title ? `[canvas: ${title}]` : '[canvas]';
      return title ? `**${title}**\n\n${content}` : content;
    })
    .join('\n\n');
}

/**
 * The message's files: each an attachment, its bytes from `chat-<chatId>-files/`
 * where the zip holds them, and a `[file: <name>]` (or `[image: <name>]`) line.
 */
function uploads(record: Json, chatId: string, messageIndex: number, attachments: AttachmentRef[]): string[] {
  return asArray(record.files)
    .filter(isObject)
    .flatMap((file) => {
      const name = asString(file.name);
      if (!name) return ['[file]'];
      const image = file.type === 'image';
      const ref = attachments.some((attachment) => attachment.ref === name) ? `${name}#${messageIndex}` : name;
      attachments.push({
        messageIndex,
        ref,
        fileId: uploadId(chatId, name),
        name,
        contentType: null,
        size: null,
        kind: image ? 'image' : null,
      });
      return [`[${image ? 'image' : 'file'}: ${name}]`];
    });
}
