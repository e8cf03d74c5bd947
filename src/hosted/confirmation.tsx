import { Hono, type Context } from 'hono';
import type { Messages } from '../../pages/i18n/en.ts';
import { ConfirmPage } from '../../pages/manage-pages.tsx';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import { checkCsrf } from '../links/page-sessions.ts';
import { requirePageSession } from './page-middleware.ts';
import { postedForm } from './posted-form.ts';
import { messages, renderPage } from './render-page.tsx';

/** A destructive action of the manage pages, as the page that asks for it to be confirmed describes it. */
export interface Confirmation<Path extends string> {
  /** Where the page is, and where its form posts to (`/manage/conversations/:id/delete`). */
  path: Path;
  /**
   * What the page says would go, looked up first (a thing already gone is refused
   * before anything is asked), and where Cancel leads.
   */
  page: (
    c: Context<AppEnv, Path>,
    t: Messages,
  ) => Promise<{
    title: string;
    explanation: string;
    confirmLabel: string;
    cancelHref: string;
    /** It is something an import brought, which a later import of the same export leaves deleted. */
    staysDeleted?: true;
  }>;
  /** Does it, once confirmed; answers where the person goes next. */
  act: (c: Context<AppEnv, Path>) => Promise<string>;
}

/**
 * A confirmation's two routes: GET shows what will go; POST checks the form's
 * CSRF token, acts, and redirects (post/redirect/get). Both need the manage session.
 */
export function confirmationRoutes<Path extends string>(deps: Deps, { path, page, act }: Confirmation<Path>) {
  const routes = new Hono<AppEnv>();
  const session = requirePageSession(deps, 'manage');
  routes.get(path, session, async (c) => {
    const { appName, csrfToken } = c.var.session;
    const shown = await page(c, messages(c));
    return renderPage(c, <ConfirmPage appName={appName} {...shown} action={c.req.path} csrfToken={csrfToken} />);
  });
  routes.post(path, session, async (c) => {
    const form = await postedForm(deps, c);
    checkCsrf(c.var.session, form.csrf);
    return c.redirect(await act(c), 303);
  });
  return routes;
}
