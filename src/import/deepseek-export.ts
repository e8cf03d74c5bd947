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
} from './conversation.ts';
import { branchTo, newestLeaf } from './mapping-tree.ts';

/** The person's and the model's text; reasoning (null) is dropped; any other fragment is a tool's. */
const FRAGMENT_ROLES = new Map<string, Role | null>([
  ['REQUEST', 'user'],
  ['RESPONSE', 'assistant'],
  ['THINK', null],
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
    'mapping' in raw && (hasFragments(raw.mapping) || (typeof raw.inserted_at === 'string' && typeof raw.create_time !== 'number')),
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
const displayedBranch = (mapping: Json) => branchTo(mapping, newestLeaf(mapping, (node) => (isObject(node.message) ? (msFrom(node.message.inserted_at) ?? -Infinity) : -Infinity)));

/** Each fragment with something to show is a message; the node's files are named after the last. */
function nodeMessages(node: Json): Message[] {
  const message = isObject(node.message) ? node.message : undefined;
  if (!message) return [];
  const timestamp = isoFrom(message.inserted_at);
  const messages: Message[] = [];
  for (const fragment of asArray(message.fragments).filter(isObject)) {
    const known = FRAGMENT_ROLES.get(asString(fragment.type) ?? '');
    if (known === null) continue;
    const role = known ?? 'tool';
    const content = (role === 'tool' ? toolText(fragment) : (asString(fragment.content) ?? '')).trim();
    if (content !== '') messages.push({ role, content, timestamp });
  }
  const files = asArray(message.files)
    .filter(isObject)
    .map((file) => `[file: ${asString(file.file_name) ?? 'file'}]`);
  if (files.length > 0) {
    const last = messages.at(-1);
    if (last) last.content = [last.content, ...files].join('\n');
    else messages.push({ role: 'user', content: files.join('\n'), timestamp });
  }
  return messages;
}

/** A search or tool fragment: its text, or one line per result. */
function toolText(fragment: Json): string {
  const content = asString(fragment.content);
  if (content?.trim()) return content;
  return asArray(fragment.results).filter(isObject).map(sourceLine).join('\n');
}
