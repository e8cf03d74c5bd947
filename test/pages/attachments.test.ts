/**
 * The manage page's files: images shown from Parley itself, other files as
 * downloads with their size, a document's text folded away, names alone where
 * the export held nothing; deleting one; and the zip of "Download my data".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { DOCUMENT_PREVIEW_BYTES } from '../../src/conversations/attachments.ts';
import { downloadZip } from '../../src/hosted/download-zip.ts';
import { fixtureJson, json, postExport, seedAttachment, seedConnection, setup, type TestContext } from '../helpers.ts';
import { hiddenField, openSession } from './page-client.ts';

const encoder = new TextEncoder();
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9, 9]);
const SVG = encoder.encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

/** User u1's conversation "Conversation 0" (one message) with one file of each kind; their ids. */
async function conversationWithFiles(t: TestContext) {
  const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });
  const { id: conversationId } = await t.deps.db
    .selectFrom('conversations')
    .select('id')
    .where('connection_id', '=', connectionId)
    .executeTakeFirstOrThrow();
  const longText = `${'é'.repeat(DOCUMENT_PREVIEW_BYTES)} and the end`;
  const files = {
    photo: await seedAttachment(t.deps, { conversationId, name: 'photo.png', contentType: 'image/png', bytes: PNG }),
    drawing: await seedAttachment(t.deps, {
      conversationId,
      name: 'drawing.svg',
      contentType: 'image/svg+xml',
      bytes: SVG,
    }),
    report: await seedAttachment(t.deps, {
      conversationId,
      name: 'report.pdf',
      contentType: 'application/pdf',
      bytes: new Uint8Array(5 * 1024).fill(37),
    }),
    paste: await seedAttachment(t.deps, {
      conversationId,
      name: 'paste.txt',
      contentType: 'text/plain; charset=utf-8',
      kind: 'document',
      bytes: encoder.encode('def hello():\n    return "<b>hi</b>"'),
    }),
    long: await seedAttachment(t.deps, {
      conversationId,
      name: 'notes.txt',
      contentType: 'text/plain; charset=utf-8',
      kind: 'document',
      bytes: encoder.encode(longText),
    }),
    missing: await seedAttachment(t.deps, { conversationId, name: 'gone.jpg', contentType: 'image/jpeg', size: null }),
  };
  return { connectionId, conversationId, files, longText };
}

/** The HTML of one attachment's list item. */
const item = (html: string, id: string) => {
  const start = html.lastIndexOf('<li class="attachment', html.indexOf(`/manage/attachments/${id}`));
  return html.slice(start, html.indexOf('</li>', start) + 5);
};

describe('the conversation page shows its files', () => {
  test('an image in place, SVG and other files as downloads with their size, text folded, a missing file named', async () => {
    const t = await setup();
    const { conversationId, files, longText } = await conversationWithFiles(t);
    const browser = await openSession(t, 'manage');
    const html = await (await browser.get(`/manage/conversations/${conversationId}`)).text();

    assert.match(html, /<ul class="attachments" aria-label="Files">/);
    assert.match(
      item(html, files.photo.id),
      new RegExp(
        `<a class="image" href="/manage/attachments/${files.photo.id}"><img src="/manage/attachments/${files.photo.id}" alt="photo.png" loading="lazy"/></a>`,
      ),
    );
    // SVG runs scripts when shown: never an <img>, a download link.
    const drawing = item(html, files.drawing.id);
    assert.doesNotMatch(drawing, /<img/);
    assert.match(
      drawing,
      new RegExp(
        `<a href="/manage/attachments/${files.drawing.id}" download="drawing.svg"><span class="file-name">drawing.svg</span><span class="muted small"> · ${SVG.length} bytes</span></a>`,
      ),
    );
    assert.match(
      item(html, files.report.id),
      /download="report\.pdf"><span class="file-name">report\.pdf<\/span><span class="muted small"> · 5 kB<\/span>/,
    );
    // The pasted text, escaped, behind a disclosure; whole, so no link to the rest.
    const paste = item(html, files.paste.id);
    assert.match(
      paste,
      /<details class="document"><summary><span class="file-name">paste\.txt<\/span>.*<\/summary>.*<pre tabindex="0">def hello\(\):\n {4}return &quot;&lt;b>hi&lt;\/b>&quot;<\/pre><\/details>/s,
    );
    // A long text: its start (no character cut in two) and a link to all of it.
    const long = item(html, files.long.id);
    const shown = /<pre tabindex="0">([^<]*)<\/pre>/.exec(long)![1]!;
    assert.equal(shown, longText.slice(0, DOCUMENT_PREVIEW_BYTES / 2));
    assert.match(
      long,
      /This is the start of the text\. <a href="\/manage\/attachments\/[^"]+" download="notes\.txt">Download the whole text<\/a>/,
    );
    // Not in the export: its name, nothing to open, still deletable.
    const missingStart = html.indexOf('gone.jpg');
    const missing = html.slice(html.lastIndexOf('<li', missingStart), html.indexOf('</li>', missingStart));
    assert.match(
      missing,
      /<p class="file"><span class="file-name">gone\.jpg<\/span> <span class="muted small">· not in the export<\/span><\/p>/,
    );
    assert.doesNotMatch(missing, new RegExp(`href="/manage/attachments/${files.missing.id}"`));
    assert.match(
      missing,
      new RegExp(`href="/manage/attachments/${files.missing.id}/delete" aria-label="Delete gone.jpg"`),
    );
  });

  test('in the person’s language: words and sizes', async () => {
    const t = await setup();
    const { conversationId } = await conversationWithFiles(t);
    const browser = await openSession(t, 'manage');
    const html = await (
      await browser.request(`/manage/conversations/${conversationId}`, { headers: { 'Accept-Language': 'fr' } })
    ).text();
    assert.match(html, /aria-label="Fichiers"/);
    assert.match(html, /· 5\sko</);
    assert.match(html, /absent de l’export/);
  });

  test('a message without files has no list', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 1 });
    const { id } = await t.deps.db
      .selectFrom('conversations')
      .select('id')
      .where('connection_id', '=', connectionId)
      .executeTakeFirstOrThrow();
    const browser = await openSession(t, 'manage');
    assert.doesNotMatch(await (await browser.get(`/manage/conversations/${id}`)).text(), /class="attachments"/);
  });
});

describe('/manage/attachments/{id}', () => {
  test('the bytes for the session’s person, with the page headers; a range too', async () => {
    const t = await setup();
    const { files } = await conversationWithFiles(t);
    const browser = await openSession(t, 'manage');
    const response = await browser.get(`/manage/attachments/${files.photo.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), PNG);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.match(response.headers.get('content-disposition')!, /^inline; filename="photo\.png"/);
    // The hosted pages' headers: nothing of the person's stays in the browser's cache.
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('etag'), `"${files.photo.sha256}"`);
    const svg = await browser.get(`/manage/attachments/${files.drawing.id}`);
    assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
    assert.match(svg.headers.get('content-disposition')!, /^attachment; /);
    const part = await browser.request(`/manage/attachments/${files.report.id}`, { headers: { Range: 'bytes=0-9' } });
    assert.deepEqual([part.status, (await part.arrayBuffer()).byteLength], [206, 10]);
  });

  test('a file keeps its own sandbox policy under the pages’ one; a type that is a list is served as a download', async () => {
    const t = await setup();
    const { conversationId, files } = await conversationWithFiles(t);
    const polyglot = await seedAttachment(t.deps, {
      conversationId,
      name: 'photo.png',
      contentType: 'image/png; q=1, text/html',
      sniffedType: 'image/png',
      bytes: new Uint8Array([
        ...PNG,
        ...encoder.encode('<meta http-equiv="refresh" content="0;url=https://evil.example">'),
      ]),
    });
    const browser = await openSession(t, 'manage');
    for (const id of [files.photo.id, polyglot.id]) {
      const policy = (await browser.get(`/manage/attachments/${id}`)).headers.get('content-security-policy')!;
      assert.match(policy, /\bsandbox\b/);
      assert.match(policy, /frame-ancestors 'none'/);
    }
    const response = await browser.get(`/manage/attachments/${polyglot.id}`);
    assert.equal(response.headers.get('content-type'), 'application/octet-stream');
    assert.match(response.headers.get('content-disposition')!, /^attachment; filename="photo\.png"/);
    // Never an <img> on the conversation's page either: a download link.
    const html = await (await browser.get(`/manage/conversations/${conversationId}`)).text();
    assert.doesNotMatch(item(html, polyglot.id), /<img/);
    assert.match(item(html, polyglot.id), /download="photo\.png"/);
  });

  test('the text Claude extracted from a PDF is downloaded as text, named ….pdf.txt; a .txt keeps its name', async () => {
    const t = await setup();
    // A lease long enough that the page shows its start, and a link to download the whole text.
    const claude = fixtureJson('claude-attachments.json');
    claude[0].chat_messages[0].attachments[0].extracted_content += 'Clause.\n'.repeat(DOCUMENT_PREVIEW_BYTES / 8);
    const { connectionId } = await json(await postExport(t, strToU8(JSON.stringify(claude))));
    const [conversation] = (await json(await t.request(`/api/conversations?connectionId=${connectionId}`)))
      .conversations;
    const files = conversation.payload.messages.flatMap((message: any) => message.attachments);
    const lease = files.find((file: any) => file.name === 'lease-2025.pdf');
    const inventory = files.find((file: any) => file.name === 'inventory.txt');
    const browser = await openSession(t, 'manage');
    const served = await browser.get(`/manage/attachments/${lease.id}`);
    assert.equal(served.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.match(
      served.headers.get('content-disposition')!,
      /; filename="lease-2025\.pdf\.txt"; filename\*=UTF-8''lease-2025\.pdf\.txt$/,
    );
    const api = await t.request(`/api/attachments/${lease.id}`);
    assert.match(api.headers.get('content-disposition')!, /filename="lease-2025\.pdf\.txt"/);
    assert.match(
      (await browser.get(`/manage/attachments/${inventory.id}`)).headers.get('content-disposition')!,
      /filename="inventory\.txt"/,
    );
    // "Download my data" holds it under that name too.
    const zip = unzipSync(new Uint8Array(await (await browser.get('/manage/download')).arrayBuffer()));
    assert.ok(zip[`attachments/${lease.id}-lease-2025.pdf.txt`]);
    assert.ok(zip[`attachments/${inventory.id}-inventory.txt`]);
    // The page names it as the export did; its link saves it as text.
    const page = await (await browser.get(`/manage/conversations/${conversation.id}`)).text();
    assert.ok(!page.includes('download="lease-2025.pdf"'));
    const item = page.slice(page.indexOf('<span class="file-name">lease-2025.pdf</span>'));
    assert.match(
      item.slice(0, item.indexOf('</li>')),
      /<\/pre><p class="small">This is the start of the text\. <a href="\/manage\/attachments\/[^"]+" download="lease-2025\.pdf\.txt">Download the whole text<\/a><\/p><\/details>/,
    );
  });

  test('another person’s, one not stored, and no session: refused as pages refuse', async () => {
    const t = await setup();
    const { files } = await conversationWithFiles(t);
    const stranger = await openSession(t, 'manage', 'u2');
    for (const id of [files.photo.id, 'unknown']) {
      const response = await stranger.get(`/manage/attachments/${id}`);
      assert.equal(response.status, 404);
      assert.match(await response.text(), /<h1[^>]*>Attachment not found<\/h1>/);
    }
    const browser = await openSession(t, 'manage');
    assert.equal((await browser.get(`/manage/attachments/${files.missing.id}`)).status, 404);
    const anonymous = await t.app.request(`/manage/attachments/${files.photo.id}`);
    assert.equal(anonymous.status, 401);
  });
});

describe('names read in the order their characters are in', () => {
  // Any of Unicode's bidirectional controls; not global, so each test starts afresh.
  const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  test('a file name or title with direction controls (inv<U+202E>gnp.exe reads “invexe.png”) shows them as _ on every page', async () => {
    const t = await setup();
    const conversation = {
      uuid: 'c1',
      name: 'Invoice \u202Efdp.exe',
      updated_at: '2025-01-01T01:00:00Z',
      chat_messages: [
        {
          uuid: 'm0',
          sender: 'human',
          text: 'Here are the files',
          created_at: '2025-01-01T00:00:00Z',
          files: [{ file_name: 'inv\u202Egnp.exe' }],
          attachments: [{ file_name: 'notes\u2067\u200ftxt.exe', extracted_content: 'hello' }],
        },
      ],
    };
    const { connectionId } = await json(await postExport(t, strToU8(JSON.stringify([conversation]))));
    const [{ id, payload }] = (await json(await t.request(`/api/conversations?connectionId=${connectionId}`)))
      .conversations;
    // The API hands the names on as the export has them.
    assert.match(payload.messages[0].content, /\[file: inv\u202Egnp\.exe\]/);
    const image = await seedAttachment(t.deps, {
      conversationId: id,
      name: 'photo\u202Egnp.exe',
      contentType: 'image/png',
      bytes: PNG,
    });
    const browser = await openSession(t, 'manage');

    const html = await (await browser.get(`/manage/conversations/${id}`)).text();
    assert.doesNotMatch(html, BIDI);
    assert.match(html, /<title>Invoice _fdp\.exe · /);
    assert.match(html, /<h1 id="conversation-title">Invoice _fdp\.exe<\/h1>/);
    // The file lines of the message's text.
    assert.match(html, /\[file: inv_gnp\.exe\]/);
    assert.match(html, /\[attachment: notes__txt\.exe\]/);
    // The image: its alt text and caption; a document's summary and download name; a missing file's name.
    const shown = item(html, image.id);
    assert.match(shown, /<img src="[^"]+" alt="photo_gnp\.exe"/);
    assert.match(shown, /<span class="file-name">photo_gnp\.exe<\/span>/);
    assert.match(shown, /aria-label="Delete photo_gnp\.exe"/);
    assert.match(html, /<summary><span class="file-name">notes__txt\.exe<\/span>/);
    assert.match(html, /<span class="file-name">inv_gnp\.exe<\/span> <span class="muted small">· not in the export/);

    const listing = await (await browser.get(`/manage/connections/${connectionId}`)).text();
    assert.doesNotMatch(listing, BIDI);
    assert.match(listing, />Invoice _fdp\.exe<\/a>/);
    const search = await (await browser.get('/manage?q=Invoice')).text();
    assert.doesNotMatch(search, BIDI);
    assert.match(search, />Invoice _fdp\.exe<\/a>/);
    for (const confirm of [`/manage/attachments/${image.id}/delete`, `/manage/conversations/${id}/delete`]) {
      const page = await (await browser.get(confirm)).text();
      assert.doesNotMatch(page, BIDI, confirm);
      assert.match(page, /“(photo_gnp|Invoice _fdp)\.exe”/, confirm);
    }
    // The download's name too, as it always was.
    const download = await browser.get(`/manage/attachments/${image.id}`);
    assert.match(download.headers.get('content-disposition')!, /filename="photo_gnp\.exe"/);
  });
});

describe('deleting one file', () => {
  test('asks first, then deletes it and its bytes; the conversation stays and says so', async () => {
    const t = await setup();
    const { conversationId, files } = await conversationWithFiles(t);
    const browser = await openSession(t, 'manage');
    const confirm = await (await browser.get(`/manage/attachments/${files.photo.id}/delete`)).text();
    assert.match(confirm, /<h1 id="confirm-title">Delete this file\?<\/h1>/);
    assert.match(confirm, /“photo\.png” will be deleted from Test app\. The conversation stays\./);
    assert.match(
      confirm,
      new RegExp(`<a class="button secondary" href="/manage/conversations/${conversationId}">Cancel</a>`),
    );

    const refused = await browser.post(`/manage/attachments/${files.photo.id}/delete`, { csrf: 'forged' });
    assert.equal(refused.status, 403);
    assert.equal((await browser.get(`/manage/attachments/${files.photo.id}`)).status, 200);

    t.clock.advance(60_000);
    const done = await browser.post(`/manage/attachments/${files.photo.id}/delete`, {
      csrf: hiddenField(confirm, 'csrf'),
    });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), `/manage/conversations/${conversationId}?notice=attachment-deleted`);
    const page = await (await browser.get(done.headers.get('location')!)).text();
    assert.match(page, /<p class="notice" role="status">The file was deleted\.<\/p>/);
    assert.doesNotMatch(page, /photo\.png/);

    assert.equal((await browser.get(`/manage/attachments/${files.photo.id}`)).status, 404);
    assert.equal((await t.request(`/api/attachments/${files.photo.id}`)).status, 404);
    const chunks = await t.deps.db
      .selectFrom('attachment_chunks')
      .select('blob_id')
      .where('blob_id', '=', files.photo.blobId!)
      .execute();
    const blobs = await t.deps.db
      .selectFrom('attachment_blobs')
      .select('id')
      .where('id', '=', files.photo.blobId!)
      .execute();
    assert.deepEqual([chunks, blobs], [[], []]);
    // A poll for what changed finds the conversation, without the file.
    const changed = await json(
      await t.request(
        `/api/conversations?connectionId=${(await t.request('/api/conversations?userRef=u1').then(json)).connections[0].id}&updatedSince=${new Date(t.clock.now() - 1).toISOString()}`,
      ),
    );
    assert.deepEqual(
      changed.conversations[0].payload.messages[0].attachments.map((a: { name: string }) => a.name).sort(),
      ['drawing.svg', 'gone.jpg', 'notes.txt', 'paste.txt', 'report.pdf'],
    );
  });

  test('bytes another message still shows stay', async () => {
    const t = await setup();
    const { conversationId, files } = await conversationWithFiles(t);
    const again = await seedAttachment(t.deps, {
      conversationId,
      name: 'same.png',
      contentType: 'image/png',
      bytes: PNG,
    });
    assert.equal(again.blobId, files.photo.blobId);
    const browser = await openSession(t, 'manage');
    const confirm = await (await browser.get(`/manage/attachments/${files.photo.id}/delete`)).text();
    await browser.post(`/manage/attachments/${files.photo.id}/delete`, { csrf: hiddenField(confirm, 'csrf') });
    const response = await browser.get(`/manage/attachments/${again.id}`);
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), PNG);
  });

  test('another person’s cannot be deleted', async () => {
    const t = await setup();
    const { files } = await conversationWithFiles(t);
    const stranger = await openSession(t, 'manage', 'u2');
    assert.equal((await stranger.get(`/manage/attachments/${files.photo.id}/delete`)).status, 404);
    const csrf = hiddenField(await (await stranger.get('/manage/delete-all')).text(), 'csrf');
    assert.equal((await stranger.post(`/manage/attachments/${files.photo.id}/delete`, { csrf })).status, 404);
    assert.equal((await t.request(`/api/attachments/${files.photo.id}`)).status, 200);
  });
});

describe('download my data: the zip', () => {
  test('the JSON file with each message’s attachments, and every stored file as attachments/<id>-<name>', async () => {
    const t = await setup();
    const { files } = await conversationWithFiles(t);
    const strangers = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u2', count: 1 });
    const { id: strangerConversation } = await t.deps.db
      .selectFrom('conversations')
      .select('id')
      .where('connection_id', '=', strangers.connectionId)
      .executeTakeFirstOrThrow();
    await seedAttachment(t.deps, {
      conversationId: strangerConversation,
      name: 'theirs.png',
      contentType: 'image/png',
      bytes: PNG,
    });
    // A name that would climb out of the folder it is unpacked in.
    const { conversationId } = await t.deps.db
      .selectFrom('attachments')
      .select('conversation_id as conversationId')
      .where('id', '=', files.photo.id)
      .executeTakeFirstOrThrow();
    const sneaky = await seedAttachment(t.deps, {
      conversationId: conversationId!,
      name: '../../.bashrc',
      contentType: 'text/plain',
      bytes: encoder.encode('echo hi'),
    });

    const browser = await openSession(t, 'manage');
    const response = await browser.get('/manage/download');
    assert.equal(response.headers.get('content-type'), 'application/zip');
    const members = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const expected: Record<string, Uint8Array> = {
      [`attachments/${files.photo.id}-photo.png`]: PNG,
      [`attachments/${files.drawing.id}-drawing.svg`]: SVG,
      [`attachments/${sneaky.id}-_.._.bashrc`]: encoder.encode('echo hi'),
    };
    for (const [name, bytes] of Object.entries(expected)) assert.deepEqual(members[name], bytes, name);
    const names = Object.keys(members);
    assert.equal(names[0], 'parley-data-2026-03-01.json');
    // Every stored file of the person, none of anyone else's; a missing one has nothing to hold.
    assert.deepEqual(
      names
        .slice(1)
        .map((name) => name.slice('attachments/'.length + 37))
        .sort(),
      ['_.._.bashrc', 'drawing.svg', 'notes.txt', 'paste.txt', 'photo.png', 'report.pdf'],
    );
    const file = JSON.parse(strFromU8(members['parley-data-2026-03-01.json']!));
    const listed = file.connections[0].conversations[0].payload.messages[0].attachments;
    assert.equal(listed.length, 7);
    assert.deepEqual(
      listed.find((a: { id: string }) => a.id === files.missing.id),
      { id: files.missing.id, name: 'gone.jpg', contentType: 'image/jpeg', size: null, kind: 'image', stored: false },
    );
  });
});

describe('downloadZip', () => {
  test('each chunk read goes out before the next is read: no file is held whole', async () => {
    const events: string[] = [];
    async function* chunks(name: string, count: number) {
      for (let i = 0; i < count; i++) {
        events.push(`read ${name} ${i}`);
        yield new Uint8Array(1000).fill(i);
      }
    }
    async function* files() {
      yield { id: 'a1', name: 'one.bin', bytes: chunks('one', 3) };
      yield { id: 'a2', name: 'two/../two.bin', bytes: chunks('two', 2) };
    }
    const out: Uint8Array[] = [];
    for await (const chunk of downloadZip('data.json', chunks('json', 2), files(), Date.UTC(2026, 2, 1))) {
      events.push(`wrote ${chunk.length}`);
      out.push(chunk);
    }
    // Each chunk read is written out before the next one is read.
    const reads = ['json 0', 'json 1', 'one 0', 'one 1', 'one 2', 'two 0', 'two 1'];
    assert.deepEqual(
      events.filter((event) => event.startsWith('read') || event === 'wrote 1000'),
      reads.flatMap((read) => [`read ${read}`, 'wrote 1000']),
    );
    const members = unzipSync(new Uint8Array(Buffer.concat(out)));
    assert.deepEqual(Object.keys(members), ['data.json', 'attachments/a1-one.bin', 'attachments/a2-two_.._two.bin']);
    assert.deepEqual(members['attachments/a1-one.bin']!.length, 3000);
    assert.deepEqual(members['attachments/a2-two_.._two.bin']![1500], 1);
  });
});
