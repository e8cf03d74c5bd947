/**
 * A resumable upload on the real server: the bytes it acknowledged survive a
 * kill -9 in the middle of the next PATCH and a restart, and the upload goes on
 * from them to an import.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { onboardApp } from '../../src/apps/apps.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../../src/deps.ts';
import { startServer, type RunningServer } from '../conformance/server.ts';
import { claudeConversations } from '../helpers.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
const OCTETS = { ...TUS, 'Content-Type': 'application/offset+octet-stream' };

describe('resumable uploads on the real server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-uploads-'));
  const databasePath = join(dir, 'parley.db');
  const servers: RunningServer[] = [];
  after(async () => {
    for (const server of servers) await server.stop('SIGKILL').catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  test('acknowledged bytes survive kill -9 during the next PATCH and a restart; the upload then completes', async () => {
    const first = await startServer('node', { databasePath });
    servers.push(first);
    const db = openBetterSqlite3(databasePath);
    const { apiKey } = await onboardApp({ db, clock: systemClock, random: cryptoRandom }, 'Uploads');
    await db.destroy();
    const auth = { Authorization: `Bearer ${apiKey}` };
    const file = new TextEncoder().encode(JSON.stringify(claudeConversations(200)));
    const half = Math.floor(file.length / 2);

    const created = await fetch(`${first.url}/api/uploads`, {
      method: 'POST',
      headers: { ...TUS, ...auth, 'Upload-Length': String(file.length) },
    });
    assert.equal(created.status, 201);
    const location = created.headers.get('Location')!;
    const acknowledged = await fetch(`${first.url}${location}`, {
      method: 'PATCH',
      headers: { ...OCTETS, ...auth, 'Upload-Offset': '0' },
      body: file.slice(0, half),
    });
    assert.equal(acknowledged.status, 204);
    assert.equal(acknowledged.headers.get('Upload-Offset'), String(half));

    // The next PATCH sends a few bytes, then holds its body open while the process is killed.
    let sentSome: () => void;
    const someSent = new Promise<void>((resolve) => {
      sentSome = resolve;
    });
    const held = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(file.slice(half, half + 1000));
        sentSome();
      },
    });
    const interrupted = fetch(`${first.url}${location}`, {
      method: 'PATCH',
      headers: { ...OCTETS, ...auth, 'Upload-Offset': String(half) },
      body: held,
      duplex: 'half',
    } as RequestInit).catch((error: unknown) => error);
    await someSent;
    await sleep(200);
    await first.stop('SIGKILL');
    assert.ok((await interrupted) instanceof Error, 'the held PATCH ends with its connection');

    const second = await startServer('node', { databasePath });
    servers.push(second);
    const state = await fetch(`${second.url}${location}`, { method: 'HEAD', headers: { ...TUS, ...auth } });
    assert.equal(state.status, 200);
    const kept = Number(state.headers.get('Upload-Offset'));
    assert.ok(kept >= half, `kept ${kept} of the ${half} acknowledged`);
    const rest = await fetch(`${second.url}${location}`, {
      method: 'PATCH',
      headers: { ...OCTETS, ...auth, 'Upload-Offset': String(kept) },
      body: file.slice(kept),
    });
    assert.equal(rest.headers.get('Upload-Offset'), String(file.length));
    const imported = await fetch(`${second.url}/api/ingest-export?userRef=u1&upload=${location.split('/').pop()}`, {
      method: 'POST',
      headers: auth,
    });
    const answer = await imported.json();
    assert.equal(imported.status, 200, JSON.stringify(answer));
    assert.equal(answer.created, 200);
  });
});
