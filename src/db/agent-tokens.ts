import type { AgentTokensTable, Db } from './database.ts';
import { fixedSql } from './fixed-sql.ts';

export async function insertAgentToken(db: Db, row: AgentTokensTable): Promise<void> {
  await db.insertInto('agent_tokens').values(row).execute();
}

/**
 * The user a token grants, if the token is known, unexpired at `now`, and the
 * key that minted it is not revoked; an import's own user is never one (see
 * import-connection.ts).
 */
export async function findLiveAgentToken(db: Db, tokenHash: string, now: string) {
  const [row] = await fixedSql<{ token_hash: string; user_id: string; app_id: string; user_ref: string }>(
    db,
    `SELECT t.token_hash, t.user_id, u.app_id, u.user_ref
     FROM agent_tokens t JOIN users u ON u.id = t.user_id LEFT JOIN api_keys k ON k.id = t.api_key_id
     WHERE t.token_hash = ? AND t.expires_at > ? AND k.revoked_at IS NULL AND u.import_id IS NULL`,
    [tokenHash, now],
  );
  return row;
}

export async function deleteExpiredAgentTokens(db: Db, now: string): Promise<void> {
  await db.deleteFrom('agent_tokens').where('expires_at', '<=', now).execute();
}
