import { Hono } from 'hono';
import { ManageConnectionPage, ManageConversationPage, shownMessages } from '../../pages/manage-pages.tsx';
import type { AppEnv } from '../app-env.ts';
import { conversationPage, conversationToRead } from '../conversations/manage.ts';
import { nextTurn } from '../db/transaction.ts';
import type { Deps } from '../deps.ts';
import { attachmentAnswer } from '../http/attachment-answer.ts';
import { PAGE_SIZE, pageNumber, pageRows } from './manage-paging.ts';
import { requirePageSession } from './page-middleware.ts';
import { messages, renderPage } from './render-page.tsx';

/** What the person reads on the manage pages: a connection's conversations, a conversation, its files. */
export function manageReading(deps: Deps) {
  const routes = new Hono<AppEnv>();
  const session = requirePageSession(deps, 'manage');

  routes.get('/manage/connections/:id', session, async (c) => {
    const page = pageNumber(c);
    const { connection, rows, total } = await conversationPage(deps, c.var.session, c.req.param('id'), pageRows(page));
    return renderPage(
      c,
      <ManageConnectionPage
        appName={c.var.session.appName}
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
    const conversation = await conversationToRead(deps, c.var.session, c.req.param('id'));
    return renderPage(
      c,
      <ManageConversationPage
        appName={c.var.session.appName}
        conversation={conversation}
        messages={await shownMessages(conversation.messages, messages(c), nextTurn)}
        notice={c.req.query('notice')}
      />,
    );
  });

  // A file of a message: the page's images and download links. A read, so a GET
  // with the session; the page's headers (no-store among them) replace the API's
  // caching, so nothing of the person's files stays in a shared browser's cache.
  routes.get('/manage/attachments/:id', session, (c) => attachmentAnswer(c, deps, c.var.session, c.req.param('id')));

  return routes;
}
