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
import { deepseekExport } from './deepseek-export.ts';
import { branchTo, newestLeaf } from './mapping-tree.ts';

/** Context the user or model edits in settings, shown nowhere in the conversation. */
const HIDDEN_CONTENT = new Set(['user_editable_context', 'model_editable_context']);
/** The model's reasoning: not part of what was said. */
const REASONING_CONTENT = new Set(['thoughts', 'reasoning_recap']);
/** Results the model was given by a tool: code output, browsing, quotes. */
const TOOL_RESULT_CONTENT = new Set(['execution_output', 'tether_browsing_display', 'tether_quote', 'system_error', 'computer_output']);

const ROLES = new Set<Role>(['user', 'assistant', 'system', 'tool']);

/** ChatGPT (`openai`): a conversation is a tree of nodes in `mapping`. */
export const chatgptExport: RecordFormat = {
  kind: 'record',
  provider: 'openai',
  zipMembers: CONVERSATIONS_FILE,
  // DeepSeek's conversations have a `mapping` too: never take one for ChatGPT's.
  recognizes: (raw) => 'mapping' in raw && !deepseekExport.recognizes(raw),
  normalize(raw) {
    const externalId = externalIdFrom(raw.conversation_id, raw.id);
    if (externalId === null) return null;
    const title = titleFrom(raw.title);
    const mapping = isObject(raw.mapping) ? raw.mapping : {};
    const messages = displayedBranch(mapping, asString(raw.current_node)).flatMap((node) => {
      const message = toMessage(node);
      return message ? [message] : [];
    });
    return {
      externalId,
      title,
      updateTime: isoFrom(raw.update_time) ?? isoFrom(raw.create_time),
      payload: { title: title ?? '', messages },
    };
  },
};

/**
 * The branch the user last saw: from `current_node` up through `parent` to the
 * root. Newer exports sometimes name a `current_node` that is missing from
 * `mapping`; then the newest leaf stands in for it.
 */
function displayedBranch(mapping: Json, currentNode: string | undefined): Json[] {
  const shown = currentNode !== undefined && isObject(mapping[currentNode]) ? currentNode : newestLeaf(mapping, createTime);
  return branchTo(mapping, shown);
}

const createTime = (node: Json) => (isObject(node.message) && typeof node.message.create_time === 'number' ? node.message.create_time : -Infinity);

function toMessage(node: Json): Message | null {
  const message = node.message;
  if (!isObject(message)) return null;
  const content = isObject(message.content) ? message.content : {};
  const contentType = asString(content.content_type) ?? 'text';
  const metadata = isObject(message.metadata) ? message.metadata : {};
  if (metadata.is_visually_hidden_from_conversation === true || HIDDEN_CONTENT.has(contentType) || REASONING_CONTENT.has(contentType)) {
    return null;
  }
  const text = contentText(contentType, content, metadata).trim();
  if (text === '') return null;
  const author = isObject(message.author) ? asString(message.author.role) : undefined;
  const role: Role = TOOL_RESULT_CONTENT.has(contentType) ? 'tool' : ROLES.has(author as Role) ? (author as Role) : 'assistant';
  return { role, content: text, timestamp: isoFrom(message.create_time) };
}

function contentText(contentType: string, content: Json, metadata: Json): string {
  switch (contentType) {
    case 'text':
      return withCitations(partsText(content.parts), metadata);
    case 'multimodal_text':
      return partsText(content.parts);
    case 'code': {
      const language = asString(content.language);
      const fence = language && language !== 'unknown' ? language : '';
      return `\`\`\`${fence}\n${asString(content.text) ?? ''}\n\`\`\``;
    }
    case 'tether_quote':
      return [asString(content.title), asString(content.url), asString(content.text)].filter(Boolean).join('\n');
    case 'tether_browsing_display':
      return asString(content.result) || asString(content.summary) || '';
    default:
      return asString(content.text) ?? asString(content.result) ?? partsText(content.parts);
  }
}

/** Text parts joined; an image, audio or file part becomes a placeholder rather than vanishing. */
function partsText(parts: unknown): string {
  return asArray(parts)
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isObject(part)) return '';
      const type = asString(part.content_type) ?? '';
      if (typeof part.text === 'string') return part.text;
      if (type.startsWith('image')) return '[image]';
      if (type.startsWith('audio')) return '[audio]';
      if (type.startsWith('video')) return '[video]';
      return '[file]';
    })
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * Browsing answers mark their sources with opaque markers such as `【11†source】`
 * at `metadata.citations[].start_ix…end_ix`; they become Markdown links to the
 * page cited, or are removed when the citation names no page.
 */
function withCitations(text: string, metadata: Json): string {
  const citations = asArray(metadata.citations)
    .filter(isObject)
    .filter((c) => Number.isInteger(c.start_ix) && Number.isInteger(c.end_ix) && (c.end_ix as number) > (c.start_ix as number))
    .sort((a, b) => (b.start_ix as number) - (a.start_ix as number));
  let out = text;
  let limit = text.length;
  for (const citation of citations) {
    const start = citation.start_ix as number;
    const end = citation.end_ix as number;
    if (end > limit) continue;
    const meta = isObject(citation.metadata) ? citation.metadata : {};
    const url = asString(meta.url);
    const link = url ? ` [${asString(meta.title) || url}](${url})` : '';
    out = out.slice(0, start) + link + out.slice(end);
    limit = start;
  }
  return out;
}
