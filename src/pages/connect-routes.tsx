import { Hono } from 'hono';
import { ChooseProviderPage, ConnectStartPage, ImportResultPage, UploadPage, type ImportOutcome } from '../../pages/connect-pages.tsx';
import { providerGuide, providerName } from '../../pages/providers.ts';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import { ApiError, type ErrorCode } from '../errors.ts';
import { importExport } from '../import/import-export.ts';
import { formatFor } from '../import/formats.ts';
import { openExportUpload, type ExportUpload } from '../import/upload.ts';
import { verifyLink } from '../links/link-verification.ts';
import { checkCsrf, rememberResult } from '../links/page-sessions.ts';
import { pageHeaders, pageSession, renderPage, startPageSession } from './page-kit.tsx';

/** Why an upload failed, said for the person holding the file. */
function importFailure(code: ErrorCode, provider: string, message: string): Pick<ImportOutcome, 'message' | 'advice'> {
  const name = providerName(provider);
  switch (code) {
    case 'invalidProvider':
      return { message: `This file is not a ${name} export.`, advice: `Check that you chose the service the file came from, or go back and choose another.` };
    case 'unrecognizedExport':
      return { message: 'This file is not a conversations export.', advice: `Upload the export you downloaded from ${name} (${providerGuide(provider)!.files}), as the steps on the previous page describe.` };
    case 'exportTooLarge':
    case 'expandedTooLarge':
      return { message: 'This file is too large to import here.', advice: 'Contact the app’s support to raise the limit.' };
    case 'conversationTooLarge':
      return { message: 'One conversation in this file is too large to import.', advice: 'Contact the app’s support to raise the limit.' };
    default:
      return { message: `${message}.`, advice: `The file may be damaged or incomplete. Download the export from ${name} again and upload the new file.` };
  }
}

/** The connect flow: /start (the link's landing page) and /connect (choose, upload, result). */
export function connectRoutes(deps: Deps) {
  const routes = new Hono<AppEnv>();
  routes.use('/start', pageHeaders);
  // '/connect/*' matches /connect itself too.
  routes.use('/connect/*', pageHeaders);

  // Shows the page and consumes nothing: a chat app's link preview or a mail
  // scanner fetching the URL must not use up the person's link.
  routes.get('/start', async (c) => {
    const token = c.req.query('token');
    const { appName } = await verifyLink(deps, token, 'connect');
    c.set('page', { appName });
    return renderPage(c, <ConnectStartPage appName={appName} token={token!} />);
  });

  // The person's click: consumes the link and opens a session. No CSRF token here:
  // there is no session yet, and the single-use signed token is the proof.
  routes.post('/start', async (c) => {
    const form = await c.req.parseBody();
    const token = typeof form.token === 'string' ? form.token : undefined;
    const { claims } = await verifyLink(deps, token, 'connect');
    return startPageSession(deps, c, claims, '/connect');
  });

  routes.get('/connect', async (c) => {
    const { appName } = await pageSession(deps, c, 'connect');
    return renderPage(c, <ChooseProviderPage appName={appName} />);
  });

  routes.get('/connect/result', async (c) => {
    const { appName, lastResult } = await pageSession(deps, c, 'connect');
    if (!lastResult) return c.redirect('/connect', 303);
    const outcome = JSON.parse(lastResult) as ImportOutcome & { status: number };
    return renderPage(c, <ImportResultPage appName={appName} outcome={outcome} />, outcome.ok ? 200 : (outcome.status as 400));
  });

  routes.get('/connect/:provider', async (c) => {
    const current = await pageSession(deps, c, 'connect');
    const provider = c.req.param('provider');
    if (!formatFor(provider)) throw new ApiError('notFound');
    return renderPage(c, <UploadPage appName={current.appName} provider={provider} csrfToken={current.csrfToken} maxBytes={deps.config.maxExportBytes} />);
  });

  // The upload goes through the same import as POST /api/ingest-export; the
  // outcome is kept in the session and shown after a redirect (post/redirect/get).
  routes.post('/connect/:provider', async (c) => {
    const current = await pageSession(deps, c, 'connect');
    const provider = c.req.param('provider');
    if (!formatFor(provider)) throw new ApiError('notFound');
    let upload: ExportUpload | undefined;
    let outcome: ImportOutcome & { status: number };
    try {
      upload = await openExportUpload(c.req.raw, deps.config.maxExportBytes);
      checkCsrf(current, upload.fields.csrf);
      const result = await importExport(deps, { appId: current.appId, userRef: current.userRef, provider }, upload.file);
      outcome = { ...result, status: 200 };
    } catch (error) {
      // Refused before the file was read through: the rest of it goes with the connection.
      if (!upload?.body.finished) c.header('Connection', 'close');
      if (!(error instanceof ApiError) || error.code === 'invalidCsrf' || error.code === 'unsupportedContentType') throw error;
      outcome = { provider, ok: false, status: error.status, ...importFailure(error.code, provider, error.message) };
    }
    await rememberResult(deps, current, outcome);
    return c.redirect('/connect/result', 303);
  });

  return routes;
}
