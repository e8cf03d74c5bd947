import { Hono } from 'hono';
import { ManageMemoriesPage, ManageProjectPage, ManageProjectsPage } from '../../pages/memory-project-pages.tsx';
import { pageTexts } from '../../pages/markdown.ts';
import type { AppEnv } from '../app-env.ts';
import { memoryPage, projectPage, projectToRead } from '../conversations/memories-and-projects.ts';
import { nextTurn } from '../db/transaction.ts';
import type { Deps } from '../deps.ts';
import { PAGE_SIZE, pageNumber, pageRows } from './manage-paging.ts';
import { requirePageSession } from './page-middleware.ts';
import { messages, renderPage } from './render-page.tsx';

/**
 * What the person reads of a connection besides its conversations: its
 * memories, its projects, a project with its knowledge files (served by
 * /manage/attachments as a message's files are). Their Markdown is rendered
 * within the page's budgets, as a conversation's is.
 */
export function manageMemoriesProjects(deps: Deps) {
  const routes = new Hono<AppEnv>();
  const session = requirePageSession(deps, 'manage');

  routes.get('/manage/connections/:id/memories', session, async (c) => {
    const page = pageNumber(c);
    const { connection, rows, total } = await memoryPage(deps, c.var.session, c.req.param('id'), pageRows(page));
    const shown = pageTexts(messages(c).code, nextTurn);
    const memories = [];
    for (const { content, ...memory } of rows) memories.push({ ...memory, content: await shown(content) });
    return renderPage(
      c,
      <ManageMemoriesPage
        appName={c.var.session.appName}
        connection={connection}
        memories={memories}
        total={total}
        page={page}
        pageSize={PAGE_SIZE}
        notice={c.req.query('notice')}
      />,
    );
  });

  routes.get('/manage/connections/:id/projects', session, async (c) => {
    const page = pageNumber(c);
    const { connection, rows, total } = await projectPage(deps, c.var.session, c.req.param('id'), pageRows(page));
    return renderPage(
      c,
      <ManageProjectsPage
        appName={c.var.session.appName}
        connection={connection}
        projects={rows}
        total={total}
        page={page}
        pageSize={PAGE_SIZE}
        notice={c.req.query('notice')}
      />,
    );
  });

  routes.get('/manage/projects/:id', session, async (c) => {
    const { instructions, ...project } = await projectToRead(deps, c.var.session, c.req.param('id'));
    const shown = pageTexts(messages(c).code, nextTurn);
    return renderPage(
      c,
      <ManageProjectPage
        appName={c.var.session.appName}
        project={{ ...project, instructions: instructions === null ? null : await shown(instructions) }}
      />,
    );
  });

  return routes;
}
