/**
 * docs/deploy.md's nginx and Caddy configurations, each in front of the real
 * server over HTTPS with a self-signed certificate: a person's connect flow
 * (signed link, connect page, upload, result) and a 100 MB upload go through
 * it. The configuration is read out of the document, so the document is what is
 * tested; only the names, ports and certificate paths are this machine's. Each
 * proxy runs unprivileged, every file it writes in a temporary folder. Without
 * the proxy its block is skipped with one line, unless PARLEY_REQUIRE_NGINX=1 or
 * PARLEY_REQUIRE_CADDY=1 (CI sets both): then that is a failure.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { zipSync } from 'fflate';
import { signLink } from 'parley-sdk';
import { onboardApp } from '../../src/apps/apps.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../../src/deps.ts';
import { Browser, expectPage, redirectTarget, tokenOf } from '../conformance/cases.ts';
import { freePort, ROOT, startServer, type RunningServer } from '../conformance/server.ts';
import { fixtureBytes, zipFolderFiles } from '../helpers.ts';
import { hiddenField } from '../pages/page-client.ts';

const UPLOAD_BYTES = 100 * 1024 * 1024;

interface Ports {
  https: number;
  http: number;
  parley: number;
}

/** docs/deploy.md's block of `language`. */
function documentedBlock(language: string): string {
  const doc = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
  const block = new RegExp(`\`\`\`${language}\n([\\s\\S]*?)\`\`\``).exec(doc)?.[1];
  assert.ok(block, `docs/deploy.md has a ${language} block`);
  return block;
}

function replaced(text: string, from: RegExp, to: string): string {
  assert.match(text, from, `the block has ${from}`);
  return text.replace(from, to);
}

/** docs/deploy.md's nginx block, made this machine's: loopback ports, the test's certificate, the server's port. */
function nginxConfig(ports: Ports, certificate: string, key: string) {
  let server = documentedBlock('nginx')
    .split('\n')
    .filter((line) => !line.includes('[::]'))
    .join('\n');
  server = replaced(server, /listen 443 ssl;/, `listen 127.0.0.1:${ports.https} ssl;`);
  server = replaced(server, /listen 80;/, `listen 127.0.0.1:${ports.http};`);
  server = replaced(server, /ssl_certificate \S+;/, `ssl_certificate ${certificate};`);
  server = replaced(server, /ssl_certificate_key \S+;/, `ssl_certificate_key ${key};`);
  server = replaced(server, /proxy_pass http:\/\/127\.0\.0\.1:8787;/, `proxy_pass http://127.0.0.1:${ports.parley};`);
  return server.replaceAll('parley.example.com', 'localhost');
}

/**
 * One process in the foreground (no master, no workers: nothing changes user,
 * so root and anyone else run it alike), every file it writes in `dir`.
 */
function mainConfig(dir: string, server: string): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  return `daemon off;
master_process off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log ${join(dir, 'access.log')};
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
${server}
}
`;
}

/**
 * docs/deploy.md's Caddy block, made this machine's: on loopback at the test's
 * ports with the test's certificate, and Caddy's own state (no admin endpoint)
 * in `dir`.
 */
function caddyConfig(dir: string, ports: Ports, certificate: string, key: string) {
  let site = replaced(
    documentedBlock('caddyfile'),
    /^parley\.example\.com \{$/m,
    `localhost:${ports.https} {\n\tbind 127.0.0.1\n\ttls ${certificate} ${key}`,
  );
  site = replaced(site, /reverse_proxy 127\.0\.0\.1:8787/, `reverse_proxy 127.0.0.1:${ports.parley}`);
  return `{
\tadmin off
\thttp_port ${ports.http}
\thttps_port ${ports.https}
\tstorage file_system ${join(dir, 'caddy')}
}
${site}`;
}

/** A reverse proxy the docs configure: where it is, and how it starts with its documented configuration. */
interface Proxy {
  name: string;
  path: string;
  install: string;
  start(dir: string, ports: Ports, certificate: string, key: string): ChildProcess;
}

const PROXIES: Proxy[] = [
  {
    name: 'nginx',
    path: process.env.NGINX_PATH || '/usr/sbin/nginx',
    install: 'apt-get install nginx',
    start(dir, ports, certificate, key) {
      writeFileSync(join(dir, 'nginx.conf'), mainConfig(dir, nginxConfig(ports, certificate, key)));
      return spawn(this.path, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    },
  },
  {
    name: 'Caddy',
    path: process.env.CADDY_PATH || '/usr/bin/caddy',
    install: 'apt-get install caddy',
    start(dir, ports, certificate, key) {
      writeFileSync(join(dir, 'Caddyfile'), caddyConfig(dir, ports, certificate, key));
      return spawn(this.path, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        // Caddy keeps its configuration and data under these; HOME may not be writable.
        env: { ...process.env, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir },
      });
    },
  },
];

/** fetch over HTTPS that trusts `ca`: Node's fetch takes no certificate authority of a test's own. */
function trustingFetch(ca: string): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const outgoing = new Request(input, init);
    const headers = Object.fromEntries(outgoing.headers);
    const body = outgoing.body ? Buffer.from(await outgoing.arrayBuffer()) : undefined;
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const sent = request(outgoing.url, { method: outgoing.method, headers, ca }, (incoming) => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers))
          for (const one of Array.isArray(value) ? value : [value ?? '']) answerHeaders.append(name, one);
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const status = incoming.statusCode!;
          const empty = status === 204 || status === 304 || outgoing.method === 'HEAD';
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: answerHeaders }));
        });
      });
      sent.on('error', reject);
      sent.end(body);
    });
  }) as typeof fetch;
}

/** Waits for the proxy to answer on `url` (nginx prints nothing when it is ready). */
async function whenListening(url: string, send: typeof fetch, proxy: ChildProcess, log: () => string) {
  for (let tries = 0; tries < 100; tries++) {
    if (proxy.exitCode !== null) throw new Error(`the proxy exited ${proxy.exitCode}:\n${log()}`);
    if (
      await send(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await sleep(100);
  }
  throw new Error(`the proxy did not answer within 10 s:\n${log()}`);
}

for (const proxy of PROXIES) {
  const variable = `${proxy.name.toUpperCase()}_PATH`;
  const required = `PARLEY_REQUIRE_${proxy.name.toUpperCase()}`;
  const missing = existsSync(proxy.path)
    ? undefined
    : `no ${proxy.name} at ${proxy.path} — install it (${proxy.install}) or set ${variable} to one`;
  if (missing && process.env[required] === '1') {
    test(`Parley behind ${proxy.name}`, () =>
      assert.fail(`${proxy.name} tests required (${required}=1), but ${missing}`));
    continue;
  }
  describe(`Parley behind ${proxy.name}, as docs/deploy.md configures it`, {
    skip: missing && `${proxy.name} test skipped: ${missing}`,
  }, () => {
    let dir: string;
    let parley: RunningServer;
    let running: ChildProcess;
    let base: string;
    let send: typeof fetch;
    let tenant: Awaited<ReturnType<typeof onboardApp>>;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'parley-proxy-'));
      const certificate = join(dir, 'cert.pem');
      const key = join(dir, 'key.pem');
      execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'].concat([
          '-addext',
          'subjectAltName=DNS:localhost',
          '-keyout',
          key,
          '-out',
          certificate,
        ]),
        { stdio: 'ignore' },
      );
      const ports = { https: await freePort(), http: await freePort(), parley: 0 };
      base = `https://localhost:${ports.https}`;
      const databasePath = join(dir, 'parley.db');
      parley = await startServer('node', { databasePath, env: { PUBLIC_URL: base } });
      ports.parley = Number(new URL(parley.url).port);
      const db = openBetterSqlite3(databasePath);
      tenant = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, `Behind ${proxy.name}`);
      await db.destroy();

      running = proxy.start(dir, ports, certificate, key);
      let output = '';
      for (const stream of [running.stdout!, running.stderr!]) stream.on('data', (chunk) => (output += chunk));
      send = trustingFetch(readFileSync(certificate, 'utf8'));
      await whenListening(`${base}/healthz`, send, running, () => output);
    });

    after(async () => {
      running?.kill('SIGTERM');
      await parley?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    test('the connect flow over HTTPS: signed link, connect page, upload, result', async () => {
      const link = await signLink(
        {
          appId: tenant.appId,
          userRef: 'behind-proxy',
          scopes: ['conversations:read'],
          purpose: 'connect',
          baseUrl: base,
        },
        tenant.appSecret,
      );
      assert.ok(link.startsWith(`${base}/start?`), link);
      const browser = new Browser(base, send);
      const token = tokenOf(link);
      expectPage(await browser.get(link), 200, `<input type="hidden" name="token" value="${token}"`, 'GET /start');
      assert.equal(redirectTarget(await browser.post('/start', new URLSearchParams({ token })), base), '/connect');
      // PUBLIC_URL is https: the session's cookie is Secure.
      assert.match(browser.setCookieLines.find((line) => line.startsWith('parley_connect='))!, /;\s*Secure/i);
      const upload = await browser.get('/connect/openai');
      expectPage(upload, 200, 'enctype="multipart/form-data"', 'GET /connect/openai');
      const form = new FormData();
      form.append('csrf', hiddenField(upload.text, 'csrf'));
      form.append(
        'file',
        new Blob([new Uint8Array(fixtureBytes('chatgpt-browsing.json'))], { type: 'application/json' }),
        'conversations.json',
      );
      assert.equal(redirectTarget(await browser.post('/connect/openai', form), base), '/connect/result');
      expectPage(
        await browser.get('/connect/result'),
        200,
        /\b2 conversations from ChatGPT are now available\b/,
        'GET /connect/result',
      );
    });

    test('a 100 MB upload goes through: an export zip with a 100 MB file in it imports', async () => {
      const zip = zipSync({
        ...zipFolderFiles('chatgpt-2026-zip'),
        'padding.bin': [new Uint8Array(UPLOAD_BYTES), { level: 0 }],
      });
      assert.ok(zip.length > UPLOAD_BYTES);
      const answer = await send(`${base}/api/ingest-export?userRef=large-upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/zip' },
        body: zip,
      });
      const body = await answer.json();
      assert.equal(answer.status, 200, JSON.stringify(body));
      assert.deepEqual([body.provider, body.created], ['openai', 2]);
    });
  });
}
