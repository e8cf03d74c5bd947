import { createMiddleware } from 'hono/factory';
import type { Handler } from 'hono';
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

/** Counts the request and sets the RateLimit headers, which error responses keep too. */
export const rateLimit = (deps: Deps) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const state = await takeRateLimit(deps, c.get('caller').appId);
    c.header('RateLimit-Limit', String(state.limit));
    c.header('RateLimit-Remaining', String(state.remaining));
    c.header('RateLimit-Reset', String(state.reset));
    if (!state.allowed) throw new ParleyError('rateLimited', { retryAfterSeconds: state.retryAfter });
    await next();
  });

export const methodNotAllowed =
  (allow: string[]): Handler =>
  (c) => {
    c.header('Allow', allow.join(', '));
    throw new ParleyError('methodNotAllowed');
  };
