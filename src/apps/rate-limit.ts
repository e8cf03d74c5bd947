import { countRequest } from '../db/rate-buckets.ts';
import type { Deps } from '../deps.ts';

const WINDOW_MS = 60_000;

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  reset: number;
  /** Whole seconds until then, at least 1. */
  retryAfter: number;
}

/** Fixed one-minute windows per app; every call counts, allowed or not. */
export async function takeRateLimit(
  deps: Pick<Deps, 'db' | 'counters' | 'clock' | 'config'>,
  appId: string,
): Promise<RateLimitState> {
  const now = deps.clock.now();
  const windowStart = now - (now % WINDOW_MS);
  const windowEnd = windowStart + WINDOW_MS;
  const count = await countRequest(deps.counters ?? deps.db, appId, windowStart);
  const limit = deps.config.rateLimitPerMinute;
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    reset: windowEnd / 1000,
    retryAfter: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
  };
}
