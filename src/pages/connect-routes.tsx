import { Hono, type Context } from 'hono';
import { ChooseProviderPage, ConnectStartPage, ImportResultPage, UploadPage, type ImportOutcome } from '../../pages/connect-pages.tsx';
import { providerName } from '../../pages/layout.tsx';
import type { AppEnv } from '../app-env.ts';
import { requireApp } from '../apps/apps.ts';
import type { Deps } from '../deps.ts';
import { ApiError, type ErrorCode } from '../errors.ts';
import { importExport } from '../import/import-export.ts';
import { formatFor } from '../import/formats.ts';
import { openExportUpload, type ExportUpload } from '../import/upload.ts';
import { consumeLink, verifyLink } from '../links/link-verification.ts';
import { checkCsrf, openPageSession, rememberResult, resumePageSession, type PageSession } from '../links/page-sessions.ts';
import { pageHeaders, renderPage, sessionCookie, setSessionCookie } from './page-kit.tsx';

/** Why an upload failed, said for the person holding the file. */
function importFailure(code: ErrorCode, provider: string, message: string): Pick<ImportOutcome, 'message' | 'advice'> {
  const name = providerName(provider);
  switch (code) {
    case 'invalidProvider':
      return { message: `This file is not a ${name} export.`, advice: `Check that you chose the service the file came from, or go back and choose another.` };
    case 'unrecognizedExport':
      return { message: 'This file is not a conversations export.', advice: `Upload the .zip file ${name} emailed you, or the conversations.json inside it.` };
    case 'exportTooLarge':
      return { message: 'This file is too large to upload here.', advice: 'Contact the app’s support to raise the limit.' };
    default:
      return { message: `${message}.`, advice: `The file may be damaged or incomplete. Download the export from ${name} again and upload the new file.` };
  }
}

/** The connect flow: /start (the link's landing page) and /connect (choose, upload, result). */
export function connectRoutes(deps: Deps) {
  const routes = new Hono<AppEnv>();
  const secureCookies = deps.config.publicUrl.startsWith('https:');

  const session = async (c: Context<AppEnv>): Promise<PageSession & { appName: string }> => {
    const found = await resumePageSession(deps, sessionCookie(c, 'connect'), 'connect');
    const app = await requireApp(deps, found.appId);
    c.set('page', { appName: app.name });
    return { ...found, appName: app.name };
  };

  routes.use('/start', pageHeaders);
  routes.use('/connect', pageHeaders);
  routes.use('/connect/*', pageHeaders);

  // Shows the page and consumes nothing: a chat app's link preview or a mail
  // scanner fetching the URL must not use up the person's link.
  routes.get('/start', async (c) => {
    const token = c.req.query('token');
    const claims = await verifyLink(deps, token, 'connect');
    const app = await requireApp(deps, claims.appId);
    c.set('page', { appName: app.name });
    return renderPage(c, <ConnectStartPage appName={app.name} token={token!} />);
  });

  // The person's click: consumes the link and opens a session. No CSRF token here:
  // there is no session yet, and the single-use signed token is the proof.
  routes.post('/start', async (c) => {
    const form = await c.req.parseBody();
    const token = typeof form.token === 'string' ? form.token : undefined;
    const claims = await verifyLink(deps, token, 'connect');
    await consumeLink(deps, claims);
    const cookie = await openPageSession(deps, { appId: claims.appId, userRef: claims.userRef, purpose: 'connect' });
    setSessionCookie(c, 'connect', cookie, secureCookies);
    return c.redirect('/connect', 303);
  });

  routes.get('/connect', async (c) => {
    const { appName } = await session(c);
    return renderPage(c, <ChooseProviderPage appName={appName} />);
  });

  routes.get('/connect/result', async (c) => {
    const { appName, lastResult } = await session(c);
    if (!lastResult) return c.redirect('/connect', 303);
    const outcome = JSON.parse(lastResult) as ImportOutcome & { status: number };
    return renderPage(c, <ImportResultPage appName={appName} outcome={outcome} />, outcome.ok ? 200 : (outcome.status as 400));
  });

  routes.get('/connect/:provider', async (c) => {
    const current = await session(c);
    const provider = c.req.param('provider');
    if (!formatFor(provider)) throw new ApiError('notFound');
    return renderPage(c, <UploadPage appName={current.appName} provider={provider} csrfToken={current.csrfToken} maxBytes={deps.config.maxExportBytes} />);
  });

  // The upload goes through the same import as POST /api/ingest-export; the
  // outcome is kept in the session and shown after a redirect (post/redirect/get).
  routes.post('/connect/:provider', async (c) => {
    const current = await session(c);
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
      if (!(error instanceof ApiError) || error.code === 'invalidCsrf' || error.code === 'unsupportedContentType') throw error;
      if (!upload?.body.finished) c.header('Connection', 'close');
      outcome = { provider, ok: false, status: error.status, ...importFailure(error.code, provider, error.message) };
    }
    await rememberResult(deps, current, outcome);
    return c.redirect('/connect/result', 303);
  });

  return routes;
}
