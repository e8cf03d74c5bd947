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
  Attachment: schemas.Attachment,
  Conversation: schemas.Conversation,
  ConversationPage: schemas.ConversationPage,
  Memory: schemas.Memory,
  MemoryPage: schemas.MemoryPage,
  Project: schemas.Project,
  ProjectPage: schemas.ProjectPage,
  ConversationSummary: schemas.ConversationSummary,
  ConversationSummaryPage: schemas.ConversationSummaryPage,
  IngestResult: schemas.IngestResult,
  PurgeResult: schemas.PurgeResult,
  AgentToken: schemas.AgentToken,
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
  ETag: {
    description: 'The bytes’ SHA-256 (base64url), quoted: a strong entity tag for `If-None-Match` and `If-Range`.',
    required: true,
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' },
  },
  'Cache-Control': {
    description:
      'Your own cache may keep the bytes, no shared one; it asks again before each use (a 304, or a 404 once the file is deleted).',
    required: true,
    schema: { const: 'private, no-cache' },
  },
  'Accept-Ranges': { description: 'Ranges are served.', required: true, schema: { const: 'bytes' } },
  'Content-Length': integerHeader('Bytes in this answer.'),
  'Content-Disposition': {
    description:
      'The file’s name, made safe to save under: `filename` in ASCII and `filename*` (RFC 5987) in UTF-8. `inline` for raster images, sound, video and plain text; every other type (SVG, HTML, PDF, …) `attachment`.',
    required: true,
    schema: { type: 'string', pattern: '^(inline|attachment); filename="[ -~]*"; filename\\*=UTF-8\'\'' },
  },
  'Content-Range': {
    description: 'The bytes sent and the file’s size (`bytes 0-99/5000`); on a 416, the size alone (`bytes */5000`).',
    required: true,
    schema: { type: 'string', pattern: '^bytes (\\d+-\\d+|\\*)/\\d+$' },
  },
  'Tus-Resumable': {
    description: 'The tus protocol version of the answer.',
    required: true,
    schema: { const: '1.0.0' },
  },
  'Tus-Version': { description: 'The tus versions spoken.', required: true, schema: { const: '1.0.0' } },
  'Tus-Extension': {
    description: 'The tus extensions spoken.',
    required: true,
    schema: { const: 'creation,creation-with-upload,termination,expiration' },
  },
  'Tus-Max-Size': integerHeader('The largest upload, in bytes: MAX_EXPORT_BYTES.'),
  Location: {
    description: 'The upload’s URL, relative to the server: `/api/uploads/{id}`.',
    required: true,
    schema: { type: 'string', pattern: '^/api/uploads/[0-9a-f-]+$' },
  },
  'Upload-Offset': integerHeader('The bytes the upload has received, which the server keeps.'),
  'Upload-Expires': {
    description: 'When the upload is removed unless a byte comes first (UPLOAD_EXPIRY_HOURS after the last).',
    required: true,
    schema: { type: 'string' },
  },
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
  /** The path's parameters (`{id}`). */
  path?: v.ObjectEntries;
  requestBody?: JsonObject;
  /**
   * A JSON answer's schema, `file`: the bytes of a stored file, whole or a range of
   * them, or an answer without a body (the tus protocol's).
   */
  answer: v.GenericSchema | 'file' | BodilessAnswer;
  errors: ErrorCode[];
  /** Without: no credential, and no rate limit. */
  authenticated?: { rateLimited: boolean };
}

interface BodilessAnswer {
  status: 201 | 204;
  description: string;
  /** Required headers; Upload-Offset is there only where the request sent bytes. */
  headers: string[];
}

function parameters(where: 'query' | 'path', { entries, optional = [] }: NonNullable<Operation['query']>) {
  return Object.entries(entries).map(([name, schema]) => {
    const { description, ...rest } = jsonSchema(schema);
    const required = schema.type !== 'optional' && !optional.includes(name);
    return { name, in: where, required, ...(description ? { description } : {}), schema: rest };
  });
}

const FILE_HEADERS = ['ETag', 'Cache-Control', 'Accept-Ranges', 'Content-Length', 'Content-Disposition'];

/** The answers carrying a file: whole, a range of it, or none when the caller's copy is current. */
const fileAnswers = (headers: string[]) => {
  const headerRefs = (names: string[]) => Object.fromEntries(names.map((name) => [name, headerRef(name)]));
  const bytes = { '*/*': { schema: { description: 'The bytes, with the file’s Content-Type.' } } };
  return {
    200: { description: 'The file.', headers: headerRefs([...FILE_HEADERS, ...headers]), content: bytes },
    206: {
      description: 'The range of the file a `Range: bytes=` header asked for (one range; several get the whole file).',
      headers: headerRefs([...FILE_HEADERS, 'Content-Range', ...headers]),
      content: bytes,
    },
    304: {
      description: '`If-None-Match` names the file’s ETag: the caller’s copy is current.',
      headers: headerRefs(['ETag', 'Cache-Control', ...headers]),
    },
  };
};

/** A resumable upload's bytes, as the tus protocol sends them. */
const uploadBytes = (required: boolean) => ({
  required,
  content: { 'application/offset+octet-stream': { schema: { contentMediaType: 'application/octet-stream' } } },
});
const UPLOAD_ID = { id: v.pipe(v.string(), v.description('The upload’s id, the last part of its `Location`.')) };

const AUTHENTICATION_ERRORS: ErrorCode[] = ['missingAuthorization', 'invalidApiKey'];

function operation({ query, path, requestBody, answer, errors, authenticated, ...described }: Operation) {
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
          : status === 416
            ? [...limited, 'Content-Range']
            : limited;
  const successHeaders = [...limited, ...(authenticated ? ['Deprecation'] : [])];
  const allParameters = [
    ...(path ? parameters('path', { entries: path }) : []),
    ...(query ? parameters('query', query) : []),
  ];
  return {
    ...described,
    ...(authenticated ? {} : { security: [] }),
    ...(allParameters.length ? { parameters: allParameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      ...(answer === 'file'
        ? fileAnswers(successHeaders)
        : 'status' in answer
          ? {
              [answer.status]: {
                description: answer.description,
                headers: Object.fromEntries(
                  [...answer.headers, ...successHeaders].map((name) => [name, headerRef(name)]),
                ),
              },
            }
          : {
              200: {
                description: 'Success.',
                headers: Object.fromEntries(successHeaders.map((name) => [name, headerRef(name)])),
                content: json(jsonSchema(answer)),
              },
            }),
      ...Object.fromEntries(
        [...byStatus]
          .sort(([a], [b]) => a - b)
          .map(([status, codes]) => [status, errorResponse(codes, errorHeaders(status))]),
      ),
    },
  };
}

/** GET /api/memories or /api/projects: a connection's, paged and limited as its conversations are. */
const besideListing = (
  operationId: string,
  what: string,
  query: v.ObjectSchema<v.ObjectEntries, ErrorCode>,
  answer: v.GenericSchema,
) =>
  operation({
    operationId,
    summary: `List a connection’s ${what}`,
    description: `A page of ${what}, newest update first; the last page is reached when \`offset\` + the number returned ≥ \`total\`. Counted by the rate limit, with the other listings.`,
    query: { entries: query.entries },
    answer,
    errors: ['missingConnectionId', 'invalidLimit', 'invalidOffset', 'invalidUpdatedSince', 'connectionNotFound'],
    authenticated: { rateLimited: true },
  });

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
            'With `connectionId`: a page of conversations, newest update first (with `q`, best match first); the last page is reached when `offset` + the number returned ≥ `total`; with `fields=summary`, without their payloads. With `userRef` instead: the user’s connections, as `/api/connections` answers. Counted by the rate limit.',
          query: {
            entries: { ...schemas.ConnectionsQuery.entries, ...schemas.ConversationsQuery.entries },
            optional: ['userRef', 'connectionId'],
          },
          answer: v.union([schemas.ConversationPage, schemas.ConversationSummaryPage, schemas.ConnectionList]),
          errors: [
            'missingUserRef',
            'invalidUserRef',
            'missingConnectionId',
            'invalidLimit',
            'invalidOffset',
            'invalidUpdatedSince',
            'invalidQ',
            'invalidFields',
            'userNotFound',
            'connectionNotFound',
          ],
          authenticated: { rateLimited: true },
        }),
      },
      '/api/conversations/{id}': {
        get: operation({
          operationId: 'getConversation',
          summary: 'One conversation, with its messages',
          description: 'The conversation as the listing gives it. Counted by the rate limit.',
          path: schemas.ConversationPath,
          answer: schemas.Conversation,
          errors: ['conversationNotFound', 'connectionRevoked'],
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
      '/api/memories': {
        get: besideListing('listMemories', 'memories', schemas.MemoriesQuery, schemas.MemoryPage),
      },
      '/api/projects': {
        get: besideListing('listProjects', 'projects', schemas.ProjectsQuery, schemas.ProjectPage),
      },
      '/api/attachments/{id}': {
        get: operation({
          operationId: 'getAttachment',
          summary: 'An attachment’s bytes',
          description:
            'The bytes of a file or image a message lists in its `attachments` (one whose `stored` is true), or of a project’s knowledge file, streamed, with its `Content-Type`. HEAD answers the headers alone. One `Range: bytes=` range gets a 206 (`If-Range` with the ETag keeps it to an unchanged file); `If-None-Match` with the ETag a 304. Not counted by the rate limit.',
          path: { id: v.pipe(v.string(), v.description('The attachment’s `id`, from a message’s `attachments`.')) },
          answer: 'file',
          errors: ['attachmentNotFound', 'rangeNotSatisfiable'],
          authenticated: { rateLimited: false },
        }),
      },
      '/api/ingest-export': {
        post: operation({
          operationId: 'ingestExport',
          summary: 'Import a provider’s export for a user',
          description:
            'The body is the export as the provider gives it (the zip, or its conversations file), or a form with the fields beside the file (those before it are checked before it is read); a form may carry several `file` fields, the files of one export of one provider, imported together (each at most `MAX_EXPORT_BYTES`, together at most `MAX_IMPORT_BYTES`). `userRef` is required, in the query string or as a form field. All or nothing: a file that cannot be read writes nothing, of any file. Conversations already imported with the same content are counted as unchanged.',
          query: {
            entries: {
              ...schemas.IngestFields.entries,
              upload: v.optional(
                v.pipe(
                  v.array(v.string()),
                  v.description(
                    'A complete resumable upload’s id (`/api/uploads`), instead of a body: it is imported, then removed. Repeated, the files of one export, imported together.',
                  ),
                ),
              ),
            },
            optional: ['userRef'],
          },
          requestBody: {
            required: false,
            content: {
              'application/json': { schema: { description: 'The export’s conversations file.' } },
              'application/zip': { schema: { contentMediaType: 'application/zip' } },
              'application/x-zip-compressed': { schema: { contentMediaType: 'application/zip' } },
              'text/csv': { schema: { contentMediaType: 'text/csv' } },
              'text/plain': { schema: { contentMediaType: 'text/plain' } },
              'text/html': { schema: { contentMediaType: 'text/html' } },
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
            'userStorageFull',
            'appStorageFull',
            'tooManyRecords',
            'invalidProvider',
            'invalidTimeZone',
            'connectionNotFound',
            'connectionRevoked',
            'importConflict',
            'importPurged',
            'unrecognizedExport',
            'invalidExport',
            'bodyTooLarge',
            'requestTimeout',
            'importsBusy',
            'uploadNotFound',
            'uploadNotComplete',
            'uploadImporting',
          ],
          authenticated: { rateLimited: false },
        }),
      },
      '/api/uploads': {
        options: operation({
          operationId: 'uploadOptions',
          summary: 'The tus protocol spoken (resumable uploads)',
          description: 'No credential.',
          answer: {
            status: 204,
            description: 'The version, extensions and largest upload.',
            headers: ['Tus-Resumable', 'Tus-Version', 'Tus-Extension', 'Tus-Max-Size'],
          },
          errors: [],
        }),
        post: operation({
          operationId: 'createUpload',
          summary: 'Create a resumable upload (tus 1.0.0)',
          description:
            'tus 1.0.0 with the creation, creation-with-upload, termination and expiration extensions: `Tus-Resumable: 1.0.0` and `Upload-Length` are required; `Upload-Metadata` may carry `filename` and `userRef` (an upload naming a user is imported only for them, and their purge removes it). A body of type `application/offset+octet-stream` is the first bytes, and the answer then carries `Upload-Offset`. `POST /api/ingest-export?upload=<id>` imports the upload once complete.',
          requestBody: uploadBytes(false),
          answer: {
            status: 201,
            description: 'Created: `Location` is the upload’s URL.',
            headers: ['Tus-Resumable', 'Location', 'Upload-Expires'],
          },
          errors: [
            'unsupportedTusVersion',
            'invalidUploadLength',
            'invalidUploadMetadata',
            'invalidUserRef',
            'exportTooLarge',
            'tooManyOpenUploads',
            'unsupportedContentType',
            'requestTimeout',
          ],
          authenticated: { rateLimited: false },
        }),
      },
      '/api/uploads/{id}': {
        patch: operation({
          operationId: 'continueUpload',
          summary: 'Send bytes of a resumable upload from `Upload-Offset`',
          description:
            'HEAD answers `Upload-Offset` (the bytes kept), `Upload-Length`, `Upload-Metadata` and `Upload-Expires`. A body cut off part-way keeps what arrived: ask HEAD, and go on from there.',
          path: UPLOAD_ID,
          requestBody: uploadBytes(true),
          answer: {
            status: 204,
            description: 'The bytes are kept.',
            headers: ['Tus-Resumable', 'Upload-Offset', 'Upload-Expires'],
          },
          errors: [
            'unsupportedTusVersion',
            'invalidUploadOffset',
            'unsupportedContentType',
            'uploadNotFound',
            'uploadOffsetMismatch',
            'exportTooLarge',
            'requestTimeout',
          ],
          authenticated: { rateLimited: false },
        }),
        delete: operation({
          operationId: 'deleteUpload',
          summary: 'Cancel a resumable upload, its bytes with it',
          path: UPLOAD_ID,
          answer: { status: 204, description: 'Deleted.', headers: ['Tus-Resumable'] },
          errors: ['unsupportedTusVersion', 'uploadNotFound'],
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
      '/api/agent-tokens': {
        post: operation({
          operationId: 'createAgentToken',
          summary: 'A token for your assistant to read one user’s data',
          description:
            'A short-lived, read-only token for the Model Context Protocol server at `/mcp`: it reads only this user’s conversations of this app, never those of a connection the person disconnected, and stops working when it expires, when the user is purged, or when the key that minted it is revoked. Only its hash is kept. Mint one per user session. Not counted by the rate limit; the assistant’s tool calls are.',
          requestBody: { required: true, content: json(jsonSchema(schemas.AgentTokenBody)) },
          answer: schemas.AgentToken,
          errors: [
            'invalidJsonBody',
            'missingUserRef',
            'invalidUserRef',
            'invalidExpiresInSeconds',
            'userNotFound',
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
