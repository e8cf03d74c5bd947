/**
 * parley-sdk as customers get it: its unit tests under Node, Deno and Bun, and
 * the packed tarball installed into a project of its own (outside the
 * repository), whose script (customer.mjs) signs a link, imports, pages, purges
 * and verifies real deliveries from a running server.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { onboardApp } from '../../src/apps/apps.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../../src/deps.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { freePort, inheritedEnv, ROOT, startServer } from '../conformance/server.ts';
import { fixtureJson } from '../helpers.ts';
import { parseConfig } from '../../src/config.ts';

const run = promisify(execFile);
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
const UNIT = 'sdk/test/unit.ts';
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

describe('parley-sdk', () => {
  const runtimes: Array<[string, string, string[]]> = [
    ['Node', process.execPath, ['--import', 'tsx', UNIT]],
    // No permissions at all: the SDK needs none.
    ['Deno', bin('deno'), ['run', UNIT]],
    ['Bun', bin('bun'), [UNIT]],
  ];
  for (const [name, command, args] of runtimes) {
    test(`unit tests under ${name}`, async () => {
      const { stdout } = await run(command, args, { cwd: ROOT, env: { ...inheritedEnv(), NO_COLOR: '1' } });
      assert.match(stdout.trim().split('\n').at(-1)!, /^[1-9]\d* passed, 0 failed$/, stdout);
    });
  }

  test('packed, installed in a project of its own, used against a running server', async () => {
    const packed = tempDir('parley-sdk-pack-');
    await run('npm', ['pack', '--silent', '--pack-destination', packed], { cwd: join(ROOT, 'sdk') });
    const [tarball] = readdirSync(packed).filter((name) => name.endsWith('.tgz'));
    const project = tempDir('parley-customer-');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'customer', private: true, type: 'module' }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(packed, tarball!)], { cwd: project });
    copyFileSync(fileURLToPath(new URL('./customer.mjs', import.meta.url)), join(project, 'customer.mjs'));

    const databasePath = join(tempDir('parley-sdk-db-'), 'parley.db');
    const db = openBetterSqlite3(databasePath);
    const tenant = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'SDK customer');
    const hooksPort = await freePort();
    const { secret } = await setWebhookEndpoint(
      { db, random: cryptoRandom, config: parseConfig({}) },
      tenant.appId,
      `http://127.0.0.1:${hooksPort}/hooks`,
    );
    await db.destroy();
    const server = await startServer('node', { databasePath });
    try {
      const exportFile = fileURLToPath(new URL('../fixtures/claude-conversations.json', import.meta.url));
      const { stdout } = await run(process.execPath, ['customer.mjs'], {
        cwd: project,
        env: {
          ...inheritedEnv(),
          PARLEY_URL: server.url,
          PARLEY_APP_ID: tenant.appId,
          PARLEY_APP_SECRET: tenant.appSecret,
          PARLEY_API_KEY: tenant.apiKey,
          PARLEY_WEBHOOK_SECRET: secret,
          HOOKS_PORT: String(hooksPort),
          EXPORT_FILE: exportFile,
        },
      });
      const result = JSON.parse(stdout);
      const conversations = fixtureJson('claude-conversations.json') as Array<{ name: string }>;
      assert.deepEqual(result.page, { status: 200, connectPage: true });
      assert.equal(result.imported.created, conversations.length);
      assert.deepEqual(
        result.connections.map((c: { id: string }) => c.id),
        [result.imported.connectionId],
      );
      assert.deepEqual([...result.titles].sort(), conversations.map((c) => c.name || null).sort());
      assert.deepEqual([result.searched, result.unchanged], [['Kilometres in a marathon'], 0]);
      assert.deepEqual(result.purged, {
        ok: true,
        deleted: { users: 1, connections: 1, conversations: conversations.length },
      });
      assert.deepEqual(result.gone, { name: 'ParleyError', status: 404, message: 'User not found' });
      assert.deepEqual(
        result.deliveries.map((event: { type: string; data: { userRef: string } }) => [event.type, event.data.userRef]),
        [
          ['connection.created', 'sdk-user'],
          ['connection.synced', 'sdk-user'],
          ['user.purged', 'sdk-user'],
        ],
      );
    } finally {
      await server.stop();
    }
  });
});
