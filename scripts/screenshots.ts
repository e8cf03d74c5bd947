/**
 * Regenerates docs/screenshots/ from the browser tests, so the README's pictures
 * are the pages as they are: runs test/e2e/pages.e2e.test.ts (which screenshots
 * every page it passes at 390 and 1280 px wide) into a temporary folder, then
 * copies there exactly the images the README shows, and removes any it no longer
 * shows. If a test fails, docs/screenshots/ is left as it was.
 *
 *   npm run screenshots          (needs Chromium: see the README's Development section)
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../test/conformance/server.ts';

const DOCS_DIR = join(ROOT, 'docs/screenshots');
const shown = new Set(
  [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/docs\/screenshots\/([\w-]+\.png)/g)].map((m) => m[1]!),
);

const taken = mkdtempSync(join(tmpdir(), 'parley-screenshots-'));
try {
  // PARLEY_REQUIRE_BROWSER: without Chromium the tests would pass by skipping, and take nothing.
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', 'test/e2e/pages.e2e.test.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PARLEY_SCREENSHOTS_DIR: taken, PARLEY_REQUIRE_BROWSER: '1' },
  });
  const code = await new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? 1)));
  if (code !== 0) throw new Error('the browser tests failed, so docs/screenshots/ is left as it was');

  const available = new Set(readdirSync(taken));
  const missing = [...shown].filter((name) => !available.has(name));
  if (missing.length > 0) throw new Error(`the README shows screenshots no browser test takes: ${missing.join(', ')}`);
  for (const name of readdirSync(DOCS_DIR)) if (!shown.has(name)) rmSync(join(DOCS_DIR, name));
  for (const name of shown) copyFileSync(join(taken, name), join(DOCS_DIR, name));
  console.log(`docs/screenshots/: ${shown.size} screenshots refreshed`);
} catch (error) {
  console.error(`screenshots: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  rmSync(taken, { recursive: true, force: true });
}
