/**
 * Attachments in the API: every message lists its own, and GET
 * /api/attachments/{id} serves the bytes of this app's, with ranges, entity
 * tags and the headers that keep a file from running on Parley's origin.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { onboardApp } from '../../src/apps/apps.ts';
import { CHUNK_BYTES } from '../../src/attachments/database-store.ts';
import { messageEnds, writeWithFields, writtenLength } from '../../src/wire/message-fields.ts';
import { contentDisposition, requestedRange, safeFileName } from '../../src/http/attachment-response.ts';
import { json, seedAttachment, seedConnection, setup, storedPayload, type TestContext } from '../helpers.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]);
const encoder = new TextEncoder();

/** A connection of user u1 with one conversation of `messages` messages; its ids. */
async function conversationWith(t: TestContext, messages: Array<Record<string, unknown>>) {
  const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1' });
  const conversationId = crypto.randomUUID();
  await t.deps.db
    .insertInto('conversations')
    .values({
      id: conversationId,
      connection_id: connectionId,
      external_id: 'ext-a',
      title: 'With files',
      payload: storedPayload(t.deps.db, JSON.stringify({ title: 'With files', messages })),
      update_time: '2026-03-01T11:00:00.000Z',
      created_at: '2026-03-01T11:00:00.000Z',
      changed_at: '2026-03-01T11:00:00.000Z',
    })
    .execute();
  return { connectionId, conversationId };
}

const MESSAGES = [
  { role: 'user', content: 'Look: {"a":[1]} and a \\"quote\\" }', timestamp: null },
  { role: 'assistant', content: 'Nice.', timestamp: '2026-03-01T11:00:00.000Z', model: 'gpt-4o' },
  { role: 'user', content: 'And this PDF', timestamp: null },
];

describe('messages carry their attachments', () => {
  test('each message lists its own, [] where it shows none; size and stored from the blob', async () => {
    const t = await setup();
    const { connectionId, conversationId } = await conversationWith(t, MESSAGES);
    const photo = await seedAttachment(t.deps, {
      conversationId,
      name: 'photo.png',
      contentType: 'image/png',
      bytes: PNG,
    });
    const pdf = await seedAttachment(t.deps, {
      conversationId,
      messageIndex: 2,
      name: 'report.pdf',
      contentType: 'application/pdf',
      size: 5000,
    });
    const [conversation] = (await json(await t.request(`/api/conversations?connectionId=${connectionId}`)))
      .conversations;
    assert.deepEqual(conversation.payload.messages, [
      {
        ...MESSAGES[0],
        attachments: [
          { id: photo.id, name: 'photo.png', contentType: 'image/png', size: PNG.length, kind: 'image', stored: true },
        ],
      },
      { ...MESSAGES[1], attachments: [] },
      {
        ...MESSAGES[2],
        attachments: [
          { id: pdf.id, name: 'report.pdf', contentType: 'application/pdf', size: 5000, kind: 'file', stored: false },
        ],
      },
    ]);
  });

  test('conversations without any: every message has attachments: [] (a search too)', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });
    for (const query of ['', '&q=message']) {
      const page = await json(await t.request(`/api/conversations?connectionId=${connectionId}${query}`));
      assert.equal(page.conversations.length, 3);
      for (const conversation of page.conversations)
        assert.deepEqual(conversation.payload.messages, [
          { role: 'user', content: `Message ${conversation.external_id.slice(4)}`, timestamp: null, attachments: [] },
        ]);
    }
  });

  test('a search answer carries them as the listing does', async () => {
    const t = await setup();
    const { connectionId, conversationId } = await conversationWith(t, MESSAGES);
    const photo = await seedAttachment(t.deps, {
      conversationId,
      name: 'photo.png',
      contentType: 'image/png',
      bytes: PNG,
    });
    const page = await json(await t.request(`/api/conversations?connectionId=${connectionId}&q=nice`));
    assert.deepEqual(
      page.conversations[0].payload.messages.map((m: any) => m.attachments.map((a: any) => a.id)),
      [[photo.id], [], []],
    );
  });
});

describe('GET /api/attachments/{id}', () => {
  async function withPhoto(env: Record<string, string> = {}) {
    const t = await setup(env);
    const { conversationId } = await conversationWith(t, MESSAGES);
    const photo = await seedAttachment(t.deps, {
      conversationId,
      name: 'Ünïcode photo "1".png',
      contentType: 'image/png',
      bytes: PNG,
    });
    return { t, conversationId, photo, path: `/api/attachments/${photo.id}` };
  }

  test('200: the bytes, with their type, length, name, strong ETag and private caching', async () => {
    const { t, photo, path } = await withPhoto();
    const res = await t.request(path);
    assert.equal(res.status, 200);
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), PNG);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('content-length'), String(PNG.length));
    assert.equal(
      res.headers.get('content-disposition'),
      `inline; filename="_n_code photo _1_.png"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20photo%20_1_.png`,
    );
    assert.equal(res.headers.get('etag'), `"${photo.sha256}"`);
    assert.equal(res.headers.get('cache-control'), 'private, no-cache');
    assert.equal(res.headers.get('accept-ranges'), 'bytes');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; sandbox");
  });

  test('HEAD: the same headers, no body', async () => {
    const { t, path } = await withPhoto();
    const res = await t.request(path, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
    assert.equal(res.headers.get('content-length'), String(PNG.length));
    assert.equal(res.headers.get('content-type'), 'image/png');
  });

  test('If-None-Match with its ETag → 304 with no body; another tag → 200', async () => {
    const { t, photo, path } = await withPhoto();
    const current = await t.request(path, { headers: { 'If-None-Match': `"other", W/"${photo.sha256}"` } });
    assert.equal(current.status, 304);
    assert.equal(await current.text(), '');
    assert.equal(current.headers.get('etag'), `"${photo.sha256}"`);
    assert.equal((await t.request(path, { headers: { 'If-None-Match': '"other"' } })).status, 200);
  });

  const ranges: Array<[header: string, status: number, body: number[] | null, contentRange: string | null]> = [
    ['bytes=0-3', 206, [0x89, 0x50, 0x4e, 0x47], 'bytes 0-3/16'],
    ['bytes=14-', 206, [7, 8], 'bytes 14-15/16'],
    ['bytes=-3', 206, [6, 7, 8], 'bytes 13-15/16'],
    ['bytes=10-999', 206, [3, 4, 5, 6, 7, 8], 'bytes 10-15/16'],
    ['bytes=16-', 416, null, 'bytes */16'],
    ['bytes=-0', 416, null, 'bytes */16'],
    // Several ranges, another unit or a reversed one: the whole file.
    ['bytes=0-1,4-5', 200, [...PNG], null],
    ['items=0-1', 200, [...PNG], null],
    ['bytes=5-2', 200, [...PNG], null],
  ];
  for (const [header, status, body, contentRange] of ranges) {
    test(`Range: ${header} → ${status}`, async () => {
      const { t, path } = await withPhoto();
      const res = await t.request(path, { headers: { Range: header } });
      assert.equal(res.status, status);
      assert.equal(res.headers.get('content-range'), contentRange);
      if (body) {
        assert.deepEqual([...new Uint8Array(await res.arrayBuffer())], body);
        assert.equal(res.headers.get('content-length'), String(body.length));
      } else assert.deepEqual(await json(res), { error: 'Range not satisfiable' });
    });
  }

  test('If-Range with another ETag serves the whole file; with its own, the range', async () => {
    const { t, photo, path } = await withPhoto();
    const stale = await t.request(path, { headers: { Range: 'bytes=0-1', 'If-Range': '"old"' } });
    assert.equal(stale.status, 200);
    const fresh = await t.request(path, { headers: { Range: 'bytes=0-1', 'If-Range': `"${photo.sha256}"` } });
    assert.equal(fresh.status, 206);
  });

  test('a range across chunk rows reads the bytes of each', async () => {
    const t = await setup();
    const { conversationId } = await conversationWith(t, MESSAGES);
    const bytes = new Uint8Array(CHUNK_BYTES * 2 + 10).map((_, i) => i % 251);
    const big = await seedAttachment(t.deps, {
      conversationId,
      name: 'big.bin',
      contentType: 'application/octet-stream',
      bytes,
    });
    const start = CHUNK_BYTES - 5;
    const res = await t.request(`/api/attachments/${big.id}`, {
      headers: { Range: `bytes=${start}-${CHUNK_BYTES * 2 + 2}` },
    });
    assert.equal(res.status, 206);
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), bytes.subarray(start, CHUNK_BYTES * 2 + 3));
    const whole = await t.request(`/api/attachments/${big.id}`);
    assert.deepEqual(new Uint8Array(await whole.arrayBuffer()), bytes);
  });

  // In place only for a type a browser shows without running anything, and only
  // when the bytes sniff as that very type.
  const served: Array<[contentType: string, sniffed: string, servedAs: string, disposition: string]> = [
    ['image/svg+xml', 'image/svg+xml', 'image/svg+xml', 'attachment'],
    ['text/html; charset=utf-8', 'text/html', 'text/html; charset=utf-8', 'attachment'],
    ['application/pdf', 'application/pdf', 'application/pdf', 'attachment'],
    // Not a type Parley knows: bytes, to download.
    ['application/xhtml+xml', 'application/xml', 'application/octet-stream', 'attachment'],
    // The export says PNG; the bytes are SVG, or JPEG.
    ['image/png', 'image/svg+xml', 'image/png', 'attachment'],
    ['image/png', 'image/jpeg', 'image/png', 'attachment'],
    ['image/png', 'image/png', 'image/png', 'inline'],
    // A container's bytes do not say whether they are sound or video.
    ['audio/webm', 'video/webm', 'audio/webm', 'inline'],
    ['audio/mpeg', 'video/mp4', 'audio/mpeg', 'attachment'],
    ['text/plain; charset=utf-8', 'image/png', 'text/plain; charset=utf-8', 'attachment'],
  ];
  for (const [contentType, sniffedType, servedAs, disposition] of served) {
    test(`${contentType} sniffed as ${sniffedType}: served as ${servedAs}, ${disposition}`, async () => {
      const t = await setup();
      const { conversationId } = await conversationWith(t, MESSAGES);
      const file = await seedAttachment(t.deps, {
        conversationId,
        name: 'drawing.svg',
        contentType,
        sniffedType,
        bytes: encoder.encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      });
      const res = await t.request(`/api/attachments/${file.id}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), servedAs);
      assert.match(res.headers.get('content-disposition')!, new RegExp(`^${disposition}; filename="drawing\\.svg"`));
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    });
  }

  test('a type that is a list (`image/png; q=1, text/html`, stored by an older import): one canonical type, a download, sandboxed', async () => {
    const t = await setup();
    const { connectionId, conversationId } = await conversationWith(t, MESSAGES);
    const polyglot = await seedAttachment(t.deps, {
      conversationId,
      name: 'photo.png',
      contentType: 'image/png; q=1, text/html',
      sniffedType: 'image/png',
      bytes: new Uint8Array([...PNG, ...encoder.encode('<form><input type="password"></form>')]),
    });
    const res = await t.request(`/api/attachments/${polyglot.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    assert.match(res.headers.get('content-disposition')!, /^attachment; filename="photo\.png"/);
    assert.match(res.headers.get('content-security-policy')!, /\bsandbox\b/);
    // The listing states the same type.
    const [conversation] = (await json(await t.request(`/api/conversations?connectionId=${connectionId}`)))
      .conversations;
    assert.equal(conversation.payload.messages[0].attachments[0].contentType, 'application/octet-stream');
  });

  test('text/plain is shown in place, with its charset', async () => {
    const t = await setup();
    const { conversationId } = await conversationWith(t, MESSAGES);
    const paste = await seedAttachment(t.deps, {
      conversationId,
      name: 'paste.txt',
      contentType: 'text/plain; charset=utf-8',
      kind: 'document',
      bytes: encoder.encode('pasted'),
    });
    const res = await t.request(`/api/attachments/${paste.id}`);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.match(res.headers.get('content-disposition')!, /^inline; /);
    assert.equal(await res.text(), 'pasted');
  });

  test('404 for an unknown id, one not stored, and another app’s', async () => {
    const { t, conversationId, path } = await withPhoto();
    const named = await seedAttachment(t.deps, { conversationId, name: 'missing.png', contentType: 'image/png' });
    for (const unknown of ['/api/attachments/nope', `/api/attachments/${named.id}`]) {
      const res = await t.request(unknown);
      assert.deepEqual([res.status, await json(res)], [404, { error: 'Attachment not found' }]);
      assert.equal(res.headers.get('cache-control'), 'no-store');
    }
    const other = await onboardApp(t.deps, 'Other app');
    const res = await t.request(path, { headers: { Authorization: `Bearer ${other.apiKey}` } });
    assert.deepEqual([res.status, await json(res)], [404, { error: 'Attachment not found' }]);
  });

  test('401 without a key or with a wrong one; 405 for another method', async () => {
    const { t, path } = await withPhoto();
    const missing = await t.app.request(path);
    assert.deepEqual([missing.status, await json(missing)], [401, { error: 'Missing Authorization header' }]);
    const wrong = await t.request(path, { headers: { Authorization: 'Bearer parley_wrong' } });
    assert.deepEqual([wrong.status, await json(wrong)], [401, { error: 'Invalid API key' }]);
    const post = await t.request(path, { method: 'POST' });
    assert.deepEqual([post.status, post.headers.get('allow')], [405, 'GET, HEAD']);
  });

  test('not counted by the rate limit', async () => {
    const { t, path } = await withPhoto({ RATE_LIMIT_PER_MINUTE: '1' });
    for (let i = 0; i < 3; i++) assert.equal((await t.request(path)).status, 200);
  });

  test('gone with its conversation, and the bytes with it', async () => {
    const { t, conversationId, photo, path } = await withPhoto();
    await t.deps.db.deleteFrom('conversations').where('id', '=', conversationId).execute();
    assert.equal((await t.request(path)).status, 404);
    const blobs = await t.deps.db
      .selectFrom('attachment_chunks')
      .select('blob_id')
      .where('blob_id', '=', photo.blobId!)
      .execute();
    assert.deepEqual(blobs, []);
  });
});

describe('file names and ranges', () => {
  test('safeFileName: no path, control or direction characters, a name left', () => {
    assert.equal(safeFileName('../../etc/passwd'), '_.._etc_passwd');
    assert.equal(safeFileName('a\u0000b\r\nc.txt'), 'a_b__c.txt');
    assert.equal(safeFileName('photo\u202egnp.exe'), 'photo_gnp.exe');
    assert.equal(
      safeFileName('\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c.txt'),
      '___________.txt',
    );
    assert.equal(safeFileName(' ..hidden. '), 'hidden');
    assert.equal(safeFileName('...'), 'file');
    assert.equal(safeFileName('😀'.repeat(200)), '😀'.repeat(150));
  });

  test('safeFileName: a name cut to 150 characters keeps its extension', () => {
    assert.equal(safeFileName(`${'a'.repeat(196)}.png`), `${'a'.repeat(146)}.png`);
    assert.equal(safeFileName(`${'😀'.repeat(200)}.docx`), `${'😀'.repeat(145)}.docx`);
    // Trailing dots go before the cut, so the extension is the name's.
    assert.equal(safeFileName(`${'a'.repeat(200)}.png. `), `${'a'.repeat(146)}.png`);
    // After a dot, a long tail is no extension: cut like the rest.
    assert.equal(safeFileName(`v1.${'a'.repeat(200)}`), `v1.${'a'.repeat(147)}`);
    assert.equal(
      contentDisposition('attachment', `${'a'.repeat(196)}.png`),
      `attachment; filename="${'a'.repeat(146)}.png"; filename*=UTF-8''${'a'.repeat(146)}.png`,
    );
  });

  test('contentDisposition: an ASCII fallback and the UTF-8 name', () => {
    assert.equal(
      contentDisposition('attachment', 'résumé (final)*.pdf'),
      `attachment; filename="r_sum_ (final)_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%28final%29_.pdf`,
    );
    assert.equal(contentDisposition('inline', '100%.png'), `inline; filename="100_.png"; filename*=UTF-8''100%25.png`);
  });

  test('requestedRange of an empty file is never satisfiable', () => {
    assert.equal(requestedRange('bytes=0-', 0), 'unsatisfiable');
    assert.equal(requestedRange('bytes=-5', 0), 'unsatisfiable');
    assert.equal(requestedRange(undefined, 0), null);
  });
});

describe('adding a member to each message of a stored payload', () => {
  const tricky = [
    'a string that ends in a backslash \\',
    '"messages":[{"role":"user"}] in a message, and }]} too',
    'quotes \\" and \\\\" escaped, {nested: [1, {"x": "}"}]}',
    'ünïcödé 🙂 \u2028',
  ];
  const payload = {
    title: '"messages":[{}]',
    messages: tricky.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content, timestamp: null })),
  };
  const spliced = (value: unknown, field: (i: number) => string) => {
    const json = encoder.encode(JSON.stringify(value));
    const ends = messageEnds(json);
    const with_ = { json, ends, fields: ends.map((_, i) => encoder.encode(field(i))) };
    const out = new Uint8Array(writtenLength(with_) + 4);
    const end = writeWithFields(out, 2, with_);
    assert.equal(end, out.length - 2);
    return JSON.parse(new TextDecoder().decode(out.subarray(2, end)));
  };

  test('each message, and only messages, whatever their text holds', () => {
    assert.deepEqual(
      spliced(payload, (i) => `"n":${i}`),
      { ...payload, messages: payload.messages.map((message, i) => ({ ...message, n: i })) },
    );
  });

  test('no messages, or none at all: the payload as it is', () => {
    assert.deepEqual(
      spliced({ title: 't', messages: [] }, () => '"n":1'),
      { title: 't', messages: [] },
    );
    assert.deepEqual(messageEnds(encoder.encode('{"title":"messages","other":[{"a":1}]}')), []);
  });
});
