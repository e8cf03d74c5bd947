import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { ERRORS, ERRORS_WITH_DETAIL, type ErrorCode } from '../errors.ts';
import * as schemas from './schemas.ts';

type JsonObject = Record<string, unknown>;

/** The answers' shapes, named once under components.schemas. */
const COMPONENTS = {
  Connection: schemas.Connection,
  ConnectionList: schemas.ConnectionList,
  Message: schemas.Message,
  Conversation: schemas.Conversation,
  ConversationPage: schemas.ConversationPage,
  IngestResult: schemas.IngestResult,
  PurgeResult: schemas.PurgeResult,
  Health: schemas.Health,
};

// Parameters are documented as what they mean (a query's "20" as the integer
// 20), so the pipelines are read from their last schema on; `check` actions are
// code the document states otherwise (a userRef's maxLength).
const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'output',
  ignoreActions: ['check'],
  definitions: COMPONENTS,
};

const COMPONENT_REF = '#/components/schemas/';

const componentRefs = <T>(converted: T): T =>
  JSON.parse(JSON.stringify(converted).replaceAll('"#/$defs/', `"${COMPONENT_REF}`));

function jsonSchema(schema: v.GenericSchema): JsonObject {
  const { $schema: _dialect, $defs: _components, ...converted } = toJsonSchema(schema, CONVERSION);
  return componentRefs(converted);
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const integerHeader = (description: string) => ({
  description,
  required: true,
  schema: { type: 'integer', minimum: 0 },
});

const HEADERS = {
  'RateLimit-Limit': integerHeader('Requests allowed in the current minute.'),
  'RateLimit-Remaining': integerHeader('Requests left in the current minute.'),
  'RateLimit-Reset': integerHeader('Unix time (seconds) at which the current minute ends.'),
  'Retry-After': integerHeader('Seconds to wait before the next request.'),
  Allow: { description: 'The methods the path takes.', required: true, schema: { type: 'string' } },
  Deprecation: {
    description:
      'Present when the Bearer value was the app secret rather than an API key (RFC 9745): create an API key.',
    schema: { type: 'string', pattern: '^@\\d+$' },
  },
};

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

const json = (schema: JsonObject) => ({ 'application/json': { schema } });

/** `{"error": …}` with exactly the messages these errors have. */
function errorResponse(codes: ErrorCode[], headers: string[]) {
  const messages = codes.map((code) => ERRORS[code][1]);
  const error = v.union(
    codes.map((code, i) =>
      ERRORS_WITH_DETAIL.includes(code) ? v.pipe(v.string(), v.startsWith(messages[i]!)) : v.literal(messages[i]!),
    ),
  );
  return {
    description: messages.map((message) => `\`${message}\``).join(', '),
    ...(headers.length ? { headers: Object.fromEntries(headers.map((name) => [name, headerRef(name)])) } : {}),
    content: json(jsonSchema(v.object({ error }))),
  };
}

interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  /** The query parameters, and those of them that may be left out although their schema requires them. */
  query?: { entries: v.ObjectEntries; optional?: string[] };
  requestBody?: JsonObject;
  answer: v.GenericSchema;
  errors: ErrorCode[];
  /** Without: no credential, and no rate limit. */
  authenticated?: { rateLimited: boolean };
}

function queryParameters({ entries, optional = [] }: NonNullable<Operation['query']>) {
  return Object.entries(entries).map(([name, schema]) => {
    const { description, ...rest } = jsonSchema(schema);
    const required = schema.type !== 'optional' && !optional.includes(name);
    return { name, in: 'query', required, ...(description ? { description } : {}), schema: rest };
  });
}

const AUTHENTICATION_ERRORS: ErrorCode[] = ['missingAuthorization', 'invalidApiKey'];

function operation({ query, requestBody, answer, errors, authenticated, ...described }: Operation) {
  const limited = authenticated?.rateLimited ? RATE_LIMIT_HEADERS : [];
  const all = [
    ...(authenticated ? AUTHENTICATION_ERRORS : []),
    ...errors,
    ...(limited.length ? (['rateLimited'] as const) : []),
    'internal' as const,
    'databaseBusy' as const,
  ];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of all) byStatus.set(ERRORS[code][0], [...(byStatus.get(ERRORS[code][0]) ?? []), code]);
  const errorHeaders = (status: number) =>
    status === 401 || status === 500
      ? []
      : status === 503
        ? ['Retry-After']
        : status === 429
          ? [...limited, 'Retry-After']
          : limited;
  return {
    ...described,
    ...(authenticated ? {} : { security: [] }),
    ...(query ? { parameters: queryParameters(query) } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      200: {
        description: 'Success.',
        headers: Object.fromEntries(
          [...limited, ...(authenticated ? ['Deprecation'] : [])].map((name) => [name, headerRef(name)]),
        ),
        content: json(jsonSchema(answer)),
      },
      ...Object.fromEntries(
        [...byStatus]
          .sort(([a], [b]) => a - b)
          .map(([status, codes]) => [status, errorResponse(codes, errorHeaders(status))]),
      ),
    },
  };
}

const WEBHOOK_HEADERS = [
  ['webhook-id', 'The delivery’s id: the same on every retry, so receivers can drop repeats.'],
  ['webhook-timestamp', 'Unix time (seconds) of this attempt.'],
  [
    'webhook-signature',
    'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `id.timestamp.body` with the webhook secret (Standard Webhooks).',
  ],
].map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));

function webhook(type: string, event: v.GenericSchema) {
  const schema = jsonSchema(event);
  return {
    post: {
      operationId: `on_${type.replace('.', '_')}`,
      summary: type,
      description: schema.description,
      parameters: WEBHOOK_HEADERS,
      requestBody: { required: true, content: json(schema) },
      responses: {
        '2XX': { description: 'Received: the delivery is done.' },
        410: { description: 'Gone: Parley stops retrying this delivery.' },
        default: {
          description:
            'Anything else, or no answer in WEBHOOK_TIMEOUT_MS: retried on WEBHOOK_RETRY_SCHEDULE, then marked failed.',
        },
      },
    },
  };
}

/** The OpenAPI 3.1 document of the REST API and its webhooks, from the schemas the routes parse with. */
export function openApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parley',
      version,
      description:
        'Imports people’s conversations from ChatGPT, Claude and other assistants’ data exports, and serves them to your backend. Every answer is JSON; errors are `{"error": message}`. The API changes only additively. People reach the hosted pages (`/start`, `/manage`) by single-use links your backend signs (`signLink` in parley-sdk, not part of this API); a link may carry a `returnUrl` on an origin registered with `app update --return-origin`, to which the pages send the person back with `parley_status` (`success`, `cancelled` or `error`) and, after an import, `connectionId`.',
    },
    components: {
      schemas: componentRefs(toJsonSchemaDefs(COMPONENTS, CONVERSION)),
      headers: HEADERS,
      responses: { MethodNotAllowed: errorResponse(['methodNotAllowed'], ['Allow']) },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (`parley_…`), from `npm run -s cli -- key create --app <appId>`.',
        },
      },
    },
    security: [{ apiKey: [] }],
    paths: {
      '/api/conversations': {
        get: operation({
          operationId: 'listConversations',
          summary: 'List a connection’s conversations, or (with userRef) a user’s connections',
          description:
            'With `connectionId`: a page of conversations, newest update first (with `q`, best match first); the last page is reached when `offset` + the number returned ≥ `total`. With `userRef` instead: the user’s connections, as `/api/connections` answers. Counted by the rate limit.',
          query: {
            entries: { ...schemas.ConnectionsQuery.entries, ...schemas.ConversationsQuery.entries },
            optional: ['userRef', 'connectionId'],
          },
          answer: v.union([schemas.ConversationPage, schemas.ConnectionList]),
          errors: [
            'missingUserRef',
            'invalidUserRef',
            'missingConnectionId',
            'invalidLimit',
            'invalidOffset',
            'invalidUpdatedSince',
            'invalidQ',
            'userNotFound',
            'connectionNotFound',
          ],
          authenticated: { rateLimited: true },
        }),
      },
      '/api/connections': {
        get: operation({
          operationId: 'listConnections',
          summary: 'List a user’s connections',
          description: 'Newest capture first. Counted by the rate limit.',
          query: { entries: schemas.ConnectionsQuery.entries },
          answer: schemas.ConnectionList,
          errors: ['missingUserRef', 'invalidUserRef', 'userNotFound'],
          authenticated: { rateLimited: true },
        }),
      },
      '/api/ingest-export': {
        post: operation({
          operationId: 'ingestExport',
          summary: 'Import a provider’s export for a user',
          description:
            'The body is the export as the provider gives it (the zip, or its conversations file), or a form with the fields beside the file (those before it are checked before it is read). `userRef` is required, in the query string or as a form field. All or nothing: a file that cannot be read writes nothing. Conversations already imported with the same content are counted as unchanged.',
          query: { entries: schemas.IngestFields.entries, optional: ['userRef'] },
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { description: 'The export’s conversations file.' } },
              'application/zip': { schema: { contentMediaType: 'application/zip' } },
              'application/x-zip-compressed': { schema: { contentMediaType: 'application/zip' } },
              'text/csv': { schema: { contentMediaType: 'text/csv' } },
              'multipart/form-data': { schema: jsonSchema(schemas.IngestForm) },
            },
          },
          answer: schemas.IngestResult,
          errors: [
            'unsupportedContentType',
            'missingUserRef',
            'invalidUserRef',
            'exportTooLarge',
            'conversationTooLarge',
            'expandedTooLarge',
            'attachmentTooLarge',
            'invalidProvider',
            'connectionNotFound',
            'connectionRevoked',
            'importConflict',
            'unrecognizedExport',
            'invalidExport',
            'bodyTooLarge',
            'requestTimeout',
            'importsBusy',
          ],
          authenticated: { rateLimited: false },
        }),
      },
      '/api/purge': {
        post: operation({
          operationId: 'purge',
          summary: 'Delete a user’s or a connection’s data',
          description: 'Hard delete, in one transaction.',
          requestBody: { required: true, content: json(jsonSchema(schemas.PurgeBody)) },
          answer: schemas.PurgeResult,
          errors: [
            'invalidJsonBody',
            'purgeTarget',
            'invalidUserRef',
            'userNotFound',
            'connectionNotFound',
            'bodyTooLarge',
            'requestTimeout',
          ],
          authenticated: { rateLimited: false },
        }),
      },
      '/healthz': {
        get: operation({
          operationId: 'health',
          summary: 'Whether the service and its database answer',
          answer: schemas.Health,
          errors: [],
        }),
      },
      '/openapi.json': {
        get: operation({
          operationId: 'openApi',
          summary: 'This document',
          answer: v.looseObject({ openapi: v.string() }),
          errors: [],
        }),
      },
    },
    webhooks: Object.fromEntries(Object.entries(schemas.EVENTS).map(([type, event]) => [type, webhook(type, event)])),
  };
}
