import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { streamOf } from '../bytes.ts';
import { downloadedFiles, downloadOf } from '../conversations/download.ts';
import { isoTime, type Deps } from '../deps.ts';
import { downloadFile } from './download-file.ts';
import { downloadZip } from './download-zip.ts';
import { requirePageSession } from './page-middleware.ts';

/**
 * "Download my data": a read, so a GET with the session and no form token; a
 * cross-site page can at most make the person's own browser save their file.
 * A zip: the JSON file as the download always was, and the stored files beside it.
 */
export function manageDownload(deps: Deps) {
  return new Hono<AppEnv>().get('/manage/download', requirePageSession(deps, 'manage'), async (c) => {
    const owner = c.var.session;
    const connections = await downloadOf(deps, owner);
    const now = deps.clock.now();
    const exportedAt = isoTime(now);
    const name = `parley-data-${exportedAt.slice(0, 10)}`;
    const zip = downloadZip(
      `${name}.json`,
      downloadFile(owner.userRef, exportedAt, connections),
      downloadedFiles(deps, connections),
      now,
    );
    const file = streamOf(zip, (error) =>
      deps.log.error('download failed', { appId: owner.appId, error: String(error), stack: (error as Error).stack }),
    );
    return c.body(file, 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${name}.zip"`,
    });
  });
}
