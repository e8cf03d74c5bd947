/**
 * Builds what /assets/ serves from pages/assets/: each file there is one asset —
 * a script in TypeScript (upload.ts → upload.js), the stylesheet, the favicon —
 * bundled by esbuild (imports inlined, one function's scope each, minified) into
 * dist/assets.ts, one string per asset, which src/app.ts imports. A module, not
 * files, so that every runtime and the single binary serve them with no file
 * system. `npm run build:assets`, the first step of every npm script that runs the
 * code (docs/development.md); test/run.ts runs it too.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

// This file runs from scripts/ (tsx) or compiled into dist/ (npm run build:assets): the root is one up either way.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'pages/assets');
const TARGET = join(ROOT, 'dist/assets.ts');

/**
 * What the pages' scripts may use: ES2017 keeps them running in every browser the
 * pages are made for (each already has Intl's unit formats, which they need).
 */
const BROWSER_TARGET = 'es2017';

/** How the pages' assets are built (test/package.test.ts reads which packages they take in). */
export const ASSETS_BUILD = {
  entryPoints: readdirSync(SOURCE, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(SOURCE, entry.name)),
  bundle: true,
  format: 'iife',
  target: BROWSER_TARGET,
  minify: true,
  loader: { '.svg': 'copy' },
  outdir: 'assets',
  write: false,
  logLevel: 'warning',
} satisfies BuildOptions;

/** Each asset built from pages/assets/ as it is now, by the name /assets/ serves it under. */
export async function builtAssets(): Promise<Record<string, string>> {
  const { outputFiles } = await build(ASSETS_BUILD);
  return Object.fromEntries(
    outputFiles.map((file) => [basename(file.path), file.text] as const).sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** The text of dist/assets.ts. */
async function assetsModule(): Promise<string> {
  const assets = await builtAssets();
  return [
    '// Generated from pages/assets/ by `npm run build:assets` (scripts/build-assets.ts): do not edit.',
    '/** Each file /assets/ serves, by name. */',
    `export const ASSETS: Record<string, string> = ${JSON.stringify(assets, null, 2)};`,
    '',
  ].join('\n');
}

/**
 * Writes dist/assets.ts, unless it already holds this build; whole or not at all
 * (a rename), as tests running beside a build may be reading it.
 */
export async function buildAssets(): Promise<void> {
  const text = await assetsModule();
  let current: string | undefined;
  try {
    current = readFileSync(TARGET, 'utf8');
  } catch {
    // Not built yet.
  }
  if (current === text) return;
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const written = `${TARGET}.${process.pid}`;
  writeFileSync(written, text);
  renameSync(written, TARGET);
}

if (import.meta.url === `file://${process.argv[1]}`) await buildAssets();
