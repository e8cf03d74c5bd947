import { createMiddleware } from 'hono/factory';
import type { Context, Handler } from 'hono';
import { createAuthenticator } from '../apps/authenticate.ts';
import { takeRateLimit } from '../apps/rate-limit.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import type { AppEnv } from '../app-env.ts';

// RFC 9745: the moment the app secret stopped being the recommended Bearer value.
const APP_SECRET_DEPRECATED_AT = '@1767225600';

/** Authenticates the Bearer credential; create one per app, as it remembers credential hashes. */
export function requireCaller(deps: Deps) {
  const authenticate = createAuthenticator(deps);
  return createMiddleware<AppEnv>(async (c, next) => {
    const caller = await authenticate(c.req.header('Authorization'));
    c.set('caller', caller);
    if (caller.usedAppSecret) c.header('Deprecation', APP_SECRET_DEPRECATED_AT);
    await next();
  });
}

export type CallerMiddleware = ReturnType<typeof requireCaller>;

/** Counts a request of the app and sets the RateLimit headers, which error responses keep too; 429 past the limit. */
export async function countRequest(deps: Deps, c: Context<AppEnv>, appId: string): Promise<void> {
  const state = await takeRateLimit(deps, appId);
  c.header('RateLimit-Limit', String(state.limit));
  c.header('RateLimit-Remaining', String(state.remaining));
  c.header('RateLimit-Reset', String(state.reset));
  if (!state.allowed) throw new ParleyError('rateLimited', { retryAfterSeconds: state.retryAfter });
}

/** Counts the request (countRequest). */
export const rateLimit = (deps: Deps) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await countRequest(deps, c, c.get('caller').appId);
    await next();
  });

export const methodNotAllowed =
  (allow: string[]): Handler =>
  (c) => {
    c.header('Allow', allow.join(', '));
    throw new ParleyError('methodNotAllowed');
  };
