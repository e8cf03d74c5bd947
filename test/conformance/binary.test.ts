/**
 * The single-file binary (`bun build --compile`): built into a temp folder, run
 * from another working directory so that nothing can be read from the checkout
 * (schema, pages and assets must be inside it), used as the operator's command
 * line with no Node on the PATH, and put through the smoke cases.
 *
 *   node --import tsx test/run.ts test/conformance/binary.test.ts
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import { defineConformance, type ConformanceOptions } from './cases.ts';
import { ROOT } from './server.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'parley-binary-'));
const binaryPath = join(dir, 'parley');
/** The smoke suite starts the binary from the system temp folder, away from the checkout. */
const options: ConformanceOptions = { smoke: true, binaryPath, cwd: tmpdir() };

after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `npm run build:binary`'s arguments to bun (its entry points, workers included), writing to `binaryPath` instead.
 * Bun's is the script's last command; the pages' assets it embeds are built already (test/run.ts).
 */
function buildArguments(): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts['build:binary'];
  const [command, ...args] = script.split('&&').at(-1)!.trim().split(/\s+/);
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
    }).catch((error: Error & { stdout?: string; stderr?: string }) =>
      assert.fail(`bun build failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`),
    );
    const { size, mode } = statSync(binaryPath);
    assert.ok(mode & 0o100, 'executable');
    t.diagnostic(`built in ${Math.round(performance.now() - started)} ms${stderr.trim() ? ` (${stderr.trim()})` : ''}`);
    t.diagnostic(`binary size: ${(size / 1024 / 1024).toFixed(1)} MB`);
  });

  test('onboards an app by itself: help, app create, link', async () => {
    // Nothing on the PATH: no Node, no Bun, no shell tools.
    const env = { PATH: join(dir, 'empty'), DATABASE_PATH: join(dir, 'onboarding.db'), PORT: '28901' };
    const parley = async (...args: string[]) => (await run(binaryPath, args, { cwd: tmpdir(), env })).stdout;
    assert.match(await parley('--help'), /^Usage: parley \[command\] \[flags\]\n[\s\S]*\n {2}migrate-to-postgres /);
    assert.match(await parley('help', 'backup'), /^Usage: parley backup --out FILE\n/);
    // The commands use the database the server creates when it first starts.
    await openBetterSqlite3(env.DATABASE_PATH).destroy();
    const { appId, apiKey } = JSON.parse(await parley('app', 'create', '--name', 'Acme'));
    assert.match(apiKey, /^parley_/);
    const { url } = JSON.parse(await parley('link', '--app', appId, '--user', 'u1', '--purpose', 'connect'));
    assert.ok(url.startsWith('http://localhost:28901/start?token='), url);
    assert.equal(JSON.parse(await parley('app', 'list')).apps[0].appId, appId);
  });
});

defineConformance('binary', options);
