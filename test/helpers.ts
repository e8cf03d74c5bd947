import { readdirSync, readFileSync } from 'node:fs';
import { createApp as createParleyApp, type App } from '../src/app.ts';
import { createApp as onboardApp } from '../src/apps/apps.ts';
import { parseConfig, type Config } from '../src/config.ts';
import { openBetterSqlite3 } from '../src/db/better-sqlite3.ts';
import type { ConnectionStatus } from '../src/db/database.ts';
import { cryptoRandom, isoTime, type Clock, type Deps } from '../src/deps.ts';
import { createLogger } from '../src/log.ts';

export const FIXED_NOW = Date.parse('2026-03-01T12:00:30.000Z');

export interface TestClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function fixedClock(start = FIXED_NOW): TestClock {
  let now = start;
  return { now: () => now, set: (ms) => void (now = ms), advance: (ms) => void (now += ms) };
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

/** An app over an in-memory database, a fixed clock and one onboarded tenant. */
export async function setup(
  env: Record<string, string> = {},
  { now = FIXED_NOW, databasePath = ':memory:' }: { now?: number; databasePath?: string } = {},
): Promise<TestContext> {
  const config: Config = parseConfig({ LOG_LEVEL: 'debug', ...env });
  const clock = fixedClock(now);
  const logs: Array<Record<string, unknown>> = [];
  const deps: Deps = {
    db: openBetterSqlite3(databasePath),
    config,
    clock,
    random: cryptoRandom,
    log: createLogger('debug', (line) => logs.push(JSON.parse(line))),
  };
  const app = createParleyApp(deps);
  const tenant = await onboardApp(deps, 'Test app');
  const request = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${tenant.apiKey}`);
    return app.request(path, { ...init, headers });
  };
  return { app, deps, clock, logs, tenant, request };
}

/**
 * Seeds a user's connection with `count` conversations straight through the data
 * layer; conversation i has update_time FIXED_NOW - i minutes (0 newest).
 */
export async function seedConnection(
  deps: Deps,
  {
    appId,
    userRef,
    provider = 'openai',
    count = 0,
    status = 'active',
    capturedAt = deps.clock.now(),
  }: { appId: string; userRef: string; provider?: string; count?: number; status?: ConnectionStatus; capturedAt?: number },
): Promise<{ userId: string; connectionId: string }> {
  const { db } = deps;
  const now = isoTime(deps.clock.now());
  await db
    .insertInto('users')
    .values({ id: crypto.randomUUID(), app_id: appId, user_ref: userRef, created_at: now })
    .onConflict((oc) => oc.columns(['app_id', 'user_ref']).doNothing())
    .execute();
  const user = await db.selectFrom('users').select('id').where('app_id', '=', appId).where('user_ref', '=', userRef).executeTakeFirstOrThrow();
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
        payload: JSON.stringify({ title, messages: [{ role: 'user', content: `Message ${i}`, timestamp: null }] }),
        update_time: isoTime(FIXED_NOW - i * 60_000),
        created_at: now,
      });
    }
    await db.insertInto('conversations').values(rows).execute();
  }
  return { userId: user.id, connectionId };
}

export const json = async (response: Response): Promise<any> => JSON.parse(await response.text());

/** Parley's own exports in the providers' shapes (see test/fixtures/README.md). */
export const FIXTURES_DIR = new URL('./fixtures/', import.meta.url);

export const fixtureBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, FIXTURES_DIR)));

export const fixtureJson = (name: string): any => JSON.parse(readFileSync(new URL(name, FIXTURES_DIR), 'utf8'));

/** Every export file at the top of test/fixtures/ (not the zip folder's files). */
export const FIXTURE_NAMES = readdirSync(FIXTURES_DIR).filter((name) => name.endsWith('.json')).sort();

/** The files of a newer ChatGPT export zip, by name: conversations-000.json, conversations-001.json, chat.html, user.json. */
export function chatgptZipFiles(): Record<string, Uint8Array> {
  const names = readdirSync(new URL('chatgpt-zip/', FIXTURES_DIR)).sort();
  return Object.fromEntries(names.map((name) => [name, fixtureBytes(`chatgpt-zip/${name}`)]));
}

/** POSTs an export to /api/ingest-export with the tenant's key; `query` is appended as is. */
export function postExport(t: TestContext, body: BodyInit | Uint8Array, { query = 'userRef=u1', contentType = 'application/json' } = {}) {
  const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
  return t.request(`/api/ingest-export?${query}`, { method: 'POST', headers, body: body as BodyInit });
}

/** Row counts of every table an import writes, to prove a failed one wrote nothing. */
export async function rowCounts(deps: Deps) {
  const count = async (table: 'users' | 'connections' | 'conversations' | 'import_staging') =>
    Number((await deps.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    users: await count('users'),
    connections: await count('connections'),
    conversations: await count('conversations'),
    staged: await count('import_staging'),
  };
}
