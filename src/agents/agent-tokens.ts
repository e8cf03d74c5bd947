import { timingSafeEqual } from 'parley-sdk/encoding';
import { bearerCredential, type Caller } from '../apps/authenticate.ts';
import { randomBase62, sha256Hex } from '../crypto.ts';
import { deleteExpiredAgentTokens, findLiveAgentToken, insertAgentToken } from '../db/agent-tokens.ts';
import { isoTime, type Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { userOfApp, type Owner } from '../conversations/ownership.ts';

/** Tells an agent token from an API key at a glance (and to secret scanners); an API route refuses it as an unknown key. */
export const AGENT_TOKEN_PREFIX = 'parley_agent_';
/** How long a token lasts at most, and when the request does not say: about one session of the customer's assistant, so a leaked token soon reads nothing. */
export const MAX_AGENT_TOKEN_SECONDS = 3600;
export const DEFAULT_AGENT_TOKEN_SECONDS = 900;

/** Whom an agent token lets its holder read: one user of one app, nothing else. */
export interface Agent extends Owner {
  userId: string;
}

/**
 * Mints a token that reads only `userRef`'s data of the caller's app, for
 * `expiresInSeconds`; it is shown once, only its hash is kept. It dies with
 * the user (a purge) and with the key that minted it (revoked).
 */
export async function createAgentToken(
  deps: Pick<Deps, 'db' | 'clock' | 'random'>,
  caller: Caller,
  { userRef, expiresInSeconds = DEFAULT_AGENT_TOKEN_SECONDS }: { userRef: string; expiresInSeconds?: number },
) {
  const user = await userOfApp(deps, caller.appId, userRef);
  const token = AGENT_TOKEN_PREFIX + randomBase62(deps.random.bytes, 40);
  const now = deps.clock.now();
  const expiresAt = isoTime(now + expiresInSeconds * 1000);
  await insertAgentToken(deps.db, {
    id: deps.random.uuid(),
    token_hash: await sha256Hex(token),
    user_id: user.id,
    api_key_id: caller.keyId ?? null,
    created_at: isoTime(now),
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

/** The user `Authorization: Bearer <agent token>` grants, or 401: unknown, expired, purged and revoked alike. */
export async function authenticateAgent(
  deps: Pick<Deps, 'db' | 'clock'>,
  authorization: string | undefined,
): Promise<Agent> {
  const credential = bearerCredential(authorization);
  if (!credential.startsWith(AGENT_TOKEN_PREFIX)) throw new ParleyError('invalidAgentToken');
  const hash = await sha256Hex(credential);
  const row = await findLiveAgentToken(deps.db, hash, isoTime(deps.clock.now()));
  if (!row || !timingSafeEqual(row.token_hash, hash)) throw new ParleyError('invalidAgentToken');
  return { appId: row.app_id, userRef: row.user_ref, userId: row.user_id };
}

/** Maintenance: expired tokens are refused already; their rows go. */
export const deleteExpiredTokens = (deps: Pick<Deps, 'db' | 'clock'>) =>
  deleteExpiredAgentTokens(deps.db, isoTime(deps.clock.now()));
