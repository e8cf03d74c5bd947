/**
 * What `npm test` runs after type-checking: starts a PostgreSQL server from npm
 * (test/postgres-server.ts), runs every test file on SQLite, then the API,
 * import, pages and webhook suites again on PostgreSQL (the same files, with
 * PARLEY_TEST_DATABASE_URL set), then stops the server. Both runs always happen;
 * the exit code is the worse of the two.
 *
 *   node --import tsx test/run.ts [test files…]   (default: every test/**\/*.test.ts)
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from './postgres-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The suites that run on both databases. */
const ON_BOTH = /^test\/(api|import|pages|webhooks)\//;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? testFiles(join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : []))
    .map((file) => relative(ROOT, join(ROOT, file)))
    .sort();
}

function runTests(files: string[], env: Record<string, string>): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

const files = process.argv.length > 2 ? process.argv.slice(2) : testFiles('test');
const postgres = await startPostgres();
let exitCode = 1;
try {
  const serverEnv = { PARLEY_TEST_POSTGRES_URL: postgres.url };
  const onSqlite = await runTests(files, serverEnv);
  const onBoth = files.filter((file) => ON_BOTH.test(file));
  console.log(`\n# The same ${onBoth.length} suites again, on PostgreSQL\n`);
  const onPostgres = onBoth.length === 0 ? 0 : await runTests(onBoth, { ...serverEnv, PARLEY_TEST_DATABASE_URL: await postgres.createDatabase('parley_tests') });
  exitCode = Math.max(onSqlite, onPostgres);
} finally {
  await postgres.stop();
}
process.exitCode = exitCode;
