import type { Locale } from '../pages/i18n/locales.ts';
import type { Caller } from './apps/authenticate.ts';
import type { PageFrame } from '../pages/page-frame.ts';

/** What middleware leaves on the context for handlers, the error handler and the request log. */
export interface AppEnv {
  Variables: {
    /** The app an API request authenticated as. */
    caller: Caller;
    /** Set on hosted-page routes: errors there are HTML pages, not JSON, in `locale`. */
    page: {
      appName?: string | undefined;
      appId?: string | undefined;
      locale: Locale;
      /** Whether the request carried the cookie of the session its page needs: without one, no session "expired". */
      sessionSent?: boolean;
    } & PageFrame;
    /** Set once a route reads its body as an export upload: whether it was read to its end (see closeIfBodyUnread). */
    upload?: { readonly finished: boolean };
  };
}
