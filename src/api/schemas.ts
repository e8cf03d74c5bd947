import { NOT_READ_WHATS } from '../import/formats/format.ts';
import * as v from 'valibot';
import { CONNECTION_STATUSES, PROVIDERS, ROLES } from 'parley-sdk';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../conversations/listing.ts';
import { MAX_QUERY_LENGTH } from '../conversations/search.ts';
import { DEFAULT_AGENT_TOKEN_SECONDS, MAX_AGENT_TOKEN_SECONDS } from '../agents/agent-tokens.ts';
import { isoTime } from '../deps.ts';
import type { ErrorCode } from '../errors.ts';
import { isTimeZone } from '../import/formats/format.ts';
import { userRefSchema } from '../users/user-ref.ts';

// The REST API's shapes, once: the routes parse requests with these schemas,
// and /openapi.json is generated from them. Each request check's message is
// the ErrorCode it fails with (see parseInput).

const nonEmpty = (missing: ErrorCode, description: string) =>
  v.pipe(v.string(missing), v.nonEmpty(missing), v.description(description));

/** A whole number in a query string; the document shows the number it stands for. */
const wholeNumber = (min: number, invalid: ErrorCode, description: string, fallback: number) =>
  v.optional(
    v.pipe(
      v.string(invalid),
      v.regex(/^\d+$/, invalid),
      // Past what a double holds exactly, a number counts as the largest it does:
      // a limit is capped at the page size anyway, and such an offset is past the end.
      v.transform((digits) => Math.min(Number(digits), Number.MAX_SAFE_INTEGER)),
      v.number(),
      v.integer(),
      v.minValue(min, invalid),
      v.metadata({ default: fallback }),
      v.description(description),
    ),
  );

/** ISO 8601's date, then optionally its time (minutes, seconds, fraction) and offset. */
const ISO_8601 = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2})(:\d{2}(?:[.,]\d+)?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * The unix milliseconds of an ISO 8601 date or date-time, or NaN. A time without
 * an offset is UTC (what `datetime.utcnow().isoformat()` writes), a date alone its
 * first instant; an offset may be written `+01`, `+0100` or `+01:00`.
 */
function parseIsoInstant(text: string): number {
  const match = ISO_8601.exec(text);
  if (!match) return Number.NaN;
  const [, date, time = '00:00', seconds = ':00', offset = 'Z'] = match as unknown as [
    string,
    string,
    string?,
    string?,
    string?,
  ];
  // Date.parse rolls a day past the month's end over into the next month.
  const day = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(day) || isoTime(day).slice(0, 10) !== date) return Number.NaN;
  const zone = /^[Zz]$/.test(offset) ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(3).replace(':', '') || '00'}`;
  return Date.parse(`${date}T${time}${seconds.replace(',', '.')}${zone}`);
}

/** An instant in ISO 8601 (see parseIsoInstant), made the form Parley writes its own times in (UTC, milliseconds), which compare in order as text. */
export const instant = (invalid: ErrorCode, description: string) =>
  v.optional(
    v.pipe(
      v.string(invalid),
      v.transform(parseIsoInstant),
      v.number(invalid),
      v.transform(isoTime),
      v.string(),
      v.isoTimestamp(),
      v.description(description),
    ),
  );

const CONNECTION_ID = 'A connection id, as the listing of connections and the import answer give it.';

// An object's message is what a missing required field fails with.
export const ConnectionsQuery = v.object(
  { userRef: userRefSchema('missingUserRef') },
  'missingUserRef' satisfies ErrorCode,
);

export const ConversationsQuery = v.object(
  {
    connectionId: nonEmpty('missingConnectionId', CONNECTION_ID),
    limit: wholeNumber(
      1,
      'invalidLimit',
      `Page size; above ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE}, and the answer's limit says which.`,
      DEFAULT_PAGE_SIZE,
    ),
    offset: wholeNumber(0, 'invalidOffset', 'How many conversations to skip: page by adding the answer’s limit.', 0),
    updatedSince: instant(
      'invalidUpdatedSince',
      'Only conversations Parley stored or changed after this instant, by its own clock (not the provider’s update_time): `2026-03-01T12:00:00Z`, or with an offset (`+` written `%2B`). Same order and paging; `total` counts only these. Deletions do not show here: the conversation.deleted, connection.revoked and purge webhooks say them.',
    ),
    q: v.optional(
      v.pipe(
        v.string('invalidQ'),
        v.maxLength(MAX_QUERY_LENGTH, 'invalidQ'),
        v.description(
          'Search the conversations’ titles and message text: plain words, each of which must match (case and accents aside), the last one also as the start of a longer word; quotes, operators and punctuation only separate words. Best match first (a match in the title counts more), ties in the usual order; `total` counts the matches. Empty: no search. Combines with `updatedSince`.',
        ),
      ),
    ),
    fields: v.optional(
      v.pipe(
        v.picklist(['full', 'summary'], 'invalidFields'),
        v.metadata({ default: 'full' }),
        v.description(
          '`summary`: each conversation without its `payload`, with its `message_count` instead: for paging through thousands of titles.',
        ),
      ),
    ),
  },
  'missingConnectionId' satisfies ErrorCode,
);

/** GET /api/memories and GET /api/projects: a connection's, paged as the conversations are. */
const besideQuery = (what: string) =>
  v.object(
    {
      connectionId: ConversationsQuery.entries.connectionId,
      limit: ConversationsQuery.entries.limit,
      offset: wholeNumber(0, 'invalidOffset', `How many ${what} to skip: page by adding the answer’s limit.`, 0),
      updatedSince: instant(
        'invalidUpdatedSince',
        `Only ${what} Parley stored or changed after this instant, by its own clock: as for the conversations. Same order and paging; \`total\` counts only these.`,
      ),
    },
    'missingConnectionId' satisfies ErrorCode,
  );

export const MemoriesQuery = besideQuery('memories');
export const ProjectsQuery = besideQuery('projects');
export const ConversationPath = {
  id: v.pipe(v.string(), v.description('The conversation’s `id`, as the listing gives it.')),
};

const providerField = v.pipe(
  v.picklist(PROVIDERS, 'invalidProvider'),
  v.description('The provider the file is from; the file must agree. Read from the file when left out.'),
);

/** POST /api/ingest-export's fields, from the query string or the form fields (before or after the file); empty ones count as absent. */
export const IngestFields = v.object(
  {
    userRef: userRefSchema('missingUserRef'),
    provider: v.optional(providerField),
    connectionId: v.optional(
      v.pipe(v.string(), v.description(`Import into this connection (of this user, not revoked). ${CONNECTION_ID}`)),
    ),
    timeZone: v.optional(
      v.pipe(
        v.string(),
        v.check(isTimeZone, 'invalidTimeZone'),
        v.description(
          "The person's time zone (IANA, `Europe/Paris`): times the export writes without a zone (Duck.ai, some Perplexity files) are read in it, else as UTC. Only before the file in a form.",
        ),
      ),
    ),
  },
  'missingUserRef' satisfies ErrorCode,
);

/** The zone alone, of fields named before a form's file that names its user after it. */
export const IngestTimeZone = v.object({ timeZone: IngestFields.entries.timeZone });

/** The multipart form: the fields, then the file. Only the document uses it; the upload reader streams the file. */
export const IngestForm = v.object({
  ...IngestFields.entries,
  file: v.pipe(
    v.string(),
    v.metadata({ contentMediaType: 'application/octet-stream' }),
    v.description(
      'The export: the zip, or its conversations file. Repeated, the files of one export (Claude’s `conversations-000.zip`, `memories-000.zip`, …), imported together.',
    ),
  ),
});

const absent = v.optional(v.never());

/** POST /api/purge: exactly one of userRef or connectionId; other keys are ignored. */
export const PurgeBody = v.union(
  [
    v.looseObject({ userRef: userRefSchema('purgeTarget'), connectionId: absent }),
    v.looseObject({ connectionId: nonEmpty('purgeTarget', CONNECTION_ID), userRef: absent }),
  ],
  'purgeTarget' satisfies ErrorCode,
);

const expiresIn = (invalid: ErrorCode) =>
  v.pipe(
    v.number(invalid),
    v.integer(invalid),
    v.minValue(1, invalid),
    v.maxValue(MAX_AGENT_TOKEN_SECONDS, invalid),
    v.metadata({ default: DEFAULT_AGENT_TOKEN_SECONDS }),
    v.description(`How long the token lasts, in seconds: at most ${MAX_AGENT_TOKEN_SECONDS}.`),
  );

/** POST /api/agent-tokens. */
export const AgentTokenBody = v.object(
  { userRef: userRefSchema('missingUserRef'), expiresInSeconds: v.optional(expiresIn('invalidExpiresInSeconds')) },
  'missingUserRef' satisfies ErrorCode,
);

// Answers and events: the SDK's types, as schemas (a test holds the two equal).

const timestamp = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const provider = v.picklist(PROVIDERS);

export const Connection = v.object({
  id: v.string(),
  provider,
  status: v.picklist(CONNECTION_STATUSES),
  capturedAt: timestamp('When the connection was first made.'),
  lastSyncAt: v.nullable(timestamp('When the last import ended; null before any.')),
  conversationCount: count,
  memoryCount: v.pipe(count, v.description('What the assistant remembers of the person: `GET /api/memories`.')),
  projectCount: v.pipe(count, v.description('The projects the person set up: `GET /api/projects`.')),
});

export const ConnectionList = v.object({ connections: v.array(Connection), userRef: v.string() });

export const Attachment = v.object({
  id: v.pipe(v.string(), v.description('Its bytes: `GET /api/attachments/{id}`.')),
  name: v.pipe(v.string(), v.description('The name the export gave it.')),
  contentType: v.pipe(v.string(), v.description('From the export, or sniffed from the bytes where it gave none.')),
  size: v.pipe(v.nullable(v.number()), v.description('Bytes; null when not stored and the export does not say.')),
  kind: v.pipe(
    v.picklist(['image', 'file', 'audio', 'document']),
    v.description('`document`: text the export holds (a pasted or attached document).'),
  ),
  stored: v.pipe(v.boolean(), v.description('False: the export named the file but did not hold its bytes.')),
});

export const Message = v.object({
  role: v.picklist(ROLES),
  content: v.pipe(v.string(), v.description('Markdown.')),
  timestamp: v.nullable(timestamp('When the message was written, where the export says.')),
  model: v.optional(
    v.pipe(
      v.string(),
      v.description('The model that wrote an assistant message, where the export names it (ChatGPT, DeepSeek, Grok).'),
    ),
  ),
  reasoning: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'The visible reasoning shown with an assistant answer (Markdown: ChatGPT’s thoughts, Claude’s thinking, DeepSeek’s THINK, Grok’s thinking trace), kept out of `content`. Absent where the export has none.',
      ),
    ),
  ),
  attachments: v.pipe(
    v.array(Attachment),
    v.description('The files and images the message showed; empty where it showed none.'),
  ),
});

export const Conversation = v.object({
  id: v.string(),
  external_id: v.pipe(v.string(), v.description('The provider’s id of the conversation.')),
  title: v.nullable(v.string()),
  payload: v.nullable(
    v.object({
      title: v.pipe(v.string(), v.description('Empty where the export has no title.')),
      messages: v.array(Message),
    }),
  ),
  update_time: v.nullable(timestamp('The provider’s last update.')),
  projectId: v.optional(
    v.pipe(
      v.string(),
      v.description('The project it belongs to (`GET /api/projects`); absent where the export links none.'),
    ),
  ),
});

export const ConversationPage = v.object({
  conversations: v.array(Conversation),
  total: count,
  limit: count,
  offset: count,
});

export const Memory = v.object({
  id: v.string(),
  externalId: v.pipe(v.string(), v.description('The export’s id of the memory: a newer export of it updates it.')),
  scope: v.pipe(
    v.picklist(['account', 'project']),
    v.description('`account`: what the assistant remembers of the person; `project`: of one project of theirs.'),
  ),
  projectId: v.pipe(
    v.nullable(v.string()),
    v.description('A project memory’s project (`GET /api/projects`); null until that project is imported.'),
  ),
  title: v.pipe(v.nullable(v.string()), v.description('The memory file’s path, or its project’s name; else null.')),
  content: v.pipe(v.string(), v.description('Markdown, exactly as exported.')),
  updatedAt: v.nullable(timestamp('The export’s time of the memory, where it gives one.')),
});

export const MemoryPage = v.object({ memories: v.array(Memory), total: count, limit: count, offset: count });

export const Project = v.object({
  id: v.string(),
  externalId: v.pipe(v.string(), v.description('The export’s id of the project.')),
  name: v.pipe(v.nullable(v.string()), v.description('Null where the export does not name it (ChatGPT).')),
  description: v.nullable(v.string()),
  instructions: v.pipe(v.nullable(v.string()), v.description('The project’s instructions to the assistant.')),
  knowledge: v.pipe(
    v.array(Attachment),
    v.description('Its knowledge files, bytes exactly as exported: `GET /api/attachments/{id}`.'),
  ),
  createdAt: v.nullable(timestamp('The export’s time.')),
  updatedAt: v.nullable(timestamp('The export’s time.')),
});

export const ProjectPage = v.object({ projects: v.array(Project), total: count, limit: count, offset: count });

const besideCounts = v.object({ created: count, updated: count, unchanged: count });

export const ConversationSummary = v.object({
  ...v.omit(Conversation, ['payload']).entries,
  message_count: v.pipe(count, v.description('How many messages `payload` holds.')),
});

export const ConversationSummaryPage = v.object({
  ...ConversationPage.entries,
  conversations: v.array(ConversationSummary),
});

const importCounts = {
  created: count,
  updated: count,
  unchanged: count,
  skipped: count,
  conversationCount: count,
  attachmentCount: count,
  memories: besideCounts,
  projects: besideCounts,
  memoryCount: count,
  projectCount: count,
  notRead: v.pipe(
    v.array(v.object({ what: v.string(), count })),
    v.description(
      `What the export holds that Parley does not keep, one row per kind: \`what\` a short English noun phrase (${NOT_READ_WHATS.map((what) => `\`${what}\``).join(', ')}; more may come), \`count\` the files or records.`,
    ),
  ),
};

export const IngestResult = v.object({
  ok: v.literal(true),
  userRef: v.string(),
  connectionId: v.string(),
  provider,
  ...importCounts,
});

export const PurgeResult = v.object({
  ok: v.literal(true),
  deleted: v.object({ users: count, connections: count, conversations: count }),
});

export const AgentToken = v.object({
  token: v.pipe(
    v.string(),
    v.description(
      'Reads only this user’s data, over `/mcp` (`Authorization: Bearer`); shown only now. Give it to the assistant, never to a browser.',
    ),
  ),
  expiresAt: timestamp('When it stops working.'),
});

export const Health = v.object({ ok: v.literal(true), version: v.string() });

const event = <Type extends string, Data extends v.ObjectEntries>(type: Type, description: string, data: Data) =>
  v.pipe(
    v.object({
      type: v.literal(type),
      timestamp: timestamp('When the change happened.'),
      data: v.object({ userRef: v.string(), ...data }),
    }),
    v.description(description),
  );

const connectionId = v.string();

/** Every webhook, by its type. */
export const EVENTS = {
  'connection.created': event('connection.created', 'A connection was made: by the connect page or by an import.', {
    connectionId,
    provider,
  }),
  'connection.synced': event('connection.synced', 'An import finished.', { connectionId, provider, ...importCounts }),
  'connection.needs_reauth': event(
    'connection.needs_reauth',
    'Not synced for STALE_AFTER_DAYS: the person should import again.',
    { connectionId },
  ),
  'connection.revoked': event(
    'connection.revoked',
    'The person disconnected: the connection’s conversations, memories and projects are deleted.',
    { connectionId, conversationsDeleted: count },
  ),
  'connection.purged': event('connection.purged', 'Your backend purged the connection.', {
    connectionId,
    conversations: count,
  }),
  'user.purged': event('user.purged', 'Your backend purged the user.', {
    users: count,
    connections: count,
    conversations: count,
  }),
  'conversation.deleted': event('conversation.deleted', 'The person deleted one conversation.', {
    connectionId,
    conversationId: v.string(),
    externalId: v.string(),
    conversationCount: count,
    memoryCount: count,
    projectCount: count,
  }),
  'webhook.test': v.pipe(
    v.object({
      type: v.literal('webhook.test'),
      timestamp: timestamp('When it was sent.'),
      data: v.object({ appId: v.string() }),
    }),
    v.description(
      'Sent only by `parley webhook test`, to check that the endpoint receives and verifies; it changes nothing.',
    ),
  ),
};
