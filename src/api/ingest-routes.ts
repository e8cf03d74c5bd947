import { Hono } from 'hono';
import type { Deps } from '../deps.ts';
import { importExport } from '../import/import-export.ts';
import type { ImportSlots } from '../import/import-slots.ts';
import { openExportUpload } from '../http/export-upload.ts';
import type { AppEnv } from '../app-env.ts';
import { parseInput } from '../errors.ts';
import { importUploads } from '../uploads/resumable-uploads.ts';
import { methodNotAllowed, type CallerMiddleware } from './middleware.ts';
import { IngestFields, IngestTimeZone } from './schemas.ts';

/** Fields left empty (a form's untouched inputs) count as absent. */
const presentFields = (fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));

/** POST /api/ingest-export: a JSON, zip or multipart upload of a provider's export, or a resumable upload's. */
export function ingestRoutes(deps: Deps, requireCaller: CallerMiddleware, imports: ImportSlots) {
  const routes = new Hono<AppEnv>();
  routes.post('/ingest-export', requireCaller, async (c) => {
    const uploadIds = c.req.queries('upload');
    if (uploadIds) {
      // Uploads made before (/api/uploads) instead of a body, the files of one export: its fields are the query's.
      const fields = presentFields(Object.fromEntries(new URL(c.req.url).searchParams));
      const target = { appId: c.get('caller').appId, ...parseInput(IngestFields, fields) };
      return c.json(await imports.run(() => importUploads(deps, target, uploadIds)));
    }
    // Refused part-way through the upload (413 while streaming, bad JSON early in a large
    // file), the error's answer closes the connection: see closeIfBodyUnread.
    const upload = await openExportUpload(c, deps.config, { withUserRef: true });
    const { appId } = c.get('caller');
    const before = presentFields(upload.fields);
    const fieldsAfter = upload.fieldsAfterFile;
    // Fields after a form's file add to those before it; a field named before stands.
    const fieldsWith = (after: Record<string, string>) => ({ ...presentFields(after), ...before });
    const target = (after: Record<string, string>) => ({ appId, ...parseInput(IngestFields, fieldsWith(after)) });
    const completed = async () => target(await fieldsAfter());
    const files = upload.files;
    // Admitted once the request's own checks have passed: the file is read only then.
    const result = await imports.run(async () => {
      if (before.userRef !== undefined) return importExport(deps, target({}), files, completed);
      // A form that names its user only after the file: its fields are checked once the
      // file has been read, and outrank what was wrong with the file (a missing userRef or an
      // unknown provider is the answer, as it would be had the fields come first).
      // The zone is read with the file, so only one named before it counts.
      const { timeZone } = parseInput(IngestTimeZone, before);
      return importExport(deps, { appId, timeZone }, files, completed).catch(async (error: unknown) => {
        // Read on past the file for the fields after it: a field that fails IngestFields is the
        // answer; if the rest cannot be read, or every field holds, the file's error stands.
        const after = await fieldsAfter().catch(() => undefined);
        if (after) parseInput(IngestFields, fieldsWith(after));
        throw error;
      });
    });
    return c.json(result);
  });
  routes.all('/ingest-export', methodNotAllowed(['POST']));
  return routes;
}
