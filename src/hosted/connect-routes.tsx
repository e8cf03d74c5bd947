import { Hono } from 'hono';
import { ChooseProviderPage, ConnectStartPage } from '../../pages/connect-pages.tsx';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import type { ImportSlots } from '../import/import-slots.ts';
import { connectUpload } from './connect-upload.tsx';
import { connectUploads } from './connect-uploads.ts';
import { pageHeaders, requirePageLink, requirePageSession } from './page-middleware.ts';
import { startPageSession } from './page-session-cookies.ts';
import { renderPage } from './render-page.tsx';

/** The connect flow: /start (the link's landing page) and /connect (choose, upload, result). */
export function connectRoutes(deps: Deps, imports: ImportSlots) {
  const routes = new Hono<AppEnv>();
  routes.use('/start', pageHeaders);
  // '/connect/*' matches /connect itself too.
  routes.use('/connect/*', pageHeaders);

  // Shows the page and consumes nothing: a chat app's link preview or a mail
  // scanner fetching the URL must not use up the person's link. Continue does.
  routes.get('/start', requirePageLink(deps, 'connect'), (c) => {
    const { token, brand } = c.var.link;
    return renderPage(c, <ConnectStartPage appName={brand.name} token={token} privacyPolicyUrl={brand.privacyUrl} />);
  });
  routes.post('/start', requirePageLink(deps, 'connect'), startPageSession(deps));

  routes.get('/connect', requirePageSession(deps, 'connect'), (c) =>
    renderPage(c, <ChooseProviderPage appName={c.var.session.appName} />),
  );
  // Before /connect/:provider, which would take `uploads` for a provider.
  routes.route('/', connectUploads(deps));
  routes.route('/', connectUpload(deps, imports));

  return routes;
}
