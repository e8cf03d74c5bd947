import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import { attachmentAnswer } from '../http/attachment-answer.ts';
import { methodNotAllowed, type CallerMiddleware } from './middleware.ts';

/**
 * GET /api/attachments/{id}: an attachment's bytes, of this app's only. Not
 * counted by the rate limit: a page of messages may show dozens of files.
 */
export function attachmentRoutes(deps: Deps, requireCaller: CallerMiddleware) {
  const routes = new Hono<AppEnv>();
  routes.get('/attachments/:id', requireCaller, (c) =>
    attachmentAnswer(c, deps, { appId: c.get('caller').appId }, c.req.param('id'), 'api'),
  );
  routes.all('/attachments/:id', methodNotAllowed(['GET', 'HEAD']));
  return routes;
}
