import { Hono, type Context } from 'hono';
import { every, except } from 'hono/combine';
import { ManageHomePage, OpenManagePage } from '../../pages/manage-pages.tsx';
import type { AppEnv } from '../app-env.ts';
import { connectionsOf } from '../conversations/manage.ts';
import { MAX_QUERY_LENGTH, isSearch, searchOwn } from '../conversations/search.ts';
import type { Deps } from '../deps.ts';
import { recentAccess } from '../users/access-log.ts';
import { PAGE_SIZE, pageNumber, pageRows } from './manage-paging.ts';
import { requirePageLink, requirePageSession } from './page-middleware.ts';
import { sessionCookie, startPageSession } from './page-session-cookies.ts';
import { renderPage } from './render-page.tsx';

/**
 * Whether the request is a person's top-level navigation, as browsers mark it
 * (Fetch Metadata). Link previews, mail scanners and `curl` send neither header.
 * Only a GET: a HEAD (answered by the GET route) shows the person nothing, and
 * its headers are anyone's to write, so it must never use a link up.
 */
const isNavigation = (c: Context) =>
  c.req.method === 'GET' &&
  c.req.header('Sec-Fetch-Mode') === 'navigate' &&
  c.req.header('Sec-Fetch-Dest') === 'document';

/**
 * /manage: where a manage link lands, and the home page of the session it opens
 * (the person's connections, and the search of their conversations).
 */
export function manageHome(deps: Deps) {
  const routes = new Hono<AppEnv>();

  // A person opening the page consumes the link (a manage link is single-use); the session then
  // carries on at a URL without the token, so it does not linger in history or
  // logs. Anything else fetching it (a chat app's preview, a mail scanner) gets a
  // page whose one button consumes it, as the connect page's Continue does.
  const landing = async (c: Context<AppEnv>) =>
    isNavigation(c)
      ? startPageSession(deps)(c)
      : renderPage(c, <OpenManagePage appName={c.var.link.brand.name} token={c.var.link.token} />);
  // A request with a token, or without a session cookie, is the link's: it never reaches the home page.
  const resumesSession = (c: Context) => c.req.query('token') === undefined && sessionCookie(c, 'manage') !== undefined;

  routes.get(
    '/manage',
    except(resumesSession, every(requirePageLink(deps, 'manage'), landing)),
    requirePageSession(deps, 'manage'),
    async (c) => {
      const owner = c.var.session;
      const connections = await connectionsOf(deps, owner);
      // The box holds MAX_QUERY_LENGTH characters; a longer q from an edited URL is cut, not refused.
      const q = c.req.query('q')?.slice(0, MAX_QUERY_LENGTH);
      const page = pageNumber(c);
      const search = isSearch(q) ? { q, page, ...(await searchOwn(deps, owner, q, pageRows(page))) } : undefined;
      // What "Delete all" deleted, kept in the session by its redirect (nothing from the URL is shown).
      const result = c.req.query('notice') === 'all-deleted' ? owner.lastResult : null;
      const deleted = result && 'deleted' in result ? result.deleted : undefined;
      return renderPage(
        c,
        <ManageHomePage
          appName={owner.appName}
          connections={connections}
          search={search}
          pageSize={PAGE_SIZE}
          queryMaxLength={MAX_QUERY_LENGTH}
          notice={c.req.query('notice')}
          deleted={deleted}
          now={deps.clock.now()}
          access={await recentAccess(deps, owner)}
          csrfToken={owner.csrfToken}
        />,
      );
    },
  );

  // The Open button.
  routes.post('/manage', requirePageLink(deps, 'manage'), startPageSession(deps));

  return routes;
}
