import * as v from 'valibot';
import { HttpUrl, PostgresUrl, S3Url } from './urls.ts';

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const integer = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, `must be a whole number from ${min} to ${max}`),
    v.transform(Number),
    v.minValue(min, `must be a whole number from ${min} to ${max}`),
    v.maxValue(max, `must be a whole number from ${min} to ${max}`),
  );

const publicUrl = v.pipe(
  HttpUrl,
  v.transform((url) => url.replace(/\/+$/, '')),
);

const retrySchedule = v.pipe(
  v.string(),
  v.regex(/^\d+(,\d+)*$/, 'must be a comma-separated list of whole seconds, such as 5,300,1800'),
  v.transform((list) => list.split(',').map(Number)),
);

const defaults = {
  PORT: '8787',
  HOST: '127.0.0.1',
  DATABASE_PATH: './data/parley.db',
  RATE_LIMIT_PER_MINUTE: '60',
  MAX_EXPORT_BYTES: '1073741824',
  WEBHOOK_RETRY_SCHEDULE: '5,300,1800,7200,18000,36000,36000',
  WEBHOOK_TIMEOUT_MS: '15000',
  STALE_AFTER_DAYS: '0',
  LOG_LEVEL: 'info',
  MAX_CONVERSATION_BYTES: '67108864',
  MAX_ATTACHMENT_BYTES: '536870912',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  HEADERS_TIMEOUT_MS: '10000',
  BODY_TIMEOUT_MS: '30000',
  UPLOAD_IDLE_TIMEOUT_MS: '60000',
  LINGER_TIMEOUT_MS: '10000',
  MAX_CONCURRENT_IMPORTS: '2',
  IMPORT_QUEUE_TIMEOUT_MS: '5000',
  AWS_REGION: 'us-east-1',
  MAX_STORED_BYTES_PER_APP: '0',
  MAX_EXPORT_RECORDS: '250000',
  MAX_OPEN_UPLOAD_BYTES: String(16 * 1024 ** 3),
  UPLOAD_EXPIRY_HOURS: '24',
  CONNECT_SESSION_HOURS: '24',
};

/** V8's longest string: a conversation's JSON must fit in one to be parsed. */
const MAX_STRING_LENGTH = 536_870_888;

const EnvSchema = v.object({
  PORT: integer(0, 65535),
  HOST: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    // Digits and dots are an IPv4 address or nothing: Bun would say such a host's port is in use.
    v.check(
      (host) => !/^[\d.]+$/.test(host) || /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?!$)|$)){4}$/.test(host),
      'must be an IP address or a host name',
    ),
  ),
  DATABASE_PATH: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  PUBLIC_URL: publicUrl,
  RATE_LIMIT_PER_MINUTE: integer(1, 1_000_000_000),
  MAX_EXPORT_BYTES: integer(1, Number.MAX_SAFE_INTEGER),
  WEBHOOK_RETRY_SCHEDULE: retrySchedule,
  WEBHOOK_TIMEOUT_MS: integer(1, 3_600_000),
  STALE_AFTER_DAYS: integer(0, 36_500),
  LOG_LEVEL: v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`),
  MAX_CONVERSATION_BYTES: integer(1, MAX_STRING_LENGTH),
  MAX_ATTACHMENT_BYTES: integer(1, Number.MAX_SAFE_INTEGER),
  HEADERS_TIMEOUT_MS: integer(1, 3_600_000),
  BODY_TIMEOUT_MS: integer(1, 3_600_000),
  UPLOAD_IDLE_TIMEOUT_MS: integer(1, 3_600_000),
  LINGER_TIMEOUT_MS: integer(0, 3_600_000),
  MAX_CONCURRENT_IMPORTS: integer(1, 1000),
  IMPORT_QUEUE_TIMEOUT_MS: integer(0, 3_600_000),
  // Unset: four times MAX_EXPORT_BYTES, which decides it, so it has no fixed default.
  MAX_EXPANDED_BYTES: v.optional(integer(1, Number.MAX_SAFE_INTEGER)),
  // Unset: four times MAX_EXPORT_BYTES, as MAX_EXPANDED_BYTES.
  MAX_IMPORT_BYTES: v.optional(integer(1, Number.MAX_SAFE_INTEGER)),
  DATABASE_URL: v.optional(PostgresUrl),
  WEBHOOK_ALLOW_PRIVATE: v.pipe(
    v.picklist(['true', 'false'], 'must be true or false'),
    v.transform((value) => value === 'true'),
  ),
  ATTACHMENTS_URL: v.optional(S3Url),
  AWS_ACCESS_KEY_ID: v.optional(v.string()),
  AWS_SECRET_ACCESS_KEY: v.optional(v.string()),
  AWS_SESSION_TOKEN: v.optional(v.string()),
  // `auto` too: what Cloudflare R2 asks for.
  AWS_REGION: v.pipe(v.string(), v.regex(/^[a-z0-9-]+$/, 'must be a region name, such as us-east-1')),
  AWS_ENDPOINT_URL: v.optional(publicUrl),
  // Unset: four times MAX_EXPANDED_BYTES, which decides it; 0 is no bound.
  MAX_STORED_BYTES_PER_USER: v.optional(integer(0, Number.MAX_SAFE_INTEGER)),
  MAX_STORED_BYTES_PER_APP: integer(0, Number.MAX_SAFE_INTEGER),
  MAX_EXPORT_RECORDS: integer(1, 1_000_000_000),
  MAX_OPEN_UPLOAD_BYTES: integer(1, Number.MAX_SAFE_INTEGER),
  UPLOAD_EXPIRY_HOURS: integer(1, 8760),
  CONNECT_SESSION_HOURS: integer(1, 168),
  // Unset: no /metrics.
  METRICS_TOKEN: v.optional(v.string()),
  // Unset: /mcp refuses every request a browser sends from a page (one with an Origin).
  MCP_ALLOWED_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((list) => list.split(',').map((origin) => origin.trim())),
      v.array(
        v.pipe(
          v.string(),
          v.regex(/^https?:\/\/[^/\s]+$/, 'must be a comma-separated list of origins, such as https://app.example.com'),
        ),
      ),
    ),
  ),
});

/** Every environment variable Parley reads. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.entries);

/** S3-compatible object storage for attachment bytes (ATTACHMENTS_URL and the AWS_* variables). */
export interface S3Config {
  bucket: string;
  /** Objects are named `<prefix>/<blob id>`; '' puts them at the bucket's top. */
  prefix: string;
  region: string;
  /** A server other than AWS's (MinIO, R2, …), addressed path-style; AWS's own for the region without one. */
  endpoint: string | undefined;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string | undefined;
}

export interface Config {
  port: number;
  host: string;
  databasePath: string;
  publicUrl: string;
  rateLimitPerMinute: number;
  maxExportBytes: number;
  /** The most the files of one import (several `file` fields, or uploads) may hold together. */
  maxImportBytes: number;
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  staleAfterDays: number;
  logLevel: LogLevel;
  /** The largest single conversation (its JSON) an export may hold. */
  maxConversationBytes: number;
  /** The most bytes read out of one archive, whatever it compresses to. */
  maxExpandedBytes: number;
  /** The largest single file (an image, a PDF) an export may hold. */
  maxAttachmentBytes: number;
  /** The most records (conversations, entries, rows, any JSON element) and files of zips one upload may hold. */
  maxExportRecords: number;
  /** PostgreSQL instead of the SQLite file, when set. */
  databaseUrl: string | undefined;
  /** Whether webhooks may go to loopback, private and link-local addresses (see webhooks/target.ts). */
  webhookAllowPrivate: boolean;
  /** A request's headers must all arrive within this (where the runtime lets us say so). */
  headersTimeoutMs: number;
  /** A body that is not an upload must all arrive within this. */
  bodyTimeoutMs: number;
  /** An upload is cut off when no byte of it arrives for this long. */
  uploadIdleTimeoutMs: number;
  /** How long the rest of a refused body is read and discarded, so its client hears the answer (Node). */
  lingerTimeoutMs: number;
  /** Imports read at once by this process; more wait, then are refused with 503. */
  maxConcurrentImports: number;
  /** How long an import waits for a free slot before that 503. */
  importQueueTimeoutMs: number;
  /** Where new attachment bytes go: S3-compatible storage, or the database when undefined. */
  attachmentsS3: S3Config | undefined;
  /** The most an import may leave one user's connections storing (payloads and files, in bytes); 0: no bound. */
  maxStoredBytesPerUser: number;
  /** The same for all the users of one app together. */
  maxStoredBytesPerApp: number;
  /** The most one app's unfinished resumable uploads may declare together, in bytes. */
  maxOpenUploadBytes: number;
  /** A resumable upload is removed this long after its last byte. */
  uploadExpiryHours: number;
  /** A connect page's session lasts at least this long after its link opened it, for a person who went to request their export. */
  connectSessionHours: number;
  /** The bearer token GET /metrics requires; undefined: no /metrics. */
  metricsToken: string | undefined;
  /** The browser origins whose pages may call /mcp; none by default. */
  mcpAllowedOrigins: readonly string[];
}

export class ConfigError extends Error {}

/** Variables with no default: unset (or empty), they are undefined. */
const OPTIONAL = [
  'MAX_EXPANDED_BYTES',
  'MAX_IMPORT_BYTES',
  'DATABASE_URL',
  'ATTACHMENTS_URL',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_ENDPOINT_URL',
  'MAX_STORED_BYTES_PER_USER',
  'MCP_ALLOWED_ORIGINS',
  'METRICS_TOKEN',
] as const;

/** Reads the configuration from environment variables; throws one line naming the first bad one. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const given = (name: string) => (env[name] === '' ? undefined : env[name]);
  const input: Record<string, string | undefined> = Object.fromEntries(
    Object.entries(defaults).map(([name, fallback]) => [name, given(name) ?? fallback]),
  );
  // Unset: where this server listens, as seen from the machine it runs on.
  input.PUBLIC_URL = given('PUBLIC_URL') ?? `http://localhost:${input.PORT}`;
  for (const name of OPTIONAL) input[name] = given(name);
  const invalid = (name: string, message: string) => {
    // A database URL may hold a password: the line shows the value without it.
    const shown = (input[name] ?? '').replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
    return new ConfigError(`Invalid configuration: ${name} ${message} (got ${JSON.stringify(shown)})`);
  };
  const result = v.safeParse(EnvSchema, input);
  if (!result.success) {
    const issue = result.issues[0];
    throw invalid(issue.path?.[0]?.key as string, issue.message);
  }
  const e = result.output;
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const)
    if (e.ATTACHMENTS_URL && !e[name]) throw invalid(name, 'must be set when ATTACHMENTS_URL is');
  const maxExpandedBytes = e.MAX_EXPANDED_BYTES ?? 4 * e.MAX_EXPORT_BYTES;
  return {
    port: e.PORT,
    host: e.HOST,
    databasePath: e.DATABASE_PATH,
    publicUrl: e.PUBLIC_URL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    maxExportBytes: e.MAX_EXPORT_BYTES,
    maxImportBytes: e.MAX_IMPORT_BYTES ?? 4 * e.MAX_EXPORT_BYTES,
    webhookRetrySchedule: e.WEBHOOK_RETRY_SCHEDULE,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    staleAfterDays: e.STALE_AFTER_DAYS,
    logLevel: e.LOG_LEVEL,
    maxConversationBytes: e.MAX_CONVERSATION_BYTES,
    maxExpandedBytes,
    maxAttachmentBytes: e.MAX_ATTACHMENT_BYTES,
    maxExportRecords: e.MAX_EXPORT_RECORDS,
    databaseUrl: e.DATABASE_URL,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: e.BODY_TIMEOUT_MS,
    uploadIdleTimeoutMs: e.UPLOAD_IDLE_TIMEOUT_MS,
    lingerTimeoutMs: e.LINGER_TIMEOUT_MS,
    maxConcurrentImports: e.MAX_CONCURRENT_IMPORTS,
    importQueueTimeoutMs: e.IMPORT_QUEUE_TIMEOUT_MS,
    attachmentsS3: e.ATTACHMENTS_URL && {
      ...e.ATTACHMENTS_URL,
      region: e.AWS_REGION,
      endpoint: e.AWS_ENDPOINT_URL,
      accessKeyId: e.AWS_ACCESS_KEY_ID!,
      secretAccessKey: e.AWS_SECRET_ACCESS_KEY!,
      sessionToken: e.AWS_SESSION_TOKEN,
    },
    maxStoredBytesPerUser: e.MAX_STORED_BYTES_PER_USER ?? 4 * maxExpandedBytes,
    maxStoredBytesPerApp: e.MAX_STORED_BYTES_PER_APP,
    maxOpenUploadBytes: e.MAX_OPEN_UPLOAD_BYTES,
    uploadExpiryHours: e.UPLOAD_EXPIRY_HOURS,
    connectSessionHours: e.CONNECT_SESSION_HOURS,
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS ?? [],
    metricsToken: e.METRICS_TOKEN,
  };
}
