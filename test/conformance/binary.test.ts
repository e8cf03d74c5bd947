/**
 * The single-file binary (`bun build --compile`): built into a temp folder, run
 * from another working directory so that nothing can be read from the checkout
 * (schema, pages and assets must be inside it), and put through the smoke cases.
 *
 *   node --import tsx --test test/conformance/binary.test.ts
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { defineConformance, type ConformanceOptions } from './cases.ts';
import { ROOT } from './server.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'parley-binary-'));
const binaryPath = join(dir, 'parley');
/** The smoke suite starts the binary from the system temp folder, away from the checkout. */
const options: ConformanceOptions = { smoke: true, binaryPath, cwd: tmpdir() };

after(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run build:binary`'s arguments to bun (its entry points, workers included), writing to `binaryPath` instead. */
function buildArguments(): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts['build:binary'];
  const [command, ...args] = script.split(/\s+/);
  assert.equal(command, 'bun', 'build:binary runs bun');
  const outfile = args.indexOf('--outfile');
  args.splice(outfile, 2, '--outfile', binaryPath);
  return args;
}

describe('the compiled binary', () => {
  test('builds with bun build --compile', { timeout: 120_000 }, async (t) => {
    const started = performance.now();
    const { stderr } = await run(join(ROOT, 'node_modules/.bin/bun'), buildArguments(), {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: Error & { stdout?: string; stderr?: string }) => assert.fail(`bun build failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`));
    const { size, mode } = statSync(binaryPath);
    assert.ok(mode & 0o100, 'executable');
    t.diagnostic(`built in ${Math.round(performance.now() - started)} ms${stderr.trim() ? ` (${stderr.trim()})` : ''}`);
    t.diagnostic(`binary size: ${(size / 1024 / 1024).toFixed(1)} MB`);
  });
});

defineConformance('binary', options);
