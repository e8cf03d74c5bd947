/**
 * Regenerates docs/screenshots/ from the browser tests, so the pictures of the
 * README and docs/ are the pages as they are: runs test/e2e/pages.e2e.test.ts
 * (which screenshots every page it passes at 390 and 1280 px wide) into a
 * temporary folder, then copies there exactly the images README.md and
 * docs/*.md show or link to, and removes any none of them does. If a test
 * fails, docs/screenshots/ is left as it was.
 *
 *   npm run screenshots          (needs Chromium: see the README's Development section)
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../test/conformance/server.ts';

export const SCREENSHOTS_DIR = 'docs/screenshots';

/** Parley's documents, by their path in the repository: the README and docs/*.md. */
export const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The file names of docs/screenshots/ that README.md or a docs/*.md shows or links to, each link read from its own document's folder. */
export function shownScreenshots(): Set<string> {
  return new Set(
    DOCUMENTS.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\]\(([^)\s#]+\.png)\)/g)]
        .map((match) => join(dirname(file), match[1]!))
        .filter((path) => dirname(path) === SCREENSHOTS_DIR)
        .map((path) => basename(path)),
    ),
  );
}

async function takeScreenshots() {
  const docsDir = join(ROOT, SCREENSHOTS_DIR);
  const shown = shownScreenshots();
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
    if (missing.length > 0)
      throw new Error(`the documents show screenshots no browser test takes: ${missing.join(', ')}`);
    for (const name of readdirSync(docsDir)) if (!shown.has(name)) rmSync(join(docsDir, name));
    for (const name of shown) copyFileSync(join(taken, name), join(docsDir, name));
    console.log(`docs/screenshots/: ${shown.size} screenshots refreshed`);
  } catch (error) {
    console.error(`screenshots: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    rmSync(taken, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await takeScreenshots();
