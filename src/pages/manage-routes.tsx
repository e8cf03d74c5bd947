import { Hono, type Context } from 'hono';
import { ConfirmPage, ManageConnectionPage, ManageConversationPage, ManageHomePage } from '../../pages/manage-pages.tsx';
import { providerName } from '../../pages/layout.tsx';
import type { AppEnv } from '../app-env.ts';
import { requireApp } from '../apps/apps.ts';
import { connectionOf, connectionsOf, conversationOf, conversationPage, deleteConversation, disconnect } from '../conversations/manage.ts';
import { purgeUser } from '../conversations/purge.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { consumeLink, verifyLink } from '../links/link-verification.ts';
import { checkCsrf, openPageSession, resumePageSession } from '../links/page-sessions.ts';
import { pageHeaders, renderPage, sessionCookie, setSessionCookie } from './page-kit.tsx';

const PAGE_SIZE = 20;

/** The manage flow: /manage and below, for one user of one app. */
export function manageRoutes(deps: Deps) {
  const routes = new Hono<AppEnv>();
  const secureCookies = deps.config.publicUrl.startsWith('https:');

  const session = async (c: Context<AppEnv>) => {
    const found = await resumePageSession(deps, sessionCookie(c, 'manage'), 'manage');
    const app = await requireApp(deps, found.appId);
    c.set('page', { appName: app.name });
    return { owner: { appId: found.appId, userRef: found.userRef }, appName: app.name, session: found };
  };

  /** A confirmed destructive action: checks the form's CSRF token, acts, then redirects. */
  const confirmed = (action: (c: Context<AppEnv>, owner: { appId: string; userRef: string }) => Promise<string>) => async (c: Context<AppEnv>) => {
    const current = await session(c);
    const form = await c.req.parseBody();
    checkCsrf(current.session, typeof form.csrf === 'string' ? form.csrf : undefined);
    return c.redirect(await action(c, current.owner), 303);
  };

  routes.use('/manage', pageHeaders);
  routes.use('/manage/*', pageHeaders);

  // Opening the page consumes the link (decisions §9); the session then carries
  // on at a URL without the token, so it does not linger in history or logs.
  routes.get('/manage', async (c) => {
    const token = c.req.query('token');
    if (token !== undefined || sessionCookie(c, 'manage') === undefined) {
      const claims = await verifyLink(deps, token, 'manage');
      await consumeLink(deps, claims);
      const cookie = await openPageSession(deps, { appId: claims.appId, userRef: claims.userRef, purpose: 'manage' });
      setSessionCookie(c, 'manage', cookie, secureCookies);
      return c.redirect('/manage', 303);
    }
    const { owner, appName } = await session(c);
    const connections = await connectionsOf(deps, owner);
    return renderPage(c, <ManageHomePage appName={appName} connections={connections} notice={c.req.query('notice')} />);
  });

  routes.get('/manage/connections/:id', async (c) => {
    const { owner, appName } = await session(c);
    const page = Math.max(1, Number.parseInt(c.req.query('page') ?? '1', 10) || 1);
    const { connection, rows, total } = await conversationPage(deps, owner, c.req.param('id'), { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
    return renderPage(
      c,
      <ManageConnectionPage appName={appName} connection={connection} conversations={rows} total={total} page={page} pageSize={PAGE_SIZE} notice={c.req.query('notice')} />,
    );
  });

  routes.get('/manage/conversations/:id', async (c) => {
    const { owner, appName } = await session(c);
    const conversation = await conversationOf(deps, owner, c.req.param('id'));
    return renderPage(c, <ManageConversationPage appName={appName} conversation={conversation} messages={conversation.messages} />);
  });

  routes.get('/manage/conversations/:id/delete', async (c) => {
    const { owner, appName, session: current } = await session(c);
    const conversation = await conversationOf(deps, owner, c.req.param('id'));
    return renderPage(
      c,
      <ConfirmPage
        appName={appName}
        title="Delete this conversation?"
        explanation={`“${conversation.title ?? 'Untitled conversation'}” will be deleted from ${appName}.`}
        action={`/manage/conversations/${conversation.id}/delete`}
        csrfToken={current.csrfToken}
        confirmLabel="Delete conversation"
        cancelHref={`/manage/conversations/${conversation.id}`}
      />,
    );
  });
  routes.post(
    '/manage/conversations/:id/delete',
    confirmed(async (c, owner) => {
      const deleted = await deleteConversation(deps, owner, c.req.param('id')!);
      return `/manage/connections/${deleted.connection_id}?notice=conversation-deleted`;
    }),
  );

  routes.get('/manage/connections/:id/disconnect', async (c) => {
    const { owner, appName, session: current } = await session(c);
    const connection = await connectionOf(deps, owner, c.req.param('id'));
    if (connection.status === 'revoked') throw new ApiError('connectionRevoked');
    const name = providerName(connection.provider);
    return renderPage(
      c,
      <ConfirmPage
        appName={appName}
        title={`Disconnect ${name}?`}
        explanation={`All ${connection.conversation_count} ${name} conversations will be deleted from ${appName}, and the connection will show as disconnected.`}
        action={`/manage/connections/${connection.id}/disconnect`}
        csrfToken={current.csrfToken}
        confirmLabel={`Disconnect ${name}`}
        cancelHref={`/manage/connections/${connection.id}`}
      />,
    );
  });
  routes.post(
    '/manage/connections/:id/disconnect',
    confirmed(async (c, owner) => {
      await disconnect(deps, owner, c.req.param('id')!);
      return '/manage?notice=disconnected';
    }),
  );

  routes.get('/manage/delete-all', async (c) => {
    const { appName, session: current } = await session(c);
    return renderPage(
      c,
      <ConfirmPage
        appName={appName}
        title="Delete all your data?"
        explanation={`Every conversation and connection imported for you will be deleted from ${appName}.`}
        action="/manage/delete-all"
        csrfToken={current.csrfToken}
        confirmLabel="Delete all my data"
        cancelHref="/manage"
      />,
    );
  });
  routes.post(
    '/manage/delete-all',
    confirmed(async (_c, owner) => {
      try {
        await purgeUser(deps, owner.appId, owner.userRef);
      } catch (error) {
        // Nothing imported, or already deleted: the outcome the person asked for.
        if (!(error instanceof ApiError && error.code === 'userNotFound')) throw error;
      }
      return '/manage?notice=all-deleted';
    }),
  );

  return routes;
}
