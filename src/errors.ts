import * as v from 'valibot';

/**
 * What went wrong with an upload, as the person holding the file needs to know
 * it: each kind has its own result page and its own next step. The API keeps the
 * precise error (and its reason) for developers.
 */
export const IMPORT_PROBLEMS = [
  'notAnExport',
  'otherProvider',
  'misexported',
  'damaged',
  'tooLarge',
  'conversationTooLarge',
  'conflict',
  'failed',
] as const;
export type ImportProblem = (typeof IMPORT_PROBLEMS)[number];

/** What an error shows besides its status and message, where that is not the default. */
interface Shown {
  /** The message may be followed by ": " and a short reason: in the API's answer and the log, never on a page. */
  detail?: true;
  /**
   * An upload the connect page refused with this error: the import's result page
   * naming this problem with the file, or, for a refusal of the request rather
   * than of the file, the error page. Without: the result page's `failed`. Every
   * other page refused with an error is its error page.
   */
  upload?: ImportProblem | 'errorPage';
}

type ErrorEntry = readonly [status: number, message: string, shown?: Shown];

/**
 * Every error a client can see, by code, with its status and exact message as
 * the API's interface defines them, and what else it shows (Shown). Services and
 * parsers throw a code; only the edges read the rest: the API answers the status
 * with `{"error": message}` (src/http/error-response.ts), the pages show a page
 * for it, the CLI prints `{"error": message}`.
 */
export const ERRORS = {
  missingAuthorization: [401, 'Missing Authorization header'],
  invalidApiKey: [401, 'Invalid API key'],
  // An agent token that is unknown, expired, of a purged user or minted by a revoked key: /mcp (see agent-tokens.ts).
  invalidAgentToken: [401, 'Invalid agent token'],
  invalidMetricsToken: [401, 'Invalid metrics token'],
  originNotAllowed: [403, 'Origin not allowed: set MCP_ALLOWED_ORIGINS'],
  missingUserRef: [400, 'Missing userRef parameter'],
  invalidUserRef: [400, 'Invalid userRef parameter'],
  missingConnectionId: [400, 'Missing connectionId parameter'],
  invalidLimit: [400, 'Invalid limit parameter'],
  invalidOffset: [400, 'Invalid offset parameter'],
  invalidUpdatedSince: [400, 'Invalid updatedSince parameter'],
  invalidQ: [400, 'Invalid q parameter'],
  invalidFields: [400, 'Invalid fields parameter'],
  invalidExpiresInSeconds: [400, 'Invalid expiresInSeconds parameter'],
  invalidJsonBody: [400, 'Invalid JSON body'],
  purgeTarget: [400, 'Provide exactly one of userRef or connectionId'],
  unrecognizedExport: [400, 'Unrecognized export format', { upload: 'notAnExport' }],
  invalidExport: [400, 'Invalid export file', { detail: true, upload: 'damaged' }],
  // The API's `invalidExport`, word for word; the pages tell these apart: a file
  // that is no export at all (not JSON, empty), and one made with other settings.
  fileNotAnExport: [400, 'Invalid export file', { detail: true, upload: 'notAnExport' }],
  misexportedExport: [400, 'Invalid export file', { detail: true, upload: 'misexported' }],
  invalidProvider: [400, 'Invalid provider parameter', { upload: 'otherProvider' }],
  invalidTimeZone: [400, 'Invalid timeZone parameter'],
  userNotFound: [404, 'User not found'],
  connectionNotFound: [404, 'Connection not found'],
  conversationNotFound: [404, 'Conversation not found'],
  attachmentNotFound: [404, 'Attachment not found'],
  // A memory or a project on the manage pages (the API lists them, and names none by id).
  memoryNotFound: [404, 'Memory not found'],
  projectNotFound: [404, 'Project not found'],
  notFound: [404, 'Not found'],
  methodNotAllowed: [405, 'Method not allowed'],
  requestTimeout: [408, 'Request timeout'],
  connectionRevoked: [409, 'Connection is revoked'],
  importConflict: [
    409,
    'Import conflict: the connection changed while the file was uploading; send it again',
    { upload: 'conflict' },
  ],
  exportTooLarge: [413, 'Export file too large', { upload: 'tooLarge' }],
  conversationTooLarge: [413, 'Export file too large: MAX_CONVERSATION_BYTES', { upload: 'conversationTooLarge' }],
  expandedTooLarge: [413, 'Export file too large: MAX_EXPANDED_BYTES', { upload: 'tooLarge' }],
  attachmentTooLarge: [413, 'Export file too large: MAX_ATTACHMENT_BYTES', { upload: 'tooLarge' }],
  tooManyRecords: [413, 'Export file too large: MAX_EXPORT_RECORDS', { upload: 'tooLarge' }],
  bodyTooLarge: [413, 'Request body too large'],
  unsupportedContentType: [415, 'Unsupported content type', { upload: 'errorPage' }],
  rangeNotSatisfiable: [416, 'Range not satisfiable'],
  rateLimited: [429, 'Rate limit exceeded'],
  internal: [500, 'Internal server error'],
  databaseBusy: [503, 'Database busy: try again shortly'],
  // The upload page's script sends the file again by itself.
  importsBusy: [503, 'Too many imports at once: try again shortly', { upload: 'errorPage' }],
  missingLink: [400, 'Missing link'],
  invalidLink: [401, 'Invalid link'],
  appNotFound: [404, 'App not found'],
  keyNotFound: [404, 'Key not found'],
  deliveryNotFound: [404, 'Delivery not found'],
  invalidWebhookUrl: [400, 'Invalid webhook URL: use an absolute http(s) URL'],
  webhookUrlCredentials: [400, 'Invalid webhook URL: it must not hold a user name or password (user:password@)'],
  privateWebhookUrl: [
    400,
    'Invalid webhook URL: its host is a private address, refused by WEBHOOK_ALLOW_PRIVATE=false',
  ],
  invalidDeliveryStatus: [400, 'Invalid status: use pending, delivered or failed'],
  linkExpired: [403, 'Link expired'],
  invalidLinkLifetime: [403, 'Invalid link lifetime'],
  wrongLinkPurpose: [400, 'Wrong link purpose'],
  forbiddenScope: [403, 'Forbidden scope'],
  linkAlreadyUsed: [403, 'Link already used'],
  sessionExpired: [401, 'Session expired', { upload: 'errorPage' }],
  invalidCsrf: [403, 'Invalid form token', { upload: 'errorPage' }],
  // A link's way back, and what the pages show of the app (`link --return-url`, `app update`).
  invalidReturnUrl: [400, 'Invalid returnUrl'],
  returnUrlNotAllowed: [403, 'Invalid returnUrl'],
  invalidReturnOrigin: [400, 'Invalid return origin: use https://host[:port], or http:// for localhost'],
  invalidDisplayName: [400, 'Invalid display name: use 1 to 100 characters'],
  invalidAccentColor: [400, 'Invalid accent color: use #RRGGBB'],
  accentColorTooLight: [400, 'Accent color too light', { detail: true }],
  invalidPrivacyUrl: [400, 'Invalid privacy policy URL: use an absolute http(s) URL'],
  invalidLogo: [400, 'Invalid logo: use a PNG, JPEG or WebP image', { detail: true }],
  logoTooLarge: [413, 'Logo too large: at most 256 KiB'],
  importPurged: [410, 'Import refused: data of this user was purged while the file was uploading'],
  userStorageFull: [413, 'Import would exceed the storage limit: MAX_STORED_BYTES_PER_USER', { upload: 'tooLarge' }],
  appStorageFull: [413, 'Import would exceed the storage limit: MAX_STORED_BYTES_PER_APP', { upload: 'tooLarge' }],
  // Resumable uploads (tus 1.0.0, /api/uploads) and importing one.
  // On the connect page, the upload its script named is the request's, not a file's problem.
  uploadNotFound: [404, 'Upload not found', { upload: 'errorPage' }],
  uploadNotComplete: [409, 'Upload not complete', { upload: 'errorPage' }],
  uploadImporting: [409, 'Upload already being imported: its result follows', { upload: 'errorPage' }],
  tooManyOpenUploads: [413, 'Too many open uploads'],
  uploadOffsetMismatch: [409, 'Upload-Offset does not match the bytes received'],
  invalidUploadLength: [400, 'Invalid Upload-Length header'],
  invalidUploadOffset: [400, 'Invalid Upload-Offset header'],
  invalidUploadMetadata: [400, 'Invalid Upload-Metadata header'],
  unsupportedTusVersion: [412, 'Unsupported Tus-Resumable version: use 1.0.0'],
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

/** What `code` shows besides its status and message. */
export const shownFor = (code: ErrorCode): Shown => (ERRORS as Record<ErrorCode, ErrorEntry>)[code][2] ?? {};

/** The errors whose message a short reason may follow, after ": ". */
export const ERRORS_WITH_DETAIL: readonly ErrorCode[] = (Object.keys(ERRORS) as ErrorCode[]).filter(
  (code) => shownFor(code).detail,
);

/** The one error Parley's rules throw: a code of ERRORS, and what the edge needs to say more. */
export class ParleyError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  /** When the same request may succeed again (busy, rate limited). */
  readonly retryAfterSeconds: number | undefined;

  /** `detail` follows the message after ": " where the table says the code shows one. */
  constructor(
    code: ErrorCode,
    { detail, retryAfterSeconds }: { detail?: string | undefined; retryAfterSeconds?: number } = {},
  ) {
    const message = ERRORS[code][1];
    super(detail && shownFor(code).detail ? `${message}: ${detail}` : message);
    this.code = code;
    this.detail = detail;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Input checked against a valibot schema whose every check carries, as its
 * message, the ErrorCode it fails with: the first failure is the answer.
 */
export function parseInput<Schema extends v.GenericSchema>(schema: Schema, input: unknown): v.InferOutput<Schema> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const code = result.issues[0].message;
  if (!(code in ERRORS)) throw new Error(`a schema failed without an error code: ${code}`);
  throw new ParleyError(code as ErrorCode);
}
