import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { instant } from '../api/schemas.ts';
import { conversationOfApp } from '../conversations/listing.ts';
import { unrevokedConnectionOf } from '../conversations/ownership.ts';
import { MAX_QUERY_LENGTH, searchWords } from '../conversations/search.ts';
import { searchConversations } from '../db/conversation-search.ts';
import { knowledgeOfProjects } from '../db/attachments.ts';
import { countConversationsIn, listConversationsIn } from '../db/conversations.ts';
import { countMemoriesIn, listMemoriesIn } from '../db/memories.ts';
import { countProjectsIn, listProjectsIn } from '../db/projects.ts';
import { ofUserOpenConnections } from '../db/sql-fragments.ts';
import type { Deps } from '../deps.ts';
import { ERRORS, type ErrorCode, ParleyError } from '../errors.ts';
import { recordAccess } from '../users/access-log.ts';
import { conversationSummaryJson, conversationsJson, memoryJson, projectJson } from '../wire/wire-json.ts';
import type { Agent } from './agent-tokens.ts';

/**
 * The most a tool result's JSON holds, in bytes: about 16,000 tokens, a small
 * part of a model's context. Pages are cut to fit and say where to go on.
 */
export const MAX_TOOL_RESULT_BYTES = 64 * 1024;
/** A page of summaries: at most this many, fewer where they would not fit. */
const MAX_PAGE = 50;
const DEFAULT_PAGE = 20;

const encoder = new TextEncoder();
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/** A cursor is the offset the next page starts at, opaque to the agent. */
const cursorOf = (offset: number) => btoa(`offset:${offset}`).replaceAll('=', '');
const CURSOR_ERROR = 'Invalid cursor: pass nextCursor from the previous result as it is';
const cursor = v.optional(
  v.pipe(
    v.string(CURSOR_ERROR),
    v.regex(/^[A-Za-z0-9+/]{1,40}$/, CURSOR_ERROR),
    v.description('Where to go on: `nextCursor` of the previous result. Left out: the first page.'),
  ),
);
function offsetOf(given: string | undefined): number {
  if (given === undefined) return 0;
  const match = /^offset:(\d{1,15})$/.exec(atob(given.padEnd(Math.ceil(given.length / 4) * 4, '=')));
  if (!match) throw new ToolInputError(CURSOR_ERROR);
  return Number(match[1]);
}

const limit = v.optional(
  v.pipe(
    v.number('limit must be a number'),
    v.integer('limit must be a whole number'),
    v.minValue(1, 'limit must be at least 1'),
    v.maxValue(MAX_PAGE, `limit must be at most ${MAX_PAGE}`),
    v.description(`How many at most (${DEFAULT_PAGE} when left out); fewer come where they would not fit.`),
  ),
);

/** Arguments an agent got wrong: the result says what, so that it can correct them. */
class ToolInputError extends Error {}

/** How many of the first items fit in `room` bytes of JSON, as elements of one array. */
function fittingCount(items: readonly unknown[], room: number) {
  let count = 0;
  for (const item of items) {
    room -= jsonBytes(item) + 1;
    if (room < 0) break;
    count++;
  }
  return count;
}

/**
 * The first items that fit, with the rest of the result built around them,
 * within MAX_TOOL_RESULT_BYTES; `build` is given the index the next page would
 * start at, or undefined when these are the last. A first item longer than a
 * whole result comes alone, made to fit by `cut` (given the room it has), so
 * that paging on always moves.
 */
function fitted<Item>(
  items: readonly Item[],
  more: boolean,
  build: (page: Item[], next: number | undefined) => Record<string, unknown>,
  cut: (item: Item, room: number) => Item,
) {
  const room = MAX_TOOL_RESULT_BYTES - jsonBytes(build([], Number.MAX_SAFE_INTEGER));
  const count = fittingCount(items, room);
  if (count === 0 && items.length) return build([cut(items[0]!, room)], items.length > 1 || more ? 1 : undefined);
  return build(items.slice(0, count), count < items.length || more ? count : undefined);
}

/** A text cut to at most `room` bytes of JSON (a character may take six, escaped), ending with why (`the message is longer`). */
const cutText = <Text extends string | null>(text: Text, room: number, why: string): Text =>
  text === null || jsonBytes(text) <= room ? text : (`${text.slice(0, Math.floor(room / 6))} …[cut: ${why}]` as Text);

/** A page of `key`'s items (API objects), from `offset`, cut to fit; `nextCursor` where more follow. */
function page<Item>(
  key: string,
  items: Item[],
  total: number,
  offset: number,
  cut: (item: Item, room: number) => Item = (item) => item,
) {
  const build = (shown: Item[], next: number | undefined) => ({
    [key]: shown,
    total,
    ...(next === undefined ? {} : { nextCursor: cursorOf(offset + next) }),
  });
  return fitted(items, offset + items.length < total, build, cut);
}
const summaryPage = (rows: Parameters<typeof conversationSummaryJson>[0][], total: number, offset: number) =>
  page('conversations', rows.map(conversationSummaryJson), total, offset);

interface ToolDefinition<Input extends v.GenericSchema> {
  name: string;
  description: string;
  input: Input;
  /** Counted as a search in the access log the person sees. */
  search?: boolean;
  call(deps: Deps, agent: Agent, input: v.InferOutput<Input>): Promise<Record<string, unknown>>;
}

/** A tool the agent may call: read-only, of the token's user only. */
export interface AgentTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  call(deps: Deps, agent: Agent, args: unknown): Promise<Record<string, unknown>>;
}

/** A tool from its definition: its arguments checked with its schema (whose messages say what is wrong) and the call counted in the access log. */
function tool<Input extends v.GenericSchema>(definition: ToolDefinition<Input>): AgentTool {
  const { $schema: _dialect, ...inputSchema } = toJsonSchema(definition.input, {
    target: 'draft-2020-12',
    typeMode: 'input',
  });
  return {
    name: definition.name,
    description: definition.description,
    inputSchema,
    async call(deps, agent, args) {
      const parsed = v.safeParse(definition.input, args ?? {}, { abortPipeEarly: true });
      if (!parsed.success) {
        const [issue] = parsed.issues;
        const message = issue.message in ERRORS ? ERRORS[issue.message as ErrorCode][1] : issue.message;
        const at = issue.path?.map((step) => step.key).join('.');
        throw new ToolInputError(at ? `${at}: ${message}` : message);
      }
      const result = await definition.call(deps, agent, parsed.output);
      recordAccess(deps, agent.userId, 'agent', { search: definition.search });
      return result;
    },
  };
}

const CONVERSATION_ID = v.pipe(
  v.string('id must be a string'),
  v.nonEmpty('id must not be empty'),
  v.description('The conversation’s `id`, from list_conversations or search_conversations.'),
);

/** What the listing tools take: the person's connections narrowed, and paging. */
const listingInput = v.object({
  connectionId: v.optional(
    v.pipe(
      v.string('connectionId must be a string'),
      v.description('Only this connection’s (one imported account of one provider).'),
    ),
  ),
  updatedSince: instant('invalidUpdatedSince', 'Only those stored or changed after this ISO 8601 instant.'),
  limit,
  cursor,
});

type Scope = ReturnType<typeof ofUserOpenConnections>;

/**
 * A tool listing the person's conversations, memories or projects (`key`, of
 * `table`): of the token's user's open connections, or of the one named (a
 * tool error where it is not theirs or disconnected); a page of API objects.
 */
function listingTool<Item>(definition: {
  name: string;
  description: string;
  key: string;
  table: 'c' | 'm' | 'p';
  rows(db: Deps['db'], scope: Scope, limit: number, offset: number): Promise<Item[]>;
  count(db: Deps['db'], scope: Scope): Promise<number>;
  /** One item longer than a whole result made to fit `room` bytes. */
  cut?(item: Item, room: number): Item;
}) {
  const { name, description, key, table, rows, count, cut } = definition;
  return tool({
    name,
    description,
    input: listingInput,
    async call(deps, agent, { connectionId, updatedSince, limit: asked = DEFAULT_PAGE, cursor: given }) {
      if (connectionId !== undefined) await unrevokedConnectionOf(deps, agent, connectionId);
      const scope = ofUserOpenConnections(table, agent.userId, { connectionId, changedAfter: updatedSince });
      const offset = offsetOf(given);
      const items = await rows(deps.db, scope, asked, offset);
      return page(key, items, await count(deps.db, scope), offset, cut);
    },
  });
}

/** The tools of /mcp, in the order they are listed. */
export const AGENT_TOOLS: readonly AgentTool[] = [
  tool({
    name: 'search_conversations',
    description:
      'Search the person’s past conversations with AI assistants (ChatGPT, Claude, …) by words in their titles and messages. Use it when the person refers to something they discussed before ("what did I decide about the kitchen?"). Every word must match (case and accents aside; the last also as a word’s start); quotes and operators are ignored. Returns summaries, best match first: `id`, `title`, `update_time`, `message_count`; read one with get_conversation. `nextCursor` pages on.',
    search: true,
    input: v.object(
      {
        query: v.pipe(
          v.string('query must be a string'),
          v.nonEmpty('query must not be empty'),
          v.maxLength(MAX_QUERY_LENGTH, `query must be at most ${MAX_QUERY_LENGTH} characters`),
          v.description('Plain words to look for, such as `kitchen tiles`.'),
        ),
        limit,
        cursor,
      },
      'query is required',
    ),
    async call(deps, agent, { query, limit: asked = DEFAULT_PAGE, cursor: given }) {
      const offset = offsetOf(given);
      const words = searchWords(query);
      if (words.length === 0) return summaryPage([], 0, offset);
      const { rows, total } = await searchConversations(
        deps.db,
        { index: { appId: agent.appId, userRef: agent.userRef }, scope: ofUserOpenConnections('c', agent.userId, {}) },
        words,
        'summary',
        { limit: asked, offset },
      );
      return summaryPage(rows, total, offset);
    },
  }),
  listingTool({
    name: 'list_conversations',
    description:
      'List the person’s past conversations with AI assistants, newest update first: summaries with `id`, `title`, `update_time` and `message_count`, and `total`. Narrow to one imported account with `connectionId`, or to what changed since an instant with `updatedSince`. Read one with get_conversation; `nextCursor` pages on.',
    key: 'conversations',
    table: 'c',
    rows: async (db, scope, limit, offset) =>
      (await listConversationsIn(db, scope, 'summary', limit, offset)).map(conversationSummaryJson),
    count: countConversationsIn,
  }),
  tool({
    name: 'get_conversation',
    description:
      'Read one of the person’s past conversations: its `title`, `update_time` and messages (`role`: user or assistant, `content` in Markdown, `timestamp`, and where known `model` and `attachments`). A long conversation comes in parts: `firstMessage` is the index of the first message given, `messageCount` how many there are in all, and `nextCursor` asks for the next part.',
    input: v.object({ id: CONVERSATION_ID, cursor }, 'id is required'),
    async call(deps, agent, { id, cursor: given }) {
      const from = offsetOf(given);
      const [conversation] = JSON.parse(
        `[${new TextDecoder().decode(conversationsJson(await conversationOfApp(deps, agent, id)))}]`,
      );
      const messages: Array<Record<string, unknown>> = conversation.payload?.messages ?? [];
      const result = (page: Array<Record<string, unknown>>, next: number | undefined) => ({
        conversation: { ...conversation, payload: conversation.payload && { ...conversation.payload, messages: page } },
        firstMessage: from,
        messageCount: messages.length,
        ...(next === undefined ? {} : { nextCursor: cursorOf(from + next) }),
      });
      return fitted(messages.slice(from), false, result, ({ reasoning: _left, ...message }, room) => ({
        ...message,
        content: cutText(String(message.content), room, 'the message is longer'),
      }));
    },
  }),
  listingTool({
    name: 'list_memories',
    description:
      'List what the person’s AI assistants remembered about them (Claude’s memory summaries and memory files; other assistants’ exports carry none): each memory’s `content` in Markdown, its `scope` (`account`, or `project` with its `projectId` and the project’s name as `title`) and `updatedAt`, newest first, and `total`. Use it to know the person’s context, preferences and standing facts before answering. Narrow with `connectionId` or `updatedSince`; `nextCursor` pages on.',
    key: 'memories',
    table: 'm',
    rows: async (db, scope, limit, offset) => (await listMemoriesIn(db, scope, limit, offset)).map(memoryJson),
    count: countMemoriesIn,
    cut: (memory, room) => ({ ...memory, content: cutText(memory.content, room, 'the memory is longer') }),
  }),
  listingTool({
    name: 'list_projects',
    description:
      'List the projects the person set up with their AI assistants: each project’s `name`, `description`, `instructions` (what the person told the assistant for that project) and `knowledge` (the files they gave it: `name`, `contentType`, `size`), newest update first, and `total`. Claude’s come whole; ChatGPT’s exports name none, so a ChatGPT project is its id alone (`name` null). Conversations of a project carry its `id` as `projectId`. Narrow with `connectionId` or `updatedSince`; `nextCursor` pages on.',
    key: 'projects',
    table: 'p',
    async rows(db, scope, limit, offset) {
      const rows = await listProjectsIn(db, scope, limit, offset);
      const knowledge = await knowledgeOfProjects(
        db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => projectJson(row, knowledge));
    },
    count: countProjectsIn,
    // A project longer than a result: its texts and its list of files share the room.
    cut: (project, room) => ({
      ...project,
      description: cutText(project.description, room / 4, 'the description is longer'),
      instructions: cutText(project.instructions, room / 4, 'the instructions are longer'),
      knowledge: project.knowledge.slice(0, fittingCount(project.knowledge, room / 4)),
    }),
  }),
];

/** A tool's answer, or what went wrong as a tool error the agent can act on: bad arguments, or another user's or an unknown id. */
export async function callAgentTool(deps: Deps, agent: Agent, name: string, args: unknown) {
  const found = AGENT_TOOLS.find((one) => one.name === name);
  try {
    if (!found) throw new ToolInputError(`Unknown tool: ${name}`);
    const result = await found.call(deps, agent, args);
    return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: result };
  } catch (error) {
    const refusal =
      error instanceof ToolInputError
        ? error.message
        : error instanceof ParleyError && error.code !== 'internal' && ERRORS[error.code][0] < 500
          ? error.message
          : undefined;
    if (refusal === undefined) throw error;
    return { content: [{ type: 'text' as const, text: refusal }], isError: true };
  }
}
