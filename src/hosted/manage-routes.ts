import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { Deps } from '../deps.ts';
import { manageConfirmations } from './manage-confirmations.tsx';
import { manageDownload } from './manage-download.ts';
import { manageHome } from './manage-home.tsx';
import { manageImport } from './manage-import.ts';
import { manageMemoriesProjects } from './manage-memories-projects.tsx';
import { manageReading } from './manage-reading.tsx';
import { pageHeaders } from './page-middleware.ts';

/** The manage flow: /manage and below, for one user of one app. */
export function manageRoutes(deps: Deps) {
  return (
    new Hono<AppEnv>()
      // '/manage/*' matches /manage itself too.
      .use('/manage/*', pageHeaders)
      .route('/', manageHome(deps))
      .route('/', manageDownload(deps))
      .route('/', manageReading(deps))
      .route('/', manageMemoriesProjects(deps))
      .route('/', manageImport(deps))
      .route('/', manageConfirmations(deps))
  );
}
