/**
 * What `npm test` runs after type-checking: starts a PostgreSQL server from npm
 * (test/postgres-server.ts), runs every test file on SQLite and, side by side,
 * the API, attachments, import, pages and webhook suites again on PostgreSQL (the
 * same files, with PARLEY_TEST_DATABASE_URL set), then stops the server. The
 * files of those suites and of test/reading/ go several to a process (see
 * sharedProcesses). Both runs always happen;
 * the exit code is the worse of the two. Without PostgreSQL from npm (a lean
 * install) the PostgreSQL runs are skipped with one line saying why — unless
 * PARLEY_REQUIRE_POSTGRES=1 (CI sets it), which makes that a failure. First it
 * builds what `npm start` builds (`npm run build:node`): the pages' assets, which
 * the app imports, and the Node entry the black-box tests start.
 *
 *   node --import tsx test/run.ts [--test-name-pattern=RE] [test files…]   (default: every test/**\/*.test.ts)
 *
 * Options given (such as node's --test-name-pattern, to run some cases of a
 * file) go to both runs' test runner.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PostgresMissing, startPostgres, type PostgresServer } from './postgres-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The suites that run on both databases: each test has a database of its own. */
const ON_BOTH = /^test\/(api|attachments|import|pages|webhooks)\//;
/**
 * The suites whose files share processes: those, and the export readers' own.
 * Each of their tests calls the app or a reader in the test's own process.
 */
const SHARES_PROCESSES = /^test\/(api|attachments|import|pages|webhooks|reading)\//;
/** At most this many files of one folder of those suites to a process. */
const FILES_PER_PROCESS = 6;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? testFiles(join(dir, entry.name))
        : entry.name.endsWith('.test.ts')
          ? [join(dir, entry.name)]
          : [],
    )
    .map((file) => relative(ROOT, join(ROOT, file)))
    .sort();
}

/**
 * The test runner's entries for `files` of the suites that share processes,
 * by folder: the files of one folder go several to a process, through an entry
 * file in `entries` that imports them one after the other (the runner runs
 * their tests in that order). Starting a process and loading the app in it
 * costs seconds of CPU, as much as many of those files' tests. A file's
 * process-wide settings (`process.env.TZ`) hold for the files that share its
 * process.
 */
function sharedProcesses(files: string[], entries: string): Map<string, string[]> {
  const byFolder = new Map<string, string[]>();
  for (const file of files) byFolder.set(dirname(file), [...(byFolder.get(dirname(file)) ?? []), file]);
  return new Map(
    [...byFolder].map(([suite, inSuite]) => {
      const processes = Math.ceil(inSuite.length / FILES_PER_PROCESS);
      const entriesOfSuite = Array.from({ length: processes }, (_, index) => {
        const entry = join(entries, `${suite.replace(/\W/g, '-')}-${index + 1}.test.mjs`);
        const imports = inSuite
          .filter((_, position) => position % processes === index)
          .map((file) => `await import(${JSON.stringify(pathToFileURL(join(ROOT, file)).href)});\n`);
        writeFileSync(entry, imports.join(''));
        return entry;
      });
      return [`${suite}/`, entriesOfSuite];
    }),
  );
}

/**
 * Runs `files` (test files or entries) in a test runner of their own, `concurrency` at a time.
 * `output`: where its report goes (this process's own by default); a run
 * beside another is collected, so the two reports do not interleave.
 */
function runTests(
  files: string[],
  env: Record<string, string>,
  concurrency: number,
  output?: Buffer[],
): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...options, ...files],
    {
      cwd: ROOT,
      stdio: output ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    },
  );
  if (output)
    for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

/** The server, or why there is none (a missing PostgreSQL; any other failure to start stops the run). */
async function startOrSkip(): Promise<PostgresServer | string> {
  try {
    return await startPostgres();
  } catch (error) {
    if (!(error instanceof PostgresMissing) || process.env.PARLEY_REQUIRE_POSTGRES === '1') throw error;
    return `PostgreSQL tests skipped: ${error.message}`;
  }
}

/**
 * Two processes at a time on SQLite (each test has a database of its own): the
 * black-box files spend much of their time waiting on a server, a browser or a
 * timeout, which the other process fills.
 */
const SQLITE_RUN_PROCESSES_AT_ONCE = 2;

const options = process.argv.slice(2).filter((argument) => argument.startsWith('--'));
const named = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const files = named.length > 0 ? named : testFiles('test');
// As `npm start` builds them: the pages' assets (dist/assets.ts, which the app
// imports) and the Node entry the black-box tests start (nodeEntry).
await new Promise<void>((resolve, reject) =>
  spawn('npm', ['run', '-s', 'build:node'], { cwd: ROOT, stdio: 'inherit' }).on('close', (code) =>
    code === 0 ? resolve() : reject(new Error(`npm run build:node exited with ${code}`)),
  ),
);
const postgres = await startOrSkip();
const onBoth = files.filter((file) => ON_BOTH.test(file));
const entries = mkdtempSync(join(tmpdir(), 'parley-test-entries-'));
try {
  const shared = sharedProcesses(
    files.filter((file) => SHARES_PROCESSES.test(file)),
    entries,
  );
  const sqliteProcesses = [...files.filter((file) => !SHARES_PROCESSES.test(file)), ...[...shared.values()].flat()];
  const onBothProcesses = [...shared].flatMap(([suite, entriesOfSuite]) => (ON_BOTH.test(suite) ? entriesOfSuite : []));
  if (typeof postgres === 'string') {
    console.log(`# ${postgres}`);
    process.exitCode = await runTests(
      sqliteProcesses,
      { PARLEY_TEST_POSTGRES_MISSING: postgres },
      SQLITE_RUN_PROCESSES_AT_ONCE,
    );
  } else {
    let exitCode = 1;
    try {
      const serverEnv = { PARLEY_TEST_POSTGRES_URL: postgres.url };
      // The two runs go side by side, so that neither waits on the other's
      // browser, server or timeout with a core idle.
      const postgresReport: Buffer[] = [];
      const onPostgresRun =
        onBoth.length === 0
          ? Promise.resolve(0)
          : postgres
              .createDatabase('parley_tests')
              // One process at a time: they share this database.
              .then((url) =>
                runTests(onBothProcesses, { ...serverEnv, PARLEY_TEST_DATABASE_URL: url }, 1, postgresReport),
              );
      const onSqlite = await runTests(sqliteProcesses, serverEnv, SQLITE_RUN_PROCESSES_AT_ONCE);
      const onPostgres = await onPostgresRun;
      if (onBoth.length > 0) {
        console.log(`\n# The same ${onBoth.length} suites, run on PostgreSQL at the same time\n`);
        process.stdout.write(Buffer.concat(postgresReport));
      }
      exitCode = Math.max(onSqlite, onPostgres);
    } finally {
      await postgres.stop();
    }
    process.exitCode = exitCode;
  }
} finally {
  rmSync(entries, { recursive: true, force: true });
}
