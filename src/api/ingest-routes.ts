import { Hono } from 'hono';
import type { Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { checkImportTarget, importExport } from '../import/import-export.ts';
import { openExportUpload, type ExportUpload } from '../import/upload.ts';
import type { AppEnv } from '../app-env.ts';
import { methodNotAllowed, type CallerMiddleware } from './middleware.ts';

const optional = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** POST /api/ingest-export: a JSON, zip or multipart upload of a provider's export. */
export function ingestRoutes(deps: Deps, requireCaller: CallerMiddleware) {
  const routes = new Hono<AppEnv>();
  routes.post('/ingest-export', requireCaller, async (c) => {
    let upload: ExportUpload | undefined;
    try {
      upload = await openExportUpload(c.req.raw, deps.config.maxExportBytes);
      const { userRef, provider, connectionId } = upload.fields;
      if (!userRef) throw new ApiError('missingUserRef');
      const target = { appId: c.get('caller').appId, userRef, provider: optional(provider), connectionId: optional(connectionId) };
      await checkImportTarget(deps, target);
      return c.json(await importExport(deps, target, upload.file));
    } catch (error) {
      // An answer before the body was read through must not leave the rest of
      // it to be read as the next request (nor a slow client holding the socket).
      if (error instanceof ApiError && !upload?.body.finished) error.headers.Connection = 'close';
      throw error;
    }
  });
  routes.all('/ingest-export', methodNotAllowed(['POST']));
  return routes;
}
