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
  type Json,
  type Message,
  type RecordFormat,
  type Role,
} from './format.ts';
import { branchTo, newestLeaf } from './mapping-tree.ts';

/** The person's and the model's text, and the model's reasoning; any other fragment is a tool's. */
const FRAGMENT_ROLES = new Map<string, Role | 'reasoning'>([
  ['REQUEST', 'user'],
  ['RESPONSE', 'assistant'],
  ['THINK', 'reasoning'],
]);

/**
 * DeepSeek (`deepseek`): like ChatGPT, a tree of nodes in `mapping`, but the
 * messages are lists of typed `fragments`, times are ISO strings with offsets,
 * and there is no `current_node`.
 */
export const deepseekExport: RecordFormat = {
  kind: 'record',
  provider: 'deepseek',
  readerVersion: 1,
  zipMembers: CONVERSATIONS_FILE,
  recognizes: (raw) =>
    'mapping' in raw &&
    (hasFragments(raw.mapping) || (typeof raw.inserted_at === 'string' && typeof raw.create_time !== 'number')),
  normalize(raw) {
    const externalId = externalIdFrom(raw.id);
    if (externalId === null) return null;
    const title = titleFrom(raw.title);
    const mapping = isObject(raw.mapping) ? raw.mapping : {};
    return {
      externalId,
      title,
      updateTime: isoFrom(raw.updated_at) ?? isoFrom(raw.inserted_at),
      payload: { title: title ?? '', messages: displayedBranch(mapping).flatMap(nodeMessages) },
    };
  },
};

function hasFragments(mapping: unknown): boolean {
  if (!isObject(mapping)) return false;
  for (const node of Object.values(mapping)) {
    if (isObject(node) && isObject(node.message) && Array.isArray(node.message.fragments)) return true;
  }
  return false;
}

/**
 * There is no `current_node`: the branch shown is the one ending at the leaf
 * whose message is newest (a regenerated answer is a later sibling).
 */
const displayedBranch = (mapping: Json) =>
  branchTo(
    mapping,
    newestLeaf(mapping, (node) =>
      isObject(node.message) ? (msFrom(node.message.inserted_at) ?? -Infinity) : -Infinity,
    ),
  );

/**
 * Each fragment with something to show is a message; reasoning goes with the
 * answer after it, citation markers become links to the node's search results,
 * and the node's files are named after the last message.
 */
function nodeMessages(node: Json): Message[] {
  const message = isObject(node.message) ? node.message : undefined;
  if (!message) return [];
  const timestamp = isoFrom(message.inserted_at);
  const model = asString(message.model);
  const fragments = asArray(message.fragments).filter(isObject);
  const sources = searchResults(fragments);
  const messages: Message[] = [];
  let reasoning: string[] = [];
  for (const fragment of fragments) {
    const role = FRAGMENT_ROLES.get(asString(fragment.type) ?? '') ?? 'tool';
    const text = role === 'tool' ? toolText(fragment) : (asString(fragment.content) ?? '');
    if (role === 'reasoning') {
      if (text.trim() !== '') reasoning.push(text.trim());
      continue;
    }
    const content = (role === 'assistant' ? withCitations(text, sources) : text).trim();
    if (content === '') continue;
    const made: Message = { role, content, timestamp };
    if (role === 'assistant') {
      if (model) made.model = model;
      if (reasoning.length > 0) made.reasoning = reasoning.join('\n\n');
      reasoning = [];
    }
    messages.push(made);
  }
  // Reasoning with no answer after it (a stopped reply) was still shown: an answer of nothing but it.
  if (reasoning.length > 0)
    messages.push({
      role: 'assistant',
      content: '',
      timestamp,
      ...(model ? { model } : {}),
      reasoning: reasoning.join('\n\n'),
    });
  const files = asArray(message.files)
    .filter(isObject)
    .map((file) => `[file: ${asString(file.file_name) ?? 'file'}]`);
  if (files.length > 0) {
    const last = messages.at(-1);
    if (last) last.content = [last.content, ...files].filter((line) => line !== '').join('\n');
    else messages.push({ role: 'user', content: files.join('\n'), timestamp });
  }
  return messages;
}

/** The node's search results by citation number: their `cite_index`, else their place (from 1). */
function searchResults(fragments: Json[]): Map<string, string> {
  const urls = new Map<string, string>();
  for (const fragment of fragments) {
    asArray(fragment.results)
      .filter(isObject)
      .forEach((result, i) => {
        const url = asString(result.url);
        const index = String(typeof result.cite_index === 'number' ? result.cite_index : i + 1);
        if (url && !urls.has(index)) urls.set(index, url);
      });
  }
  return urls;
}

/** `[citation:N]` → `[N](url)` to the N-th search result; a marker naming no result stays. */
const withCitations = (text: string, sources: Map<string, string>) =>
  sources.size === 0
    ? text
    : text.replace(/\[citation:(\d+)\]/g, (marker, n: string) =>
        sources.has(n) ? `[${n}](${sources.get(n)})` : marker,
      );

/** A search or tool fragment: its text, or one line per result. */
function toolText(fragment: Json): string {
  const content = asString(fragment.content);
  if (content?.trim()) return content;
  return asArray(fragment.results).filter(isObject).map(sourceLine).join('\n');
}
