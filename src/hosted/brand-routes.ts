import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { appLogo } from '../apps/page-settings.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';

const FOREVER = 'public, max-age=31536000, immutable';

/**
 * What the pages show of an app, served by Parley itself so that their CSP
 * stays `img-src 'self'; style-src 'self'`: its logo, and its accent colour as
 * a stylesheet (the CSP allows no inline style). Neither is secret.
 */
export function brandRoutes(deps: Deps) {
  const routes = new Hono<AppEnv>();

  // The colour is the file's name: any #rrggbb gives the same one-line sheet, so it
  // needs no look-up and is cached for good. Pages link only the app's checked colour.
  routes.get('/brand/accent/:file', (c) => {
    const color = /^([0-9a-f]{6})\.css$/.exec(c.req.param('file'))?.[1];
    if (!color) throw new ParleyError('notFound');
    return c.body(`:root{--accent:#${color}}\n`, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': FOREVER,
      'X-Content-Type-Options': 'nosniff',
    });
  });

  routes.get('/brand/:appId/logo', async (c) => {
    const logo = await appLogo(deps, c.req.param('appId'));
    if (!logo) throw new ParleyError('notFound');
    // Pages ask for `?v=` the image's hash: that URL never changes its answer.
    const current = c.req.query('v') === logo.version;
    return c.body(logo.bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': logo.contentType,
      'Cache-Control': current ? FOREVER : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
  });

  return routes;
}
