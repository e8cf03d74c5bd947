import type { Caller } from './apps/authenticate.ts';

/** What middleware leaves on the context for handlers, the error handler and the request log. */
export interface AppEnv {
  Variables: {
    /** The app an API request authenticated as. */
    caller: Caller;
    /** Set on hosted-page routes: errors there are HTML pages, not JSON. */
    page: { appName?: string | undefined };
  };
}
