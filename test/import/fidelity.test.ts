/**
 * The readers' first rule, "nothing the person saw is lost silently", over the whole
 * fidelity corpus: every export in test/fixtures/ (each top-level file, and each
 * folder as the zip it stands for) is imported through the API, and every string
 * the person saw in the provider's app must be found in what Parley stores —
 * titles, message contents and reasoning — unless the import counted its record
 * as skipped, and the number skipped must be exactly the number of such records.
 *
 * The walker knows no file names: what a fixture is comes from the provider the
 * API recognises in it, and which files of a folder hold conversations from that
 * provider's zip members. A fixture it cannot classify (no 200, no provider it
 * knows the app of, a folder with no conversations file) fails.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { zipSync } from 'fflate';
import { listConversationsPage } from '../../src/db/conversations.ts';
import { formatFor } from '../../src/import/formats/registry.ts';
import {
  fixtureBytes,
  fixtureContentType,
  json,
  postExport,
  setup,
  zipFolderFiles,
  type TestContext,
} from '../helpers.ts';

type Json = Record<string, any>;

const FIXTURES = new URL('../fixtures/', import.meta.url);
/** The folder's documentation, and the logos the brand tests and screenshots upload: not exports. */
const NOT_EXPORTS = new Set(['README.md', '.gitattributes', 'logo.png', 'acme-notes-logo.png']);

/** What the person saw of an export file, and how many of its records the import may count as skipped instead. */
interface Visible {
  strings: string[];
  counted: number;
}

// ---------------------------------------------------------------------------
// Visible strings, provider by provider: the text the provider's own app shows
// the person — titles, message texts (on the branch the app shows), reasoning
// where the reader keeps it, tool calls' inputs and results, the names of
// attachments and cited pages. Each is compared line by line (see `lines`).
// ---------------------------------------------------------------------------

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string[] => (typeof value === 'string' && value.trim() !== '' ? [value] : []);
const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The records of a JSON export: an array, Grok's `conversations` array, or one conversation object. */
function jsonRecords(text: string): unknown[] {
  const parsed: unknown = JSON.parse(text);
  if (Array.isArray(parsed)) return parsed;
  return isObject(parsed) && Array.isArray(parsed.conversations) ? parsed.conversations : [parsed];
}

/**
 * Conversations of a format with one record each: a record without an id is
 * counted (skipped), as is an earlier copy of an id the file repeats.
 */
function byConversation(text: string, idOf: (record: Json) => unknown, strings: (record: Json) => string[]): Visible {
  const records = jsonRecords(text).filter(isObject);
  const last = new Map(records.map((record) => [idOf(record), record]));
  const shown = records.filter(
    (record) => typeof idOf(record) === 'string' && idOf(record) !== '' && last.get(idOf(record)) === record,
  );
  return { strings: shown.flatMap(strings), counted: records.length - shown.length };
}

/** A chain of parent links from a leaf to the root, in order from the root. */
function chainFrom<T>(leaf: T | undefined, parentOf: (node: T) => T | undefined): T[] {
  const chain: T[] = [];
  for (let node = leaf; node !== undefined && !chain.includes(node); node = parentOf(node)) chain.push(node);
  return chain.reverse();
}

/** The node no other names as parent with the greatest time, ties going to the later one in `nodes`. */
function newestLeaf<T>(
  nodes: T[],
  parentIdOf: (node: T) => unknown,
  idOf: (node: T) => unknown,
  timeOf: (node: T) => number,
): T | undefined {
  const parents = new Set(nodes.map(parentIdOf));
  let leaf: T | undefined;
  for (const node of nodes)
    if (!parents.has(idOf(node)) && (leaf === undefined || timeOf(node) >= timeOf(leaf))) leaf = node;
  return leaf;
}

/** ChatGPT: the branch from `current_node` (else the newest leaf) up through `parent`; hidden and editable-context nodes are not shown. */
function chatgptVisible(text: string): Visible {
  return byConversation(
    text,
    (record) => record.conversation_id ?? record.id,
    (conversation) => {
      const mapping: Record<string, Json> = isObject(conversation.mapping) ? conversation.mapping : {};
      const nodes = Object.values(mapping).filter(isObject);
      const time = (node: Json) => node.message?.create_time ?? -Infinity;
      const leaf =
        mapping[conversation.current_node] ??
        newestLeaf(
          nodes,
          (node) => node.parent,
          (node) => node.id,
          time,
        );
      const branch = chainFrom(leaf, (node) => mapping[node.parent]);
      return [
        ...str(conversation.title),
        ...branch.flatMap((node) => {
          const message = node.message;
          const content = message?.content ?? {};
          const type = content.content_type;
          if (!message || message.metadata?.is_visually_hidden_from_conversation === true) return [];
          if (['user_editable_context', 'model_editable_context'].includes(type)) return [];
          // Reasoning shows under the answer it precedes: kept as that answer's `reasoning`.
          if (type === 'thoughts')
            return asArray(content.thoughts).flatMap((thought) =>
              isObject(thought) ? [...str(thought.summary), ...str(thought.content)] : [],
            );
          if (type === 'reasoning_recap') return str(content.content);
          const parts = Array.isArray(content.parts) ? content.parts : [];
          return [
            ...parts.flatMap((part: unknown) => (isObject(part) ? str(part.text) : str(part))),
            ...str(content.text),
            ...(type === 'tether_browsing_display' ? str(content.result) : []),
            ...(type === 'tether_quote' ? str(content.title) : []),
          ];
        }),
      ];
    },
  );
}

/** Claude: the parent chain (from the current leaf, else the newest) or every message; each block's text, tool input and result, file names. */
function claudeVisible(text: string): Visible {
  return byConversation(
    text,
    (record) => record.uuid ?? record.id,
    (conversation) => {
      const messages: Json[] = (conversation.chat_messages ?? []).filter(isObject);
      const byId = new Map(messages.map((message) => [message.uuid, message]));
      const shown = messages.some((message) => typeof message.parent_message_uuid === 'string')
        ? chainFrom(
            byId.get(conversation.current_leaf_message_uuid) ??
              newestLeaf(
                messages,
                (m) => m.parent_message_uuid,
                (m) => m.uuid,
                (m) => Date.parse(m.created_at),
              ),
            (message) => byId.get(message.parent_message_uuid),
          )
        : messages;
      return [
        ...str(conversation.name),
        ...shown.flatMap((message) => {
          const blocks: Json[] = (message.content ?? []).filter(isObject);
          return [
            ...(blocks.length === 0 ? str(message.text) : blocks.flatMap(claudeBlockStrings)),
            ...[...(message.attachments ?? []), ...(message.files ?? [])].flatMap((file: Json) => str(file?.file_name)),
          ];
        }),
      ];
    },
  );
}

function claudeBlockStrings(block: Json): string[] {
  const input: Json = isObject(block.input) ? block.input : {};
  switch (block.type) {
    case 'text':
      return [
        ...str(block.text),
        ...(block.citations ?? []).flatMap((citation: Json) => str(citation.details?.title ?? citation.title)),
      ];
    case 'thinking':
      return str(block.thinking);
    case 'voice_note':
      return str(block.transcript);
    case 'token_budget':
      return [];
    case 'tool_use':
      // The file tools show the file, the edit, or a line naming the files; their
      // `description` is the model's note on the step, which the spec does not carry over.
      if (block.name === 'present_files') return (input.filepaths ?? []).map((path: string) => basename(path));
      if (block.name === 'create_file') return [basename(input.path ?? ''), ...str(input.file_text)];
      if (block.name === 'str_replace')
        return [basename(input.path ?? ''), ...str(input.old_str), ...str(input.new_str)];
      if (block.name === 'view') return str(input.path);
      if (block.name === 'artifacts')
        return [...str(input.title), ...str(input.content), ...str(input.old_str), ...str(input.new_str)];
      // Any other tool: its name and the strings of its input.
      return [...str(block.name), ...Object.values(input).flatMap(str)];
    case 'tool_result':
      return typeof block.content === 'string'
        ? str(block.content)
        : (block.content ?? []).flatMap((item: Json) =>
            item.type === 'knowledge'
              ? str(item.title)
              : item.type === 'local_resource'
                ? str(item.name)
                : str(item.text),
          );
    default:
      return str(block.text);
  }
}

/** DeepSeek: the path to the newest leaf (ties to the later child); requests, responses, search result titles, tool text, file names. */
function deepseekVisible(text: string): Visible {
  return byConversation(
    text,
    (record) => record.id,
    (conversation) => {
      const mapping: Record<string, Json> = conversation.mapping ?? {};
      const leaves: Json[] = [];
      const walk = (node: Json | undefined, seen: Set<Json>) => {
        if (!node || seen.has(node)) return;
        seen.add(node);
        const children = (node.children ?? []).map((id: string) => mapping[id]).filter(isObject);
        if (children.length === 0) leaves.push(node);
        for (const child of children) walk(child, seen);
      };
      walk(
        Object.values(mapping).find((node) => !node.parent),
        new Set(),
      );
      const time = (node: Json) => Date.parse(node.message?.inserted_at ?? '') || -Infinity;
      const leaf = leaves.reduce<Json | undefined>(
        (newest, node) => (newest === undefined || time(node) >= time(newest) ? node : newest),
        undefined,
      );
      return [
        ...str(conversation.title),
        ...chainFrom(leaf, (node) => mapping[node.parent]).flatMap((node) => [
          ...(node.message?.files ?? []).flatMap((file: Json) => str(file.file_name)),
          ...(node.message?.fragments ?? []).flatMap((fragment: Json) => [
            ...str(fragment.content),
            ...(fragment.results ?? []).flatMap((result: Json) => str(result.title ?? result.url)),
          ]),
        ]),
      ];
    },
  );
}

/** A Grok time: ISO, `{$date: {$numberLong}}` or `{$date: ISO}`. */
const grokTime = (value: any): number =>
  Date.parse(
    typeof value === 'string'
      ? value
      : typeof value?.$date === 'string'
        ? value.$date
        : new Date(Number(value?.$date?.$numberLong)).toISOString(),
  );

/** Grok: the chain from the newest response through `parent_response_id` (or every response); messages and cited pages. */
function grokVisible(text: string): Visible {
  return byConversation(
    text,
    (record) => record.conversation?.id,
    ({ conversation, responses }) => {
      const all: Json[] = (responses ?? []).map((entry: Json) => entry.response).filter(isObject);
      const byId = new Map(all.map((response) => [response._id, response]));
      const newest = all.reduce<Json | undefined>(
        (n, r) => (n === undefined || grokTime(r.create_time) >= grokTime(n.create_time) ? r : n),
        undefined,
      );
      const shown = all.some((response) => response.parent_response_id)
        ? chainFrom(newest, (response) => byId.get(response.parent_response_id))
        : all;
      return [
        ...str(conversation.title),
        ...shown.flatMap((response) => [
          ...str(response.message),
          ...str(response.thinking_trace),
          ...asArray(response.agent_thinking_traces).flatMap(str),
          ...(response.cited_web_search_results ?? []).flatMap((page: Json) => str(page.title ?? page.url)),
        ]),
      ];
    },
  );
}

/** The text of Gemini's answer HTML, piece by piece between its tags, entities decoded. */
function htmlText(html: string): string[] {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
  return html
    .split(/<[^>]*>/)
    .map((piece) => piece.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => entities[name]!))
    .flatMap(str);
}

/**
 * Gemini: each exchange's prompt (`Prompted …` or a Request/Prompt item), its last
 * answer draft, attachment names; an entry with text that is no exchange is counted.
 */
function geminiVisible(text: string): Visible {
  const visible: Visible = { strings: [], counted: 0 };
  for (const entry of jsonRecords(text).filter(isObject)) {
    const items: Json[] = [...(entry.details ?? []), ...(entry.subtitles ?? [])].filter(isObject);
    const named = (names: string[]) =>
      items.filter((item) => names.includes(item.name)).flatMap((item) => str(item.value));
    const prompted = /^Prompted[ \u00a0]/.test(entry.title ?? '');
    const prompt = prompted ? [entry.title.replace(/^Prompted[ \u00a0]/, '')] : named(['Request', 'Prompt', 'User']);
    const answers: Json[] = (entry.safeHtmlItem ?? []).filter(isObject);
    const answer = answers.length > 0 ? htmlText(answers.at(-1)!.html ?? '') : named(['Response']);
    if (prompt.length === 0) {
      if (answer.length > 0 || items.some((item) => typeof item.value === 'string')) visible.counted++;
      continue;
    }
    const attachments = items.flatMap((item) =>
      typeof item.name === 'string' && item.name.startsWith('-') ? [item.name.replace(/^-\s*/, '')] : [],
    );
    visible.strings.push(...prompt, ...answer, ...attachments);
  }
  return visible;
}

/** Copilot: every row's message, and thread names; a row whose time cannot be read is counted. */
function copilotVisible(text: string): Visible {
  const rows: Array<Record<string, string>> = parseCsv(text, { bom: true, columns: true, skip_empty_lines: true });
  const readable = rows.filter((row) => !Number.isNaN(Date.parse(row.Time!)));
  return {
    strings: readable.flatMap((row) => [...str(row.Conversation), ...str(row.Message)]),
    counted: rows.length - readable.length,
  };
}

/**
 * Le Chat: one chat file, its messages: each content, each chunk's text
 * (reasoning included), a tool call's name and argument values, file names,
 * a canvas's title and content.
 */
function mistralVisible(text: string): Visible {
  const strings: string[] = [];
  for (const message of jsonRecords(text).filter(isObject)) {
    strings.push(...str(message.content));
    for (const chunk of asArray(message.contentChunks).filter(isObject)) {
      strings.push(...str(chunk.text), ...str(chunk.name));
      if (typeof chunk.publicArguments === 'string')
        strings.push(...Object.values(JSON.parse(chunk.publicArguments)).flatMap(str));
    }
    for (const file of asArray(message.files).filter(isObject)) strings.push(...str(file.name));
    for (const canvas of asArray(message.canvas).filter(isObject))
      strings.push(...str(canvas.title), ...str(canvas.content));
  }
  return { strings, counted: 0 };
}

/**
 * Meta AI: each conversation's text (a `.txt`-labelled value of the JSON's label
 * tree, or a table cell of the HTML page), its heading and the `You:`/`Meta AI:`
 * prefixes left out.
 */
function metaVisible(text: string): Visible {
  const conversations: string[] = [];
  if (text.trimStart().startsWith('<')) {
    for (const [, cell] of text.matchAll(/<td[^>]*>(Conversation with Meta AI[^_][\s\S]*?)<\/td>/g))
      conversations.push(htmlText(cell!.replace(/<br\s*\/?>/g, '\n')).join(''));
  } else {
    const walk = (entries: unknown[]): void => {
      for (const entry of entries.filter(isObject)) {
        if (/\.txt$/.test(entry.label ?? '')) conversations.push(...str(entry.value));
        walk(asArray(entry.dict));
      }
    };
    walk(asArray(JSON.parse(text).label_values));
  }
  const strings = conversations.flatMap((conversation) =>
    conversation
      .split('\n')
      .filter((line) => line.trim() !== 'Conversation with Meta AI')
      .map((line) => line.replace(/^(You|Meta AI):/, '')),
  );
  return { strings, counted: 0 };
}

/**
 * Claude's memories and projects: every memory's Markdown (the account's, each
 * project's, each memory file's), each project's name, description,
 * instructions and knowledge files' text. The starter project, the same example
 * in every account, is not the person's and not kept.
 */
function claudeBesideVisible(text: string): Visible {
  const parsed: unknown = JSON.parse(text);
  const records = (Array.isArray(parsed) ? parsed : [parsed]).filter(isObject);
  const strings = records.flatMap((record): string[] => {
    if ('prompt_template' in record || 'is_starter_project' in record) {
      if (record.is_starter_project === true) return [];
      return [
        ...str(record.name),
        ...str(record.description),
        ...str(record.prompt_template),
        ...asArray(record.docs).flatMap((doc) => (isObject(doc) ? [...str(doc.filename), ...str(doc.content)] : [])),
      ];
    }
    return [
      ...str(record.conversations_memory),
      ...Object.values(isObject(record.project_memories) ? record.project_memories : {}).flatMap(str),
      // A memory file with no text is no memory.
      ...asArray(record.memory_files).flatMap((file) =>
        isObject(file) && str(file.content).length > 0 ? [...str(file.path), ...str(file.content)] : [],
      ),
    ];
  });
  return { strings, counted: 0 };
}

/** The providers whose exports hold records beside the conversations, and what the person saw of them. */
const BESIDE_VISIBLE: Readonly<Record<string, (text: string) => Visible>> = { anthropic: claudeBesideVisible };

/**
 * Perplexity: every question and answer of each thread (the official export's
 * conversations, or an extension file's one thread, older or newer shape), the
 * cited pages' titles (or addresses). A thread without an id is counted.
 */
function perplexityVisible(text: string): Visible {
  const parsed = JSON.parse(text);
  const turnStrings = (turn: Json) => [
    ...str(turn.query ?? turn.query_str),
    ...str(turn.answer),
    ...asArray(turn.blocks)
      .filter(isObject)
      .flatMap((block) =>
        str(block.markdown_block?.answer).length > 0
          ? str(block.markdown_block.answer)
          : str(asArray(block.markdown_block?.chunks).join('')),
      ),
    ...asArray(turn.sources)
      .filter(isObject)
      .flatMap((source) => str(source.title ?? source.url)),
  ];
  if (isObject(parsed.metadata))
    return { strings: asArray(parsed.conversations).filter(isObject).flatMap(turnStrings), counted: 0 };
  if (!Array.isArray(parsed.conversations))
    return { strings: asArray(parsed.entries).filter(isObject).flatMap(turnStrings), counted: 0 };
  return byConversation(
    text,
    (record) => record.context_uuid,
    (record) => asArray(record.entries).filter(isObject).flatMap(turnStrings),
  );
}

/** Duck.ai: every line of the text but its header and the lines that frame the turns. */
function duckaiVisible(text: string): Visible {
  const framing = /^(This conversation was generated with Duck\.ai .*|=+|-+|User prompt \d+ of \d+ - .*)$/;
  const model = /using .+?'s (.+?) Model\./.exec(text)?.[1];
  return {
    strings: text
      .replace(/^\ufeff/, '')
      .split(/\r?\n/)
      .filter((line) => !framing.test(line) && line !== `${model}:`)
      .flatMap(str),
    counted: 0,
  };
}

const VISIBLE: Readonly<Record<string, (text: string) => Visible>> = {
  openai: chatgptVisible,
  anthropic: claudeVisible,
  deepseek: deepseekVisible,
  xai: grokVisible,
  google: geminiVisible,
  microsoft: copilotVisible,
  perplexity: perplexityVisible,
  duckduckgo: duckaiVisible,
  mistral: mistralVisible,
  meta: metaVisible,
};

// ---------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * A visible string as the lines to look for. Line by line, whitespace collapsed,
 * because the spec changes what surrounds a line but not the line: diffs prefix
 * `-`/`+`, fenced blocks and lists wrap lines, CSV lines end in CRLF. Markup the
 * spec turns into links or removes — ChatGPT's `【n†source】` markers, its
 * private-use `\ue200…\ue201` spans and lone private-use marks (`\ue203`…),
 * DeepSeek's `[citation:N]` — splits a line into the pieces around it, each of
 * which must be there.
 */
function lines(visible: string): string[] {
  return (
    visible
      .split(/\r?\n/)
      // A ChatGPT canvas's directive lines are markup: the app shows its title (or variant) above the body.
      .map((line) =>
        line.match(/^:::\w+\{.*\}$/)
          ? (line.match(/title="([^"]*)"/)?.[1] ?? line.match(/variant="([^"]*)"/)?.[1] ?? '')
          : line === ':::'
            ? ''
            : line,
      )
      .flatMap((line) => line.split(/【[^】]*】|\ue200[^\ue201]*\ue201|[\ue000-\uf8ff]|\[citation:\d+\]/))
      .map(collapse)
      .filter((line) => line !== '')
  );
}

/** The connection's conversations as stored (read from the database: what is kept, whatever the API's document says of it). */
async function storedConversations(t: TestContext, connectionId: string): Promise<Json[]> {
  const rows = await listConversationsPage(t.deps.db, connectionId, 10_000, 0);
  return rows.map((row) => ({ title: row.title, payload: JSON.parse(new TextDecoder().decode(row.payload!)) }));
}

/** The connection's memories and projects as the API lists them, with each knowledge file's text as served. */
async function storedBeside(t: TestContext, connectionId: string): Promise<string[]> {
  const { memories } = await json(await t.request(`/api/memories?connectionId=${connectionId}&limit=100`));
  const { projects } = await json(await t.request(`/api/projects?connectionId=${connectionId}&limit=100`));
  const texts: string[] = memories.flatMap((memory: Json) => [memory.title ?? '', memory.content]);
  for (const project of projects) {
    texts.push(project.name ?? '', project.description ?? '', project.instructions ?? '');
    for (const file of project.knowledge)
      texts.push(file.name, await (await t.request(`/api/attachments/${file.id}`)).text());
  }
  return texts;
}

/**
 * Everything Parley stored that a person reads, as one text. Gemini's answers
 * are HTML turned into Markdown, which escapes characters such as `*`, `_`, `.`
 * after a number and `-` at a line's start with a backslash: escapes are removed,
 * so that the answer's text is compared, not its Markdown.
 */
function storedText(conversations: Json[], beside: string[]): string {
  const texts = conversations.flatMap((conversation) => [
    conversation.title ?? '',
    ...conversation.payload.messages.flatMap((message: Json) => [message.content, message.reasoning ?? '']),
  ]);
  texts.push(...beside);
  return collapse(texts.join('\n').replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1'));
}

/** The upload for a fixture: a file as it is, a folder as the zip the provider ships. */
function upload(name: string, isFolder: boolean): { bytes: Uint8Array; contentType: string } {
  if (isFolder) return { bytes: zipSync(zipFolderFiles(name)), contentType: 'application/zip' };
  return { bytes: fixtureBytes(name), contentType: fixtureContentType(name) };
}

/**
 * The files of a fixture that hold what the person saw, by name, as text, each
 * with what the walker reads of it: the provider's conversations, or the
 * records it keeps beside them (memories, projects).
 */
function sourceFiles(
  name: string,
  isFolder: boolean,
  provider: string,
): Array<[string, string, ((text: string) => Visible) | undefined]> {
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  if (!isFolder) return [[name, decode(fixtureBytes(name)), VISIBLE[provider]]];
  const format = formatFor(provider)!;
  return Object.entries(zipFolderFiles(name)).flatMap(
    ([path, bytes]): Array<[string, string, ((text: string) => Visible) | undefined]> => {
      if (format.zipMembers.test(path)) return [[`${name}/${path}`, decode(bytes), VISIBLE[provider]]];
      if (format.beside?.zipMember.test(path)) return [[`${name}/${path}`, decode(bytes), BESIDE_VISIBLE[provider]]];
      return [];
    },
  );
}

const fixtures = readdirSync(FIXTURES, { withFileTypes: true }).filter((entry) => !NOT_EXPORTS.has(entry.name));

test('the corpus holds exports of every provider', async () => {
  const providers = new Set<string>();
  for (const entry of fixtures) {
    const t = await setup();
    const { bytes, contentType } = upload(entry.name, entry.isDirectory());
    providers.add((await json(await postExport(t, bytes, { contentType }))).provider);
  }
  assert.deepEqual([...providers].sort(), Object.keys(VISIBLE).sort());
});

for (const entry of fixtures) {
  const isFolder = entry.isDirectory();
  test(`${entry.name}${isFolder ? '/ (zipped)' : ''}: every string the person saw is stored, or its record counted as skipped`, async () => {
    const t = await setup();
    const { bytes, contentType } = upload(entry.name, isFolder);
    const response = await postExport(t, bytes, { contentType });
    const body = await json(response);
    assert.equal(response.status, 200, `${entry.name} is not an export Parley reads: ${JSON.stringify(body)}`);
    const visibleOf = VISIBLE[body.provider];
    assert.ok(visibleOf, `${entry.name}: no visible strings are defined for ${body.provider}`);
    const files = sourceFiles(entry.name, isFolder, body.provider);
    assert.ok(files.length > 0, `${entry.name}: none of its files is a ${body.provider} export file`);

    const stored = storedText(
      await storedConversations(t, body.connectionId),
      await storedBeside(t, body.connectionId),
    );
    let counted = 0;
    let checked = 0;
    for (const [file, text, visibleIn] of files) {
      assert.ok(visibleIn, `${file}: no visible strings are defined for what it holds`);
      const visible = visibleIn(text);
      counted += visible.counted;
      for (const line of visible.strings.flatMap(lines)) {
        checked++;
        assert.ok(stored.includes(line), `${file}: "${line}" is not in what Parley stored`);
      }
    }
    assert.ok(checked > 0, `${entry.name}: no visible strings found: the walker cannot read it`);
    assert.equal(
      body.skipped,
      counted,
      `${entry.name}: skipped ${body.skipped}, but ${counted} records may be counted instead of shown`,
    );
  });
}
