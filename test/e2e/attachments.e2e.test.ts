/**
 * A conversation's files on the manage page, in a real Chromium against the real
 * server: an image shown from Parley itself under the pages' CSP, a document's
 * text unfolded, a file downloaded, one deleted through its confirmation, with
 * axe-core and the layout checks at 390 and 1280 px (screenshots in
 * test/e2e/screenshots/). Attachments are written into the server's database
 * file as an import leaves them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { signLink } from 'parley-sdk';
import { attachmentStores } from '../../src/attachments/stores.ts';
import { openBetterSqlite3 } from '../../src/db/better-sqlite3.ts';
import type { Db } from '../../src/db/database.ts';
import { systemClock } from '../../src/deps.ts';
import { FIXTURES_DIR, seedAttachment } from '../helpers.ts';
import {
  capture,
  cli,
  describeInBrowser,
  launchChromium,
  PHONE,
  startServer,
  watchPage,
  type RunningServer,
} from './browser.ts';

const PICTURE = new Uint8Array(readFileSync(new URL('acme-notes-logo.png', FIXTURES_DIR)));
const PASTE = Array.from(
  { length: 400 },
  (_, i) => `${i + 1}. A line of the pasted meeting notes, long enough to wrap on a phone.`,
).join('\n');

let tmp: string;
let server: RunningServer | undefined;
let browser: Browser | undefined;
let db: Db | undefined;
let tenant: { appId: string; appSecret: string; apiKey: string };

const base = () => server!.baseUrl;

async function api(path: string, init: RequestInit = {}) {
  return fetch(`${base()}${path}`, { ...init, headers: { Authorization: `Bearer ${tenant.apiKey}`, ...init.headers } });
}

/** A Claude conversation of user `userRef` imported through the API, with one file of each kind on its first message. */
async function conversationWithFiles(userRef: string) {
  const export_ = [
    {
      uuid: `conversation-${userRef}`,
      name: 'Notes from the planning meeting',
      created_at: '2026-02-20T09:00:00Z',
      updated_at: '2026-02-20T09:05:00Z',
      chat_messages: [
        { uuid: 'm1', text: 'Here are the notes and the logo.', sender: 'human', created_at: '2026-02-20T09:00:00Z' },
        { uuid: 'm2', text: 'Thanks, got them.', sender: 'assistant', created_at: '2026-02-20T09:01:00Z' },
      ],
    },
  ];
  const imported = await api(`/api/ingest-export?userRef=${userRef}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(export_),
  }).then((response) => response.json());
  const conversation = await db!
    .selectFrom('conversations')
    .select('id')
    .where('connection_id', '=', imported.connectionId)
    .executeTakeFirstOrThrow();
  const deps = { db: db!, clock: systemClock, attachments: attachmentStores(db!, { attachmentsS3: undefined }) };
  const conversationId = conversation.id;
  return {
    conversationId,
    picture: await seedAttachment(deps, {
      conversationId,
      name: 'acme-logo.png',
      contentType: 'image/png',
      bytes: PICTURE,
    }),
    paste: await seedAttachment(deps, {
      conversationId,
      name: 'paste.txt',
      contentType: 'text/plain; charset=utf-8',
      kind: 'document',
      bytes: new TextEncoder().encode(PASTE),
    }),
    drawing: await seedAttachment(deps, {
      conversationId,
      name: 'floor-plan.svg',
      contentType: 'image/svg+xml',
      bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
    }),
    missing: await seedAttachment(deps, {
      conversationId,
      name: 'budget-2026.xlsx',
      contentType: 'application/vnd.ms-excel',
    }),
  };
}

const manageLink = (userRef: string) =>
  signLink(
    { appId: tenant.appId, userRef, scopes: ['conversations:read'], purpose: 'manage', baseUrl: base() },
    tenant.appSecret,
  );

async function inBrowser(flow: (page: Page) => Promise<void>) {
  const context = await browser!.newContext({ viewport: PHONE, acceptDownloads: true });
  context.setDefaultTimeout(15_000);
  try {
    const page = await context.newPage();
    const watcher = watchPage(page);
    await flow(page);
    assert.deepEqual(watcher.unexpected([]), [], 'console errors or CSP violations');
  } finally {
    await context.close().catch(() => {});
  }
}

async function shoot(page: Page, name: string) {
  assert.deepEqual(await capture(page, name), [], `accessibility or layout problems on ${name}`);
}

describeInBrowser('a conversation’s files in Chromium', () => {
  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'parley-e2e-attachments-'));
    const path = join(tmp, 'parley.db');
    const [started, launched] = await Promise.allSettled([startServer(path), launchChromium()]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
    tenant = await cli(server!, 'app', 'create', '--name', 'Acme Notes');
    db = await openBetterSqlite3(path);
  });

  after(async () => {
    try {
      await db?.destroy();
      await browser?.close();
    } finally {
      await server?.stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('an image shown, the pasted text unfolded, SVG only downloaded; one file deleted', async () => {
    const files = await conversationWithFiles('files-user');
    await inBrowser(async (page) => {
      await page.goto(await manageLink('files-user'));
      await page.goto(`${base()}/manage/conversations/${files.conversationId}`);
      assert.equal(await page.locator('h1').innerText(), 'Notes from the planning meeting');

      // The image comes from Parley itself (img-src 'self'), decoded and in view of the message.
      const image = page.getByRole('img', { name: 'acme-logo.png' });
      await image.scrollIntoViewIfNeeded();
      assert.ok(await image.isVisible());
      assert.equal(
        await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        96,
        'the picture is decoded',
      );
      // SVG is never put in an <img>: a link that downloads it.
      assert.equal(await page.locator('img').count(), 1);
      const svgLink = page.getByRole('link', { name: /^floor-plan\.svg/ });
      assert.equal(await svgLink.getAttribute('download'), 'floor-plan.svg');
      const download = page.waitForEvent('download');
      await svgLink.click();
      assert.equal((await download).suggestedFilename(), 'floor-plan.svg');
      // What the export named without holding it: the name, nothing to open.
      assert.match(
        await page.locator('li.attachment', { hasText: 'budget-2026.xlsx' }).innerText(),
        /not in the export/,
      );
      assert.equal(await page.getByRole('link', { name: /^budget-2026\.xlsx/ }).count(), 0);

      // The pasted text: folded away, then its start, and the rest as a download.
      const paste = page.locator('details.document');
      assert.equal(await paste.locator('pre').isVisible(), false);
      await paste.locator('summary').click();
      const shown = await paste.locator('pre').innerText();
      assert.ok(
        shown.startsWith('1. A line of the pasted meeting notes') && shown.length < PASTE.length,
        shown.slice(0, 80),
      );
      assert.ok(await page.getByRole('link', { name: 'Download the whole text' }).isVisible());
      await shoot(page, 'manage-conversation-files');

      // Delete the picture: asked first, then gone from the page and from the API.
      await page.getByRole('link', { name: 'Delete acme-logo.png' }).click();
      await page.waitForURL(`${base()}/manage/attachments/${files.picture.id}/delete`);
      assert.equal(await page.locator('h1').innerText(), 'Delete this file?');
      await shoot(page, 'manage-confirm-delete-file');
      await page.getByRole('button', { name: 'Delete file' }).click();
      await page.waitForURL(`${base()}/manage/conversations/${files.conversationId}?notice=attachment-deleted`);
      assert.equal(await page.getByRole('status').innerText(), 'The file was deleted.');
      assert.equal(await page.locator('img').count(), 0);
      assert.equal((await api(`/api/attachments/${files.picture.id}`)).status, 404);
      assert.equal((await api(`/api/attachments/${files.paste.id}`)).status, 200);

      // Download my data: the zip as the browser saves it, the JSON and the files left.
      await page.goto(`${base()}/manage`);
      const saving = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download my data' }).click();
      const saved = await saving;
      assert.match(saved.suggestedFilename(), /^parley-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const members = unzipSync(new Uint8Array(readFileSync((await saved.path())!)));
      assert.deepEqual(
        Object.keys(members)
          .map((name) =>
            name.replace(/^attachments\/[\w-]{36}-/, 'attachments/<id>-').replace(/\d{4}-\d{2}-\d{2}/, '<date>'),
          )
          .sort(),
        ['attachments/<id>-floor-plan.svg', 'attachments/<id>-paste.txt', 'parley-data-<date>.json'],
      );
      assert.equal(strFromU8(members[`attachments/${files.paste.id}-paste.txt`]!), PASTE);
    });
  });

  test('a file whose type is a list ending in text/html is downloaded from either route, never shown as a page', async () => {
    const { conversationId } = await conversationWithFiles('polyglot-user');
    const deps = { db: db!, clock: systemClock, attachments: attachmentStores(db!, { attachmentsS3: undefined }) };
    // PNG bytes, then a page: a password form and a refresh to a marker URL.
    const polyglot = await seedAttachment(deps, {
      conversationId,
      name: 'photo.png',
      contentType: 'image/png; q=1, text/html',
      sniffedType: 'image/png',
      bytes: new Uint8Array([
        ...PICTURE,
        ...new TextEncoder().encode(
          '<html><form><input type="password" name="p"></form><meta http-equiv="refresh" content="0;url=/refreshed"></html>',
        ),
      ]),
    });
    await inBrowser(async (page) => {
      const refreshed: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/refreshed')) refreshed.push(request.url());
      });
      await page.goto(await manageLink('polyglot-user'));
      for (const [url, headers] of [
        [`${base()}/manage/attachments/${polyglot.id}`, {}],
        [`${base()}/api/attachments/${polyglot.id}`, { Authorization: `Bearer ${tenant.apiKey}` }],
      ] as const) {
        await page.context().setExtraHTTPHeaders(headers);
        const download = page.waitForEvent('download');
        // A download aborts the navigation: that is the point.
        await page.goto(url).catch(() => {});
        assert.equal((await download).suggestedFilename(), 'photo.png', url);
        assert.equal(await page.locator('input[type="password"]').count(), 0, url);
      }
      assert.deepEqual(refreshed, []);
    });
  });
});
