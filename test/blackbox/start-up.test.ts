import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { readSchema } from '../../src/db/schema-file.ts';
import { schemaVersions } from '../../src/db/schema-versions.ts';
import { freePort, inheritedEnv, nodeEntry, ROOT, startServer } from '../conformance/server.ts';

const run = promisify(execFile);

/** Starts the Node entry with `env` (on a free port and a fresh file unless it says otherwise), expecting it to fail. */
async function failedStart(env: Record<string, string>) {
  const started = performance.now();
  const failure = await run(process.execPath, [nodeEntry()], {
    cwd: ROOT,
    env: { ...inheritedEnv(), HOST: '127.0.0.1', ...env },
    timeout: 30_000,
  }).then(
    () => assert.fail('the server started'),
    (error: { code: number; killed: boolean; stdout: string; stderr: string }) => error,
  );
  return { ...failure, ms: performance.now() - started };
}

describe('a server that cannot start says why in one line and exits 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-start-up-'));
  const taken: Server[] = [];
  after(() => {
    for (const server of taken) server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A port some other program listens on. */
  async function portInUse(): Promise<number> {
    const server = createServer();
    taken.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }

  const cases: Array<{
    name: string;
    env: () => Promise<Record<string, string>>;
    stderr: (env: Record<string, string>) => string;
  }> = [
    {
      name: 'a bad configuration value',
      env: async () => ({ PORT: 'abc', DATABASE_PATH: join(dir, 'never-created', 'parley.db') }),
      stderr: () => 'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")',
    },
    {
      name: 'a HOST that is no address',
      env: async () => ({ HOST: '999.1.1.1', DATABASE_PATH: join(dir, 'never-created', 'parley.db') }),
      stderr: () => 'Invalid configuration: HOST must be an IP address or a host name (got "999.1.1.1")',
    },
    {
      name: 'a port in use',
      env: async () => ({ PORT: String(await portInUse()), DATABASE_PATH: join(dir, 'port', 'parley.db') }),
      stderr: ({ PORT }) =>
        `Cannot listen on 127.0.0.1:${PORT}: the port is in use by another program: stop it, or set PORT to a free port`,
    },
    {
      // TEST-NET-1 (RFC 5737): documentation only, on no machine's interface; binding sends nothing.
      name: 'an address this machine does not have',
      env: async () => ({
        HOST: '192.0.2.1',
        PORT: String(await freePort()),
        DATABASE_PATH: join(dir, 'host', 'parley.db'),
      }),
      stderr: ({ PORT }) =>
        `Cannot listen on 192.0.2.1:${PORT}: no network interface of this machine has that address: set HOST to one it has (127.0.0.1 for this machine only, 0.0.0.0 for every interface)`,
    },
    {
      // Node's recursive mkdir never returned here: the server spun silently.
      name: 'a database folder that cannot be created',
      env: async () => ({ DATABASE_PATH: '/proc/parley-none/parley.db' }),
      stderr: () =>
        "Cannot open the database at /proc/parley-none/parley.db: ENOENT: no such file or directory, mkdir '/proc/parley-none' (set DATABASE_PATH to a file in a folder Parley may write)",
    },
    {
      name: 'a database of a newer schema',
      env: async () => {
        const path = join(dir, 'newer.db');
        const db = new Database(path);
        db.pragma('user_version = 999');
        db.close();
        return { DATABASE_PATH: path };
      },
      stderr: ({ DATABASE_PATH }) =>
        `Cannot open the database at ${DATABASE_PATH}: its schema is version 999, written by a newer Parley; this one knows versions up to ${latestVersion()}: run the newer Parley (or restore a backup made before it)`,
    },
  ];
  for (const { name, env, stderr } of cases) {
    test(name, async () => {
      const given = await env();
      const failure = await failedStart(given);
      assert.equal(failure.killed, false, 'still running at the time-out');
      assert.equal(failure.code, 1);
      assert.equal(failure.stdout, '');
      assert.equal(failure.stderr, `${stderr(given)}\n`);
    });
  }

  test('a second server on the same SQLite file is refused, naming the first; after the first is killed, it starts', async () => {
    const databasePath = join(dir, 'shared', 'parley.db');
    const first = await startServer('node', { databasePath });
    try {
      const second = await failedStart({ PORT: String(await freePort()), DATABASE_PATH: databasePath });
      assert.equal(second.code, 1);
      assert.match(
        second.stderr,
        new RegExp(
          `^Cannot open the database at ${databasePath}: another Parley server is serving it \\(process ${first.pid} on 127\\.0\\.0\\.1:${new URL(first.url).port}, since \\d{4}-[^)]+\\): stop that one first; several servers on one database need PostgreSQL \\(DATABASE_URL\\)\\n$`,
        ),
      );
    } finally {
      // Killed: the operating system, not a shutdown, releases the lock.
      await first.stop('SIGKILL');
    }
    const next = await startServer('node', { databasePath });
    await next.stop();
  });
});

const latestVersion = () => schemaVersions(readSchema('schema.sql'), 'schema.sql').length;
