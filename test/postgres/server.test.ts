/**
 * The test PostgreSQL server's binaries (test/postgres-server.ts): runnable by
 * the user the server runs as — `nobody` when the tests run as root, from a
 * clone perhaps in a folder only root may enter.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { binaries, PostgresMissing, serverUser } from '../postgres-server.ts';

const run = promisify(execFile);
const user = serverUser();

function found(): ReturnType<typeof binaries> | string {
  try {
    return binaries(user);
  } catch (error) {
    if (error instanceof PostgresMissing) return `PostgreSQL tests skipped: ${error.message}`;
    throw error;
  }
}
const server = found();

describe("the test server's binaries", { skip: typeof server === 'string' ? server : false }, () => {
  const { initdb, postgres, discard } = server as ReturnType<typeof binaries>;
  after(discard);

  test("run as the server's user", async () => {
    for (const binary of [initdb, postgres]) {
      const { stdout } = await run(binary, ['--version'], { ...user });
      assert.match(stdout, /\(PostgreSQL\) \d+/);
    }
  });

  test('as root, come from a folder everyone can reach and only root can change', {
    skip: user ? false : 'not root: the server runs as this user, from the package',
  }, () => {
    const native = dirname(dirname(initdb));
    const stat = lstatSync(native);
    assert.deepEqual([stat.uid, stat.mode & 0o022], [0, 0], native);
    for (let folder = native; folder !== dirname(folder); folder = dirname(folder)) {
      assert.ok(lstatSync(folder).mode & 0o001, `others may enter ${folder}`);
    }
  });
});
