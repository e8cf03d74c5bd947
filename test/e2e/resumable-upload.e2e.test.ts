/**
 * The connect page's resumable upload in Chromium against the real server: a
 * large generated export sent in chunks to /connect/uploads, the connection cut
 * twice (a reset, then the browser offline) and the page reloaded once part-way;
 * the upload continues from the bytes the server has, its progress shown again
 * after the reload, and the import ends with every conversation. Screenshots of
 * the page after the reload at phone size, in English and German.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import type { Browser, Page, Route } from 'playwright-core';
import { signLink } from 'parley-sdk';
import {
  cli,
  describeInBrowser,
  layoutProblems,
  PHONE,
  SCREENSHOTS_DIR,
  startBrowserSuite,
  watchPage,
  type RunningServer,
} from './browser.ts';
import { zipSync } from 'fflate';
import { ROOT } from '../conformance/server.ts';
import { zipFolderFiles } from '../helpers.ts';

const CHUNK_BYTES = 16 * 1024 * 1024;

let suite: Awaited<ReturnType<typeof startBrowserSuite>> | undefined;
let server: RunningServer | undefined;
let browser: Browser | undefined;
let tenant: { appId: string; appSecret: string; apiKey: string };
/** A ChatGPT export of about 45 MB: three chunks. */
let large: { file: string; bytes: number; conversations: number };

const base = () => server!.baseUrl;

const connectLink = (userRef: string, locale: string) =>
  signLink(
    { appId: tenant.appId, userRef, scopes: ['conversations:read'], purpose: 'connect', baseUrl: base(), locale },
    tenant.appSecret,
  );

/** From the link to the upload page of `provider` (ChatGPT's by default), through the person's clicks. */
async function openUploadPage(page: Page, url: string, provider = 'openai') {
  await page.goto(url);
  await page.locator('form[action="/start"] button').click();
  await page.waitForURL(`${base()}/connect`);
  await page.locator(`a[href="/connect/${provider}"]`).click();
  await page.waitForURL(`${base()}/connect/${provider}`);
}

/** What the server has acknowledged of the browser's one open upload. */
async function serverOffset(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const key = Object.keys(localStorage).find((name) => name.startsWith('tus::'))!;
    const { uploadUrl } = JSON.parse(localStorage.getItem(key)!);
    const csrf = document.querySelector<HTMLInputElement>('input[name=csrf]')!.value;
    const response = await fetch(uploadUrl, {
      method: 'HEAD',
      headers: { 'Tus-Resumable': '1.0.0', 'Parley-CSRF': csrf },
    });
    return Number(response.headers.get('Upload-Offset'));
  });
}

describeInBrowser('the connect page’s resumable upload in Chromium', () => {
  before(async () => {
    suite = await startBrowserSuite('parley-e2e-resumable-');
    ({ server, browser } = suite);
    const { tmp } = suite;
    tenant = await cli(server!, 'app', 'create', '--name', 'Acme Notes');
    const file = join(tmp, 'chatgpt-large.json');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/generate-export.ts', '--provider', 'openai', '--size-mb', '45', '--out', file],
      { cwd: ROOT },
    );
    large = { file, bytes: statSync(file).size, conversations: JSON.parse(stdout).conversations };
    assert.ok(large.bytes > 2 * CHUNK_BYTES, `${large.bytes} bytes: more than two chunks`);
  });

  after(() => suite?.stop());

  test('cut twice and reloaded once, the upload goes on from the server’s bytes and imports every conversation', async () => {
    const context = await browser!.newContext({ viewport: PHONE });
    context.setDefaultTimeout(60_000);
    try {
      const page = await context.newPage();
      const watcher = watchPage(page);
      await openUploadPage(page, await connectLink('resumable-user', 'en'));

      // Every PATCH's offset as the browser sends it; some are cut, one is held for the reload.
      const patches: number[] = [];
      let held: Route | undefined;
      let reachedReload!: () => void;
      const atReload = new Promise<void>((resolve) => (reachedReload = resolve));
      await page.route(`${base()}/connect/uploads/*`, async (route) => {
        if (route.request().method() !== 'PATCH') return route.continue();
        const offset = Number(route.request().headers()['upload-offset']);
        patches.push(offset);
        if (patches.length === 2) return route.abort('connectionreset');
        if (patches.length === 4) {
          held = route;
          reachedReload();
          return;
        }
        if (patches.length === 5) {
          // The phone walks out of Wi-Fi mid-chunk, and back in a moment later.
          await context.setOffline(true);
          await route.abort('internetdisconnected');
          setTimeout(() => void context.setOffline(false), 1_500);
          return;
        }
        return route.continue();
      });

      await page.locator('input[type=file]').setInputFiles(large.file);
      await page.getByRole('button', { name: 'Upload and import' }).click();
      await page.locator('.progress').waitFor({ state: 'visible' });
      await atReload;
      // Two chunks in (the second after the first cut), the third under way: the page is reloaded.
      assert.deepEqual(patches, [0, CHUNK_BYTES, CHUNK_BYTES, 2 * CHUNK_BYTES]);
      await page.reload();
      await held!.abort().catch(() => undefined);

      // The page says how far the upload got, from the server, and asks for the same file.
      const percent = Math.floor(((2 * CHUNK_BYTES) / large.bytes) * 100);
      const text = page.locator('[data-progress-text]');
      await text.filter({ hasText: 'Choose the same file again' }).waitFor();
      assert.equal(
        await text.innerText(),
        `The upload of chatgpt-large.json stopped at ${percent}%. Choose the same file again: it continues from there.`,
      );
      assert.equal(await page.locator('progress').evaluate((bar: HTMLProgressElement) => bar.value), percent);
      assert.equal(await serverOffset(page), 2 * CHUNK_BYTES);
      assert.deepEqual(await layoutProblems(page), [], 'the page after the reload, at phone size');
      await page.screenshot({ path: join(SCREENSHOTS_DIR, 'connect-resume-en-390.png'), fullPage: true });

      // Chosen again, the file goes on by itself from the server's offset: only the missing bytes are sent.
      const shown = page.waitForURL(`${base()}/connect/result`, { timeout: 300_000 });
      await page.locator('input[type=file]').setInputFiles(large.file);
      await shown;
      assert.deepEqual(patches, [0, CHUNK_BYTES, CHUNK_BYTES, 2 * CHUNK_BYTES, 2 * CHUNK_BYTES, 2 * CHUNK_BYTES]);
      assert.equal(await page.locator('h1').innerText(), 'Your ChatGPT conversations are in');
      assert.equal(
        await page.locator('p.big').innerText(),
        `${large.conversations.toLocaleString('en')} conversations from ChatGPT are now available to Acme Notes.`,
      );
      // The tab's storage holds nothing of the upload once imported.
      assert.deepEqual(await page.evaluate(() => Object.keys(localStorage)), []);
      // Chromium logs each cut request as a failed resource: those are the test's own doing.
      const problems = watcher
        .unexpected()
        .filter((problem) => !/net::ERR_(CONNECTION_RESET|INTERNET_DISCONNECTED|FAILED)/.test(problem));
      assert.deepEqual(problems, [], 'console errors or CSP violations');
    } finally {
      await context.close().catch(() => {});
    }

    // What the customer's backend sees.
    const response = await fetch(`${base()}/api/connections?userRef=resumable-user`, {
      headers: { Authorization: `Bearer ${tenant.apiKey}` },
    });
    const { connections } = (await response.json()) as { connections: Array<{ conversationCount: number }> };
    assert.deepEqual(
      connections.map((connection) => connection.conversationCount),
      [large.conversations],
    );
  });

  test('after a reload the page says, in its language, how far the upload got', async () => {
    const context = await browser!.newContext({ viewport: PHONE });
    context.setDefaultTimeout(60_000);
    try {
      const page = await context.newPage();
      await openUploadPage(page, await connectLink('resumable-de', 'de'));
      // The first chunk goes in; the connection then fails for good.
      let patches = 0;
      // The second PATCH is sent once the first is acknowledged.
      let firstIn!: () => void;
      const oneChunk = new Promise<void>((resolve) => (firstIn = resolve));
      await page.route(`${base()}/connect/uploads/*`, async (route) => {
        if (route.request().method() !== 'PATCH') return route.continue();
        patches += 1;
        if (patches === 1) return route.continue();
        firstIn();
        await route.abort('connectionreset');
      });
      await page.locator('input[type=file]').setInputFiles(large.file);
      await page.locator('button[type=submit]').click();
      await oneChunk;
      assert.equal(await serverOffset(page), CHUNK_BYTES);
      await page.reload();
      const percent = Math.floor((CHUNK_BYTES / large.bytes) * 100);
      const text = page.locator('[data-progress-text]');
      await text.filter({ hasText: 'Wähle dieselbe Datei' }).waitFor();
      assert.equal(
        await text.innerText(),
        `Das Hochladen von chatgpt-large.json wurde bei ${percent} % unterbrochen. Wähle dieselbe Datei noch einmal: Es geht dort weiter.`,
      );
      assert.deepEqual(await layoutProblems(page), [], 'the German page after the reload, at phone size');
      await page.screenshot({ path: join(SCREENSHOTS_DIR, 'connect-resume-de-390.png'), fullPage: true });
    } finally {
      await context.close().catch(() => {});
    }
  });

  test('reloaded while its import runs, the page waits for that import rather than sending a second beside it', async () => {
    const context = await browser!.newContext({ viewport: PHONE });
    context.setDefaultTimeout(30_000);
    const db = new Database(join(suite!.tmp, 'parley.db'));
    db.pragma('busy_timeout = 5000');
    try {
      const page = await context.newPage();
      const watcher = watchPage(page);
      await openUploadPage(page, await connectLink('reload-importing', 'en'), 'anthropic');
      const imports: number[] = [];
      page.on('response', (response) => {
        if (/\/connect\/anthropic\?upload=/.test(response.url())) imports.push(response.status());
      });
      // The import is sent, and the server works on it: its answer does not come before the reload.
      let importSent!: () => void;
      const sent = new Promise<void>((resolve) => (importSent = resolve));
      await page.route(/\/connect\/anthropic\?upload=/, () => importSent(), { times: 1 });
      await page.locator('input[type=file]').setInputFiles(join(ROOT, 'test/fixtures/claude-conversations.json'));
      await page.locator('button[type=submit]').click();
      await sent;
      // What that import does first: it holds the upload while it reads it.
      db.prepare('UPDATE uploads SET importing_until = ?').run(Date.now() + 3_600_000);
      const underWay = page.waitForResponse(
        (response) => /\/connect\/anthropic\?upload=/.test(response.url()) && response.status() === 409,
      );
      await page.reload();
      // The page sends the import again, hears that it is under way, and waits, showing it.
      await underWay;
      assert.equal(page.url(), `${base()}/connect/anthropic`);
      assert.match(await page.locator('[data-progress-text]').innerText(), /Importing/);
      // That import lets go (as one that failed does): the page's next try imports, once.
      db.prepare('UPDATE uploads SET importing_until = NULL').run();
      await page.waitForURL(`${base()}/connect/result`);
      assert.equal(await page.locator('h1').innerText(), 'Your Claude conversations are in');
      assert.deepEqual(
        imports.filter((status) => status !== 409),
        [303],
      );
      // Chromium logs every 409 as a failed resource: those are the page's waiting.
      const problems = watcher.unexpected().filter((problem) => !/status of 409 \(Conflict\)/.test(problem));
      assert.deepEqual(problems, [], 'console errors or CSP violations');
    } finally {
      db.close();
      await context.close().catch(() => {});
    }
  });

  test('Claude’s export in two zips, chosen one after the other: each sent resumably, imported as one', async () => {
    const { tmp } = suite!;
    const all = zipFolderFiles('claude-2026-06-zip');
    const conversationsZip = join(tmp, 'conversations-000.zip');
    const memoriesZip = join(tmp, 'memories-000.zip');
    writeFileSync(
      conversationsZip,
      zipSync(Object.fromEntries(Object.entries(all).filter(([path]) => !path.startsWith('memories')))),
    );
    writeFileSync(memoriesZip, zipSync(zipFolderFiles('claude-memories-000-zip')));
    const context = await browser!.newContext({ viewport: PHONE });
    try {
      const page = await context.newPage();
      const watcher = watchPage(page);
      await openUploadPage(page, await connectLink('several-files', 'en'), 'anthropic');
      const created = new Set<string>();
      page.on('response', (response) => {
        if (response.request().method() === 'POST' && response.status() === 201)
          created.add(response.headers().location ?? '');
      });
      // A phone's picker takes one file at a time: the second is added to the first.
      await page.locator('input[type=file]').setInputFiles(conversationsZip);
      await page.locator('input[type=file]').setInputFiles(memoriesZip);
      assert.match(
        await page.locator('[data-chosen-file]').innerText(),
        /^conversations-000\.zip, memories-000\.zip · /,
      );
      await page.locator('button[type=submit]').click();
      await page.waitForURL(`${base()}/connect/result`);
      assert.equal(created.size, 2, 'one resumable upload a file');
      assert.deepEqual(watcher.unexpected(), [], 'console errors or CSP violations');
      const listed = await fetch(`${base()}/api/conversations?userRef=several-files`, {
        headers: { Authorization: `Bearer ${tenant.apiKey}` },
      });
      const [connection] = (await listed.json()).connections;
      assert.equal(connection.provider, 'anthropic');
      assert.ok(connection.conversationCount > 0 && connection.memoryCount > 0, JSON.stringify(connection));
    } finally {
      await context.close().catch(() => {});
    }
  });
});
