import { attachmentStores } from '../src/attachments/stores.ts';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { authenticateAgent } from '../src/agents/agent-tokens.ts';
import { createApp } from '../src/app.ts';
import { onboardApp } from '../src/apps/apps.ts';
import { commands, parseArgs } from '../src/cli/commands.ts';
import { parseConfig } from '../src/config.ts';
import { openBetterSqlite3 } from '../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock, type Deps } from '../src/deps.ts';
import { createLogger } from '../src/log.ts';
import { inheritedEnv, nodeEntry } from './conformance/server.ts';
import { fixtureBytes, openTestCounters, seedConnection } from './helpers.ts';
import { jpegOf, pngOf, webpOf } from './image-bytes.ts';
import { startReceiver } from './webhooks/receiver.ts';
import { Metrics } from '../src/metrics/metrics.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const PUBLIC_URL = 'https://parley.example.com';
const dir = mkdtempSync(join(tmpdir(), 'parley-cli-'));
const databasePath = join(dir, 'data', 'parley.db');
// The server creates the database when it first starts; the commands only use it.
before(async () => openBetterSqlite3(databasePath).destroy());
after(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI as an operator would, with the environment cleared of Parley's variables. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const base = inheritedEnv();
  const child = spawn(process.execPath, [nodeEntry(), ...args], {
    cwd: ROOT,
    env: { ...base, DATABASE_PATH: databasePath, PUBLIC_URL, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A successful command: exit 0, one JSON line on stdout, nothing on stderr. */
async function ok(args: string[], env?: Record<string, string>): Promise<any> {
  const run = await cli(args, env);
  assert.equal(run.stderr, '', `stderr of ${args.join(' ')}`);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^\{.*\}\n$/);
  return JSON.parse(run.stdout);
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function decodeJwt(token: string) {
  const [header, payload, signature] = token.split('.');
  assert.ok(signature);
  const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  return { header: decode(header!), claims: decode(payload!) };
}

describe('onboarding', () => {
  let created: { appId: string; appSecret: string; apiKey: string; keyId: string };

  before(async () => {
    created = await ok(['app', 'create', '--name', 'Acme Inc']);
  });

  test('app create prints the id, secret, first key and its id in their formats', () => {
    assert.deepEqual(Object.keys(created).sort(), ['apiKey', 'appId', 'appSecret', 'keyId']);
    assert.match(created.appId, /^app_[0-9A-Za-z]{16,}$/);
    assert.match(created.apiKey, /^parley_[0-9A-Za-z]{32,}$/);
    assert.match(created.appSecret, /^[A-Za-z0-9_-]+$/);
    assert.ok(Buffer.from(created.appSecret, 'base64url').length >= 32);
    assert.equal(typeof created.keyId, 'string');
    assert.ok(created.keyId.length > 0);
  });

  test('key create, key list and key revoke rotate keys; the API follows at once', async () => {
    const db = openBetterSqlite3(databasePath);
    const deps: Deps = {
      db,
      attachments: attachmentStores(db, { attachmentsS3: undefined }),
      counters: await openTestCounters(databasePath),
      config: parseConfig({ DATABASE_PATH: databasePath }),
      clock: systemClock,
      random: cryptoRandom,
      log: createLogger('silent'),
      metrics: new Metrics(),
    };
    try {
      // The API runs over the same file while the CLI changes it, as a running server would.
      const api = createApp(deps);
      await seedConnection(deps, { appId: created.appId, userRef: 'u1', count: 2 });
      const call = (key: string) =>
        api.request('/api/conversations?userRef=u1', { headers: { Authorization: `Bearer ${key}` } });
      const first = await call(created.apiKey);
      assert.equal(first.status, 200);
      assert.equal((await first.json()).connections[0].conversationCount, 2);

      const next = await ok(['key', 'create', '--app', created.appId]);
      assert.deepEqual(Object.keys(next).sort(), ['apiKey', 'keyId']);
      assert.match(next.apiKey, /^parley_[0-9A-Za-z]{32,}$/);
      assert.notEqual(next.apiKey, created.apiKey);

      const listed = await ok(['key', 'list', '--app', created.appId]);
      assert.deepEqual(Object.keys(listed), ['keys']);
      assert.equal(listed.keys.length, 2);
      const byId = new Map<string, Record<string, unknown>>(
        listed.keys.map((key: { keyId: string }) => [key.keyId, key]),
      );
      for (const [keyId, apiKey] of [
        [created.keyId, created.apiKey],
        [next.keyId, next.apiKey],
      ] as const) {
        const key = byId.get(keyId)!;
        assert.deepEqual(Object.keys(key).sort(), ['createdAt', 'keyId', 'lastUsedAt', 'revokedAt', 'start']);
        assert.equal(key.start, apiKey.slice(0, 12));
        assert.match(String(key.createdAt), ISO);
        assert.equal(key.revokedAt, null);
      }
      // The first key was used above; the new one not yet.
      assert.match(String(byId.get(created.keyId)!.lastUsedAt), ISO);
      assert.equal(byId.get(next.keyId)!.lastUsedAt, null);
      assert.ok(!JSON.stringify(listed).includes(next.apiKey.slice(12)));

      assert.equal((await call(next.apiKey)).status, 200);
      assert.deepEqual(await ok(['key', 'revoke', '--app', created.appId, '--key', created.keyId]), { ok: true });
      const refused = await call(created.apiKey);
      assert.deepEqual([refused.status, await refused.json()], [401, { error: 'Invalid API key' }]);
      assert.equal((await call(next.apiKey)).status, 200);

      const after = await ok(['key', 'list', '--app', created.appId]);
      const revoked = after.keys.find((key: { keyId: string }) => key.keyId === created.keyId);
      const kept = after.keys.find((key: { keyId: string }) => key.keyId === next.keyId);
      assert.match(revoked.revokedAt, ISO);
      assert.equal(kept.revokedAt, null);
      assert.match(kept.lastUsedAt, ISO);
    } finally {
      await deps.db.destroy();
      await deps.counters?.destroy();
    }
  });

  test('agent-token create mints a token for one user that /mcp takes; a bad --expires-in is refused', async () => {
    const db = openBetterSqlite3(databasePath);
    try {
      await seedConnection({ db, clock: systemClock }, { appId: created.appId, userRef: 'agent-user' });
      const mint = (seconds: string) => [
        'agent-token',
        'create',
        '--app',
        created.appId,
        '--user',
        'agent-user',
        '--expires-in',
        seconds,
      ];
      const minted = await ok(mint('60'));
      assert.match(minted.token, /^parley_agent_/);
      assert.equal(Date.parse(minted.expiresAt) - Date.now() <= 60_000, true);
      const agent = await authenticateAgent({ db, clock: systemClock }, `Bearer ${minted.token}`);
      assert.equal(agent.userRef, 'agent-user');
      const refused = await cli(mint('3601'));
      assert.notEqual(refused.code, 0);
      assert.match(refused.stdout + refused.stderr, /Invalid expiresInSeconds parameter/);
    } finally {
      await db.destroy();
    }
  });

  test('app update sets the brand and return origins, link --return-url takes only a registered origin', async () => {
    const logo = join(ROOT, 'test/fixtures/logo.png');
    const updated = await ok([
      'app',
      'update',
      '--app',
      created.appId,
      '--display-name',
      'Acme Notes',
      '--logo',
      logo,
      '--accent-color',
      '#0B5FFF',
      '--privacy-url',
      'https://acme.example/privacy',
      '--return-origin',
      'https://acme.example',
      '--return-origin',
      'https://staging.acme.example:8443/',
      '--return-origin',
      'http://localhost:3000',
    ]);
    assert.deepEqual(updated, {
      appId: created.appId,
      name: 'Acme Inc',
      displayName: 'Acme Notes',
      accentColor: '#0b5fff',
      privacyUrl: 'https://acme.example/privacy',
      logo: { contentType: 'image/png', bytes: fixtureBytes('logo.png').byteLength, sha256: updated.logo.sha256 },
      returnOrigins: ['http://localhost:3000', 'https://acme.example', 'https://staging.acme.example:8443'],
    });
    assert.match(updated.logo.sha256, /^[0-9a-f]{64}$/);

    const { url } = await ok([
      'link',
      '--app',
      created.appId,
      '--user',
      'u1',
      '--purpose',
      'connect',
      '--return-url',
      'https://acme.example/settings?tab=ai',
    ]);
    assert.equal(
      decodeJwt(new URL(url).searchParams.get('token')!).claims.returnUrl,
      'https://acme.example/settings?tab=ai',
    );
    const refused = await cli([
      'link',
      '--app',
      created.appId,
      '--user',
      'u1',
      '--purpose',
      'connect',
      '--return-url',
      'https://evil.example/',
    ]);
    assert.deepEqual([refused.code, JSON.parse(refused.stderr)], [1, { error: 'Invalid returnUrl' }]);

    // One bad value refuses the whole update: the good one beside it is not saved either.
    const half = await cli([
      'app',
      'update',
      '--app',
      created.appId,
      '--display-name',
      'Other',
      '--accent-color',
      '#ffffff',
    ]);
    assert.equal(half.code, 1);
    assert.equal((await ok(['app', 'update', '--app', created.appId])).displayName, 'Acme Notes');

    // "" removes a setting; a flag left out keeps it.
    const cleared = await ok([
      'app',
      'update',
      '--app',
      created.appId,
      '--return-origin',
      '',
      '--logo',
      '',
      '--display-name',
      '',
    ]);
    assert.deepEqual(
      [cleared.displayName, cleared.logo, cleared.returnOrigins, cleared.accentColor],
      [null, null, [], '#0b5fff'],
    );
    const gone = await cli([
      'link',
      '--app',
      created.appId,
      '--user',
      'u1',
      '--purpose',
      'connect',
      '--return-url',
      'https://acme.example/settings',
    ]);
    assert.deepEqual(JSON.parse(gone.stderr), { error: 'Invalid returnUrl' });
    assert.deepEqual(await ok(['app', 'update', '--app', created.appId, '--accent-color', '', '--privacy-url', '']), {
      ...cleared,
      accentColor: null,
      privacyUrl: null,
    });
  });

  // Independent read-backs of the state left above; run side by side to save time.
  describe('reading back', { concurrency: true }, () => {
    test('app list shows the app with its count of active keys', async () => {
      const { apps } = await ok(['app', 'list']);
      assert.equal(apps.length, 1);
      assert.deepEqual(Object.keys(apps[0]).sort(), ['appId', 'createdAt', 'keys', 'name']);
      // Two keys were made and one revoked above.
      assert.deepEqual([apps[0].appId, apps[0].name, apps[0].keys], [created.appId, 'Acme Inc', 1]);
      assert.match(apps[0].createdAt, ISO);
      // Secrets are shown only at creation.
      const text = JSON.stringify(apps);
      assert.ok(!text.includes(created.appSecret) && !text.includes(created.apiKey));
    });

    test('link signs connect and manage links at PUBLIC_URL', async () => {
      const [connect, manage] = await Promise.all([
        ok(['link', '--app', created.appId, '--user', 'user 42', '--purpose', 'connect']),
        ok(['link', '--app', created.appId, '--user', 'u1', '--purpose', 'manage', '--expires', '60']),
      ]);
      assert.deepEqual(Object.keys(connect), ['url']);
      assert.ok(connect.url.startsWith(`${PUBLIC_URL}/start?token=`), connect.url);
      const { header, claims } = decodeJwt(new URL(connect.url).searchParams.get('token')!);
      assert.deepEqual(header, { alg: 'HS256', typ: 'JWT' });
      assert.deepEqual(
        {
          appId: claims.appId,
          userRef: claims.userRef,
          scopes: claims.scopes,
          purpose: claims.purpose,
          lifetime: claims.exp - claims.iat,
        },
        { appId: created.appId, userRef: 'user 42', scopes: ['conversations:read'], purpose: 'connect', lifetime: 900 },
      );

      assert.ok(manage.url.startsWith(`${PUBLIC_URL}/manage?token=`), manage.url);
      const decoded = decodeJwt(new URL(manage.url).searchParams.get('token')!).claims;
      assert.deepEqual([decoded.userRef, decoded.purpose, decoded.exp - decoded.iat], ['u1', 'manage', 60]);
      assert.equal('locale' in decoded, false);
    });

    test('link without PUBLIC_URL signs links to localhost at PORT', async () => {
      const { url } = await ok(['link', '--app', created.appId, '--user', 'u1', '--purpose', 'connect'], {
        PUBLIC_URL: '',
        PORT: '28901',
      });
      assert.ok(url.startsWith('http://localhost:28901/start?token='), url);
    });

    test("link --locale chooses the pages' language, carried canonicalised", async () => {
      const { url } = await ok([
        'link',
        '--app',
        created.appId,
        '--user',
        'u1',
        '--purpose',
        'manage',
        '--locale',
        'zh-cn',
      ]);
      assert.equal(decodeJwt(new URL(url).searchParams.get('token')!).claims.locale, 'zh-CN');
    });

    test('backup writes a consistent copy that opens and holds the app', async () => {
      const out = join(dir, 'backup.db');
      const result = await ok(['backup', '--out', out]);
      assert.deepEqual(result, { ok: true, bytes: statSync(out).size });
      assert.ok(result.bytes > 0);
      const copy = new BetterSqlite3(out, { readonly: true, fileMustExist: true });
      try {
        assert.deepEqual(copy.prepare('SELECT id, name FROM apps').all(), [{ id: created.appId, name: 'Acme Inc' }]);
        assert.equal(
          (copy.prepare('SELECT count(*) AS n FROM api_keys WHERE app_id = ?').get(created.appId) as { n: number }).n,
          2,
        );
        assert.equal((copy.prepare('SELECT count(*) AS n FROM conversations').get() as { n: number }).n, 2);
        assert.deepEqual(copy.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
      } finally {
        copy.close();
      }
    });
  });
});

describe('app delete', () => {
  test('deletes the app and prints what it deleted; its keys no longer work', async () => {
    const { appId } = await ok(['app', 'create', '--name', 'Short-lived']);
    const refused = await cli(['app', 'delete', '--app', appId]);
    assert.equal(refused.code, 1);
    assert.match(JSON.parse(refused.stderr).error, /add --yes/);
    assert.deepEqual(await ok(['app', 'delete', '--app', appId, '--yes']), {
      ok: true,
      deleted: { apps: 1, users: 0, connections: 0, conversations: 0 },
    });
    const gone = await cli(['key', 'list', '--app', appId]);
    assert.deepEqual(JSON.parse(gone.stderr), { error: 'App not found' });
  });

  test('only app delete opens the -counters database beside SQLite: no other command creates it', async () => {
    const path = join(dir, 'counted', 'parley.db');
    await openBetterSqlite3(path).destroy();
    const { appId } = await ok(['app', 'create', '--name', 'Counted'], { DATABASE_PATH: path });
    await ok(['app', 'list'], { DATABASE_PATH: path });
    await ok(['key', 'list', '--app', appId], { DATABASE_PATH: path });
    assert.equal(existsSync(`${path}-counters`), false);
    await ok(['app', 'delete', '--app', appId, '--yes'], { DATABASE_PATH: path });
    assert.equal(existsSync(`${path}-counters`), true);
  });
});

describe('webhook test', () => {
  test("prints the verifying receiver's status, or ok false with exit code 1", async () => {
    const receiver = await startReceiver([200, 500]);
    try {
      const { appId } = await ok(['app', 'create', '--name', 'Hooked']);
      const { secret } = await ok(['webhook', 'set', '--app', appId, '--url', receiver.url]);
      receiver.verifyWith(secret);
      const sent = await ok(['webhook', 'test', '--app', appId]);
      assert.deepEqual(sent, { ok: true, url: receiver.url, id: sent.id, status: 200, durationMs: sent.durationMs });
      assert.equal(JSON.parse(receiver.received[0]!.body).type, 'webhook.test');
      const refused = await cli(['webhook', 'test', '--app', appId]);
      assert.deepEqual([refused.code, refused.stderr], [1, '']);
      assert.equal(JSON.parse(refused.stdout).status, 500);
    } finally {
      await receiver.close();
    }
  });
});

describe('help: usage on stdout, exit 0, nothing on stderr', { concurrency: true }, () => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    test(args.join(' '), async () => {
      const run = await cli(args);
      assert.deepEqual([run.code, run.stderr], [0, '']);
      assert.match(run.stdout, /^Usage: parley \[command\] \[flags\]\n/);
      for (const name of ['serve', ...Object.keys(commands), 'help'])
        assert.match(run.stdout, new RegExp(`^  ${name}\\b`, 'm'), name);
    });
  }
  for (const args of [
    ['help', 'key'],
    ['key', '--help'],
  ]) {
    test(`${args.join(' ')}: the group's commands`, async () => {
      const run = await cli(args);
      assert.deepEqual([run.code, run.stderr], [0, '']);
      assert.match(run.stdout, /^Usage: parley key <create\|list\|revoke> \[flags\]\n/);
      for (const name of ['key create', 'key list', 'key revoke']) {
        assert.ok(run.stdout.includes(`\n  ${name} --app ID`), name);
        assert.ok(
          run.stdout.includes(`\n    ${commands[name]!.does}\n`) ||
            run.stdout.endsWith(`    ${commands[name]!.does}\n`),
          name,
        );
      }
    });
  }
  for (const args of [
    ['help', 'app', 'create'],
    ['app', 'create', '--help'],
  ]) {
    test(args.join(' '), async () => {
      const run = await cli(args);
      assert.deepEqual([run.code, run.stderr], [0, '']);
      assert.equal(run.stdout, `Usage: parley app create --name NAME\n\n${commands['app create']!.does}\n`);
    });
  }
});

describe('errors: {"error"} on stderr, exit 1, nothing on stdout', { concurrency: true }, () => {
  // Each case is a real process, so one per kind of failure; the full table runs in-process below.
  const cases: Array<{ name: string; args: string[]; env?: Record<string, string>; error: string }> = [
    { name: 'an unknown command', args: ['frobnicate'], error: 'Unknown command: frobnicate' },
    { name: 'a missing flag', args: ['app', 'create'], error: 'Missing --name' },
    { name: 'an unknown app', args: ['key', 'list', '--app', 'app_unknown'], error: 'App not found' },
    {
      name: 'a webhook URL with a password',
      args: ['webhook', 'set', '--app', 'app_unknown', '--url', 'https://hooks:s3cret@hooks.example.com/parley'],
      error: 'Invalid webhook URL: it must not hold a user name or password (user:password@)',
    },
    {
      // Run from another folder, it would have answered no apps from a new, empty database.
      name: 'a database that does not exist',
      args: ['app', 'list'],
      env: { DATABASE_PATH: join(dir, 'elsewhere', 'parley.db') },
      error: `No Parley database at ${join(dir, 'elsewhere', 'parley.db')}: set DATABASE_PATH to the server's file (it creates it when it first starts), or DATABASE_URL to its PostgreSQL`,
    },
    {
      name: 'a group without its command',
      args: ['key'],
      error: 'Missing command after key: one of key create, key list, key revoke (parley help key)',
    },
    {
      name: 'a bad configuration value',
      args: ['app', 'list'],
      env: { PUBLIC_URL: 'notaurl' },
      error: 'Invalid configuration: PUBLIC_URL must be an absolute http(s) URL (got "notaurl")',
    },
  ];
  for (const { name, args, env, error } of cases) {
    test(name, async () => {
      const run = await cli(args, env);
      assert.equal(run.code, 1);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^\{.*\}\n$/);
      assert.deepEqual(JSON.parse(run.stderr), { error });
    });
  }

  test('nothing is created where no database was', async () => {
    await cli(['app', 'list'], { DATABASE_PATH: join(dir, 'elsewhere', 'parley.db') });
    assert.equal(existsSync(join(dir, 'elsewhere')), false);
  });
});

describe('the command error table, in-process', () => {
  async function attempt(argv: string[]): Promise<string> {
    const deps = {
      db: openBetterSqlite3(':memory:'),
      config: parseConfig({ PUBLIC_URL }),
      clock: systemClock,
      random: cryptoRandom,
    };
    try {
      const app = await onboardApp(deps, 'Known');
      const invocation = parseArgs(argv.map((arg) => (arg === '$APP' ? app.appId : arg)));
      if ('serve' in invocation) return 'serves';
      if ('help' in invocation) return `help on ${invocation.help ?? 'everything'}`;
      const unused = () => assert.fail('this command opens no other database');
      await commands[invocation.command]!.run(deps, invocation.flags, {
        fileSize: (path) => FILES[path]?.byteLength ?? 0,
        fileExists: (path) => path === 'exists.db' || path in FILES,
        readFile: (path) => FILES[path]!,
        openSqlite: unused,
        openPostgres: unused,
        counters: async () => undefined,
      });
      return 'no error';
    } catch (error) {
      return (error as Error).message;
    } finally {
      await deps.db.destroy();
    }
  }

  /** The files a command may read: logos, good and bad. */
  const FILES: Record<string, Uint8Array> = {
    'logo.png': fixtureBytes('logo.png'),
    'logo.jpg': jpegOf(120, 40),
    'logo.webp': webpOf.lossy(40, 120),
    'tall.png': pngOf(390, 1700),
    'logo.svg': Buffer.from(
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    ),
    'logo.png.txt': Buffer.from('not an image'),
    'huge.png': new Uint8Array(256 * 1024 + 1).fill(0x89),
  };
  const UPDATE = ['app', 'update', '--app', '$APP'];
  const LINK = ['link', '--app', '$APP', '--user', 'u', '--purpose', 'connect'];

  const cases: Array<{ args: string[]; error: string }> = [
    { args: [], error: 'serves' },
    { args: ['serve'], error: 'serves' },
    { args: ['serve', 'now'], error: 'Unexpected argument: now' },
    {
      args: ['serve', '--port', '9000'],
      error: 'Unexpected argument: --port (serve reads its settings from environment variables)',
    },
    { args: ['--name', 'x'], error: 'Missing command' },
    { args: ['help'], error: 'help on everything' },
    { args: ['--help'], error: 'help on everything' },
    { args: ['-h'], error: 'help on everything' },
    { args: ['help', 'app', 'create'], error: 'help on app create' },
    { args: ['help', 'serve'], error: 'help on serve' },
    { args: ['serve', '--help'], error: 'help on serve' },
    { args: ['link', '--help'], error: 'help on link' },
    { args: ['key', 'revoke', '-h', '--app', '$APP'], error: 'help on key revoke' },
    { args: ['app', 'create', '--help', '--name', 'x'], error: 'help on app create' },
    { args: ['help', 'app'], error: 'help on app' },
    { args: ['app', '--help'], error: 'help on app' },
    { args: ['help', 'webhook'], error: 'help on webhook' },
    { args: ['webhook', '-h'], error: 'help on webhook' },
    {
      args: ['app'],
      error: 'Missing command after app: one of app create, app list, app update, app delete (parley help app)',
    },
    { args: ['help', 'frobnicate'], error: 'Unknown command: frobnicate' },
    { args: ['frobnicate', '--help'], error: 'Unknown command: frobnicate' },
    { args: ['frobnicate'], error: 'Unknown command: frobnicate' },
    { args: ['app', 'remove'], error: 'Unknown command: app remove' },
    { args: ['app', 'list', 'now'], error: 'Unexpected argument: now' },
    { args: ['app', 'create'], error: 'Missing --name' },
    { args: ['app', 'create', '--name='], error: 'Missing --name' },
    { args: ['app', 'create', '--name'], error: 'Missing --name' },
    { args: ['key', 'create'], error: 'Missing --app' },
    { args: ['key', 'list'], error: 'Missing --app' },
    { args: ['key', 'revoke', '--app', '$APP'], error: 'Missing --key' },
    { args: ['link', '--app', '$APP', '--purpose', 'connect'], error: 'Missing --user' },
    { args: ['link', '--app', 'app_unknown', '--purpose', 'connect'], error: 'Missing --user' },
    { args: ['link', '--app', '$APP', '--user', 'u'], error: 'Missing --purpose' },
    { args: ['backup'], error: 'Missing --out' },
    {
      args: ['webhook', 'set', '--app', '$APP', '--url', 'https://hooks@hooks.example.com/'],
      error: 'Invalid webhook URL: it must not hold a user name or password (user:password@)',
    },
    { args: ['webhook', 'set', '--app', '$APP', '--url', 'http://127.0.0.1:9000/hooks'], error: 'no error' },
    { args: ['backup', '--out', 'exists.db'], error: 'exists.db already exists: choose a new file for the backup' },
    {
      args: ['webhook', 'set', '--app', '$APP', '--url', 'ftp://hooks.example.com/'],
      error: 'Invalid webhook URL: use an absolute http(s) URL',
    },
    {
      args: ['migrate-to-postgres', '--url', 'mysql://parley@db.example.com/parley'],
      error: '--url must be a postgres:// URL',
    },
    { args: ['migrate-to-postgres', '--url', 'postgres://'], error: '--url must be a postgres:// URL' },
    { args: ['link', '--app', '$APP', '--user', 'u', '--purpose', 'manage', '--expires'], error: 'Missing --expires' },
    { args: ['key', 'create', '--app', 'app_unknown'], error: 'App not found' },
    { args: ['key', 'list', '--app', 'app_unknown'], error: 'App not found' },
    { args: ['key', 'revoke', '--app', 'app_unknown', '--key', 'key_x'], error: 'App not found' },
    { args: ['key', 'revoke', '--app', '$APP', '--key', 'key_unknown'], error: 'Key not found' },
    { args: ['link', '--app', 'app_unknown', '--user', 'u', '--purpose', 'connect'], error: 'App not found' },
    {
      args: ['link', '--app', '$APP', '--user', 'u'.repeat(1025), '--purpose', 'connect'],
      error: 'Invalid userRef parameter',
    },
    { args: ['link', '--app', '$APP', '--user', 'u'.repeat(1024), '--purpose', 'connect'], error: 'no error' },
    {
      args: ['link', '--app', '$APP', '--user', 'u', '--purpose', 'delete'],
      error: 'signLink: purpose must be "connect" or "manage"',
    },
    {
      args: ['link', '--app', '$APP', '--user', 'u', '--purpose', 'manage', '--expires', '901'],
      error: 'signLink: expiresInSeconds must be from 1 to 900',
    },
    {
      args: ['link', '--app', '$APP', '--user', 'u', '--purpose', 'manage', '--expires', 'soon'],
      error: 'signLink: expiresInSeconds must be a number',
    },
    { args: ['link', '--app', '$APP', '--user', 'u', '--purpose', 'manage', '--locale'], error: 'Missing --locale' },
    {
      args: ['link', '--app', '$APP', '--user', 'u', '--purpose', 'manage', '--locale', 'de_DE'],
      error: 'signLink: locale must be a BCP 47 language tag, such as "de" or "zh-CN"',
    },
    { args: ['app', 'update'], error: 'Missing --app' },
    { args: ['app', 'update', '--app', 'app_unknown', '--accent-color', '#000000'], error: 'App not found' },
    { args: [...UPDATE, '--app', '$APP'], error: '--app given more than once' },
    { args: UPDATE, error: 'no error' },
    { args: [...UPDATE, '--display-name', 'Acme Notes'], error: 'no error' },
    { args: [...UPDATE, '--display-name', '   '], error: 'Invalid display name: use 1 to 100 characters' },
    { args: [...UPDATE, '--display-name', 'n'.repeat(101)], error: 'Invalid display name: use 1 to 100 characters' },
    { args: [...UPDATE, '--display-name'], error: '--display-name needs a value ("" removes it)' },
    { args: [...UPDATE, '--accent-color', '#767676'], error: 'no error' },
    // #777777 is just short of AA on white (4.478:1), shown rounded down.
    {
      args: [...UPDATE, '--accent-color', '#777777'],
      error: 'Accent color too light: #777777 has 4.47:1 against white, WCAG AA needs 4.5:1; choose a darker color',
    },
    {
      args: [...UPDATE, '--accent-color', '#FFCC00'],
      error: 'Accent color too light: #ffcc00 has 1.51:1 against white, WCAG AA needs 4.5:1; choose a darker color',
    },
    { args: [...UPDATE, '--accent-color', 'blue'], error: 'Invalid accent color: use #RRGGBB' },
    { args: [...UPDATE, '--accent-color', '#12345'], error: 'Invalid accent color: use #RRGGBB' },
    { args: [...UPDATE, '--privacy-url', 'https://acme.example/privacy'], error: 'no error' },
    {
      args: [...UPDATE, '--privacy-url', 'acme.example/privacy'],
      error: 'Invalid privacy policy URL: use an absolute http(s) URL',
    },
    {
      args: [...UPDATE, '--privacy-url', 'javascript:alert(1)'],
      error: 'Invalid privacy policy URL: use an absolute http(s) URL',
    },
    { args: [...UPDATE, '--logo', 'logo.png'], error: 'no error' },
    { args: [...UPDATE, '--logo', 'logo.jpg'], error: 'no error' },
    { args: [...UPDATE, '--logo', 'logo.webp'], error: 'no error' },
    {
      args: [...UPDATE, '--logo', 'logo.svg'],
      error: 'Invalid logo: use a PNG, JPEG or WebP image: SVG is not accepted; export the logo as PNG',
    },
    { args: [...UPDATE, '--logo', 'logo.png.txt'], error: 'Invalid logo: use a PNG, JPEG or WebP image' },
    {
      args: [...UPDATE, '--logo', 'tall.png'],
      error:
        'Invalid logo: use a PNG, JPEG or WebP image: 390×1700 is taller than 4:1; crop it to at most 4 times as tall as wide',
    },
    { args: [...UPDATE, '--logo', 'huge.png'], error: 'Logo too large: at most 256 KiB' },
    { args: [...UPDATE, '--logo', 'missing.png'], error: 'No file at missing.png' },
    {
      args: [...UPDATE, '--return-origin', 'https://acme.example', '--return-origin', 'http://127.0.0.1:3000'],
      error: 'no error',
    },
    {
      args: [...UPDATE, '--return-origin', 'https://acme.example/done'],
      error: 'Invalid return origin: use https://host[:port], or http:// for localhost',
    },
    {
      args: [...UPDATE, '--return-origin', 'https://acme.example?x'],
      error: 'Invalid return origin: use https://host[:port], or http:// for localhost',
    },
    {
      args: [...UPDATE, '--return-origin', 'http://acme.example'],
      error: 'Invalid return origin: use https://host[:port], or http:// for localhost',
    },
    {
      args: [...UPDATE, '--return-origin', 'https://user:pw@acme.example'],
      error: 'Invalid return origin: use https://host[:port], or http:// for localhost',
    },
    {
      args: [...UPDATE, '--return-origin', 'acme.example'],
      error: 'Invalid return origin: use https://host[:port], or http:// for localhost',
    },
    {
      args: [...UPDATE, '--accent-color', '#ffffff'],
      error: 'Accent color too light: #ffffff has 1.00:1 against white, WCAG AA needs 4.5:1; choose a darker color',
    },
    {
      args: ['app', 'delete', '--app', 'app_x'],
      error:
        'This deletes app app_x with all its users, connections, conversations, attachments, keys, settings and webhook deliveries, for good: add --yes to do it',
    },
    { args: ['app', 'delete', '--app', 'app_unknown', '--yes'], error: 'App not found' },
    { args: ['app', 'delete', '--yes'], error: 'Missing --app' },
    { args: ['app', 'delete', '--app', '$APP', '--yes'], error: 'no error' },
    { args: [...LINK, '--return-url', 'https://acme.example/done'], error: 'Invalid returnUrl' },
    { args: [...LINK, '--return-url', 'not a url'], error: 'Invalid returnUrl' },
    { args: [...LINK, '--return-url'], error: 'Missing --return-url' },
  ];
  for (const { args, error } of cases) {
    test(`${args.join(' ').replace(/u{1024,}/, (long) => `<${long.length} characters>`) || '(nothing)'} → ${error}`, async () => {
      assert.equal(await attempt(args), error);
    });
  }
});
