import { Hono, type Context } from 'hono';
import { every, except } from 'hono/combine';
import {
  ManageConnectionPage,
  ManageConversationPage,
  ManageHomePage,
  OpenManagePage,
} from '../../pages/manage-pages.tsx';
import type { AppEnv } from '../app-env.ts';
import { streamOf } from '../bytes.ts';
import { downloadedFiles, downloadOf } from '../conversations/download.ts';
import { connectionsOf, conversationPage, conversationToRead } from '../conversations/manage.ts';
import { attachmentAnswer } from '../http/attachment-answer.ts';
import { MAX_QUERY_LENGTH, isSearch, searchOwn } from '../conversations/search.ts';
import { isoTime, type Deps } from '../deps.ts';
import { downloadFile } from './download-file.ts';
import { downloadZip } from './download-zip.ts';
import { manageConfirmations } from './manage-confirmations.tsx';
import {
  isNavigation,
  pageHeaders,
  renderPage,
  requirePageLink,
  requirePageSession,
  sessionCookie,
  startPageSession,
} from './page-kit.tsx';

const PAGE_SIZE = 20;

type DeletedCounts = { connections: number; conversations: number };

/** The `page` asked for: 1 unless a whole number above it, and at most what an offset can reach (an edited URL is answered, not refused). */
const pageNumber = (c: Context<AppEnv>) =>
  Math.min(
    Math.max(1, Number.parseInt(c.req.query('page') ?? '1', 10) || 1),
    Math.floor(Number.MAX_SAFE_INTEGER / PAGE_SIZE),
  );

/** The manage flow: /manage and below, for one user of one app. */
export function manageRoutes(deps: Deps) {
  const routes = new Hono<AppEnv>();
  const session = requirePageSession(deps, 'manage');

  // '/manage/*' matches /manage itself too.
  routes.use('/manage/*', pageHeaders);

  // A person opening the page consumes the link (a manage link is single-use); the session then
  // carries on at a URL without the token, so it does not linger in history or
  // logs. Anything else fetching it (a chat app's preview, a mail scanner) gets a
  // page whose one button consumes it, as the connect page's Continue does.
  const landing = async (c: Context<AppEnv>) =>
    isNavigation(c)
      ? startPageSession(deps)(c)
      : renderPage(c, <OpenManagePage appName={c.var.link.brand.name} token={c.var.link.token} />);
  // /manage is where a manage link lands too: a request with a token, or without a
  // session cookie, is the link's, and never reaches the home page.
  const hasSessionNoLink = (c: Context) =>
    c.req.query('token') === undefined && sessionCookie(c, 'manage') !== undefined;
  routes.get(
    '/manage',
    except(hasSessionNoLink, every(requirePageLink(deps, 'manage'), landing)),
    session,
    async (c) => {
      const owner = c.var.session;
      const connections = await connectionsOf(deps, owner);
      // The box holds MAX_QUERY_LENGTH characters; a longer q from an edited URL is cut, not refused.
      const q = c.req.query('q')?.slice(0, MAX_QUERY_LENGTH);
      const page = pageNumber(c);
      const search = isSearch(q)
        ? { q, page, ...(await searchOwn(deps, owner, q, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })) }
        : undefined;
      // What "Delete all" deleted, kept in the session by its redirect (nothing from the URL is shown).
      const deleted =
        c.req.query('notice') === 'all-deleted' && owner.lastResult
          ? (JSON.parse(owner.lastResult) as { deleted?: DeletedCounts }).deleted
          : undefined;
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
        />,
      );
    },
  );

  routes.post('/manage', requirePageLink(deps, 'manage'), startPageSession(deps));

  // "Download my data": a read, so a GET with the session and no form token; a
  // cross-site page can at most make the person's own browser save their file.
  // A zip: the JSON file as the download always was, and the stored files beside it.
  routes.get('/manage/download', session, async (c) => {
    const owner = c.var.session;
    const connections = await downloadOf(deps, owner);
    const now = deps.clock.now();
    const exportedAt = isoTime(now);
    const name = `parley-data-${exportedAt.slice(0, 10)}`;
    const zip = downloadZip(
      `${name}.json`,
      downloadFile(owner.userRef, exportedAt, connections),
      downloadedFiles(deps, connections),
      now,
    );
    const file = streamOf(zip, (error) =>
      deps.log.error('download failed', { appId: owner.appId, error: String(error), stack: (error as Error).stack }),
    );
    return c.body(file, 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${name}.zip"`,
    });
  });

  routes.get('/manage/connections/:id', session, async (c) => {
    const owner = c.var.session;
    const page = pageNumber(c);
    const { connection, rows, total } = await conversationPage(deps, owner, c.req.param('id'), {
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    });
    return renderPage(
      c,
      <ManageConnectionPage
        appName={owner.appName}
        connection={connection}
        conversations={rows}
        total={total}
        page={page}
        pageSize={PAGE_SIZE}
        notice={c.req.query('notice')}
      />,
    );
  });

  routes.get('/manage/conversations/:id', session, async (c) => {
    const owner = c.var.session;
    const conversation = await conversationToRead(deps, owner, c.req.param('id'));
    return renderPage(
      c,
      <ManageConversationPage
        appName={owner.appName}
        conversation={conversation}
        messages={conversation.messages}
        notice={c.req.query('notice')}
      />,
    );
  });

  // A file of a message: the page's images and download links. A read, so a GET
  // with the session; the page's headers (no-store among them) replace the API's
  // caching, so nothing of the person's files stays in a shared browser's cache.
  routes.get('/manage/attachments/:id', session, (c) => attachmentAnswer(c, deps, c.var.session, c.req.param('id')));

  routes.route('/', manageConfirmations(deps));

  return routes;
}
