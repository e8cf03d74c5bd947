import { PROVIDERS } from 'parley-sdk';
import { base64Url, timingSafeEqual } from 'parley-sdk/encoding';
import * as v from 'valibot';
import { sha256Hex } from '../crypto.ts';
import type { PagePurpose } from '../db/database.ts';
import * as store from '../db/page-sessions.ts';
import { isoTime, type Deps } from '../deps.ts';
import { IMPORT_PROBLEMS, ParleyError } from '../errors.ts';
import { NOT_READ_WHATS } from '../import/formats/format.ts';

export const SESSION_IDLE_MS = 30 * 60_000;
const HOUR_MS = 3_600_000;

/** How long a connect session lasts after its link opened it, idle or not. */
export const connectSessionMs = (config: Pick<Deps['config'], 'connectSessionHours'>) =>
  config.connectSessionHours * HOUR_MS;

/**
 * When a session stops opening pages: 30 minutes after its last page; a connect
 * session no sooner than CONNECT_SESSION_HOURS after its link opened it, so that
 * a person who went to request their export (minutes to hours) finds the page
 * again in the same browser. The link itself still works once.
 */
function sessionEnd(
  config: Pick<Deps['config'], 'connectSessionHours'>,
  row: { purpose: PagePurpose; created_at: string; last_seen_at: string },
): number {
  const idleEnd = Date.parse(row.last_seen_at) + SESSION_IDLE_MS;
  if (row.purpose !== 'connect') return idleEnd;
  return Math.max(idleEnd, Date.parse(row.created_at) + connectSessionMs(config));
}

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** What an upload on the connect page came to, for the result page its redirect leads to. */
const ImportOutcome = v.variant('ok', [
  v.object({
    ok: v.literal(true),
    provider: v.string(),
    connectionId: v.string(),
    created: count,
    updated: count,
    unchanged: count,
    skipped: count,
    conversationCount: count,
    // Absent from outcomes kept before it was counted.
    notRead: v.optional(v.array(v.object({ what: v.picklist(NOT_READ_WHATS), count }))),
  }),
  v.object({
    ok: v.literal(false),
    provider: v.string(),
    /** The refusal's HTTP status, which the result page is answered with. */
    status: v.number(),
    problem: v.picklist(IMPORT_PROBLEMS),
    /** The provider the file turned out to be from, when it is another than the one chosen. */
    found: v.optional(v.picklist(PROVIDERS)),
  }),
]);
export type ImportOutcome = v.InferOutput<typeof ImportOutcome>;

/** What "Delete all" deleted, for the manage page its redirect leads to. */
const DeletedAll = v.object({ deleted: v.object({ connections: count, conversations: count }) });

/** The outcome of a session's last form, kept for the page after its redirect (post/redirect/get). */
const PageResult = v.union([ImportOutcome, DeletedAll]);
export type PageResult = v.InferOutput<typeof PageResult>;

export interface PageSession {
  tokenHash: string;
  appId: string;
  userRef: string;
  csrfToken: string;
  lastResult: PageResult | null;
  /** The jti of the link that opened it. */
  linkJti: string | null;
  /** The link's returnUrl, its origin registered when the session opened. */
  returnUrl: string | null;
}

type SessionDeps = Pick<Deps, 'db' | 'clock' | 'random' | 'config'>;

/** Opens a session for a consumed link; returns the cookie value (only its hash is stored). */
export async function openPageSession(
  deps: SessionDeps,
  {
    appId,
    userRef,
    purpose,
    linkJti,
    returnUrl,
  }: { appId: string; userRef: string; purpose: PagePurpose; linkJti: string | null; returnUrl: string | undefined },
) {
  const token = base64Url(deps.random.bytes(32));
  const now = isoTime(deps.clock.now());
  await store.insertPageSession(deps.db, {
    token_hash: await sha256Hex(token),
    app_id: appId,
    user_ref: userRef,
    purpose,
    csrf_token: base64Url(deps.random.bytes(24)),
    last_result: null,
    created_at: now,
    last_seen_at: now,
    link_jti: linkJti,
    return_url: returnUrl ?? null,
  });
  return token;
}

/**
 * A connect session opened from a live manage session ("Import from another
 * service"): the same app and user, the same way back. It comes from no link
 * (no jti), so no link sends a browser back to it.
 */
export const openConnectSessionFrom = (deps: SessionDeps, manage: PageSession) =>
  openPageSession(deps, {
    appId: manage.appId,
    userRef: manage.userRef,
    purpose: 'connect',
    linkJti: null,
    returnUrl: manage.returnUrl ?? undefined,
  });

/**
 * The live session behind a cookie, for a page of `purpose`; its idle timer restarts.
 * No cookie, an unknown one, or one past its end (sessionEnd): `Session expired`.
 */
export async function resumePageSession(
  deps: SessionDeps,
  token: string | undefined,
  purpose: PagePurpose,
): Promise<PageSession> {
  if (!token) throw new ParleyError('sessionExpired');
  const tokenHash = await sha256Hex(token);
  const row = await store.findPageSession(deps.db, tokenHash);
  const now = deps.clock.now();
  const ended = row !== undefined && sessionEnd(deps.config, row) <= now;
  if (ended) await store.deletePageSession(deps.db, tokenHash);
  if (!row || ended || row.purpose !== purpose) throw new ParleyError('sessionExpired');
  await store.updatePageSession(deps.db, tokenHash, { last_seen_at: isoTime(now) });
  return {
    tokenHash,
    appId: row.app_id,
    userRef: row.user_ref,
    csrfToken: row.csrf_token,
    lastResult: row.last_result === null ? null : v.parse(PageResult, JSON.parse(row.last_result)),
    linkJti: row.link_jti,
    returnUrl: row.return_url,
  };
}

/** Every form post carries the session's CSRF token; a cross-site form cannot know it. */
export function checkCsrf(session: PageSession, submitted: string | undefined): void {
  if (!submitted || !timingSafeEqual(session.csrfToken, submitted)) throw new ParleyError('invalidCsrf');
}

export async function rememberResult(deps: Pick<Deps, 'db'>, session: PageSession, result: PageResult): Promise<void> {
  await store.updatePageSession(deps.db, session.tokenHash, { last_result: JSON.stringify(result) });
}
