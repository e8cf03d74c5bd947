import {
  asArray,
  asString,
  CONVERSATIONS_FILE,
  externalIdFrom,
  isObject,
  isoFrom,
  titleFrom,
  type Json,
  type Message,
  type RecordFormat,
  type Role,
} from './conversation.ts';

const SENDER_ROLES: Record<string, Role> = { human: 'user', user: 'user', assistant: 'assistant', system: 'system' };

/** Claude (`anthropic`): a conversation is a flat list of `chat_messages`. */
export const claudeExport: RecordFormat = {
  kind: 'record',
  provider: 'anthropic',
  readerVersion: 1,
  zipMembers: CONVERSATIONS_FILE,
  recognizes: (raw) => 'chat_messages' in raw,
  normalize(raw) {
    const externalId = externalIdFrom(raw.uuid, raw.id);
    if (externalId === null) return null;
    const title = titleFrom(raw.name);
    return {
      externalId,
      title,
      updateTime: isoFrom(raw.updated_at) ?? isoFrom(raw.created_at),
      payload: { title: title ?? '', messages: asArray(raw.chat_messages).filter(isObject).flatMap(toMessages) },
    };
  },
};

/**
 * One Claude message may become several: its text (with attachment placeholders)
 * in the sender's role, and each tool call or tool result as a `tool` message, in
 * the order the blocks came. Thinking blocks are dropped.
 */
function toMessages(message: Json): Message[] {
  const role = SENDER_ROLES[asString(message.sender) ?? ''] ?? 'assistant';
  const timestamp = isoFrom(message.created_at);
  const out: Message[] = [];
  let text: string[] = [];
  const flush = () => {
    const content = text.join('\n').trim();
    if (content !== '') out.push({ role, content, timestamp });
    text = [];
  };

  const blocks = asArray(message.content).filter(isObject);
  const hasText = blocks.some((block) => block.type === 'text' && typeof block.text === 'string');
  if (!hasText && typeof message.text === 'string') text.push(message.text);
  for (const block of blocks) {
    if (block.type === 'text' && typeof block.text === 'string') text.push(block.text);
    else if (block.type === 'tool_use' || block.type === 'tool_result') {
      flush();
      const content = block.type === 'tool_use' ? toolUseText(block) : toolResultText(block);
      if (content !== '') out.push({ role: 'tool', content, timestamp });
    }
  }
  text.push(...attachmentPlaceholders(message));
  flush();
  return out;
}

function toolUseText(block: Json): string {
  const name = asString(block.name) ?? 'tool';
  return block.input === undefined ? `Tool call: ${name}` : `Tool call: ${name}\n${JSON.stringify(block.input, null, 2)}`;
}

function toolResultText(block: Json): string {
  const content =
    typeof block.content === 'string'
      ? block.content
      : asArray(block.content)
          .filter(isObject)
          .map((part) => asString(part.text) ?? '')
          .filter(Boolean)
          .join('\n');
  return (block.is_error === true ? `Tool error: ${content}` : content).trim();
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
  for (const attachment of asArray(message.attachments)) add('attachment', isObject(attachment) ? asString(attachment.file_name) : undefined);
  const files = Array.isArray(message.files_v2) ? message.files_v2 : asArray(message.files);
  for (const file of files) add('file', typeof file === 'string' ? file : isObject(file) ? asString(file.file_name) : undefined);
  return placeholders;
}
