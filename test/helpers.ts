import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Zip, ZipDeflate } from 'fflate';
import { createApp, type App } from '../src/app.ts';
import { attachmentStores } from '../src/attachments/stores.ts';
import { onboardApp } from '../src/apps/apps.ts';
import { parseConfig, type Config } from '../src/config.ts';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { betterSqlite3, openBetterSqlite3 } from '../src/db/better-sqlite3.ts';
import type { AttachmentKind, ConnectionStatus, Database, Db } from '../src/db/database.ts';
import { dialectOf } from '../src/db/dialects/dialect.ts';
import { openPostgres, postgres } from '../src/db/dialects/postgres.ts';
import { partFilesBeside } from '../src/db/part-files.ts';
import { openCounters } from '../src/db/rate-buckets.ts';
import { readSchema } from '../src/db/schema-file.ts';
import { cryptoRandom, isoTime, type Clock, type Deps } from '../src/deps.ts';
import { createLogger } from '../src/log.ts';
import { checkingAnswers } from './openapi-check.ts';
import { Metrics } from '../src/metrics/metrics.ts';

export const FIXED_NOW = Date.parse('2026-03-01T12:00:30.000Z');

/** The Fetch Metadata headers of a person's top-level navigation: what opens a manage link. */
export const NAVIGATION = { 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' } as const;

export interface TestClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function fixedClock(start = FIXED_NOW): TestClock {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

export interface TestContext {
  app: App;
  deps: Deps;
  clock: TestClock;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The app onboarded for the test, with its first API key. */
  tenant: { appId: string; appSecret: string; apiKey: string; keyId: string };
  /** `app.request` with the tenant's API key unless `headers.Authorization` says otherwise. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Whether `db` is PostgreSQL: what a test checks inside the database differs. */
export const isPostgres = (db: Db): boolean => dialectOf(db) === postgres;

/**
 * The database a test runs on. By default SQLite: in memory, or the file at
 * `databasePath`. With PARLEY_TEST_DATABASE_URL (npm test sets it for its second
 * run of the API, import, pages and webhook suites) PostgreSQL: a schema of its
 * own in that database — a fresh one, or for a `databasePath` the one named
 * after it, so that two opens of one "file" share their data as they would.
 */
export async function openTestDatabase(databasePath = ':memory:'): Promise<Db> {
  if (!process.env.PARLEY_TEST_DATABASE_URL) return openBetterSqlite3(databasePath);
  const schema =
    databasePath === ':memory:'
      ? `t_${crypto.randomUUID().replace(/-/g, '')}`
      : `f_${databasePath.replace(/\W/g, '_').slice(-50)}`;
  return openPostgresSchema(schema, readSchema('schema.postgres.sql'));
}

/** A schema of its own in the PostgreSQL test database (created if new), brought up to `schemaSql`. */
async function openPostgresSchema(schema: string, schemaSql: string): Promise<Db> {
  const url = process.env.PARLEY_TEST_DATABASE_URL!;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    await admin.end();
  }
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  return openPostgres(scoped.href, schemaSql, { poolSize: 4, allowExitOnIdle: true });
}

/**
 * A database of the test run's kind (as openTestDatabase) named `name`, at the
 * version before `version` of its schema file (`sqlite` of schema.sql,
 * `postgres` of schema.postgres.sql: one change's two numbers), to fill as an
 * older release left it; `upgraded` opens it again with the whole schema.
 */
export async function databaseBefore(name: string, version: { sqlite: number; postgres: number }) {
  const onPostgres = Boolean(process.env.PARLEY_TEST_DATABASE_URL);
  const schema = onPostgres ? readSchema('schema.postgres.sql') : readSchema();
  const previous = schema.slice(0, schema.indexOf(`-- version ${onPostgres ? version.postgres : version.sqlite}\n`));
  const open = (schemaSql: string) =>
    onPostgres ? openPostgresSchema(name, schemaSql) : openBetterSqlite3(join(tmpdir(), `${name}.db`), schemaSql);
  return { db: await open(previous), upgraded: () => open(schema) };
}

/** Where the test database's requests are counted, when not in it: SQLite's counters database (see rate-buckets.ts). */
export async function openTestCounters(databasePath = ':memory:'): Promise<Db | undefined> {
  return process.env.PARLEY_TEST_DATABASE_URL ? undefined : openCounters(betterSqlite3, databasePath);
}

/** An app over an in-memory database (or see openTestDatabase), a fixed clock and one onboarded tenant. */
export async function setup(
  env: Record<string, string> = {},
  { now = FIXED_NOW, databasePath = ':memory:' }: { now?: number; databasePath?: string } = {},
): Promise<TestContext> {
  const config: Config = parseConfig({ LOG_LEVEL: 'debug', ...env });
  const clock = fixedClock(now);
  const logs: Array<Record<string, unknown>> = [];
  const db = await openTestDatabase(databasePath);
  const deps: Deps = {
    db,
    counters: await openTestCounters(databasePath),
    attachments: attachmentStores(db, config),
    // As a server keeps them on a SQLite file.
    partFiles: databasePath === ':memory:' || isPostgres(db) ? undefined : partFilesBeside(databasePath),
    config,
    clock,
    random: cryptoRandom,
    log: createLogger('debug', (line) => logs.push(JSON.parse(line))),
    metrics: new Metrics(),
  };
  const app = createApp(deps);
  // Every answer a test sees must be one /openapi.json describes.
  app.request = checkingAnswers(app.request) as typeof app.request;
  const tenant = await onboardApp(deps, 'Test app');
  const request = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${tenant.apiKey}`);
    return app.request(path, { ...init, headers });
  };
  return { app, deps, clock, logs, tenant, request };
}

/** An app straight through the data layer, with only the columns every schema version has. */
export async function seedApp(db: Db, id: string): Promise<void> {
  await db
    .insertInto('apps')
    .values({
      id,
      name: id,
      secret: 's',
      secret_hash: `h-${id}`,
      allowed_scopes: 'conversations:read',
      created_at: new Date().toISOString(),
    } as never)
    .execute();
}

/**
 * Seeds a user's connection with `count` conversations straight through the data
 * layer; conversation i has update_time FIXED_NOW - i minutes (0 newest).
 */
export async function seedConnection(
  deps: Pick<Deps, 'db' | 'clock'>,
  {
    appId,
    userRef,
    provider = 'openai',
    count = 0,
    status = 'active',
    capturedAt = deps.clock.now(),
  }: {
    appId: string;
    userRef: string;
    provider?: string;
    count?: number;
    status?: ConnectionStatus;
    capturedAt?: number;
  },
): Promise<{ userId: string; connectionId: string }> {
  const { db } = deps;
  const now = isoTime(deps.clock.now());
  await db
    .insertInto('users')
    .values({ id: crypto.randomUUID(), app_id: appId, user_ref: userRef, created_at: now })
    .onConflict((oc) => oc.columns(['app_id', 'user_ref']).doNothing())
    .execute();
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('app_id', '=', appId)
    .where('user_ref', '=', userRef)
    .executeTakeFirstOrThrow();
  const connectionId = crypto.randomUUID();
  await db
    .insertInto('connections')
    .values({
      id: connectionId,
      user_id: user.id,
      provider,
      status,
      captured_at: isoTime(capturedAt),
      last_sync_at: count ? now : null,
      conversation_count: count,
    })
    .execute();
  for (let start = 0; start < count; start += 200) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 200); i++) {
      const title = `Conversation ${i}`;
      rows.push({
        id: crypto.randomUUID(),
        connection_id: connectionId,
        external_id: `ext-${i}`,
        title,
        payload: storedPayload(
          db,
          JSON.stringify({ title, messages: [{ role: 'user', content: `Message ${i}`, timestamp: null }] }),
        ),
        update_time: isoTime(FIXED_NOW - i * 60_000),
        created_at: now,
        changed_at: now,
      });
    }
    await db.insertInto('conversations').values(rows).execute();
  }
  return { userId: user.id, connectionId };
}

/** A payload as the conversations table keeps it: text in SQLite, UTF-8 bytes (bytea) in PostgreSQL. */
export const storedPayload = (db: Db, payload: string): string =>
  isPostgres(db) ? (new TextEncoder().encode(payload) as unknown as string) : payload;

export const json = async (response: Response): Promise<any> => JSON.parse(await response.text());

/** What a connection stores, in bytes, as its column says. */
export const storedBytes = async (t: TestContext, connectionId: string) =>
  Number(
    (
      await t.deps.db
        .selectFrom('connections')
        .select('stored_bytes')
        .where('id', '=', connectionId)
        .executeTakeFirstOrThrow()
    ).stored_bytes,
  );

/** Parley's own exports in the providers' shapes (see test/fixtures/README.md). */
export const FIXTURES_DIR = new URL('./fixtures/', import.meta.url);

export const fixtureBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, FIXTURES_DIR)));

export const fixtureJson = (name: string): any => JSON.parse(readFileSync(new URL(name, FIXTURES_DIR), 'utf8'));

/** Every JSON export at the top of test/fixtures/ (not the zip folders' files). */
export const FIXTURE_NAMES = readdirSync(FIXTURES_DIR)
  .filter((name) => name.endsWith('.json'))
  .sort();

/** Every export at the top of test/fixtures/: the JSON ones, Copilot's CSV, Duck.ai's text and Meta AI's HTML. */
export const EXPORT_FIXTURE_NAMES = readdirSync(FIXTURES_DIR)
  .filter((name) => /\.(json|csv|txt|html)$/.test(name))
  .sort();

const FIXTURE_TYPES: Readonly<Record<string, string>> = { csv: 'text/csv', txt: 'text/plain', html: 'text/html' };

/** The Content-Type a fixture is uploaded with. */
export const fixtureContentType = (name: string) =>
  FIXTURE_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/json';

/**
 * The provider an export file is from, by its name's prefix (before the first `-`):
 * the one place tests map file names to providers, for test/fixtures/ and the
 * third-party folders beside the repository alike.
 */
export const PROVIDER_BY_PREFIX: Readonly<Record<string, string>> = {
  chatgpt: 'openai',
  claude: 'anthropic',
  deepseek: 'deepseek',
  grok: 'xai',
  gemini: 'google',
  copilot: 'microsoft',
  perplexity: 'perplexity',
  duckai: 'duckduckgo',
  mistral: 'mistral',
  meta: 'meta',
};

export function providerOfFixture(name: string): string {
  const provider = PROVIDER_BY_PREFIX[name.split('-')[0]!];
  if (!provider)
    throw new Error(`${name}: no provider for its prefix (known: ${Object.keys(PROVIDER_BY_PREFIX).join(', ')})`);
  return provider;
}

/**
 * Conversations in the fixtures whose entries or rows are grouped into conversations (or, Meta AI’s, labelled within one page),
 * counted by hand from the files (see test/fixtures/README.md).
 */
const GROUPED_CONVERSATIONS: Readonly<Record<string, number>> = {
  // A gap of exactly 30 minutes splits the first afternoon in two; the two exchanges of one
  // titleUrl id stay together 2.5 hours apart; the four other entries are not messages.
  'gemini-my-activity.json': 4,
  // Two conversations (one titleUrl id ten hours apart; two nameless exchanges 7 minutes apart) and an answer
  // without a prompt, skipped; feedback and an entry of only a title are not counted.
  'gemini-details-activity.json': 3,
  // "Best lighting hours for photography" over four weeks and "Regex, quickly" are one each; the nameless rows two, 1 h 43 min apart.
  'copilot-activity-history.csv': 4,
  // Meta AI's page and JSON: one conversation per `.txt` label.
  'meta-your_ai_conversations.html': 2,
  'meta-your_ai_conversations.json': 2,
};

/** How many conversations a top-level fixture holds: created + updated + unchanged + skipped when it is imported. */
export function conversationsInFixture(name: string): number {
  const grouped = GROUPED_CONVERSATIONS[name];
  if (grouped !== undefined) return grouped;
  // A Duck.ai text file is one conversation.
  if (name.endsWith('.txt')) return 1;
  const parsed = fixtureJson(name);
  if (Array.isArray(parsed)) return parsed.length;
  // Grok's and Perplexity's exports are one object whose `conversations` array holds one entry per
  // conversation; the Perplexity Thread Exporter's, naming its thread in `metadata`, holds one thread's turns.
  if (Array.isArray(parsed.conversations) && parsed.metadata === undefined) return parsed.conversations.length;
  return 1;
}

/**
 * What each provider's connection holds once every top-level fixture is imported for one user:
 * every conversation id is distinct across the fixtures, those without one are skipped (one
 * DeepSeek, one Grok), and Meta AI's page and JSON share one conversation.
 */
export const FIXTURE_CONVERSATIONS_BY_PROVIDER: Readonly<Record<string, number>> = {
  openai: 12,
  anthropic: 15,
  microsoft: 4,
  deepseek: 3,
  google: 6,
  xai: 2,
  perplexity: 4,
  duckduckgo: 1,
  meta: 3,
};

/** The services the connect page offers, in its order, as a person reads them. */
export const SERVICE_NAMES = [
  'ChatGPT',
  'Claude',
  'Gemini',
  'Microsoft Copilot',
  'Grok',
  'DeepSeek',
  'Perplexity',
  'Duck.ai',
  'Le Chat',
  'Meta AI',
] as const;

/** A Claude export of `count` conversations, each the fixture's first under an id and title of its own (from `from` on). */
export function claudeConversations(count: number, from = 0): any[] {
  const [first] = fixtureJson('claude-conversations.json');
  return Array.from({ length: count }, (_, i) => ({
    ...first,
    uuid: `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`,
    name: `Conversation ${from + i}`,
  }));
}

/**
 * A ChatGPT conversations file (as text) of `count` one-message conversations whose titles and
 * messages say `word`; their ids are `${idPrefix}-0`, `${idPrefix}-1`, ….
 */
export function chatgptConversations(count: number, word: string, idPrefix = word): string {
  return JSON.stringify(
    Array.from({ length: count }, (_, i) => ({
      id: `${idPrefix}-${i}`,
      title: `${word} ${i}`,
      current_node: 'm',
      mapping: {
        m: {
          id: 'm',
          message: {
            author: { role: 'user' },
            create_time: 1700000000 + i,
            content: { content_type: 'text', parts: [`${word} number ${i}`] },
          },
        },
      },
    })),
  );
}

/**
 * The files under a folder of test/fixtures/ by their path inside it (`/`-separated,
 * folders included), ready for fflate's zipSync: the zips the providers ship.
 */
export function zipFolderFiles(folder: string): Record<string, Uint8Array> {
  const root = folder.endsWith('/') ? folder : `${folder}/`;
  const files: Record<string, Uint8Array> = {};
  const walk = (path: string) => {
    for (const entry of readdirSync(new URL(path, FIXTURES_DIR), { withFileTypes: true })) {
      if (entry.isDirectory()) walk(`${path}${entry.name}/`);
      else files[`${path}${entry.name}`.slice(root.length)] = fixtureBytes(`${path}${entry.name}`);
    }
  };
  walk(root);
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** POSTs an export to /api/ingest-export with the tenant's key; `query` is appended as is. */
export function postExport(
  t: TestContext,
  body: BodyInit | Uint8Array,
  { query = 'userRef=u1', contentType = 'application/json' } = {},
) {
  const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
  return t.request(`/api/ingest-export?${query}`, { method: 'POST', headers, body: body as BodyInit });
}

/**
 * Posts `bytes` as an export in one chunk, then holds the body open: the import
 * has all of the file but its end until `release`, which sends `tail` (a form's
 * fields after its file, say) and ends the body. `askedForMore` settles when the
 * import asks for what comes after the chunk.
 */
export function heldUpload(
  t: TestContext,
  bytes: Uint8Array,
  {
    query = 'userRef=u1',
    contentType = 'application/json',
    tail,
  }: { query?: string; contentType?: string; tail?: Uint8Array } = {},
) {
  let asked = () => {};
  const askedForMore = new Promise<void>((resolve) => (asked = resolve));
  // Released before the server asks for more (it may still be reading the first chunk): the end waits for that ask.
  let released = false;
  let finish = () => {};
  let sent = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(bytes);
          return;
        }
        asked();
        return new Promise<void>((resolve) => {
          finish = () => {
            if (tail) controller.enqueue(tail);
            controller.close();
            resolve();
          };
          if (released) finish();
        });
      },
    },
    { highWaterMark: 0 },
  );
  const response = t.request(`/api/ingest-export?${query}`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
    duplex: 'half',
  } as RequestInit);
  const release = () => {
    released = true;
    finish();
  };
  return { response, askedForMore, release };
}

/** How many rows `table` holds. */
export const rowsIn = async (db: Db, table: keyof Database & string): Promise<number> =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Row counts of every table an import writes, to prove a failed one wrote nothing. */
export async function rowCounts(deps: Deps) {
  const count = async (table: 'users' | 'connections' | 'conversations' | 'import_staging') =>
    Number(
      (
        await deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await count('users'),
    connections: await count('connections'),
    conversations: await count('conversations'),
    staged: await count('import_staging'),
  };
}

/** Asserts an import fails with exactly this answer and leaves every table as it was. */
export async function expectRefused(
  t: TestContext,
  send: () => Promise<Response>,
  status: number,
  error: string | RegExp,
) {
  const before = await rowCounts(t.deps);
  const response = await send();
  const body = await json(response);
  assert.equal(response.status, status, JSON.stringify(body));
  if (typeof error === 'string') assert.deepEqual(body, { error });
  else assert.match(body.error, error);
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.deepEqual(await rowCounts(t.deps), before);
  return response;
}

/** A multipart form: the fields in order, then the file (if any) in the `file` field, then the fields `after` it. */
export function form(
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; type: string; name?: string },
  after: Record<string, string> = {},
): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file)
    data.append('file', new Blob([file.bytes as BlobPart], { type: file.type }), file.name ?? 'conversations.json');
  for (const [name, value] of Object.entries(after)) data.append(name, value);
  return data;
}

/** A connection's conversations as GET /api/conversations lists them (one page of up to 100). */
export async function conversationsOf(t: TestContext, connectionId: string): Promise<any[]> {
  return (await json(await t.request(`/api/conversations?connectionId=${connectionId}&limit=100`))).conversations;
}

/** One page of GET /api/conversations. */
export interface ConversationsPage {
  conversations: any[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * Every page of a listing, walked as the interface tells a client to: from
 * offset 0, each next page at this one's offset plus its echoed `limit`, until
 * `offset + returned >= total`. Checks what that walk relies on: each page
 * echoes the offset asked for, and each page before the last is full.
 */
export async function everyPage(page: (offset: number) => Promise<ConversationsPage>): Promise<ConversationsPage[]> {
  const pages: ConversationsPage[] = [];
  for (let offset = 0; ; offset += pages.at(-1)!.limit) {
    const got = await page(offset);
    pages.push(got);
    assert.equal(got.offset, offset, 'the page echoes its offset');
    if (got.offset + got.conversations.length >= got.total) return pages;
    assert.ok(got.limit > 0, `a page before the last has a limit (offset ${offset})`);
    assert.equal(got.conversations.length, got.limit, `a page before the last is full (offset ${offset})`);
  }
}

/** Every page of a connection's conversations from the app, asking for `limit` at a time. */
export const conversationPages = (t: TestContext, connectionId: string, limit: number) =>
  everyPage(async (offset) => {
    const res = await t.request(`/api/conversations?connectionId=${connectionId}&limit=${limit}&offset=${offset}`);
    const body = await json(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  });

/** One request of an API scenario; `path` and `body` may be functions of what the table's seed made (ids). */
export interface ScenarioRequest<Seeded> {
  method?: string;
  path: string | ((seeded: Seeded) => string);
  /** Left out: the tenant's key; `null`: no header; a function: the header it gives for the test's tenant, or none. */
  authorization?: string | null | ((t: TestContext) => string | undefined);
  headers?: Record<string, string>;
  body?: string | ((seeded: Seeded) => string);
}

/**
 * A row of an API table, as pocketbase's `ApiScenario`: what is sent (one
 * request, or several that must all get the same answer) and the answer —
 * its status, its exact JSON body and any headers it must carry (`null`: must not).
 */
export interface ApiScenario<Seeded = void> {
  name: string;
  request: ScenarioRequest<Seeded> | Array<ScenarioRequest<Seeded>>;
  status: number;
  body: unknown;
  headers?: Record<string, string | null>;
}

/**
 * One test per scenario, each on a fresh app (`setup(env)`), named
 * `<name> → <status> <error>`. `seed` runs before the requests, and what it
 * returns is handed to the requests' functions and to `after`, which checks what
 * else must hold once they are answered (nothing written, nothing counted).
 */
export function runApiScenarios<Seeded = void>(
  {
    env,
    seed,
    after,
  }: {
    env?: Record<string, string>;
    seed?: (t: TestContext) => Promise<Seeded>;
    after?: (t: TestContext, seeded: Seeded) => Promise<void>;
  },
  scenarios: Array<ApiScenario<Seeded>>,
) {
  for (const scenario of scenarios) {
    const error = (scenario.body as { error?: unknown } | null)?.error;
    test(`${scenario.name} → ${scenario.status}${typeof error === 'string' ? ` ${error}` : ''}`, async () => {
      const t = await setup(env);
      const seeded = (await seed?.(t)) as Seeded;
      for (const { method = 'GET', path, authorization, headers = {}, body } of [scenario.request].flat()) {
        const url = typeof path === 'function' ? path(seeded) : path;
        const credential =
          typeof authorization === 'function'
            ? authorization(t)
            : authorization === undefined
              ? `Bearer ${t.tenant.apiKey}`
              : authorization;
        const sent = new Headers(headers);
        if (credential !== undefined && credential !== null) sent.set('Authorization', credential);
        const res = await t.app.request(url, {
          method,
          headers: sent,
          ...(body === undefined ? {} : { body: typeof body === 'function' ? body(seeded) : body }),
        });
        const what = `${method} ${url}${authorization === undefined ? '' : ` with Authorization: ${credential ?? '(none)'}`}`;
        const text = await res.text();
        assert.equal(res.status, scenario.status, `${what}: ${text}`);
        assert.equal(res.headers.get('content-type'), 'application/json', what);
        assert.deepEqual(JSON.parse(text), scenario.body, what);
        for (const [name, value] of Object.entries(scenario.headers ?? {}))
          assert.equal(res.headers.get(name), value, `${what}: ${name}`);
      }
      await after?.(t, seeded);
    });
  }
}

/** A zip written the way a streaming archiver writes it: each file's sizes in a data descriptor after its data. */
export function streamedZip(files: Record<string, Uint8Array>): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    chunks.push(chunk);
  });
  for (const [name, data] of Object.entries(files)) {
    const file = new ZipDeflate(name, { level: 6 });
    zip.add(file);
    file.push(data, true);
  }
  zip.end();
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * Sets the compression method `member` is said to use, in its local header and
 * in the central directory, to `method` (fflate writes only 0 and 8): a zip
 * whose member Parley cannot inflate. Changes `zip` itself, which it returns;
 * a zip without a comment.
 */
export function withCompressionMethod(zip: Uint8Array, member: string, method: number): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  assert.equal(view.getUint32(end, true), 0x06054b50, 'an end of central directory record without a comment');
  let entry = view.getUint32(end + 16, true);
  for (let i = view.getUint16(end + 10, true); i > 0; i--) {
    const nameBytes = view.getUint16(entry + 28, true);
    if (new TextDecoder().decode(zip.subarray(entry + 46, entry + 46 + nameBytes)) === member) {
      view.setUint16(entry + 10, method, true);
      view.setUint16(view.getUint32(entry + 42, true) + 8, method, true);
    }
    entry += 46 + nameBytes + view.getUint16(entry + 30, true) + view.getUint16(entry + 32, true);
  }
  return zip;
}

/**
 * Records the writes made to `table` from now on (INSERT, UPDATE — of `updateOf`
 * only, if given — and DELETE), each with its row's `key` and `value` columns,
 * so that a test counts writes instead of guessing them. Returns what was
 * recorded so far, oldest first.
 */
export async function recordWrites(
  db: Db,
  table: string,
  {
    operations,
    updateOf,
    key,
    value,
  }: { operations: Array<'INSERT' | 'UPDATE' | 'DELETE'>; updateOf?: string; key: string; value: string },
): Promise<() => Promise<Array<{ op: string; key: string; value: string | null }>>> {
  const run = (text: string) => db.executeQuery(CompiledQuery.raw(text, []));
  const events = operations.map((op) => (op === 'UPDATE' && updateOf ? `UPDATE OF ${updateOf}` : op));
  if (isPostgres(db)) {
    await run('CREATE TABLE recorded_writes (seq SERIAL PRIMARY KEY, op TEXT, key TEXT, value TEXT)');
    await run(`CREATE FUNCTION record_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      IF TG_OP = 'DELETE' THEN INSERT INTO recorded_writes (op, key, value) VALUES (TG_OP, OLD.${key}, OLD.${value});
      ELSE INSERT INTO recorded_writes (op, key, value) VALUES (TG_OP, NEW.${key}, NEW.${value}); END IF;
      RETURN NULL; END $$`);
    await run(
      `CREATE TRIGGER recorded AFTER ${events.join(' OR ')} ON ${table} FOR EACH ROW EXECUTE FUNCTION record_write()`,
    );
  } else {
    await run('CREATE TEMP TABLE recorded_writes (seq INTEGER PRIMARY KEY, op TEXT, key TEXT, value TEXT)');
    for (const [i, op] of operations.entries()) {
      const row = op === 'DELETE' ? 'old' : 'new';
      await run(`CREATE TEMP TRIGGER recorded_${op.toLowerCase()} AFTER ${events[i]} ON ${table}
        BEGIN INSERT INTO recorded_writes (op, key, value) VALUES ('${op}', ${row}.${key}, ${row}.${value}); END`);
    }
  }
  return async () =>
    (
      await db.executeQuery<{ op: string; key: string; value: string | null }>(
        CompiledQuery.raw('SELECT op, key, value FROM recorded_writes ORDER BY seq', []),
      )
    ).rows;
}

/**
 * A ChatGPT export of one conversation of `messages` messages in one branch, each
 * node shaped as the export writes one — ids, author, content, status and the
 * metadata an assistant's answer carries — and how many values and keys it
 * holds, as a record's values are bounded (JsonElementSplitter).
 */
export function longChatgptConversation(messages: number): { bytes: Uint8Array; values: number } {
  const id = (i: number) => `${i.toString(16).padStart(8, '0')}-4f5a-4b6c-9d7e-8f9a0b1c2d3e`;
  const mapping: Record<string, unknown> = { [id(0)]: { id: id(0), message: null, parent: null, children: [id(1)] } };
  for (let i = 1; i <= messages; i++) {
    const assistant = i % 2 === 0;
    const metadata = assistant
      ? {
          finish_details: { type: 'stop', stop_tokens: [200002] },
          citations: [],
          content_references: [],
          is_complete: true,
          message_type: null,
          model_slug: 'gpt-4o',
          default_model_slug: 'gpt-4o',
          parent_id: id(i - 1),
          request_id: `8ee1b3d5f7a9c2e4-${i}`,
          timestamp_: 'absolute',
        }
      : { request_id: `8ee1b3d5f7a9c2e4-${i}`, message_source: null, timestamp_: 'absolute', message_type: null };
    const message = {
      id: id(i),
      author: { role: assistant ? 'assistant' : 'user', name: null, metadata: {} },
      create_time: 1733504407.260381 + i,
      update_time: null,
      content: {
        content_type: 'text',
        parts: [`Message ${i}: ${assistant ? 'an answer, with a sentence or two of explanation' : 'a question'}.`],
      },
      status: 'finished_successfully',
      end_turn: assistant ? true : null,
      weight: 1.0,
      metadata,
      recipient: 'all',
      channel: null,
    };
    mapping[id(i)] = { id: id(i), message, parent: id(i - 1), children: i < messages ? [id(i + 1)] : [] };
  }
  const text = JSON.stringify([
    {
      id: 'long',
      title: 'Long',
      create_time: 1733504407,
      update_time: 1733504407 + messages,
      current_node: id(messages),
      mapping,
    },
  ]);
  // Counted as the splitter counts them: the opening brackets, commas and colons outside strings, inside the conversation's own bracket.
  let values = -2;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[' || char === ',' || char === ':') values++;
  }
  return { bytes: new TextEncoder().encode(text), values };
}

/**
 * Seeds one attachment of message `messageIndex` of a conversation straight
 * through the data layer, as an import would leave it: with `bytes`, a blob
 * written through the app's store (the connection's blob of the same bytes when
 * it has one) and `stored: true`; without, a name alone (`stored: false`).
 */
export async function seedAttachment(
  deps: Pick<Deps, 'db' | 'clock' | 'attachments'>,
  {
    conversationId,
    messageIndex = 0,
    name,
    contentType,
    kind = contentType.startsWith('image/') ? 'image' : 'file',
    bytes,
    sniffedType = contentType,
    size = bytes?.length ?? null,
    ref = crypto.randomUUID(),
  }: {
    conversationId: string;
    messageIndex?: number;
    name: string;
    contentType: string;
    kind?: AttachmentKind;
    bytes?: Uint8Array;
    sniffedType?: string;
    size?: number | null;
    ref?: string;
  },
): Promise<{ id: string; blobId: string | null; sha256: string | null }> {
  const { db } = deps;
  const { connection_id: connectionId } = await db
    .selectFrom('conversations')
    .select('connection_id')
    .where('id', '=', conversationId)
    .executeTakeFirstOrThrow();
  let blobId: string | null = null;
  let sha256: string | null = null;
  if (bytes) {
    sha256 = createHash('sha256').update(bytes).digest('base64url');
    const existing = await db
      .selectFrom('attachment_blobs')
      .select('id')
      .where('connection_id', '=', connectionId)
      .where('sha256', '=', sha256)
      .executeTakeFirst();
    blobId = existing?.id ?? crypto.randomUUID();
    if (!existing) {
      await db
        .insertInto('attachment_blobs')
        .values({
          id: blobId,
          connection_id: connectionId,
          import_id: null,
          store: deps.attachments.name,
          sha256,
          size: bytes.length,
          content_type: sniffedType,
          source: name,
          created_at: deps.clock.now(),
        })
        .execute();
      const writer = deps.attachments.create(blobId);
      await writer.write(bytes);
      await writer.close();
    }
  }
  const id = crypto.randomUUID();
  await db
    .insertInto('attachments')
    .values({
      id,
      connection_id: connectionId,
      conversation_id: conversationId,
      message_index: messageIndex,
      // After those seeded before it, as an import places them.
      position: Number(
        (
          await db
            .selectFrom('attachments')
            .select((eb) => eb.fn.countAll().as('count'))
            .where('conversation_id', '=', conversationId)
            .executeTakeFirstOrThrow()
        ).count,
      ),
      ref,
      name,
      content_type: contentType,
      size,
      kind,
      blob_id: blobId,
      created_at: isoTime(deps.clock.now()),
    })
    .execute();
  return { id, blobId, sha256 };
}

/**
 * A listed conversation as the import tests compare it: the fields an import
 * decides, with each message's `attachments` — which every message carries —
 * left out where empty, so that expected messages name only the files there are.
 */
export function shownConversation({ external_id, title, update_time, payload }: any) {
  const messages = payload?.messages.map(({ attachments, ...message }: any) => {
    assert.ok(Array.isArray(attachments), `a message without its attachments: ${JSON.stringify(message)}`);
    return attachments.length > 0 ? { ...message, attachments } : message;
  });
  return { external_id, title, update_time, payload: payload && { ...payload, messages } };
}
