import type { Locale } from '../pages/i18n/locales.ts';
import type { Caller } from './apps/authenticate.ts';
import type { PageBrand } from './apps/page-settings.ts';
import type { AuthenticLink } from './links/link-verification.ts';
import type { PageSession } from './links/page-sessions.ts';
import type { PageFrame } from '../pages/page-frame.ts';

/**
 * What middleware leaves on the context for handlers, the error handler and the
 * request log. Each is set only on the routes of its middleware.
 */
export interface AppEnv {
  Variables: {
    /** The app an API request authenticated as. */
    caller: Caller;
    /** Set on hosted-page routes (pageHeaders): errors there are HTML pages, not JSON, in `locale`. */
    page: {
      appName?: string | undefined;
      appId?: string | undefined;
      locale: Locale;
      /** Whether the request carried the cookie of the session its page needs: without one, no session "expired". */
      sessionSent?: boolean;
      /** Set on the connect pages' session: how long such a session lasts, which its end's page says. */
      connectSessionHours?: number;
    } & PageFrame;
    /** The signed link of a page it opens (requirePageLink): checked, every check but its use. */
    link: AuthenticLink & { token: string; brand: PageBrand };
    /** The live session of a page that needs one (requirePageSession), with the name of its app. */
    session: PageSession & { appName: string };
    /** Set once a route reads its body as an export upload: whether it was read to its end (see closeIfBodyUnread). */
    upload?: { readonly finished: boolean };
  };
}
