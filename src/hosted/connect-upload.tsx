import { Hono, type Context } from 'hono';
import { PROVIDERS, type Provider } from 'parley-sdk';
import { ImportResultPage, NotListedPage, UploadPage } from '../../pages/connect-pages.tsx';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { importExport } from '../import/import-export.ts';
import type { ImportSlots } from '../import/import-slots.ts';
import { isTimeZone } from '../import/formats/format.ts';
import { formatFor } from '../import/formats/registry.ts';
import { closeIfBodyUnread, errorStatus } from '../http/error-response.ts';
import { openExportUpload } from '../http/export-upload.ts';
import { checkCsrf, rememberResult, type ImportOutcome } from '../links/page-sessions.ts';
import { discardSessionUploads, importUploads } from '../uploads/resumable-uploads.ts';
import { importProblem } from './import-problem.ts';
import { requirePageSession } from './page-middleware.ts';
import { postedForm } from './posted-form.ts';
import { renderPage } from './render-page.tsx';

/** The provider of /connect/:provider: one Parley reads, or the page is not found. */
function uploadProvider(c: Context<AppEnv, '/connect/:provider'>) {
  const provider = c.req.param('provider');
  if (!formatFor(provider)) throw new ParleyError('notFound');
  return provider;
}

/** The provider a file of another than the one chosen turned out to be from (the refusal's detail). */
function foundProvider(error: ParleyError): { found?: Provider } {
  const found = PROVIDERS.find((provider) => provider === error.detail);
  return error.code === 'invalidProvider' && found ? { found } : {};
}

/** A provider's upload page, the upload, and the page of its result. */
export function connectUpload(deps: Deps, imports: ImportSlots) {
  const routes = new Hono<AppEnv>();
  const session = requirePageSession(deps, 'connect');

  routes.get('/connect/result', session, (c) => {
    const { appName, lastResult: outcome } = c.var.session;
    // No upload yet in this session (a connect session keeps only import outcomes).
    if (!outcome || !('ok' in outcome)) return c.redirect('/connect', 303);
    return renderPage(
      c,
      <ImportResultPage appName={appName} outcome={outcome} />,
      outcome.ok ? 200 : (outcome.status as 400),
    );
  });

  // What to do when one's assistant is not among them: no file is taken here.
  routes.get('/connect/not-listed', session, (c) => renderPage(c, <NotListedPage appName={c.var.session.appName} />));

  routes.get('/connect/:provider', session, (c) => {
    const { appName, csrfToken } = c.var.session;
    const provider = uploadProvider(c);
    return renderPage(
      c,
      <UploadPage
        appName={appName}
        provider={provider}
        csrfToken={csrfToken}
        maxBytes={deps.config.maxExportBytes}
        sessionHours={deps.config.connectSessionHours}
      />,
    );
  });

  // The upload goes through the same import as POST /api/ingest-export; the
  // outcome is kept in the session and shown after a redirect (post/redirect/get).
  // With `upload=<id>` (the page's script, after sending the file to
  // /connect/uploads) the form carries only its fields, and the import reads
  // that upload of this session.
  routes.post('/connect/:provider', session, async (c) => {
    const current = c.var.session;
    const provider = uploadProvider(c);
    const uploadIds = c.req.queries('upload');
    let outcome: ImportOutcome;
    try {
      const upload = uploadIds ? { fields: await postedForm(deps, c) } : await openExportUpload(c, deps.config);
      checkCsrf(current, upload.fields.csrf);
      // The browser's zone, which the page's script fills in: one it does not know is left out (UTC).
      const zone = upload.fields.timeZone;
      const timeZone = zone && isTimeZone(zone) ? zone : undefined;
      const target = {
        appId: current.appId,
        userRef: current.userRef,
        provider,
        pageSession: current.tokenHash,
        timeZone,
      };
      outcome = await imports.run(() =>
        'files' in upload
          ? importExport(deps, target, upload.files, async () => target)
          : importUploads(deps, target, uploadIds!),
      );
    } catch (error) {
      // The error table says which refusals are of the request rather than of the file:
      // their error pages are at the form's address.
      if (!(error instanceof ParleyError)) throw error;
      const problem = importProblem(error);
      if (!problem) throw error;
      // A refused file is no error response: the redirect to the result page says whether the connection stays.
      closeIfBodyUnread(c);
      const found = foundProvider(error);
      // The result page asks for another file: the person has no way to retry, or remove, this one.
      // A file of another service is kept for the one click that imports it as that service's.
      if (uploadIds && !found.found) await discardSessionUploads(deps, current, uploadIds);
      // The page says what to do next; the precise reason is for the log (and the API's answer).
      deps.log.info('page import refused', { appId: current.appId, provider, error: error.message });
      outcome = { provider, ok: false, status: errorStatus(error), problem, ...found };
    }
    await rememberResult(deps, current, outcome);
    return c.redirect('/connect/result', 303);
  });

  return routes;
}
