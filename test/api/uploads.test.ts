/**
 * Resumable uploads (tus 1.0.0, /api/uploads) at the protocol level, through
 * app.request: creation, offsets, termination, expiry, the bounds, who may see
 * an upload, and importing one with POST /api/ingest-export?upload=.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext as NodeTestContext } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { onboardApp } from '../../src/apps/apps.ts';
import { startBackgroundWork } from '../../src/background.ts';
import { claimUploads } from '../../src/db/uploads.ts';
import {
  claudeConversations,
  fixtureBytes,
  isPostgres,
  json,
  postExport,
  rowsIn,
  setup,
  zipFolderFiles,
  type TestContext,
} from '../helpers.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
const OCTETS = { ...TUS, 'Content-Type': 'application/offset+octet-stream' };
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Creates an upload of `length` bytes; its path (Location). */
async function create(t: TestContext, length: number, { metadata = '', key = t.tenant.apiKey } = {}) {
  const headers: Record<string, string> = { ...TUS, 'Upload-Length': String(length), Authorization: `Bearer ${key}` };
  if (metadata) headers['Upload-Metadata'] = metadata;
  const response = await t.request('/api/uploads', { method: 'POST', headers });
  assert.equal(response.status, 201, await response.clone().text());
  return response.headers.get('Location')!;
}

const patch = (t: TestContext, path: string, offset: number, body: BodyInit) =>
  t.request(path, {
    method: 'PATCH',
    headers: { ...OCTETS, 'Upload-Offset': String(offset) },
    body,
    // A stream's body goes as it comes (undici asks for this to be said).
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

const head = (t: TestContext, path: string, key?: string) =>
  t.request(path, { method: 'HEAD', headers: { ...TUS, ...(key ? { Authorization: `Bearer ${key}` } : {}) } });

const offsetOf = async (t: TestContext, path: string) => Number((await head(t, path)).headers.get('Upload-Offset'));

/** A body that sends `bytes`, then fails as a dropped connection does. */
function cutAfter(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (sent) controller.error(new TypeError('terminated'));
      else controller.enqueue(bytes);
      sent = true;
    },
  });
}

/** A body that sends `bytes`, then nothing more, ever. */
function stallAfter(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
    },
  });
}

/** Rows left of uploads and of the bytes that could hold them. */
async function leftovers(t: TestContext) {
  return {
    uploads: await rowsIn(t.deps.db, 'uploads'),
    parts: await rowsIn(t.deps.db, 'upload_parts'),
    blobs: await rowsIn(t.deps.db, 'attachment_blobs'),
    chunks: await rowsIn(t.deps.db, 'attachment_chunks'),
  };
}

const NOTHING = { uploads: 0, parts: 0, blobs: 0, chunks: 0 };

describe('resumable uploads (tus 1.0.0)', () => {
  test('OPTIONS names the version, extensions and largest upload, without a credential', async () => {
    const t = await setup({ MAX_EXPORT_BYTES: '5000' });
    const response = await t.app.request('/api/uploads', { method: 'OPTIONS' });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('Tus-Resumable'), '1.0.0');
    assert.equal(response.headers.get('Tus-Version'), '1.0.0');
    assert.equal(response.headers.get('Tus-Extension'), 'creation,creation-with-upload,termination,expiration');
    assert.equal(response.headers.get('Tus-Max-Size'), '5000');
  });

  test('an upload filled in two PATCHes: each answers the offset, HEAD the state', async () => {
    const t = await setup();
    const path = await create(t, 10, { metadata: `filename ${b64('export.zip')},userRef ${b64('u1')}` });
    assert.match(path, /^\/api\/uploads\/[0-9a-f-]{36}$/);
    const started = await head(t, path);
    assert.equal(started.status, 200);
    assert.equal(started.headers.get('Upload-Offset'), '0');
    assert.equal(started.headers.get('Upload-Length'), '10');
    assert.equal(started.headers.get('Upload-Metadata'), `filename ${b64('export.zip')},userRef ${b64('u1')}`);
    assert.equal(started.headers.get('Cache-Control'), 'no-store');
    const first = await patch(t, path, 0, strToU8('hello'));
    assert.equal(first.status, 204);
    assert.equal(first.headers.get('Upload-Offset'), '5');
    assert.equal(first.headers.get('Tus-Resumable'), '1.0.0');
    assert.equal(Date.parse(first.headers.get('Upload-Expires')!), t.clock.now() + 24 * 3_600_000);
    const stale = await patch(t, path, 0, strToU8('hello'));
    assert.equal(stale.status, 409);
    assert.deepEqual(await json(stale), { error: 'Upload-Offset does not match the bytes received' });
    assert.equal((await patch(t, path, 5, strToU8('world'))).headers.get('Upload-Offset'), '10');
    assert.equal(await offsetOf(t, path), 10);
    const tooMany = await patch(t, path, 10, strToU8('!'));
    assert.deepEqual([tooMany.status, await json(tooMany)], [413, { error: 'Export file too large' }]);
    assert.equal(await offsetOf(t, path), 10);
  });

  test('a PATCH declaring more than the upload lacks is 413 before a byte is read', async () => {
    const t = await setup({ UPLOAD_IDLE_TIMEOUT_MS: '50' });
    const path = await create(t, 10);
    // Five bytes, then nothing: read, they would be kept and the answer a 408.
    const declared = await t.request(path, {
      method: 'PATCH',
      headers: { ...OCTETS, 'Upload-Offset': '0', 'Content-Length': '1000' },
      body: stallAfter(strToU8('hello')),
      duplex: 'half',
    } as RequestInit);
    assert.deepEqual([declared.status, await json(declared)], [413, { error: 'Export file too large' }]);
    assert.equal(declared.headers.get('Connection'), 'close');
    assert.equal(await offsetOf(t, path), 0);
  });

  test('creation-with-upload: the POST body is the first bytes', async () => {
    const t = await setup();
    const response = await t.request('/api/uploads', {
      method: 'POST',
      headers: { ...OCTETS, 'Upload-Length': '8' },
      body: strToU8('abcd'),
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('Upload-Offset'), '4');
    assert.equal(await offsetOf(t, response.headers.get('Location')!), 4);
  });

  test('refusals: another protocol version, no length, a bad offset, a body of another type', async () => {
    const t = await setup();
    const noVersion = await t.request('/api/uploads', { method: 'POST', headers: { 'Upload-Length': '5' } });
    assert.equal(noVersion.status, 412);
    assert.equal(noVersion.headers.get('Tus-Version'), '1.0.0');
    const noLength = await t.request('/api/uploads', { method: 'POST', headers: TUS });
    assert.deepEqual([noLength.status, await json(noLength)], [400, { error: 'Invalid Upload-Length header' }]);
    const deferred = await t.request('/api/uploads', {
      method: 'POST',
      headers: { ...TUS, 'Upload-Defer-Length': '1' },
    });
    assert.equal(deferred.status, 400);
    const path = await create(t, 5);
    const badOffset = await t.request(path, {
      method: 'PATCH',
      headers: { ...OCTETS, 'Upload-Offset': '-1' },
      body: 'x',
    });
    assert.deepEqual([badOffset.status, await json(badOffset)], [400, { error: 'Invalid Upload-Offset header' }]);
    const wrongType = await t.request(path, {
      method: 'PATCH',
      headers: { ...TUS, 'Content-Type': 'application/json', 'Upload-Offset': '0' },
      body: '{}',
    });
    assert.equal(wrongType.status, 415);
    const badUserRef = await t.request('/api/uploads', {
      method: 'POST',
      headers: { ...TUS, 'Upload-Length': '5', 'Upload-Metadata': `userRef ${b64('x'.repeat(1025))}` },
    });
    assert.deepEqual(await json(badUserRef), { error: 'Invalid userRef parameter' });
    assert.equal((await t.request(path, { method: 'GET', headers: TUS })).status, 405);
  });

  test('Upload-Length over MAX_EXPORT_BYTES is 413 at creation, nothing kept', async () => {
    const t = await setup({ MAX_EXPORT_BYTES: '1000' });
    const response = await t.request('/api/uploads', { method: 'POST', headers: { ...TUS, 'Upload-Length': '1001' } });
    assert.deepEqual([response.status, await json(response)], [413, { error: 'Export file too large' }]);
    assert.deepEqual(await leftovers(t), NOTHING);
  });

  test('MAX_OPEN_UPLOAD_BYTES bounds what one app holds in open uploads; another app has its own', async () => {
    const t = await setup({ MAX_OPEN_UPLOAD_BYTES: '100' });
    await create(t, 60);
    const over = await t.request('/api/uploads', { method: 'POST', headers: { ...TUS, 'Upload-Length': '41' } });
    assert.deepEqual([over.status, await json(over)], [413, { error: 'Too many open uploads' }]);
    const other = await onboardApp(t.deps, 'Other app');
    await create(t, 100, { key: other.apiKey });
    const last = await create(t, 40);
    // Once one goes, there is room again.
    assert.equal((await t.request(last, { method: 'DELETE', headers: TUS })).status, 204);
    await create(t, 40);
  });

  test('uploads created at the same moment cannot together pass MAX_OPEN_UPLOAD_BYTES', async () => {
    const t = await setup({ MAX_OPEN_UPLOAD_BYTES: '100' });
    const statuses = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.request('/api/uploads', { method: 'POST', headers: { ...TUS, 'Upload-Length': '60' } }).then((r) => r.status),
      ),
    );
    assert.deepEqual(statuses.sort(), [201, 413, 413, 413, 413, 413, 413, 413]);
  });

  test('an upload belongs to its app: another app gets 404 for HEAD, PATCH, DELETE and the import', async () => {
    const t = await setup();
    const path = await create(t, 5);
    const other = await onboardApp(t.deps, 'Other app');
    const auth = { Authorization: `Bearer ${other.apiKey}` };
    assert.equal((await head(t, path, other.apiKey)).status, 404);
    const patched = await t.request(path, {
      method: 'PATCH',
      headers: { ...OCTETS, ...auth, 'Upload-Offset': '0' },
      body: 'hello',
    });
    assert.deepEqual([patched.status, await json(patched)], [404, { error: 'Upload not found' }]);
    assert.equal((await t.request(path, { method: 'DELETE', headers: { ...TUS, ...auth } })).status, 404);
    const id = path.split('/').pop();
    const imported = await t.request(`/api/ingest-export?userRef=u1&upload=${id}`, { method: 'POST', headers: auth });
    assert.deepEqual([imported.status, await json(imported)], [404, { error: 'Upload not found' }]);
    assert.equal(await offsetOf(t, path), 0);
    assert.equal((await head(t, '/api/uploads/00000000-0000-4000-8000-000000000000')).status, 404);
  });

  test('a PATCH cut off part-way keeps what arrived, and the upload goes on from there', async () => {
    const t = await setup();
    const path = await create(t, 11);
    // No one hears the answer: the client is gone.
    await patch(t, path, 0, cutAfter(strToU8('hel')));
    assert.equal(await offsetOf(t, path), 3);
    assert.equal((await patch(t, path, 3, strToU8('lo world'))).status, 204);
    assert.equal(await offsetOf(t, path), 11);
  });

  test('a stalled PATCH is cut off after UPLOAD_IDLE_TIMEOUT_MS with 408, keeping what arrived', async () => {
    const t = await setup({ UPLOAD_IDLE_TIMEOUT_MS: '50' });
    const path = await create(t, 10);
    const response = await patch(t, path, 0, stallAfter(strToU8('hello')));
    assert.deepEqual([response.status, await json(response)], [408, { error: 'Request timeout' }]);
    assert.equal(response.headers.get('Connection'), 'close');
    assert.equal(await offsetOf(t, path), 5);
  });

  test('termination removes the upload and its bytes', async () => {
    const t = await setup();
    const path = await create(t, 10);
    await patch(t, path, 0, strToU8('hello'));
    const response = await t.request(path, { method: 'DELETE', headers: TUS });
    assert.equal(response.status, 204);
    assert.equal((await head(t, path)).status, 404);
    assert.deepEqual(await leftovers(t), NOTHING);
  });

  test('an upload of many megabytes is deleted a few chunks at a time, other work let in between (SQLite)', async (c) => {
    const t = await setup();
    if (isPostgres(t.deps.db)) return c.skip('PostgreSQL deletes on its own server, not on this thread');
    const bytes = new Uint8Array(20 * 1024 * 1024);
    const path = await create(t, bytes.length);
    assert.equal((await patch(t, path, 0, bytes)).status, 204);
    const chunks = await rowsIn(t.deps.db, 'attachment_chunks');
    // A timer runs only once the event loop turns: one statement deleting them all would run first.
    let left: number | undefined;
    let found: number | undefined;
    setTimeout(async () => {
      left = await rowsIn(t.deps.db, 'attachment_chunks');
      found = (await head(t, path)).status;
    }, 0);
    const response = await t.request(path, { method: 'DELETE', headers: TUS });
    assert.equal(response.status, 204);
    assert.ok(left !== undefined && left > 0 && left < chunks, `${left} of ${chunks} chunks left`);
    // Gone for its client from the first batch on.
    assert.equal(found, 404);
    assert.deepEqual(await leftovers(t), NOTHING);
  });

  test('maintenance removes uploads UPLOAD_EXPIRY_HOURS after their last byte, with their bytes', async () => {
    const t = await setup({ UPLOAD_EXPIRY_HOURS: '2' });
    const stale = await create(t, 10);
    await patch(t, stale, 0, strToU8('hello'));
    t.clock.advance(3_600_000);
    const fresh = await create(t, 10);
    await patch(t, fresh, 0, strToU8('hello'));
    t.clock.advance(3_600_000);
    // Expired: gone for the client at once, and for the database at the next maintenance.
    assert.equal((await head(t, stale)).status, 404);
    const background = startBackgroundWork(t.deps, { pollMs: 60_000, maintenanceMs: 3_600_000 });
    await background.stop();
    assert.equal(await offsetOf(t, fresh), 5);
    const left = await leftovers(t);
    assert.deepEqual([left.uploads, left.parts, left.blobs], [1, 1, 1]);
  });

  test('a purge of the user removes the uploads naming them, not those of others', async () => {
    const t = await setup();
    assert.equal((await postExport(t, fixtureBytes('claude-conversations.json'))).status, 200);
    const theirs = await create(t, 10, { metadata: `userRef ${b64('u1')}` });
    await patch(t, theirs, 0, strToU8('hello'));
    const someoneElses = await create(t, 10, { metadata: `userRef ${b64('u2')}` });
    const purged = await t.request('/api/purge', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userRef: 'u1' }),
    });
    assert.equal(purged.status, 200);
    assert.equal((await head(t, theirs)).status, 404);
    assert.equal((await head(t, someoneElses)).status, 200);
    const left = await leftovers(t);
    assert.deepEqual([left.uploads, left.parts, left.blobs, left.chunks], [1, 0, 0, 0]);
  });

  test('a purge of a user who never finished an import still removes the uploads naming them, and answers 404', async () => {
    const t = await setup();
    const theirs = await create(t, 10, { metadata: `userRef ${b64('u1')}` });
    await patch(t, theirs, 0, strToU8('hello'));
    const purged = await t.request('/api/purge', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userRef: 'u1' }),
    });
    assert.deepEqual([purged.status, await json(purged)], [404, { error: 'User not found' }]);
    assert.equal((await head(t, theirs)).status, 404);
    assert.deepEqual(await leftovers(t), NOTHING);
  });
});

describe('POST /api/ingest-export?upload=', () => {
  const exportBytes = strToU8(JSON.stringify(claudeConversations(30)));

  /** The export uploaded in three PATCHes; the upload's id. */
  async function uploaded(t: TestContext, metadata = '') {
    const path = await create(t, exportBytes.length, { metadata });
    const third = Math.floor(exportBytes.length / 3);
    for (const [from, to] of [
      [0, third],
      [third, 2 * third],
      [2 * third, exportBytes.length],
    ] as const)
      assert.equal((await patch(t, path, from, exportBytes.slice(from, to))).status, 204);
    return path.split('/').pop()!;
  }

  test('imports a complete upload with the answer of a direct upload, then nothing of it stays', async () => {
    const t = await setup();
    const direct = await json(await postExport(t, exportBytes, { query: 'userRef=direct' }));
    const before = await leftovers(t);
    const id = await uploaded(t);
    const response = await t.request(`/api/ingest-export?userRef=resumed&upload=${id}`, { method: 'POST' });
    assert.equal(response.status, 200);
    const answer = await json(response);
    assert.deepEqual(
      { ...answer, connectionId: undefined, userRef: undefined },
      { ...direct, connectionId: undefined, userRef: undefined },
    );
    assert.equal(answer.created, 30);
    assert.deepEqual(await leftovers(t), before);
    const again = await t.request(`/api/ingest-export?userRef=resumed&upload=${id}`, { method: 'POST' });
    assert.deepEqual([again.status, await json(again)], [404, { error: 'Upload not found' }]);
  });

  test('an upload another import reads is 409 with Retry-After: a second import of it never runs beside the first', async () => {
    const t = await setup();
    const id = await uploaded(t);
    // As the first import holds it while it reads.
    const now = t.clock.now();
    assert.equal(await claimUploads(t.deps.db, t.tenant.appId, [id], now, now + 3_600_000), true);
    const second = await t.request(`/api/ingest-export?userRef=u1&upload=${id}`, { method: 'POST' });
    assert.deepEqual(
      [second.status, second.headers.get('Retry-After'), await json(second)],
      [409, '2', { error: 'Upload already being imported: its result follows' }],
    );
    assert.equal(await offsetOf(t, `/api/uploads/${id}`), exportBytes.length);
    // An import that died with its process lets go after an hour.
    t.clock.advance(3_600_000);
    const later = await t.request(`/api/ingest-export?userRef=u1&upload=${id}`, { method: 'POST' });
    assert.equal(later.status, 200);
  });

  test('an upload is checked as a direct one: a provider it is not from is 400, and it stays for another try', async () => {
    const t = await setup();
    const id = await uploaded(t);
    const wrong = await t.request(`/api/ingest-export?userRef=u1&provider=openai&upload=${id}`, { method: 'POST' });
    assert.deepEqual([wrong.status, await json(wrong)], [400, { error: 'Invalid provider parameter' }]);
    // A failed import leaves the upload, to be imported again.
    const right = await t.request(`/api/ingest-export?userRef=u1&provider=anthropic&upload=${id}`, { method: 'POST' });
    assert.equal(right.status, 200);
  });

  test('several uploads are the files of one export: imported together, then all removed; one incomplete, and none is', async () => {
    const t = await setup({ MAX_EXPORT_BYTES: '100000', MAX_IMPORT_BYTES: String(3 * exportBytes.length) });
    const conversations = await uploaded(t);
    const memoriesZip = zipSync(zipFolderFiles('claude-memories-000-zip'));
    const memories = await create(t, memoriesZip.length, { metadata: `filename ${b64('memories-000.zip')}` });
    assert.equal((await patch(t, memories, 0, memoriesZip)).status, 204);
    const open = await create(t, 10);
    await patch(t, open, 0, strToU8('hello'));
    const query = `userRef=u1&upload=${conversations}&upload=${memories.split('/').pop()}`;
    const incomplete = await t.request(`/api/ingest-export?${query}&upload=${open.split('/').pop()}`, {
      method: 'POST',
    });
    assert.deepEqual([incomplete.status, await json(incomplete)], [409, { error: 'Upload not complete' }]);
    assert.equal(await rowsIn(t.deps.db, 'connections'), 0);
    const both = await t.request(`/api/ingest-export?${query}`, { method: 'POST' });
    const answer = await json(both);
    assert.deepEqual([both.status, answer.created, answer.memories.created], [200, 30, 2]);
    assert.equal(await rowsIn(t.deps.db, 'uploads'), 1);
    // Together over MAX_IMPORT_BYTES: 413, each within MAX_EXPORT_BYTES.
    const small = await setup({ MAX_IMPORT_BYTES: String(exportBytes.length + 10) });
    const first = await uploaded(small);
    const second = await uploaded(small);
    const over = await small.request(`/api/ingest-export?userRef=u1&upload=${first}&upload=${second}`, {
      method: 'POST',
    });
    assert.deepEqual([over.status, await json(over)], [413, { error: 'Export file too large' }]);
  });

  test('an incomplete upload is 409, a missing userRef is 400', async () => {
    const t = await setup();
    const path = await create(t, 10);
    await patch(t, path, 0, strToU8('hello'));
    const id = path.split('/').pop();
    const incomplete = await t.request(`/api/ingest-export?userRef=u1&upload=${id}`, { method: 'POST' });
    assert.deepEqual([incomplete.status, await json(incomplete)], [409, { error: 'Upload not complete' }]);
    const noUser = await t.request(`/api/ingest-export?upload=${id}`, { method: 'POST' });
    assert.deepEqual([noUser.status, await json(noUser)], [400, { error: 'Missing userRef parameter' }]);
  });

  test('an upload naming a user is imported only for that user', async () => {
    const t = await setup();
    const id = await uploaded(t, `userRef ${b64('u1')}`);
    const other = await t.request(`/api/ingest-export?userRef=u2&upload=${id}`, { method: 'POST' });
    assert.deepEqual([other.status, await json(other)], [404, { error: 'Upload not found' }]);
    assert.equal((await t.request(`/api/ingest-export?userRef=u1&upload=${id}`, { method: 'POST' })).status, 200);
  });
});

describe('upload parts as files beside a SQLite database file', () => {
  const exportBytes = strToU8(JSON.stringify(claudeConversations(12)));

  /** An app on a SQLite file in a folder of its own (PostgreSQL: skipped, its parts are blobs); the parts' folder. */
  async function onFile(c: NodeTestContext, env: Record<string, string> = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-part-files-'));
    c.after(() => rmSync(dir, { recursive: true, force: true }));
    const databasePath = join(dir, 'parley.db');
    const t = await setup(env, { databasePath });
    if (isPostgres(t.deps.db)) return undefined;
    const folder = `${databasePath}-uploads`;
    const files = () => (existsSync(folder) ? readdirSync(folder) : []);
    return { t, files, folder };
  }

  test('each part is a file, no blob or chunk row; the import reads them, then nothing of the upload stays', async (c) => {
    const on = await onFile(c);
    if (!on) return c.skip('SQLite only: on PostgreSQL the parts are blobs of the attachments store');
    const { t, files, folder } = on;
    const path = await create(t, exportBytes.length);
    const half = Math.floor(exportBytes.length / 2);
    // The first cut off part-way: what arrived is in its file, and the upload goes on from there.
    await patch(t, path, 0, cutAfter(exportBytes.slice(0, half)));
    assert.equal(await offsetOf(t, path), half);
    assert.equal((await patch(t, path, half, exportBytes.slice(half))).status, 204);
    assert.equal(files().length, 2);
    const written = Buffer.concat(
      (await t.deps.db.selectFrom('upload_parts').select('blob_id').orderBy('start_byte').execute()).map((part) =>
        readFileSync(join(folder, part.blob_id)),
      ),
    );
    assert.deepEqual(new Uint8Array(written), exportBytes);
    assert.deepEqual(
      [await rowsIn(t.deps.db, 'attachment_blobs'), await rowsIn(t.deps.db, 'attachment_chunks')],
      [0, 0],
    );
    const imported = await t.request(`/api/ingest-export?userRef=u1&upload=${path.split('/').pop()}`, {
      method: 'POST',
    });
    assert.deepEqual([imported.status, (await json(imported)).created], [200, 12]);
    assert.deepEqual(
      [files(), await rowsIn(t.deps.db, 'uploads'), await rowsIn(t.deps.db, 'upload_parts')],
      [[], 0, 0],
    );
  });

  test('a part of several megabytes, in chunks of odd sizes, is in its file byte for byte', async (c) => {
    const on = await onFile(c);
    if (!on) return c.skip('SQLite only: on PostgreSQL the parts are blobs of the attachments store');
    const { t, files, folder } = on;
    // Past two of the writer's megabyte buffers, with chunks that straddle their ends.
    const bytes = new Uint8Array(2 * 1024 * 1024 + 123_457).map((_, i) => (i * 7919) % 251);
    const chunk = 300_007;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === bytes.length) return controller.close();
        controller.enqueue(bytes.slice(sent, sent + chunk));
        sent = Math.min(bytes.length, sent + chunk);
      },
    });
    const path = await create(t, bytes.length);
    assert.equal((await patch(t, path, 0, body)).status, 204);
    assert.deepEqual(new Uint8Array(readFileSync(join(folder, files()[0]!))), bytes);
  });

  test('an upload whose part file is gone (a database restored from a backup) is 404 at its import, and removed', async (c) => {
    const on = await onFile(c);
    if (!on) return c.skip('SQLite only: on PostgreSQL the parts are blobs of the attachments store');
    const { t, files, folder } = on;
    const path = await create(t, exportBytes.length);
    assert.equal((await patch(t, path, 0, exportBytes)).status, 204);
    rmSync(join(folder, files()[0]!));
    const imported = await t.request(`/api/ingest-export?userRef=u1&upload=${path.split('/').pop()}`, {
      method: 'POST',
    });
    assert.deepEqual([imported.status, await json(imported)], [404, { error: 'Upload not found' }]);
    assert.equal((await head(t, path)).status, 404);
    assert.deepEqual([await rowsIn(t.deps.db, 'uploads'), await rowsIn(t.deps.db, 'connections')], [0, 0]);
  });

  test('termination and a purge of the user remove the files', async (c) => {
    const on = await onFile(c);
    if (!on) return c.skip('SQLite only: on PostgreSQL the parts are blobs of the attachments store');
    const { t, files } = on;
    const cancelled = await create(t, 10);
    await patch(t, cancelled, 0, strToU8('hello'));
    assert.equal((await t.request(cancelled, { method: 'DELETE', headers: TUS })).status, 204);
    assert.deepEqual(files(), []);
    const theirs = await create(t, 10, { metadata: `userRef ${b64('u1')}` });
    await patch(t, theirs, 0, strToU8('hello'));
    const kept = await create(t, 10, { metadata: `userRef ${b64('u2')}` });
    await patch(t, kept, 0, strToU8('hello'));
    const purged = await t.request('/api/purge', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userRef: 'u1' }),
    });
    assert.equal(purged.status, 404);
    assert.equal(files().length, 1);
    assert.equal(await offsetOf(t, kept), 5);
  });

  test('maintenance removes expired uploads with their files, and files whose upload went with its app', async (c) => {
    const on = await onFile(c, { UPLOAD_EXPIRY_HOURS: '2' });
    if (!on) return c.skip('SQLite only: on PostgreSQL the parts are blobs of the attachments store');
    const { t, files, folder } = on;
    const stale = await create(t, 10);
    await patch(t, stale, 0, strToU8('hello'));
    t.clock.advance(3_600_000);
    const fresh = await create(t, 10);
    await patch(t, fresh, 0, strToU8('hello'));
    // A file whose part's row is gone, as an app's deletion cascades past the files.
    writeFileSync(join(folder, 'left-over'), 'bytes');
    t.clock.advance(3_600_000);
    const background = startBackgroundWork(t.deps, { pollMs: 60_000, maintenanceMs: 3_600_000 });
    await background.stop();
    assert.equal(files().length, 1);
    assert.equal(await offsetOf(t, fresh), 5);
  });

  test('a part refused at its commit (another request took those bytes first) leaves no file', async (c) => {
    const on = await onFile(c);
    if (!on) return c.skip('SQLite only: on PostgreSQL the parts are blobs of the attachments store');
    const { t, files } = on;
    const path = await create(t, 10);
    let finish = () => {};
    const held = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(strToU8('hel'));
        finish = () => controller.close();
      },
    });
    const slow = patch(t, path, 0, held);
    // The slow one has begun its part.
    while ((await rowsIn(t.deps.db, 'upload_parts')) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal((await patch(t, path, 0, strToU8('hello'))).status, 204);
    finish();
    assert.equal((await slow).status, 409);
    assert.equal(files().length, 1);
    assert.equal(await offsetOf(t, path), 5);
  });
});
