import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { onboardApp } from '../../src/apps/apps.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../../src/deps.ts';
import { startServer, type RunningServer } from '../conformance/server.ts';

/**
 * What a raw TCP client sees: it sends `head`, then (with `dripMs`) one byte at a
 * time for as long as the server lets it, and resolves with everything received
 * once the server has closed the connection. With `dripMs` the client keeps its
 * side open after the server's has ended (allowHalfOpen), as a slow sender does,
 * until a write meets the reset of a socket the server has closed; without, it
 * ends its side once the server has.
 */
function rawExchange(port: number, head: string, dripMs?: number): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    let drip: ReturnType<typeof setInterval> | undefined;
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => {
      socket.write(head);
      if (dripMs !== undefined) drip = setInterval(() => socket.writable && socket.write('x'), dripMs);
    });
    socket.on('data', (data) => (received += data));
    if (dripMs === undefined) socket.on('end', () => socket.end());
    // A write after the server has gone: expected of a slow sender, not a failure.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(drip);
      resolve(received);
    });
  });
}

/**
 * A client that, as browsers often do, reads the answer only once it has sent its
 * whole body (or failed to): what it then finds, and whether the sending failed.
 * Without lingering close the server's early answer is lost to a reset.
 */
function sendThenRead(port: number, head: string, body: Uint8Array): Promise<{ received: string; sendError?: string }> {
  return new Promise((resolve) => {
    let received = '';
    let sendError: string | undefined;
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.pause();
      socket.write(head);
      socket.write(body, (error) => {
        sendError = error ? (error as NodeJS.ErrnoException).code : undefined;
        socket.resume();
      });
    });
    socket.on('data', (data) => (received += data));
    socket.on('error', (error) => (sendError ??= (error as NodeJS.ErrnoException).code));
    socket.on('close', () => resolve(sendError === undefined ? { received } : { received, sendError }));
  });
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);

describe('the real server cuts slow clients off and lets refused ones hear why', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-slow-'));
  let server: RunningServer;
  let port: number;
  let apiKey: string;

  before(async () => {
    const databasePath = join(dir, 'parley.db');
    const env = {
      LOG_LEVEL: 'warn',
      // Short, but not so short that a busy machine's scheduling trips them.
      HEADERS_TIMEOUT_MS: '1500',
      BODY_TIMEOUT_MS: '1000',
      UPLOAD_IDLE_TIMEOUT_MS: '1000',
      // Long enough to drain the 12 MB bodies below on a busy machine.
      LINGER_TIMEOUT_MS: '5000',
      MAX_CONVERSATION_BYTES: '65536',
    };
    server = await startServer('node', { databasePath, env });
    port = Number(new URL(server.url).port);
    const db = openBetterSqlite3(databasePath);
    apiKey = (await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Slow clients')).apiKey;
    await db.destroy();
  });

  after(async () => {
    await server?.stop('SIGKILL').catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  test('headers that never end: 408, and the connection is closed', { timeout: 20_000 }, async () => {
    const response = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: parley\r\n');
    assert.equal(statusOf(response), 408);
  });

  test('a form to /start that never arrives in full: 408, then closed, though the client keeps dripping', {
    timeout: 20_000,
  }, async () => {
    const head =
      'POST /start HTTP/1.1\r\nHost: parley\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntoken=';
    const response = await rawExchange(port, head, 50);
    assert.equal(statusOf(response), 408);
    assert.match(response, /Request timeout/);
  });

  test('a /start body declared far too large: 413 at once, then closed, though the client keeps dripping', {
    timeout: 20_000,
  }, async () => {
    const head =
      'POST /start HTTP/1.1\r\nHost: parley\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000000\r\n\r\ntoken=';
    const response = await rawExchange(port, head, 50);
    assert.equal(statusOf(response), 413);
  });

  test('an authenticated upload that stalls: 408, then closed', { timeout: 20_000 }, async () => {
    const head = `POST /api/ingest-export?userRef=u1 HTTP/1.1\r\nHost: parley\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[{"id":`;
    const response = await rawExchange(port, head);
    assert.equal(statusOf(response), 408);
    assert.match(response, /"error":"Request timeout"/);
  });

  test('a client that reads only after sending its body hears the 413 sent before the body was read', async () => {
    const body = new Uint8Array(12 * 1024 * 1024).fill(0x20);
    const head = `POST /api/purge HTTP/1.1\r\nHost: parley\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { received, sendError } = await sendThenRead(port, head, body);
    assert.equal(sendError, undefined);
    assert.equal(statusOf(received), 413);
    assert.match(received, /"error":"Request body too large"/);
  });

  test('fetch hears a 413 sent before its large body was read (purge, declared too large)', async () => {
    const response = await fetch(`${server.url}/api/purge`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: new Uint8Array(12 * 1024 * 1024).fill(0x20),
    });
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), { error: 'Request body too large' });
  });

  test('fetch hears an import refused part-way through its body', async () => {
    const body = new TextEncoder().encode(`[{"id":"big","mapping":{},"title":"${'a'.repeat(12 * 1024 * 1024)}"}]`);
    const response = await fetch(`${server.url}/api/ingest-export?userRef=u1`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body,
    });
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), { error: 'Export file too large: MAX_CONVERSATION_BYTES' });
  });
});
