import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_FIELD_BYTES, MAX_FIELDS } from '../../src/http/multipart.ts';
import { BODY_LIMITS } from '../../src/http/request-body.ts';
import { hiddenField, openSession, PageClient, pageLink } from '../pages/page-client.ts';
import { expectRefused, fixtureBytes, form, json, postExport, rowCounts, setup, type TestContext } from '../helpers.ts';

const encoder = new TextEncoder();

/**
 * A body that is sent as it is pulled: `chunks` first, then (unless `ends`)
 * nothing more, ever. `pulled` counts the chunks taken, to show what was read.
 */
function trickle(chunks: Uint8Array[], { ends = true, endless }: { ends?: boolean; endless?: Uint8Array } = {}) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const state = { pulled: 0, release };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        state.pulled++;
        const next = chunks.shift() ?? endless;
        if (next) return controller.enqueue(next);
        if (ends) return controller.close();
        // Held open until released: a client that has stopped sending.
        await released;
        controller.close();
      },
    },
    // Nothing is pulled before the app reads.
    { highWaterMark: 0 },
  );
  return { stream, state };
}

const streamed = (body: ReadableStream<Uint8Array>, init: RequestInit = {}): RequestInit =>
  ({ ...init, body, duplex: 'half' }) as RequestInit;

const purge = (t: TestContext, init: RequestInit) =>
  t.request('/api/purge', {
    method: 'POST',
    ...init,
    headers: { 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) },
  });

const postStream = (t: TestContext, stream: ReadableStream<Uint8Array>, userRef = 'u1') =>
  t.request(
    `/api/ingest-export?userRef=${userRef}`,
    streamed(stream, { method: 'POST', headers: { 'Content-Type': 'application/json' } }),
  );

const heading = (html: string) => /<h1[^>]*>(.*?)<\/h1>/.exec(html)?.[1];

describe('bodies are bounded before they are read', () => {
  test('POST /api/purge reads at most 64 KB: one byte more is 413 as JSON', async () => {
    const t = await setup();
    const padded = `{"userRef":"u1","pad":"${'x'.repeat(BODY_LIMITS.purge)}"}`;
    const response = await purge(t, { body: padded });
    assert.equal(response.status, 413);
    assert.deepEqual(await json(response), { error: 'Request body too large' });
    // Just under the bound, the body is read and judged.
    const under = `{"userRef":"u1","pad":"${'x'.repeat(BODY_LIMITS.purge - 40)}"}`;
    assert.equal((await purge(t, { body: under })).status, 404);
  });

  test('an endless body without Content-Length is refused once it passes the bound, not read on', async () => {
    const t = await setup();
    const { stream, state } = trickle([], { endless: new Uint8Array(16 * 1024).fill(0x20) });
    const response = await purge(t, streamed(stream));
    assert.equal(response.status, 413);
    assert.ok(state.pulled <= BODY_LIMITS.purge / (16 * 1024) + 2, `pulled ${state.pulled} chunks`);
  });

  test('a declared Content-Length over the bound is refused before a byte is read', async () => {
    const t = await setup();
    const { stream, state } = trickle([encoder.encode('{"userRef":"u1"}')]);
    const response = await purge(t, streamed(stream, { headers: { 'Content-Length': String(1e9) } }));
    assert.equal(response.status, 413);
    assert.equal(state.pulled, 0);
  });

  test('POST /start reads a few KB at most: a larger form is a 413 page and its link stays unused', async () => {
    const t = await setup();
    const url = await pageLink(t, 'connect');
    const token = url.searchParams.get('token')!;
    const browser = new PageClient(t);
    const big = await browser.post('/start', { token, pad: 'x'.repeat(BODY_LIMITS.pageForm) });
    assert.equal(big.status, 413);
    assert.match(big.headers.get('content-type')!, /^text\/html/);
    assert.equal(heading(await big.text()), 'Request body too large');
    assert.equal((await browser.post('/start', { token })).status, 303);
  });

  test('a manage form past the bound is a 413 page, and nothing is deleted', async () => {
    const t = await setup();
    const browser = await openSession(t, 'manage');
    const csrf = hiddenField(await (await browser.get('/manage/delete-all')).text(), 'csrf');
    const response = await browser.post('/manage/delete-all', { csrf, pad: 'x'.repeat(BODY_LIMITS.pageForm) });
    assert.equal(response.status, 413);
    assert.equal(heading(await response.text()), 'Request body too large');
  });

  test(`a multipart upload has at most ${MAX_FIELDS} fields of ${MAX_FIELD_BYTES} bytes before its file`, async () => {
    const t = await setup();
    const file = { bytes: fixtureBytes('claude-conversations.json'), type: 'application/json' };
    const fields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, 'v']));
    const send = (data: FormData) => () => t.request('/api/ingest-export', { method: 'POST', body: data });
    await expectRefused(t, send(form({ userRef: 'u1', ...fields(MAX_FIELDS) }, file)), 413, 'Request body too large');
    await expectRefused(
      t,
      send(form({ userRef: 'u1', note: 'x'.repeat(MAX_FIELD_BYTES + 1) }, file)),
      413,
      'Request body too large',
    );
    await expectRefused(t, send(form({ userRef: 'u1' }, file, fields(MAX_FIELDS + 1))), 413, 'Request body too large');
    const accepted = await send(form({ userRef: 'u1', ...fields(MAX_FIELDS - 1) }, file, fields(MAX_FIELDS)))();
    assert.equal(accepted.status, 200);
  });
});

describe('slow bodies are cut off', () => {
  test('a purge body that stops arriving is 408 after BODY_TIMEOUT_MS', async () => {
    const t = await setup({ BODY_TIMEOUT_MS: '50' });
    const { stream, state } = trickle([encoder.encode('{"userRef":')], { ends: false });
    const response = await purge(t, streamed(stream));
    assert.equal(response.status, 408);
    assert.deepEqual(await json(response), { error: 'Request timeout' });
    state.release();
  });

  test('a form to /start that stops arriving is a 408 page', async () => {
    const t = await setup({ BODY_TIMEOUT_MS: '50' });
    const { stream, state } = trickle([encoder.encode('token=')], { ends: false });
    const response = await t.app.request(
      '/start',
      streamed(stream, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
    );
    assert.equal(response.status, 408);
    assert.equal(heading(await response.text()), 'Request timeout');
    state.release();
  });

  test('an upload is cut off when no byte comes for UPLOAD_IDLE_TIMEOUT_MS, and writes nothing', async () => {
    const t = await setup({ UPLOAD_IDLE_TIMEOUT_MS: '50' });
    const { stream, state } = trickle([fixtureBytes('claude-conversations.json').subarray(0, 100)], { ends: false });
    await expectRefused(t, () => postStream(t, stream), 408, 'Request timeout');
    state.release();
  });

  test('an upload whose bytes keep coming may take longer than UPLOAD_IDLE_TIMEOUT_MS in all', async () => {
    const t = await setup({ UPLOAD_IDLE_TIMEOUT_MS: '1000' });
    const bytes = fixtureBytes('claude-conversations.json');
    const step = Math.ceil(bytes.length / 15);
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (at >= bytes.length) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 100));
        controller.enqueue(bytes.slice(at, at + step));
        at += step;
      },
    });
    const response = await postStream(t, stream);
    assert.equal(response.status, 200, JSON.stringify(await json(response.clone())));
  });
});

describe('imports are admitted, not piled up', () => {
  /** An upload whose first bytes have arrived and whose rest waits for `finish`. */
  function heldUpload(t: TestContext, userRef: string) {
    const bytes = fixtureBytes('claude-conversations.json');
    const { stream, state } = trickle([bytes.slice(0, 10), bytes.slice(10)], { ends: false });
    const response = postStream(t, stream, userRef);
    return { response, state };
  }

  test('past MAX_CONCURRENT_IMPORTS an import that finds no slot in time is 503 with Retry-After; a freed slot admits the next', async () => {
    const t = await setup({ MAX_CONCURRENT_IMPORTS: '1', IMPORT_QUEUE_TIMEOUT_MS: '0' });
    const first = heldUpload(t, 'u1');
    // The first import holds its slot once it is reading its file, and has opened
    // its own connection (out of sight, but counted below) once it has read a record.
    while (first.state.pulled < 2 || (await rowCounts(t.deps)).connections < 1)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const refused = await expectRefused(
      t,
      () => postExport(t, fixtureBytes('claude-conversations.json'), { query: 'userRef=u2' }),
      503,
      'Too many imports at once: try again shortly',
    );
    assert.equal(refused.headers.get('retry-after'), '5');
    first.state.release();
    assert.equal((await first.response).status, 200);
    assert.equal((await postExport(t, fixtureBytes('claude-conversations.json'), { query: 'userRef=u2' })).status, 200);
  });

  test('an import waits for a slot for up to IMPORT_QUEUE_TIMEOUT_MS', async () => {
    const t = await setup({ MAX_CONCURRENT_IMPORTS: '1', IMPORT_QUEUE_TIMEOUT_MS: '60000' });
    const first = heldUpload(t, 'u1');
    while (first.state.pulled < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = postExport(t, fixtureBytes('claude-conversations.json'), { query: 'userRef=u2' });
    first.state.release();
    assert.deepEqual([(await first.response).status, (await second).status], [200, 200]);
    assert.equal((await rowCounts(t.deps)).users, 2);
  });

  test('the connect page answers a busy server with a 503 page the upload script retries', async () => {
    const t = await setup({ MAX_CONCURRENT_IMPORTS: '1', IMPORT_QUEUE_TIMEOUT_MS: '0' });
    const first = heldUpload(t, 'u1');
    while (first.state.pulled < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const browser = await openSession(t, 'connect', 'u2');
    const page = await (await browser.get('/connect/anthropic')).text();
    assert.match(page, /data-text-busy="Many files are being imported right now\. Retrying in a moment…"/);
    const upload = form(
      { csrf: hiddenField(page, 'csrf') },
      { bytes: fixtureBytes('claude-conversations.json'), type: 'application/json' },
    );
    const response = await browser.request('/connect/anthropic', { method: 'POST', body: upload });
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('retry-after'), '5');
    assert.equal(heading(await response.text()), 'Too many imports at once: try again shortly');
    first.state.release();
    await first.response;
  });
});

describe('CSV rows are bounded in columns and bytes', () => {
  const copilotHeader = 'Conversation,Time,Author,Message\r\n';
  const csv = (text: string) => encoder.encode(text);

  test('a Copilot header, then a row of commas: refused at the 65th column', async () => {
    const t = await setup();
    await expectRefused(
      t,
      () => postExport(t, csv(copilotHeader + ','.repeat(1024 * 1024)), { contentType: 'text/csv' }),
      400,
      'Invalid export file: a CSV row has more than 64 columns',
    );
  });

  test('a header line of thousands of columns is refused the same way', async () => {
    const t = await setup();
    await expectRefused(
      t,
      () => postExport(t, csv('B,'.repeat(512 * 1024)), { contentType: 'text/csv' }),
      400,
      'Invalid export file: a CSV row has more than 64 columns',
    );
  });

  test('a row longer than MAX_CONVERSATION_BYTES is 413, even when no field is', async () => {
    const t = await setup({ MAX_CONVERSATION_BYTES: '1000' });
    const row = `${'a'.repeat(600)},2026-01-10T08:00:00,user,${'b'.repeat(600)}\r\n`;
    await expectRefused(
      t,
      () => postExport(t, csv(copilotHeader + row), { contentType: 'text/csv' }),
      413,
      'Export file too large: MAX_CONVERSATION_BYTES',
    );
  });

  test('commas and line ends inside quotes are text, not columns or rows', async () => {
    const t = await setup();
    const row = `Chat,2026-01-10T08:00:00,user,"${'a, '.repeat(200)}\r\n""quoted"", more"\r\n`;
    const response = await postExport(t, csv(copilotHeader + row), { contentType: 'text/csv' });
    assert.equal(response.status, 200, JSON.stringify(await json(response.clone())));
    assert.equal((await json(response)).created, 1);
  });
});

describe('API answers are never cached', () => {
  test('success and error answers under /api send Cache-Control: no-store', async () => {
    const t = await setup();
    for (const response of [
      await t.request('/api/connections?userRef=u1'),
      await t.request('/api/connections?userRef=u1', { headers: { Authorization: 'Bearer nope' } }),
      await t.request('/api/connections'),
      await t.request('/api/purge', { method: 'GET' }),
      await postExport(t, fixtureBytes('claude-conversations.json')),
    ]) {
      assert.equal(response.headers.get('cache-control'), 'no-store', `${response.url} ${response.status}`);
    }
  });
});
