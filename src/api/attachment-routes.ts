import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { blobBytes, servedFile, storedAttachmentOf } from '../conversations/attachments.ts';
import type { Deps } from '../deps.ts';
import { fileResponse } from '../http/attachment-response.ts';
import { methodNotAllowed, type CallerMiddleware } from './middleware.ts';

/**
 * GET /api/attachments/{id}: an attachment's bytes, of this app's only. Not
 * counted by the rate limit: a page of messages may show dozens of files.
 */
export function attachmentRoutes(deps: Deps, requireCaller: CallerMiddleware) {
  const routes = new Hono<AppEnv>();
  routes.get('/attachments/:id', requireCaller, async (c) => {
    const appId = c.get('caller').appId;
    const attachment = await storedAttachmentOf(deps, { appId }, c.req.param('id'));
    return fileResponse(
      c,
      servedFile(attachment),
      (range) => blobBytes(deps, attachment.blob, range),
      (error) => deps.log.error('attachment read failed', { appId, attachmentId: attachment.id, error: String(error) }),
    );
  });
  routes.all('/attachments/:id', methodNotAllowed(['GET', 'HEAD']));
  return routes;
}
