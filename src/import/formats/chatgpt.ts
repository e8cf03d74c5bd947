import {
  asArray,
  asString,
  CONVERSATIONS_FILE,
  externalIdFrom,
  isObject,
  isoFrom,
  titleFrom,
  type AttachmentRef,
  type FileNames,
  type Json,
  type Message,
  type RecordFormat,
  type Role,
} from './format.ts';
import { deepseekExport } from './deepseek.ts';
import { branchTo } from './mapping-tree.ts';

/** Context the user or model edits in settings, shown nowhere in the conversation. */
const HIDDEN_CONTENT = new Set(['user_editable_context', 'model_editable_context']);
/** The model's reasoning: shown with the answer that follows it, not as a turn of its own. */
const REASONING_CONTENT = new Set(['thoughts', 'reasoning_recap']);
/** Results the model was given by a tool: code output, browsing, quotes, errors. */
const TOOL_RESULT_CONTENT = new Set([
  'execution_output',
  'tether_browsing_display',
  'tether_quote',
  'system_error',
  'computer_output',
]);

const ROLES = new Set<Role>(['user', 'assistant', 'system', 'tool']);

/**
 * The zip members that hold a file's bytes (a blob), in each of ChatGPT's
 * layouts: uploads as `file-<id>-<name>`, `file_<hex>-<name>` or
 * `file_<id>.dat` (at the root, or in a `<conversation id>/image|audio/` or
 * `user-<account>/` folder, or a name with `#file_<hex>#` in it), and generated
 * images as `dalle-generations/<uuid>.webp`.
 */
const BLOB_MEMBER = /(?:(?:^|[/#])file[-_][0-9A-Za-z]+[^/]*|(?:^|\/)dalle-generations\/[^/]+)$/;
const FILE_ID_IN_NAME = /(?:^|#)(file[-_][0-9A-Za-z]+)/;

/** The file id in a blob member's name; none in `dalle-generations/<uuid>.webp`, which the name maps link. */
function blobFileId(member: string): string | undefined {
  return FILE_ID_IN_NAME.exec(member.slice(member.lastIndexOf('/') + 1))?.[1];
}

/** ChatGPT (`openai`): a conversation is a tree of nodes in `mapping`. */
export const chatgptExport: RecordFormat = {
  kind: 'record',
  provider: 'openai',
  // 2: images named from conversation_asset_file_names.json. 3: attachments. 4: projects; code in `parts`, a top-level image.
  readerVersion: 4,
  zipMembers: CONVERSATIONS_FILE,
  // `{"<file id>.dat": "<name the person uploaded>"}`, beside the conversations in 2026 zips.
  fileNames: {
    zipMember: /(^|\/)conversation_asset_file_names\.json$/,
    read: (record) =>
      Object.entries(record).flatMap(
        ([file, name]): Array<[string, string]> =>
          typeof name === 'string' && name !== '' ? [[file.replace(/\.dat$/, ''), name]] : [],
      ),
  },
  blobs: { zipMember: BLOB_MEMBER, fileId: blobFileId },
  // What else the zip holds: a voice recording is counted only when no message links it (not read as a blob).
  notRead: [
    { what: 'voice recordings', zipMember: /(^|\/)audio\/[^/]+\.wav$/ },
    { what: 'chat.html pages', zipMember: /(^|\/)chat\.html$/ },
    { what: 'shared conversation lists', zipMember: /(^|\/)shared_conversations\.json$/ },
    { what: 'feedback files', zipMember: /(^|\/)message_feedback\.json$/ },
    { what: 'account files', zipMember: /(^|\/)user\.json$/ },
  ],
  // An array of the person's files, each with the conversation and message that made it.
  library: {
    zipMember: /(^|\/)library_files\.json$/,
    // The sharded conversations-NNN.json of 2026 zips: the exports with a library_files.json.
    linksConversationsOf: /(^|\/)conversations-\d+\.json$/,
    read: (record) => {
      const fileId = asString(record.file_id);
      const conversationId = asString(record.origination_thread_id);
      const messageId = asString(record.origination_message_id);
      // A file deleted or in the trash is not the person's any more.
      if (!fileId || !conversationId || !messageId || record.deleted_at || record.trashed_at) return undefined;
      return {
        fileId,
        conversationId,
        messageId,
        name: asString(record.file_name) || null,
        contentType: asString(record.mime_type) || null,
        size: typeof record.file_size_bytes === 'number' ? record.file_size_bytes : null,
      };
    },
  },
  // DeepSeek's conversations have a `mapping` too: never take one for ChatGPT's.
  recognizes: (raw) => 'mapping' in raw && !deepseekExport.recognizes(raw),
  normalize(raw, fileNames, options) {
    const externalId = externalIdFrom(raw.conversation_id, raw.id);
    if (externalId === null) return null;
    const title = titleFrom(raw.title);
    const mapping = isObject(raw.mapping) ? raw.mapping : {};
    const defaultModel = asString(raw.default_model_slug);
    const conversation: ConversationContext = {
      defaultModel: defaultModel === 'auto' ? undefined : defaultModel,
      canvas: undefined,
      fileNames,
      attachments: [],
      refs: new Set(),
    };
    const branch = displayedBranch(mapping, asString(raw.current_node));
    const { messages, starts } = branchMessages(branch, conversation);
    const project = projectOf(raw);
    return {
      externalId,
      title,
      updateTime: isoFrom(raw.update_time) ?? isoFrom(raw.create_time),
      payload: { title: title ?? '', messages },
      ...(conversation.attachments.length > 0 && { attachments: conversation.attachments }),
      ...(options?.messageIds && { messageIds: answersOfNodes(mapping, branch, starts, messages) }),
      ...(project !== undefined && { projectExternalId: project }),
    };
  },
};

/**
 * The ChatGPT project a conversation belongs to: its `conversation_template_id`
 * (or `gizmo_id`) when it is a project's (`g-p-…`); a custom GPT's (`g-…`) is none.
 */
function projectOf(raw: Json): string | undefined {
  for (const id of [raw.conversation_template_id, raw.gizmo_id])
    if (typeof id === 'string' && id.startsWith('g-p-')) return id;
  return undefined;
}

/** What a message's reading needs from the rest of its conversation. */
interface ConversationContext {
  /** The model of assistant messages that name none (`auto` names none). */
  defaultModel: string | undefined;
  /** The canvas document created last: the one a later edit changes. */
  canvas: string | undefined;
  /** The zip's names of uploaded files: those a message's attachments do not name. */
  fileNames: FileNames;
  /** The files and images of the messages so far, and their refs. */
  attachments: AttachmentRef[];
  refs: Set<string>;
}

/**
 * The branch the user last saw: from `current_node` up through `parent` to the
 * root. Nothing depends on `children` (2026 exports have none) nor on
 * `metadata.parent_id` (it names nodes missing from the file).
 */
function displayedBranch(mapping: Json, currentNode: string | undefined): Json[] {
  const shown = currentNode !== undefined && isObject(mapping[currentNode]) ? currentNode : latestLeaf(mapping);
  return branchTo(mapping, shown);
}

/**
 * Without a usable `current_node`: the node no other node names as `parent`
 * whose message is newest; of equal times (or none), the last in the file.
 * Should every node be a parent (a cycle), the newest node of all.
 */
function latestLeaf(mapping: Json): string | undefined {
  const parents = new Set<unknown>();
  for (const node of Object.values(mapping)) if (isObject(node)) parents.add(node.parent);
  const latest = (leavesOnly: boolean) => {
    let found: { id: string; time: number } | undefined;
    for (const [id, node] of Object.entries(mapping)) {
      if (!isObject(node) || (leavesOnly && parents.has(id))) continue;
      const time = createTime(node);
      if (!found || time >= found.time) found = { id, time };
    }
    return found?.id;
  };
  return latest(true) ?? latest(false);
}

const createTime = (node: Json) =>
  isObject(node.message) && typeof node.message.create_time === 'number' ? node.message.create_time : -Infinity;

/**
 * The branch's messages; reasoning is held until the assistant answer it
 * preceded. `starts`: for each node of the branch, how many messages came before it.
 */
function branchMessages(branch: Json[], conversation: ConversationContext): { messages: Message[]; starts: number[] } {
  const messages: Message[] = [];
  const starts: number[] = [];
  let reasoning: string[] = [];
  for (const node of branch) {
    starts.push(messages.length);
    const message = node.message;
    if (!isObject(message)) continue;
    const content = isObject(message.content) ? message.content : {};
    const contentType = asString(content.content_type) ?? 'text';
    const metadata = isObject(message.metadata) ? message.metadata : {};
    if (metadata.is_visually_hidden_from_conversation === true || HIDDEN_CONTENT.has(contentType)) continue;
    if (REASONING_CONTENT.has(contentType)) {
      const text = withInlineMarkup(reasoningText(content), metadata);
      if (text !== '') reasoning.push(text);
      continue;
    }
    const made = toMessage(message, contentType, content, metadata, conversation);
    if (!made) continue;
    if (made.role === 'assistant' && reasoning.length > 0) {
      made.reasoning = reasoning.join('\n\n');
      reasoning = [];
    }
    addAttachments(conversation.attachments, conversation.refs, messages.length, content, contentType, metadata);
    messages.push(made);
  }
  // Thoughts with no answer after them (a stopped reply) still showed: an answer of nothing but them.
  if (reasoning.length > 0)
    messages.push({ role: 'assistant', content: '', timestamp: null, reasoning: reasoning.join('\n\n') });
  return { messages, starts };
}

/**
 * The message's files: each image or voice pointer among its parts, then each
 * of `metadata.attachments` no part shows (an uploaded PDF), as the export
 * names them. A file shown again in a later message is that message's too,
 * under a ref of its own.
 */
function addAttachments(
  attachments: AttachmentRef[],
  refs: Set<string>,
  messageIndex: number,
  content: Json,
  contentType: string,
  metadata: Json,
): void {
  const listed = new Map<unknown, Json>();
  for (const attachment of asArray(metadata.attachments).filter(isObject))
    if (!listed.has(attachment.id)) listed.set(attachment.id, attachment);
  const add = (fileId: string | undefined, kind: AttachmentRef['kind'], size: unknown) => {
    if (!fileId) return;
    const ref = refs.has(fileId) ? `${fileId}#${messageIndex}` : fileId;
    if (refs.has(ref)) return;
    refs.add(ref);
    const named = listed.get(fileId);
    const given = size ?? named?.size;
    attachments.push({
      messageIndex,
      ref,
      fileId,
      name: asString(named?.name) || null,
      contentType: asString(named?.mime_type) || null,
      size: typeof given === 'number' && Number.isSafeInteger(given) && given >= 0 ? given : null,
      kind,
    });
  };
  const shown = new Set<string | undefined>();
  const parts = contentType === 'image_asset_pointer' ? [content] : asArray(content.parts);
  for (const part of parts.filter(isObject)) {
    const type = asString(part.content_type);
    const audio = type === 'real_time_user_audio_video_asset_pointer' ? part.audio_asset_pointer : part;
    if (type === 'image_asset_pointer' || type === 'audio_asset_pointer' || isObject(audio)) {
      const pointer = isObject(audio) && type !== 'image_asset_pointer' ? audio : part;
      const fileId = fileIdOf(pointer.asset_pointer);
      shown.add(fileId);
      add(fileId, type === 'image_asset_pointer' ? 'image' : 'audio', pointer.size_bytes);
    }
  }
  if (contentType !== 'text' && contentType !== 'multimodal_text') return;
  for (const [id, attachment] of listed) {
    const fileId = asString(id);
    if (!shown.has(fileId)) add(fileId, null, attachment.size);
  }
}

/**
 * Each node of the model's side (assistant and tool messages, on the branch
 * shown or not) with the message a file it made goes with: the first assistant
 * answer from its place on the branch on (for a node of another branch, from
 * where that branch leaves the one shown: the answer shown in its stead), else
 * the last answer before.
 */
function answersOfNodes(mapping: Json, branch: Json[], starts: number[], messages: Message[]): Record<string, number> {
  const answers: Record<string, number> = {};
  if (!messages.some((message) => message.role === 'assistant')) return answers;
  const onBranch = new Map(branch.map((node, i) => [node, i]));
  // Where each node met reaches the branch shown (or undefined: it never does), so each is walked once.
  const reaches = new Map<Json, number | undefined>(onBranch);
  const placeOf = (node: Json): number | undefined => {
    const path = new Set<Json>();
    let at: Json | undefined = node;
    while (at && !reaches.has(at) && !path.has(at)) {
      path.add(at);
      const parent: unknown = mapping[asString(at.parent) ?? ''];
      at = isObject(parent) ? parent : undefined;
    }
    const place = at ? reaches.get(at) : undefined;
    for (const walked of path) reaches.set(walked, place);
    return place;
  };
  // The answer from each message on: the first at or after it, else the last before.
  const answerFrom: number[] = [];
  let next = messages.findLastIndex((message) => message.role === 'assistant');
  for (let i = messages.length; i >= 0; i--) {
    if (i < messages.length && messages[i]!.role === 'assistant') next = i;
    answerFrom[i] = next;
  }
  for (const [id, node] of Object.entries(mapping)) {
    if (!isObject(node) || !isObject(node.message)) continue;
    const author = isObject(node.message.author) ? node.message.author.role : undefined;
    if (author !== 'assistant' && author !== 'tool') continue;
    const place = placeOf(node);
    if (place !== undefined) answers[id] = answerFrom[starts[place]!]!;
  }
  return answers;
}

/** `thoughts`: each thought's summary and content; `reasoning_recap`: its line ("Thought for 8s"). */
function reasoningText(content: Json): string {
  if (content.content_type === 'reasoning_recap') return (asString(content.content) ?? '').trim();
  return asArray(content.thoughts)
    .filter(isObject)
    .map((thought) =>
      [asString(thought.summary), asString(thought.content)]
        .map((text) => text?.trim() ?? '')
        .filter((text) => text !== '')
        .join('\n'),
    )
    .filter((text) => text !== '')
    .join('\n\n');
}

function toMessage(
  message: Json,
  contentType: string,
  content: Json,
  metadata: Json,
  conversation: ConversationContext,
): Message | null {
  const text = withInlineMarkup(contentText(message, contentType, content, metadata, conversation), metadata).trim();
  if (text === '') return null;
  const author = isObject(message.author) ? asString(message.author.role) : undefined;
  const role: Role = TOOL_RESULT_CONTENT.has(contentType)
    ? 'tool'
    : ROLES.has(author as Role)
      ? (author as Role)
      : 'assistant';
  const made: Message = { role, content: text, timestamp: isoFrom(message.create_time) };
  const model = asString(metadata.model_slug) ?? conversation.defaultModel;
  if (role === 'assistant' && model) made.model = model;
  return made;
}

function contentText(
  message: Json,
  contentType: string,
  content: Json,
  metadata: Json,
  conversation: ConversationContext,
): string {
  switch (contentType) {
    case 'text':
      return withAttachments(
        withCanvases(withCitations(partsText(content.parts, metadata, conversation.fileNames), metadata)),
        content,
        metadata,
        conversation.fileNames,
      );
    case 'multimodal_text':
      return withAttachments(
        withCanvases(partsText(content.parts, metadata, conversation.fileNames)),
        content,
        metadata,
        conversation.fileNames,
      );
    case 'code':
      // Some exports hold the code in `parts`, not `text`.
      return (
        canvasCall(message, content, conversation) ??
        fenced(
          asString(content.text) || partsText(content.parts, metadata, conversation.fileNames),
          asString(content.language),
        )
      );
    case 'image_asset_pointer':
    case 'image':
      // The message is the image itself, not a part of it.
      return partsText([{ ...content, content_type: 'image_asset_pointer' }], metadata, conversation.fileNames);
    case 'tether_quote':
      return [asString(content.title), asString(content.url), asString(content.text)].filter(Boolean).join('\n');
    case 'tether_browsing_display':
      return asString(content.result) || asString(content.summary) || '';
    default: {
      const text =
        asString(content.text) ??
        asString(content.result) ??
        partsText(content.parts, metadata, conversation.fileNames);
      // A tool's empty result is nothing to show; a type of unknown shape is named rather than lost.
      return text.trim() === '' && !TOOL_RESULT_CONTENT.has(contentType) ? `[unknown content: ${contentType}]` : text;
    }
  }
}

const fenced = (text: string, language: string | undefined) =>
  `\`\`\`${language && language !== 'unknown' ? language : ''}\n${text}\n\`\`\``;

/**
 * Parts in order: text as it is, an image as `[image: <name>]` (named by the
 * message's attachment of that file, else by the zip), a voice transcription as
 * its text, and any other part as a placeholder naming its type.
 */
function partsText(parts: unknown, metadata: Json, fileNames: FileNames): string {
  // Most messages are one string.
  if (Array.isArray(parts) && parts.length === 1 && typeof parts[0] === 'string') return parts[0];
  return asArray(parts)
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isObject(part)) return '';
      const type = asString(part.content_type) ?? 'unknown content';
      if (type === 'image_asset_pointer') {
        const fileId = fileIdOf(part.asset_pointer);
        const name = attachmentName(metadata, fileId) ?? (fileId === undefined ? undefined : fileNames.get(fileId));
        return name ? `[image: ${name}]` : '[image]';
      }
      if (type === 'audio_transcription') return asString(part.text) ?? '';
      if (type === 'audio_asset_pointer') return '[audio]';
      return `[${type}]`;
    })
    .filter((text) => text !== '')
    .join('\n');
}

/** `file-service://file-abc` and `sediment://file_0123…` name the file `file-abc`, `file_0123…`. */
const fileIdOf = (pointer: unknown) => asString(pointer)?.replace(/^[a-z-]+:\/\//, '');

function attachmentName(metadata: Json, fileId: string | undefined): string | undefined {
  const attachment = asArray(metadata.attachments).find((candidate) => isObject(candidate) && candidate.id === fileId);
  return isObject(attachment) ? asString(attachment.name) : undefined;
}

/** The message's attachments that no part shows (an uploaded PDF, say): one `[file: <name>]` line each. */
function withAttachments(text: string, content: Json, metadata: Json, fileNames: FileNames): string {
  if (asArray(metadata.attachments).length === 0) return text;
  const shown = new Set(
    asArray(content.parts)
      .filter(isObject)
      .map((part) => fileIdOf(part.asset_pointer)),
  );
  const lines = asArray(metadata.attachments)
    .filter(isObject)
    .filter((attachment) => !shown.has(asString(attachment.id)))
    .map((attachment) => {
      const id = asString(attachment.id);
      return `[file: ${asString(attachment.name) ?? (id === undefined ? undefined : fileNames.get(id)) ?? id ?? 'file'}]`;
    });
  return [text, ...lines].filter((line) => line.trim() !== '').join('\n');
}

/**
 * Browsing answers mark their sources with opaque markers such as `【11†source】`
 * at `metadata.citations[].start_ix…end_ix`; they become Markdown links to the
 * page cited, or are removed when the citation names no page.
 */
function withCitations(text: string, metadata: Json): string {
  const citations = asArray(metadata.citations)
    .filter(isObject)
    .filter(
      (c) =>
        Number.isInteger(c.start_ix) && Number.isInteger(c.end_ix) && (c.end_ix as number) > (c.start_ix as number),
    )
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

/** `\ue200kind\ue202field\ue202…\ue201`: a citation, link or entity spelled inline in private-use characters. */
const INLINE_SPAN = /\ue200([^\ue200\ue201]*)\ue201/g;
const PRIVATE_USE = /[\ue000-\uf8ff]/g;

/**
 * Newer answers wrap citations and links in private-use characters. A `url`
 * span is `[title](url)`; an entity its name; any other span (`cite`,
 * `filecite`, …) the Markdown of the `content_references` entry that matched
 * it (its `alt`, else a link to its page), or nothing. In a text with this
 * markup (a span, or a passage between `\ue203` and `\ue204`), every other
 * private-use character is removed too. A text without it is left as it is:
 * looking for two characters is many times cheaper than for the whole range,
 * and a private-use character the person typed (Apple's logo, U+F8FF) is theirs.
 */
function withInlineMarkup(text: string, metadata: Json): string {
  if (!text.includes('\ue200') && !text.includes('\ue203')) return text;
  const references = new Map<string, Json>();
  for (const reference of asArray(metadata.content_references).filter(isObject)) {
    const matched = asString(reference.matched_text);
    if (matched) references.set(withoutPrivateUse(matched), reference);
  }
  const linked = text.replace(INLINE_SPAN, (span, inner: string) => {
    const [kind, ...fields] = inner.split('\ue202');
    if (kind === 'url' && fields.length > 0) {
      const url = fields.at(-1)!;
      return `[${fields.length > 1 ? fields[0] : url}](${url})`;
    }
    const reference = references.get(withoutPrivateUse(span));
    if (reference) return referenceMarkdown(reference);
    if (kind === 'entity') return entityName(fields[0]);
    return '';
  });
  return withoutPrivateUse(linked);
}

function referenceMarkdown(reference: Json): string {
  const alt = asString(reference.alt);
  if (alt) return alt;
  const url = asString(reference.url);
  return url ? `[${asString(reference.title) || url}](${url})` : '';
}

/** `["people","Ada Lovelace",…]`: the name the answer showed. */
function entityName(field: string | undefined): string {
  try {
    const entity: unknown = JSON.parse(field ?? '');
    return Array.isArray(entity) && typeof entity[1] === 'string' ? entity[1] : '';
  } catch {
    return '';
  }
}

const withoutPrivateUse = (text: string) => text.replace(PRIVATE_USE, '');

const WRITING_OPEN = /^:::writing\{(.*)\}\s*$/;
const FENCE = /^\s*(```|~~~)/;

/**
 * A canvas inline in the answer: `:::writing{variant="document" title="…"}`,
 * its body, then `:::` on its own line. The body stays, under its title (or
 * variant) in bold; the directive lines go. A `:::` inside a fenced block of the
 * body does not close it.
 */
function withCanvases(text: string): string {
  if (!text.includes(':::writing{')) return text;
  const out: string[] = [];
  let inCanvas = false;
  let inFence = false;
  for (const line of text.split('\n')) {
    const open = inCanvas ? null : WRITING_OPEN.exec(line);
    if (open) {
      const attributes = Object.fromEntries([...open[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      const heading = attributes.title || attributes.subject || attributes.variant;
      if (heading) out.push(`**${heading}**`, '');
      inCanvas = true;
      continue;
    }
    if (inCanvas && FENCE.test(line)) inFence = !inFence;
    if (inCanvas && !inFence && line.trim() === ':::') {
      inCanvas = false;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

/**
 * Older exports keep a canvas as the model's call to `canmore`: creating one
 * shows the document under its name; an edit, a line naming the document edited.
 */
function canvasCall(message: Json, content: Json, conversation: ConversationContext): string | undefined {
  const recipient = asString(message.recipient);
  if (recipient !== 'canmore.create_textdoc' && recipient !== 'canmore.update_textdoc') return undefined;
  let call: unknown;
  try {
    call = JSON.parse(asString(content.text) ?? '');
  } catch {
    return undefined;
  }
  if (!isObject(call)) return undefined;
  if (recipient === 'canmore.create_textdoc') {
    const name = asString(call.name) ?? 'canvas';
    conversation.canvas = name;
    const type = asString(call.type) ?? '';
    return `**${name}**\n\n${fenced(asString(call.content) ?? '', type.startsWith('code/') ? type.slice(5) : undefined)}`;
  }
  return `[canvas edited: ${conversation.canvas ?? 'canvas'}]`;
}
