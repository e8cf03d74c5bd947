import type { Caller } from '../apps/authenticate.ts';

/** What API middleware leaves on the context for the handlers and the request log. */
export interface ApiEnv {
  Variables: { caller: Caller };
}
