/**
 * The hosted pages in a real Chromium against the real server (`npm start`'s entry
 * file, a database file, the operator CLI): what a person sees and can do, at phone
 * size, with screenshots of every distinct page at 390 and 1280 px wide in
 * test/e2e/screenshots/. Without Chromium they are skipped with one line, or fail
 * under PARLEY_REQUIRE_BROWSER=1 (see `describeInBrowser`).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { signLink } from 'parley-sdk';
import { FIXTURES_DIR, SERVICE_NAMES, zipFolderFiles } from '../helpers.ts';
import {
  accessibilityViolations,
  capture,
  cli,
  describeInBrowser,
  PHONE,
  SCREENSHOTS_DIR,
  startBrowserSuite,
  tabTo,
  watchPage,
  type RunningServer,
} from './browser.ts';

/** Two ChatGPT conversations; five Claude ones (see test/fixtures/README.md). */
const CHATGPT_EXPORT = fileURLToPath(new URL('chatgpt-browsing.json', FIXTURES_DIR));
const CLAUDE_EXPORT = fileURLToPath(new URL('claude-conversations.json', FIXTURES_DIR));
/** One export of each of the six services, as the API takes them. */
const EVERY_SERVICE: Array<[string, string]> = [
  ['chatgpt-browsing.json', 'application/json'],
  ['claude-conversations.json', 'application/json'],
  ['gemini-my-activity.json', 'application/json'],
  ['copilot-activity-history.csv', 'text/csv'],
  ['grok-prod-grok-backend.json', 'application/json'],
  ['deepseek-conversations.json', 'application/json'],
];
const fixtureText = (name: string) => readFileSync(new URL(name, FIXTURES_DIR), 'utf8');
/** A PNG's first bytes: a picture picked instead of the export. */
const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

let suite: Awaited<ReturnType<typeof startBrowserSuite>> | undefined;
let tmp: string;
let server: RunningServer | undefined;
let browser: Browser | undefined;
let tenant: { appId: string; appSecret: string; apiKey: string };
let chatgptZip: string;

const base = () => server!.baseUrl;

/** The customer's site, registered as the app's return origin: every link below offers the way back to it. */
const CUSTOMER_ORIGIN = 'https://acme-notes.example';
const RETURN_URL = `${CUSTOMER_ORIGIN}/settings/ai`;
const PRIVACY_URL = `${CUSTOMER_ORIGIN}/privacy`;
/** The app's accent colour: primary buttons and links on its pages. */
const ACCENT = '#0f766e';

const link = (purpose: 'connect' | 'manage', userRef: string, locale?: string) =>
  signLink(
    {
      appId: tenant.appId,
      userRef,
      scopes: ['conversations:read'],
      purpose,
      baseUrl: base(),
      returnUrl: RETURN_URL,
      ...(locale && { locale }),
    },
    tenant.appSecret,
  );

/** The customer's backend: the API with the app's key. */
async function api(path: string, init: RequestInit = {}) {
  const response = await fetch(`${base()}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${tenant.apiKey}`, ...init.headers },
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function ingest(userRef: string, conversations: unknown, contentType = 'application/json') {
  const result = await api(`/api/ingest-export?userRef=${encodeURIComponent(userRef)}`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: typeof conversations === 'string' ? conversations : JSON.stringify(conversations),
  });
  assert.equal(result.status, 200, JSON.stringify(result.body));
  return result.body;
}

/**
 * A fresh browser profile (no cookies) with one page at phone size. After `flow`,
 * the console must be clean: no errors, no CSP reports, no dialogs. Error pages a
 * flow expects name their status, which Chromium also logs.
 */
async function inBrowser(
  flow: (page: Page) => Promise<void>,
  { expectedStatuses = [] as number[], context: options = {} as BrowserContextOptions } = {},
) {
  const context = await browser!.newContext({ viewport: PHONE, ...options });
  // A missing element should fail in seconds, not after Playwright's default 30 s.
  context.setDefaultTimeout(15_000);
  try {
    const page = await context.newPage();
    const watcher = watchPage(page);
    await flow(page);
    assert.deepEqual(watcher.unexpected(expectedStatuses), [], 'console errors or CSP violations');
    assert.deepEqual(watcher.dialogs, [], 'dialogs opened');
  } catch (error) {
    // When the server or the browser is gone, every later step fails too: say why.
    const ended = server!.ended();
    if (ended)
      throw new Error(`the server ended (${ended}); its output:\n${server!.output().slice(-4_000)}`, { cause: error });
    if (!browser!.isConnected()) throw new Error('the browser closed or crashed', { cause: error });
    throw error;
  } finally {
    await context.close().catch(() => {});
  }
}

const heading = (page: Page) => page.locator('h1').innerText();

/**
 * Screenshots at both sizes, and no axe-core violation at either; at 390 px
 * nothing may be too wide, too small to tap or too faint.
 */
async function shoot(page: Page, name: string) {
  assert.deepEqual(await capture(page, name), [], `accessibility or layout problems on ${name}`);
}

/** The New / Updated / Unchanged / Skipped counts of a result page. */
async function resultCounts(page: Page): Promise<Record<string, string>> {
  return page
    .locator('.counts > div')
    .evaluateAll((items) =>
      Object.fromEntries(
        items.map((item) => [item.querySelector('dt')!.textContent, item.querySelector('dd')!.textContent]),
      ),
    );
}

/** Each connection row of the manage home: its name, its line of figures, and whether it is a link. */
async function connectionsShown(page: Page) {
  return page.locator('li.connection').evaluateAll((items) =>
    items.map((item) => ({
      provider: item.querySelector('strong')!.textContent,
      summary: item.querySelector('.row-text > .muted')!.textContent,
      link: item.querySelector('a') !== null,
    })),
  );
}

/** Whether the element is wholly inside the viewport as it is scrolled now. */
const inView = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });

const conversationTitles = (page: Page) => page.locator('ul.conversations li a').allInnerTexts();

/**
 * Chooses the file and submits as a person would. The upload script must take over
 * (the post is an XMLHttpRequest, for the progress bar); the browser then shows the
 * result page. Returns that page's HTTP status.
 */
async function uploadExport(page: Page, file: string): Promise<number> {
  await page.getByLabel('Export file (.zip or .json)').setInputFiles(file);
  const posted = page.waitForRequest((request) => request.method() === 'POST');
  const shown = page.waitForResponse(
    (response) => response.url() === `${base()}/connect/result` && response.request().resourceType() === 'document',
  );
  await page.getByRole('button', { name: 'Upload and import' }).click();
  assert.equal((await posted).resourceType(), 'xhr', 'the upload goes through the progress script');
  const status = (await shown).status();
  await page.waitForLoadState('load');
  return status;
}

/**
 * An API upload of a Claude export whose bytes stop after the first few until
 * `finish`: `sent` once those are on their way (the server admits it to an
 * import slot as it reads them), `status` its answer.
 */
function stalledImport(userRef: string) {
  const bytes = new Uint8Array(readFileSync(CLAUDE_EXPORT));
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pulls++;
        if (pulls === 1) return controller.enqueue(bytes.subarray(0, 10));
        markSent();
        await finished;
        controller.enqueue(bytes.subarray(10));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const status = fetch(`${base()}/api/ingest-export?userRef=${userRef}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit).then(async (response) => {
    await response.arrayBuffer();
    return response.status;
  });
  return { sent, finish, status };
}

/** From a fresh connect link to the ChatGPT upload page, checking each page on the way. */
async function openChatGptUpload(page: Page, url: string, { screenshots = false } = {}) {
  assert.equal((await page.goto(url))!.status(), 200);
  assert.equal(await heading(page), 'Acme Notes would like to import your AI conversations');
  assert.equal(await page.locator('header .brand').innerText(), 'Acme Notes');
  assert.equal(
    await page.locator('header img.logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    96,
  );
  // The app's privacy policy: once, in the section that says what happens to the person's data.
  assert.equal(await page.getByRole('link', { name: 'Acme Notes’s privacy policy' }).count(), 1);
  assert.equal(
    await page.locator('.trust').getByRole('link', { name: 'Acme Notes’s privacy policy' }).getAttribute('href'),
    PRIVACY_URL,
  );
  assert.equal(
    await page.getByRole('button', { name: 'Continue' }).evaluate((el) => getComputedStyle(el).backgroundColor),
    'rgb(15, 118, 110)',
  );
  if (screenshots) {
    await shoot(page, 'connect-start');
    // The first Tab lands on Continue, and the focus must be plain to see.
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return {
        text: el.textContent,
        visible: el.matches(':focus-visible'),
        outline: `${style.outlineStyle} ${style.outlineWidth}`,
      };
    });
    assert.deepEqual(focused, { text: 'Continue', visible: true, outline: 'solid 3px' });
    await shoot(page, 'connect-start-focus');
  }
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${base()}/connect`);
  assert.equal(await heading(page), 'Where are your conversations?');
  if (screenshots) await shoot(page, 'connect-choose');
  await page.getByRole('link', { name: /ChatGPT/ }).click();
  await page.waitForURL(`${base()}/connect/openai`);
  assert.equal(await heading(page), 'Import from ChatGPT');
  assert.ok(await page.getByText('Go to Settings → Data controls → Export data, and choose Export.').isVisible());
}

describeInBrowser('the hosted pages in Chromium', () => {
  before(async () => {
    suite = await startBrowserSuite('parley-e2e-');
    ({ tmp, server, browser } = suite);
    tenant = await cli(server!, 'app', 'create', '--name', 'Acme Notes');
    // The app's brand, as a customer sets it: every page (and every screenshot) shows it.
    await cli(
      server!,
      'app',
      'update',
      '--app',
      tenant.appId,
      '--logo',
      fileURLToPath(new URL('acme-notes-logo.png', FIXTURES_DIR)),
      '--accent-color',
      ACCENT,
      '--privacy-url',
      PRIVACY_URL,
      '--return-origin',
      CUSTOMER_ORIGIN,
    );
    // The export as ChatGPT's email delivers it: a zip with conversations.json inside.
    chatgptZip = join(tmp, 'chatgpt-export.zip');
    writeFileSync(chatgptZip, zipSync({ 'conversations.json': new Uint8Array(readFileSync(CHATGPT_EXPORT)) }));
  });

  after(() => suite?.stop());

  test('connect: import a ChatGPT export, the same file again, then a Claude file by mistake, imported as Claude in one click', async () => {
    const { url } = await cli(
      server!,
      'link',
      '--app',
      tenant.appId,
      '--user',
      'connect-user',
      '--purpose',
      'connect',
      '--return-url',
      RETURN_URL,
    );
    await inBrowser(
      async (page) => {
        await openChatGptUpload(page, url, { screenshots: true });
        await shoot(page, 'connect-upload');

        // Hold the upload at the network for a moment, to see the state the script shows.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(`${base()}/connect/uploads`, async (route) => {
          if (route.request().method() === 'POST') await held;
          await route.continue();
        });
        // The drop zone stands for the native file button, and names the chosen file.
        assert.equal(await page.locator('.dropzone-text').innerText(), 'Choose a file or drop it here');
        await page.getByLabel('Export file (.zip or .json)').setInputFiles(CHATGPT_EXPORT);
        assert.match(await page.locator('[data-chosen-file]').innerText(), /^chatgpt-browsing\.json · \d+ kB$/);
        await page.getByRole('button', { name: 'Upload and import' }).click();
        // The progress takes the drop zone's place, in view on the phone.
        await page.locator('.progress').waitFor({ state: 'visible' });
        assert.equal(await page.locator('.picker').isHidden(), true);
        assert.equal(await inView(page, '.progress'), true, 'the progress is in view');
        assert.equal(await page.locator('[data-progress-text]').innerText(), 'Starting the upload…');
        assert.deepEqual(await accessibilityViolations(page), [], 'axe on the upload in progress');
        release();
        await page.waitForURL(`${base()}/connect/result`);
        await page.unroute(`${base()}/connect/uploads`);

        assert.equal(await heading(page), 'Your ChatGPT conversations are in');
        assert.equal(
          await page.locator('p.big').innerText(),
          '2 conversations from ChatGPT are now available to Acme Notes.',
        );
        assert.deepEqual(await resultCounts(page), { New: '2', Updated: '0', Unchanged: '0', Skipped: '0' });
        const back = await page.getByRole('link', { name: 'Return to Acme Notes' }).getAttribute('href');
        assert.match(back!, /^https:\/\/acme-notes\.example\/settings\/ai\?parley_status=success&connectionId=[\w-]+$/);
        await shoot(page, 'connect-result');

        // The same file again: nothing new, and the page says so.
        await page.getByRole('link', { name: 'Upload another file' }).click();
        await page.waitForURL(`${base()}/connect/openai`);
        assert.equal(await uploadExport(page, CHATGPT_EXPORT), 200);
        assert.equal(
          await page.locator('p.big').innerText(),
          '2 conversations from ChatGPT are now available to Acme Notes.',
        );
        assert.deepEqual(await resultCounts(page), { New: '0', Updated: '0', Unchanged: '2', Skipped: '0' });
        assert.equal(await heading(page), 'Nothing new in this ChatGPT export');
        await shoot(page, 'connect-result-nothing-new');

        // A Claude export on the ChatGPT page: named, and imported as Claude in one click, the same file sent again.
        await page.getByRole('link', { name: 'Upload another file' }).click();
        await page.waitForURL(`${base()}/connect/openai`);
        await page.getByLabel('Export file (.zip or .json)').setInputFiles(CLAUDE_EXPORT);
        await page.getByRole('button', { name: 'Upload and import' }).click();
        const offer = page.locator('[data-upload-error]');
        await offer.waitFor({ state: 'visible' });
        assert.equal(
          await offer.innerText(),
          'This is a Claude export. You chose ChatGPT, but this file is an export from Claude. Import it as Claude? Import it as Claude',
        );
        assert.equal(page.url(), `${base()}/connect/openai`);
        assert.deepEqual(await accessibilityViolations(page), [], 'axe on the offer beside the form');
        await shoot(page, 'connect-result-error');
        const resent = page.waitForRequest((request) => request.method() === 'POST');
        await offer.getByRole('button', { name: 'Import it as Claude' }).click();
        // The same upload, imported as Claude's: not sent again.
        assert.match((await resent).url(), /\/connect\/anthropic\?upload=[\w-]{36}$/);
        await page.waitForURL(`${base()}/connect/result`);
        assert.equal(await heading(page), 'Your Claude conversations are in');

        // The session cookie is gone when the person uploads: the script shows the
        // refusal beside the form instead of a blank reload.
        await page.goto(`${base()}/connect/openai`);
        await page.context().clearCookies();
        await page.getByLabel('Export file (.zip or .json)').setInputFiles(CHATGPT_EXPORT);
        await page.getByRole('button', { name: 'Upload and import' }).click();
        const refusal = page.locator('[data-upload-error]');
        await refusal.waitFor({ state: 'visible' });
        assert.match(
          await refusal.innerText(),
          /^Open this page from the app\. This page works only after you open a link the app gives you/,
        );
        assert.equal(await page.locator('.picker').isVisible(), true, 'the drop zone is back');
        assert.equal(page.url(), `${base()}/connect/openai`);
        assert.equal(await page.getByRole('button', { name: 'Upload and import' }).isEnabled(), true);
        assert.deepEqual(await accessibilityViolations(page), [], 'axe on the refusal beside the form');
      },
      { expectedStatuses: [400, 401] },
    );

    // What the customer's backend sees: the ChatGPT connection with its two conversations, and the Claude file's own.
    const { body } = await api('/api/conversations?userRef=connect-user');
    assert.deepEqual(body.connections.map((c: any) => [c.provider, c.status, c.conversationCount]).sort(), [
      ['anthropic', 'active', 5],
      ['openai', 'active', 2],
    ]);
  });

  test('connect: a large upload shows its bytes and percent, then “Importing…”, in view on a phone', async () => {
    // Many conversations, so the upload goes at the pace of the import that reads it and reports progress on the way.
    const [one] = JSON.parse(readFileSync(CHATGPT_EXPORT, 'utf8'));
    const large = join(tmp, 'large-chatgpt.json');
    writeFileSync(
      large,
      JSON.stringify(
        Array.from({ length: 3_000 }, (_, i) => ({ ...one, id: `large-${i}`, conversation_id: `large-${i}` })),
      ),
    );
    await inBrowser(async (page) => {
      await openChatGptUpload(page, await link('connect', 'large-upload'));
      // Every text the progress shows is noted in sessionStorage, which outlives the page.
      await page.evaluate(() => {
        const text = document.querySelector('[data-progress-text]')!;
        new MutationObserver(() =>
          sessionStorage.setItem(
            'progress',
            JSON.stringify([...JSON.parse(sessionStorage.getItem('progress') ?? '[]'), text.textContent]),
          ),
        ).observe(text, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
      await page.getByLabel('Export file (.zip or .json)').setInputFiles(large);
      await page.getByRole('button', { name: 'Upload and import' }).click();
      await page.locator('[data-progress-text]', { hasText: ' of ' }).waitFor();
      assert.equal(await inView(page, '.progress'), true, 'the progress is in view');
      await page.screenshot({ path: join(SCREENSHOTS_DIR, 'connect-uploading-390.png') });
      await page.waitForURL(`${base()}/connect/result`, { timeout: 120_000 });
      const shown: string[] = JSON.parse((await page.evaluate(() => sessionStorage.getItem('progress')))!);
      assert.equal(shown[0], 'Starting the upload…');
      assert.ok(
        shown.slice(1, -1).every((text) => /^\d+(\.\d)? (kB|MB) of \d+(\.\d)? MB · \d+%$/.test(text)) &&
          shown.length > 2,
        JSON.stringify(shown),
      );
      assert.equal(shown.at(-1), 'Importing…');
      assert.equal(await heading(page), 'Your ChatGPT conversations are in');
    });
  });

  test('connect: the zip as ChatGPT delivers it', async () => {
    await inBrowser(async (page) => {
      await openChatGptUpload(page, await link('connect', 'zip-user'));
      assert.equal(await uploadExport(page, chatgptZip), 200);
      assert.equal(await heading(page), 'Your ChatGPT conversations are in');
      assert.deepEqual(await resultCounts(page), { New: '2', Updated: '0', Unchanged: '0', Skipped: '0' });
    });
  });

  test('connect: while other imports fill every slot, the page says it is busy and retries by itself', async () => {
    // Two API uploads that stop after their first bytes hold both of MAX_CONCURRENT_IMPORTS' slots.
    const holds = ['busy-1', 'busy-2'].map((userRef) => stalledImport(userRef));
    await Promise.all(holds.map((hold) => hold.sent));
    const { url } = await cli(server!, 'link', '--app', tenant.appId, '--user', 'busy-user', '--purpose', 'connect');
    await inBrowser(
      async (page) => {
        await openChatGptUpload(page, url);
        await page.getByLabel('Export file (.zip or .json)').setInputFiles(CHATGPT_EXPORT);
        await page.getByRole('button', { name: 'Upload and import' }).click();
        // Refused with 503 once IMPORT_QUEUE_TIMEOUT_MS has passed without a free slot.
        await page.getByText('Many files are being imported right now. Retrying in a moment…').waitFor();
        for (const hold of holds) hold.finish();
        assert.deepEqual(await Promise.all(holds.map((hold) => hold.status)), [200, 200]);
        await page.waitForURL(`${base()}/connect/result`);
        assert.equal(await heading(page), 'Your ChatGPT conversations are in');
      },
      { expectedStatuses: [503] },
    );
  });

  test('connect: all ten services are offered, and a way on for one that is not; a DeepSeek zip and a Gemini Takeout zip as those services ship them', async () => {
    const shipped = (name: string, folder: string) => {
      const path = join(tmp, name);
      writeFileSync(path, zipSync(zipFolderFiles(folder)));
      return path;
    };
    const uploads = [
      {
        name: 'DeepSeek',
        id: 'deepseek',
        step: 'Go to Settings → Data management → Export, and export all your history.',
        file: shipped('deepseek_data.zip', 'deepseek-zip'),
        counts: { New: '2', Updated: '0', Unchanged: '0', Skipped: '1' },
      },
      {
        name: 'Gemini',
        id: 'google',
        step: 'Open Google Takeout (takeout.google.com) and sign in.',
        file: shipped('takeout-20260101.zip', 'gemini-zip'),
        counts: { New: '4', Updated: '0', Unchanged: '0', Skipped: '0' },
      },
    ];
    await inBrowser(async (page) => {
      assert.equal((await page.goto(await link('connect', 'more-services')))!.status(), 200);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${base()}/connect`);
      assert.deepEqual(await page.locator('a.choice strong').allInnerTexts(), [
        ...SERVICE_NAMES,
        'My assistant is not listed',
      ]);
      // Every service's guide and upload form (and the page for one not listed), screenshots and axe included.
      for (const id of await page
        .locator('a.choice')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')!.split('/').pop()!))) {
        assert.equal((await page.goto(`${base()}/connect/${id}`))!.status(), 200);
        await shoot(page, `connect-upload-${id}`);
      }
      for (const { name, id, step, file, counts } of uploads) {
        await page.goto(`${base()}/connect`);
        await page.getByRole('link', { name: new RegExp(`^${name}`) }).click();
        await page.waitForURL(`${base()}/connect/${id}`);
        assert.equal(await heading(page), `Import from ${name}`);
        assert.ok(await page.getByText(step).isVisible(), step);
        assert.equal(await uploadExport(page, file), 200);
        assert.equal(await heading(page), `Your ${name} conversations are in`);
        assert.deepEqual(await resultCounts(page), counts);
      }
    });
    const { body } = await api('/api/conversations?userRef=more-services');
    assert.deepEqual(body.connections.map((c: any) => [c.provider, c.conversationCount]).sort(), [
      ['deepseek', 2],
      ['google', 4],
    ]);
  });

  test('connect: link previews do not use up the link', async () => {
    const url = await link('connect', 'preview-user');
    for (const attempt of [1, 2]) {
      const response = await fetch(url);
      assert.equal(response.status, 200, `preview fetch ${attempt}`);
      assert.match(await response.text(), /Acme Notes would like to import your AI conversations/);
    }
    await inBrowser(async (page) => {
      await page.goto(url);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${base()}/connect`);
      assert.equal(await heading(page), 'Where are your conversations?');
    });
  });

  test('without JavaScript: the upload posts as a plain form, and a manage confirmation deletes', async () => {
    await inBrowser(
      async (page) => {
        await openChatGptUpload(page, await link('connect', 'no-script-user'));
        await page.getByLabel('Export file (.zip or .json)').setInputFiles(CHATGPT_EXPORT);
        // No script names the chosen file and its size: the drop zone says the server's words, shown by the stylesheet.
        assert.equal(await page.locator('[data-chosen-file]').innerText(), 'File chosen');
        const posted = page.waitForRequest((request) => request.method() === 'POST');
        await page.getByRole('button', { name: 'Upload and import' }).click();
        assert.equal((await posted).resourceType(), 'document', 'the browser posts the form itself');
        await page.waitForURL(`${base()}/connect/result`);
        assert.equal(await heading(page), 'Your ChatGPT conversations are in');
        assert.deepEqual(await resultCounts(page), { New: '2', Updated: '0', Unchanged: '0', Skipped: '0' });

        await page.goto(await link('manage', 'no-script-user'));
        await page.getByRole('link', { name: /ChatGPT/ }).click();
        await page.getByRole('link', { name: 'Regex for ISO dates' }).click();
        assert.equal(await heading(page), 'Regex for ISO dates');
        // No page script either: the times stay as the server wrote them, in UTC, in a Tokyo browser.
        const time = page.locator('li.message .meta time').first();
        assert.match(await time.innerText(), /^2024-01-14 \d\d:\d\d UTC$/);
        assert.equal(await time.getAttribute('title'), null);
        await page.getByRole('link', { name: 'Delete conversation' }).click();
        assert.equal(await heading(page), 'Delete this conversation?');
        await page.getByRole('button', { name: 'Delete conversation' }).click();
        await page.waitForURL(/\/manage\/connections\/[\w-]+\?notice=conversation-deleted$/);
        assert.equal(await page.getByRole('status').innerText(), 'The conversation was deleted.');
        assert.deepEqual(await conversationTitles(page), ['Lisbon to Porto by train']);
      },
      { context: { javaScriptEnabled: false, timezoneId: 'Asia/Tokyo' } },
    );
    const { body } = await api('/api/conversations?userRef=no-script-user');
    assert.deepEqual(
      body.connections.map((c: any) => [c.provider, c.conversationCount]),
      [['openai', 1]],
    );
  });

  test('manage: review, delete one conversation, disconnect, delete everything', async () => {
    const imported = await ingest('manage-user', JSON.parse(readFileSync(CLAUDE_EXPORT, 'utf8')));
    assert.equal(imported.created, 5);
    const connectionId: string = imported.connectionId;
    const apiConnection = async () => (await api('/api/conversations?userRef=manage-user')).body.connections[0];
    const apiTotal = async () => (await api(`/api/conversations?connectionId=${connectionId}`)).body.total;

    await inBrowser(async (page) => {
      await page.goto(await link('manage', 'manage-user'));
      assert.equal(page.url(), `${base()}/manage`, 'the token is gone from the address');
      assert.equal(await heading(page), 'Your imported conversations');
      assert.deepEqual(await connectionsShown(page), [
        { provider: 'Claude', summary: '5 conversations · updated now', link: true },
      ]);
      await shoot(page, 'manage-home');

      await page.getByRole('link', { name: /Claude/ }).click();
      await page.waitForURL(`${base()}/manage/connections/${connectionId}`);
      assert.equal(await heading(page), 'Claude conversations');
      assert.match(await page.locator('main .card').first().innerText(), /Connected · 5 conversations, newest first/);
      assert.deepEqual(await conversationTitles(page), [
        'Planning a two-week rail trip through Portugal and Spain, with stops in Porto, Salamanca, Madrid and Granada, on a student budget',
        'Untitled conversation',
        'Kilometres in a marathon',
        'Speeding up a slow Postgres query',
        'Regex for UK postcodes',
      ]);
      await shoot(page, 'manage-connection');

      await page.getByRole('link', { name: 'Speeding up a slow Postgres query' }).click();
      await page.waitForURL(/\/manage\/conversations\/[\w-]+$/);
      const conversationUrl = page.url();
      assert.equal(await heading(page), 'Speeding up a slow Postgres query');
      const messages = await page.locator('li.message').evaluateAll((items) =>
        items.map((item) => ({
          role: item.className,
          who: item.querySelector('.meta strong')!.textContent,
          time: item.querySelector('.meta time')?.textContent,
          background: getComputedStyle(item).backgroundColor,
        })),
      );
      assert.deepEqual(
        messages.map((m) => [m.role, m.who]),
        [
          ['message user', 'You'],
          ['message assistant', 'Assistant'],
          ['message user', 'You'],
          ['message assistant', 'Assistant'],
        ],
      );
      assert.deepEqual(
        messages.map((m) => m.time),
        ['2025-09-20 19:02 UTC', '2025-09-20 19:04 UTC', '2025-09-20 19:11 UTC', '2025-09-20 19:13 UTC'],
      );
      assert.notEqual(
        messages[0]!.background,
        messages[1]!.background,
        'your messages and the assistant’s look different',
      );
      // The assistant's fenced SQL is set as code with its language, without the fences.
      const code = page.locator('li.message.assistant pre').first();
      assert.equal(await code.locator('code').getAttribute('class'), 'language-sql');
      assert.match(
        await code.innerText(),
        /^-- One index for both filters\nCREATE INDEX orders_customer_status ON orders \(customer_id, status\);/,
      );
      assert.match(await code.evaluate((el) => getComputedStyle(el).fontFamily), /monospace/);
      assert.doesNotMatch(await page.locator('main').innerText(), /```/);
      await shoot(page, 'manage-conversation');

      // Delete: the confirmation's Cancel leaves everything as it was.
      await page.getByRole('link', { name: 'Delete conversation' }).click();
      await page.waitForURL(`${conversationUrl}/delete`);
      assert.equal(await heading(page), 'Delete this conversation?');
      assert.ok(
        await page.getByText('“Speeding up a slow Postgres query” will be deleted from Acme Notes.').isVisible(),
      );
      await shoot(page, 'manage-confirm-delete-conversation');
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL(conversationUrl);
      assert.equal(await heading(page), 'Speeding up a slow Postgres query');
      assert.equal(await apiTotal(), 5);

      await page.getByRole('link', { name: 'Delete conversation' }).click();
      await page.getByRole('button', { name: 'Delete conversation' }).click();
      await page.waitForURL(`${base()}/manage/connections/${connectionId}?notice=conversation-deleted`);
      assert.equal(await page.getByRole('status').innerText(), 'The conversation was deleted.');
      assert.match(await page.locator('main .card').first().innerText(), /Connected · 4 conversations, newest first/);
      assert.deepEqual(await conversationTitles(page), [
        'Planning a two-week rail trip through Portugal and Spain, with stops in Porto, Salamanca, Madrid and Granada, on a student budget',
        'Untitled conversation',
        'Kilometres in a marathon',
        'Regex for UK postcodes',
      ]);
      assert.equal(await apiTotal(), 4);
      assert.equal((await apiConnection()).conversationCount, 4);
      await shoot(page, 'manage-connection-deleted');

      // Disconnect.
      await page.getByRole('link', { name: 'Disconnect' }).click();
      assert.equal(await heading(page), 'Disconnect Claude?');
      assert.ok(
        await page
          .getByText(
            'All 4 Claude conversations will be deleted from Acme Notes, and the connection will show as disconnected.',
          )
          .isVisible(),
      );
      await shoot(page, 'manage-confirm-disconnect');
      await page.getByRole('button', { name: 'Disconnect Claude' }).click();
      await page.waitForURL(`${base()}/manage?notice=disconnected`);
      assert.equal(
        await page.getByRole('status').innerText(),
        'The connection was disconnected and its conversations deleted.',
      );
      // Disconnected, and no link to a list that is empty now.
      assert.deepEqual(await connectionsShown(page), [
        { provider: 'Claude', summary: 'Disconnected · its conversations were deleted', link: false },
      ]);
      const revoked = await apiConnection();
      assert.deepEqual([revoked.status, revoked.conversationCount], ['revoked', 0]);
      assert.equal(await apiTotal(), 0);
      await shoot(page, 'manage-home-disconnected');

      // Delete everything.
      await page.getByRole('link', { name: 'Delete all my data' }).click();
      assert.equal(await heading(page), 'Delete all your data?');
      await shoot(page, 'manage-confirm-delete-all');
      await page.getByRole('button', { name: 'Delete all my data' }).click();
      await page.waitForURL(`${base()}/manage?notice=all-deleted`);
      assert.equal(
        await page.getByRole('status').innerText(),
        'Everything was deleted\n\n1 connection and 0 conversations were deleted. Acme Notes holds none of your conversations now.',
      );
      assert.equal(await page.getByText('There is nothing here').count(), 0);
      assert.equal(await page.locator('li.connection').count(), 0);
      assert.deepEqual(await api('/api/conversations?userRef=manage-user'), {
        status: 404,
        body: { error: 'User not found' },
      });
      await shoot(page, 'manage-home-empty');
    });
  });

  test('manage: a conversation in Markdown: a table, a list, a quote and code wider than a phone', async () => {
    const [sample] = JSON.parse(readFileSync(CLAUDE_EXPORT, 'utf8'));
    const message = (uuid: string, sender: string, text: string) => ({
      uuid,
      text,
      content: [{ type: 'text', text }],
      sender,
      created_at: '2025-10-02T09:30:00Z',
      updated_at: '2025-10-02T09:30:00Z',
      attachments: [],
      files: [],
    });
    await ingest('markdown-user', [
      {
        ...sample,
        uuid: 'markdown-0001',
        name: 'Comparing the query plans',
        chat_messages: [
          message(
            'md-1',
            'human',
            'Can you put the three plans side by side?\n\n- no index\n- `customer_id` only\n- both columns',
          ),
          message(
            'md-2',
            'assistant',
            '## The three plans\n\n| Index | Rows read | Time |\n| :-- | --: | --: |\n| none | 2,000,000 | 8.1 s |\n| (customer_id) | 1,204 | 12 ms |\n| (customer_id, status) | 37 | 3 ms |\n\n' +
              '> Build it **concurrently** on a live table:\n\n```sql\nCREATE INDEX CONCURRENTLY orders_customer_status ON orders (customer_id, status) INCLUDE (total, created_at, shipping_address_id);\n```\n\n' +
              'See https://www.postgresql.org/docs/current/indexes-multicolumn.html for the column order.',
          ),
        ],
      },
    ]);
    await inBrowser(async (page) => {
      await page.goto(await link('manage', 'markdown-user'));
      await page.getByRole('link', { name: /Claude/ }).click();
      await page.getByRole('link', { name: 'Comparing the query plans' }).click();
      assert.equal(await heading(page), 'Comparing the query plans');
      assert.deepEqual(await page.locator('li.message.assistant table tr').allInnerTexts(), [
        'Index\tRows read\tTime',
        'none\t2,000,000\t8.1 s',
        '(customer_id)\t1,204\t12 ms',
        '(customer_id, status)\t37\t3 ms',
      ]);
      assert.equal(await page.locator('li.message.assistant pre code').getAttribute('class'), 'language-sql');
      await shoot(page, 'manage-conversation-markdown');
    });
  });

  // Memories and projects, reasoning and a tool's long output, and a new import from the manage page:
  // in English with its words checked, and in Japanese for its layout.
  for (const locale of ['en', 'ja']) {
    test(`manage in ${locale}: memories, a project, reasoning before its answer, a long tool output folded, and a new import`, async () => {
      const user = `beside-${locale}`;
      const zip = await api(`/api/ingest-export?userRef=${user}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/zip' },
        body: zipSync(zipFolderFiles('claude-2026-06-zip')),
      });
      assert.equal(zip.status, 200, JSON.stringify(zip.body));
      const tools = JSON.parse(fixtureText('claude-tools.json'));
      const status = tools.find((c: any) => c.name === 'Is the status page up?');
      const result = status.chat_messages[1].content.find((block: any) => block.type === 'tool_result');
      result.content = [
        { type: 'text', text: Array.from({ length: 30 }, (_, i) => `HTTP/1.1 503 · attempt ${i + 1}`).join('\n') },
      ];
      await ingest(user, [...JSON.parse(fixtureText('claude-thinking.json')), ...tools]);
      const english = locale === 'en';
      // English untagged, as the pictures the docs show are named.
      const check = (page: Page, name: string) => shoot(page, english ? name : `${locale}-${name}`);
      await inBrowser(
        async (page) => {
          await page.goto(await link('manage', user, locale));
          assert.ok(await page.locator('li.connection svg[role="img"][aria-label="Claude"]').isVisible());
          if (english)
            assert.deepEqual(await connectionsShown(page), [
              { provider: 'Claude', summary: '3 conversations · 3 memories · 1 project · updated now', link: true },
            ]);
          await check(page, 'manage-home-import');
          await page.locator('li.connection a').click();
          await page.waitForURL(/\/manage\/connections\/[\w-]+$/);
          const connection = page.url();
          await check(page, 'manage-connection-beside');

          await page.goto(`${connection}/memories`);
          if (english) assert.equal(await heading(page), 'Claude memories');
          assert.equal(await page.locator('article.memory').count(), 3);
          await check(page, 'manage-memories');
          await page.locator('article.memory a[href$="/delete"]').first().click();
          await page.waitForURL(/\/manage\/memories\/[\w-]+\/delete$/);
          if (english)
            assert.ok(
              await page
                .getByText(
                  'Importing the same export again later will not bring it back, unless you disconnect the whole connection first.',
                )
                .isVisible(),
            );
          await check(page, 'manage-confirm-delete-memory');
          await page.locator('form button[type=submit]').click();
          await page.waitForURL(/\/memories\?notice=memory-deleted$/);
          assert.equal(await page.locator('article.memory').count(), 2);

          await page.goto(`${connection}/projects`);
          await check(page, 'manage-projects');
          await page.locator('ul.conversations a').first().click();
          await page.waitForURL(/\/manage\/projects\/[\w-]+$/);
          assert.equal(await heading(page), '메뉴 앱 온보딩');
          await page.locator('details.document summary').first().click();
          await check(page, 'manage-project');
          await page.goto(`${page.url()}/delete`);
          if (english)
            assert.match(
              await page.locator('main p').first().innerText(),
              /^The project “메뉴 앱 온보딩”, its instructions and its 2 knowledge files \(\d+ bytes in all\) will be deleted from Acme Notes\. Its conversations stay\.$/,
            );
          await check(page, 'manage-confirm-delete-project');

          // Reasoning comes before the answer it led to, folded.
          await page.goto(connection);
          await page.locator('ul.conversations a', { hasText: 'Is 1001 prime?' }).click();
          const answer = page.locator('li.message.assistant').first();
          assert.deepEqual(await answer.evaluate((item) => [...item.children].map((child) => child.className)), [
            'meta',
            'reasoning',
            'content',
          ]);
          assert.equal(await answer.locator('details.reasoning').getAttribute('open'), null);
          await check(page, 'manage-conversation-reasoning');

          // A tool's long output: five lines, then the whole of it on a tap.
          await page.goto(connection);
          await page.locator('ul.conversations a', { hasText: 'Is the status page up?' }).click();
          const output = page.locator('details.tool-output');
          assert.equal(
            await output.locator('.output-head').innerText(),
            Array.from({ length: 5 }, (_, i) => `${i === 0 ? 'Tool error: ' : ''}HTTP/1.1 503 · attempt ${i + 1}`).join(
              '\n',
            ),
          );
          assert.ok(!(await output.locator('.content').isVisible()));
          await check(page, 'manage-conversation-tool-output');
          await output.locator('summary').click();
          assert.ok(await output.locator('.content').getByText('attempt 30').isVisible());
          assert.ok(!(await output.locator('.output-head').isVisible()));

          // A new import, from the manage page: the connect flow opens for the same person.
          await page.goto(`${base()}/manage`);
          await page.locator('form[action="/manage/import"] button').click();
          await page.waitForURL(`${base()}/connect`);
          assert.equal(await page.locator('html').getAttribute('lang'), locale);
          await page.locator('a[href="/connect/anthropic"]').click();
          await page.waitForURL(`${base()}/connect/anthropic`);
        },
        { context: { locale } },
      );
    });
  }

  test('keyboard only: connect, from the link to the result, with Tab, Shift+Tab, Enter and Space', async () => {
    await inBrowser(async (page) => {
      await page.goto(await link('connect', 'keyboard-connect-user'));
      assert.deepEqual(await tabTo(page, 'Continue'), ['Continue']);
      await page.keyboard.press('Space');
      await page.waitForURL(`${base()}/connect`);

      assert.deepEqual(await tabTo(page, 'Claude claude.ai'), ['ChatGPT chatgpt.com', 'Claude claude.ai']);
      assert.deepEqual(await tabTo(page, 'ChatGPT chatgpt.com', { backwards: true }), ['ChatGPT chatgpt.com']);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base()}/connect/openai`);

      // Space on the file input opens the system's file dialog; Playwright answers it.
      // It catches the dialog only once asked to, and sets that up without waiting:
      // asked together with the key press, it missed the dialog now and then.
      const chooser = page.waitForEvent('filechooser');
      assert.deepEqual(await tabTo(page, 'Export file (.zip or .json)'), [
        '← Choose another service',
        'Export file (.zip or .json)',
      ]);
      // The input itself is unseen: the drop zone around it shows the focus.
      assert.equal(
        await page
          .locator('.dropzone')
          .evaluate((zone) => `${getComputedStyle(zone).outlineStyle} ${getComputedStyle(zone).outlineWidth}`),
        'solid 3px',
      );
      await page.keyboard.press('Space');
      await (await chooser).setFiles(CHATGPT_EXPORT);
      assert.deepEqual(await tabTo(page, 'Upload and import'), ['Upload and import']);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base()}/connect/result`);
      assert.equal(await heading(page), 'Your ChatGPT conversations are in');
      assert.deepEqual(await resultCounts(page), { New: '2', Updated: '0', Unchanged: '0', Skipped: '0' });
      assert.deepEqual(await tabTo(page, 'Upload another file'), ['Return to Acme Notes', 'Upload another file']);
    });
  });

  test('keyboard only: manage, into a conversation and back, then delete it through its confirmation', async () => {
    const { connectionId } = await ingest('keyboard-manage-user', JSON.parse(readFileSync(CLAUDE_EXPORT, 'utf8')));
    await inBrowser(async (page) => {
      await page.goto(await link('manage', 'keyboard-manage-user'));
      // The search box comes first, then the connection rows.
      const home = await tabTo(page, /^Claude 5 conversations/);
      assert.deepEqual(home.slice(0, 2), ['Search your conversations', 'Search']);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base()}/manage/connections/${connectionId}`);

      const toPostgres = [
        '← All connections',
        'Planning a two-week rail trip through Portugal and Spain, wi',
        'Untitled conversation',
        'Kilometres in a marathon',
        'Speeding up a slow Postgres query',
      ];
      assert.deepEqual(await tabTo(page, 'Speeding up a slow Postgres query'), toPostgres);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/manage\/conversations\/[\w-]+$/);
      const conversationUrl = page.url();
      assert.equal(await heading(page), 'Speeding up a slow Postgres query');

      // Back to the list by its link, and into the conversation again.
      assert.deepEqual(await tabTo(page, '← Claude conversations'), ['← Claude conversations']);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base()}/manage/connections/${connectionId}`);
      assert.deepEqual(await tabTo(page, 'Speeding up a slow Postgres query'), toPostgres);
      await page.keyboard.press('Enter');
      await page.waitForURL(conversationUrl);

      // The first message's pasted file opens and is deleted by its own controls; each of
      // the two SQL blocks has its copy button, then scrolls sideways on a phone: Tab
      // stops on each, to scroll it with the arrow keys.
      const stops = await tabTo(page, 'Delete conversation');
      assert.equal(stops.length, 8, JSON.stringify(stops));
      assert.deepEqual(
        [stops[0], stops[1], stops[2], stops[3], stops[5], stops[7]],
        [
          '← Claude conversations',
          'explain.txt · 121 bytes',
          'Delete explain.txt',
          'Copy sql',
          'Copy sql',
          'Delete conversation',
        ],
      );
      assert.match(stops[4]!, /^-- One index for both filters/);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${conversationUrl}/delete`);

      assert.deepEqual(await tabTo(page, 'Cancel'), ['Delete conversation', 'Cancel']);
      assert.deepEqual(await tabTo(page, 'Delete conversation', { backwards: true }), ['Delete conversation']);
      await page.keyboard.press('Space');
      await page.waitForURL(`${base()}/manage/connections/${connectionId}?notice=conversation-deleted`);
      assert.equal(await page.getByRole('status').innerText(), 'The conversation was deleted.');
      assert.equal((await conversationTitles(page)).length, 4);
    });
  });

  test('links: an expired link and a reused manage link show error pages that say what to do', async () => {
    const { url: expiring } = await cli(
      server!,
      'link',
      '--app',
      tenant.appId,
      '--user',
      'late-user',
      '--purpose',
      'connect',
      '--expires',
      '1',
      '--return-url',
      RETURN_URL,
    );
    // A one-second link has surely expired 2.1 s after the CLI signed it; the wait overlaps the next check.
    const expired = sleep(2_100);

    const manage = await link('manage', 'late-user');
    await inBrowser(async (page) => {
      assert.equal((await page.goto(manage))!.status(), 200);
      assert.equal(await heading(page), 'Your imported conversations');
    });
    // Someone else opening the same link later (a forwarded mail, a shared screen).
    await inBrowser(
      async (page) => {
        assert.equal((await page.goto(manage))!.status(), 403);
        assert.equal(await heading(page), 'Link already used');
        assert.ok(
          await page
            .getByText('Each link works once, and this one was already used. Go back to the app you came from', {
              exact: false,
            })
            .isVisible(),
        );
        // The link's signature holds, so its error page offers the way back.
        assert.equal(
          await page.getByRole('link', { name: 'Return to Acme Notes' }).getAttribute('href'),
          `${RETURN_URL}?parley_status=error`,
        );
        await shoot(page, 'error-link-used');
      },
      { expectedStatuses: [403] },
    );

    await expired;
    await inBrowser(
      async (page) => {
        assert.equal((await page.goto(expiring))!.status(), 403);
        assert.equal(await page.locator('.status').innerText(), 'Error 403');
        assert.equal(await heading(page), 'Link expired');
        assert.ok(
          await page
            .getByText(
              'This link has run out: the app makes links that work only for a short time. Go back to the app you came from and open this page again: it will give you a new link.',
            )
            .isVisible(),
        );
        assert.equal(
          await page.getByRole('link', { name: 'Return to Acme Notes' }).getAttribute('href'),
          `${RETURN_URL}?parley_status=error`,
        );
        await shoot(page, 'error-link-expired');
      },
      { expectedStatuses: [403] },
    );
  });

  test('layout: on a phone, search results stand in place of the connections and are scrolled into view', async () => {
    for (const [name, type] of EVERY_SERVICE) await ingest('six-services', fixtureText(name), type);
    await inBrowser(async (page) => {
      await page.goto(await link('manage', 'six-services'));
      const rows = await connectionsShown(page);
      assert.equal(rows.length, 6);
      assert.ok(
        rows.every((row) => row.link && /^\d+ conversations? · updated now$/.test(row.summary!)),
        JSON.stringify(rows),
      );
      // Compact rows: six connections fit on a phone's first screen with the search above them.
      assert.equal(await inView(page, 'li.connection:last-child'), true, 'the sixth row is on the first screen');
      // A row is a link, but its name keeps the text's colour: the app's accent marks buttons and links in sentences.
      assert.equal(
        await page
          .locator('li.connection a strong')
          .first()
          .evaluate((el) => getComputedStyle(el).color),
        'rgb(27, 31, 36)',
      );
      await shoot(page, 'manage-home-services');

      await page.getByLabel('Search your conversations').fill('marathon');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base()}/manage?q=marathon#results`);
      assert.equal(await page.locator('#results h2').innerText(), '“marathon”: your conversations');
      assert.equal(await inView(page, '#results h2'), true, 'the results are in view');
      assert.equal(await page.locator('li.connection').count(), 0, 'the results stand in place of the list');
      assert.deepEqual(await conversationTitles(page), ['Kilometres in a marathon']);
      await shoot(page, 'manage-search');
      await page.getByRole('link', { name: '← All connections' }).click();
      await page.waitForURL(`${base()}/manage`);
      assert.equal(await page.locator('li.connection').count(), 6);
    });
  });

  test('layout: times in the browser’s time zone, UTC in the title; relative times for the rows', async () => {
    await ingest('tokyo-user', JSON.parse(readFileSync(CLAUDE_EXPORT, 'utf8')));
    await inBrowser(
      async (page) => {
        await page.goto(await link('manage', 'tokyo-user'));
        assert.match(
          (await page.locator('li.connection time').getAttribute('title')) ?? '',
          /^\d{4}-\d\d-\d\d \d\d:\d\d GMT\+9$/,
        );
        await page.getByRole('link', { name: /Claude/ }).click();
        await page.getByRole('link', { name: 'Speeding up a slow Postgres query' }).click();
        const first = page.locator('li.message .meta time').first();
        assert.equal(await first.innerText(), '2025-09-21 04:02 GMT+9');
        assert.equal(await first.getAttribute('title'), '2025-09-20 19:02 UTC');
      },
      { context: { timezoneId: 'Asia/Tokyo' } },
    );
  });

  test('conversation: a copy button on each code block, and a way back to the top of a long one', async () => {
    const [sample] = JSON.parse(readFileSync(CLAUDE_EXPORT, 'utf8'));
    const text = (i: number) =>
      i % 2
        ? `Answer ${i}:\n\n\`\`\`python\nprint(${i})\n\`\`\`\n\n${'More words about it. '.repeat(20)}`
        : `Question ${i}?`;
    const message = (i: number) => ({
      uuid: `long-${i}`,
      text: text(i),
      content: [{ type: 'text', text: text(i) }],
      sender: i % 2 ? 'assistant' : 'human',
      created_at: '2025-10-02T09:30:00Z',
      updated_at: '2025-10-02T09:30:00Z',
      attachments: [],
      files: [],
    });
    await ingest('long-user', [
      {
        ...sample,
        uuid: 'long-0001',
        name: 'A long conversation',
        chat_messages: Array.from({ length: 12 }, (_, i) => message(i)),
      },
    ]);
    await inBrowser(
      async (page) => {
        await page.goto(await link('manage', 'long-user'));
        await page.getByRole('link', { name: /Claude/ }).click();
        await page.getByRole('link', { name: 'A long conversation' }).click();
        const code = page.locator('figure.code').first();
        assert.equal(await code.locator('figcaption').innerText(), 'python\nCopy');
        await code.getByRole('button', { name: 'Copy python' }).click();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'print(1)\n');
        assert.equal(await code.getByRole('button').innerText(), 'Copied');

        const toTop = page.getByRole('link', { name: '↑ Back to top' });
        await toTop.scrollIntoViewIfNeeded();
        assert.ok((await page.evaluate(() => window.scrollY)) > 2_000);
        await toTop.click();
        await page.waitForFunction(() => window.scrollY === 0);
      },
      { context: { permissions: ['clipboard-read', 'clipboard-write'] } },
    );
  });

  test('a short conversation offers no way back to a top already in view', async () => {
    await ingest('short-user', JSON.parse(readFileSync(CLAUDE_EXPORT, 'utf8')));
    await inBrowser(async (page) => {
      await page.goto(await link('manage', 'short-user'));
      await page.getByRole('link', { name: /Claude/ }).click();
      await page.getByRole('link', { name: 'Kilometres in a marathon' }).click();
      assert.equal(await page.getByRole('link', { name: '↑ Back to top' }).count(), 0);
    });
  });

  // Every page, in every language, at both sizes: no axe-core violation, and at
  // phone size nothing too wide, too small to tap or too faint (CJK text included).
  // Three languages at a time, each its own user and browser context: Chromium's
  // work for one page waits on the other core half the time.
  describe('every page in six languages', { concurrency: 3 }, () => {
    for (const locale of ['en', 'de', 'es', 'fr', 'ja', 'zh-CN']) {
      test(`every page in ${locale}: axe-core and the layout checks at 390 and 1280 px`, async () => {
        const user = `audit-${locale}`;
        await ingest(user, JSON.parse(readFileSync(CLAUDE_EXPORT, 'utf8')));
        // A one-second link: long expired by the time the walk below reaches it.
        const expiring = await signLink(
          {
            appId: tenant.appId,
            userRef: user,
            scopes: ['conversations:read'],
            purpose: 'connect',
            baseUrl: base(),
            locale,
            expiresInSeconds: 1,
          },
          tenant.appSecret,
        );
        const check = (page: Page, name: string) => shoot(page, `${locale}-${name}`);
        await inBrowser(
          async (page) => {
            // Connect: start, choose, upload, each kind of result.
            await page.goto(await link('connect', user, locale));
            assert.equal(await page.locator('html').getAttribute('lang'), locale);
            await check(page, 'connect-start');
            assert.equal(await page.locator('.trust a').getAttribute('href'), PRIVACY_URL);
            await page.locator('form[action="/start"] button').click();
            await page.waitForURL(`${base()}/connect`);
            await check(page, 'connect-choose');
            await page.goto(`${base()}/connect/openai`);
            await check(page, 'connect-upload');
            const upload = async (file: string | { name: string; mimeType: string; buffer: Buffer }) => {
              await page.locator('#file').setInputFiles(file);
              await page.locator('form.upload button[type=submit]').click();
              await page.waitForURL(`${base()}/connect/result`);
            };
            await upload({ name: 'screenshot.png', mimeType: 'image/png', buffer: PNG_BYTES });
            await check(page, 'connect-result-not-an-export');
            await page.goto(`${base()}/connect/openai`);
            await upload(CHATGPT_EXPORT);
            await check(page, 'connect-result');
            await page.goto(`${base()}/connect/openai`);
            await upload(CHATGPT_EXPORT);
            await check(page, 'connect-result-nothing-new');

            // Manage: home, search, a connection, a conversation, the confirmations, after each action.
            const manage = await link('manage', user, locale);
            await page.goto(manage);
            await check(page, 'manage-home');
            assert.equal(
              await page.locator('footer a[data-parley-status]').getAttribute('href'),
              `${RETURN_URL}?parley_status=success`,
            );
            await page.goto(`${base()}/manage?q=postgres#results`);
            await check(page, 'manage-search');
            await page.goto(`${base()}/manage`);
            await page.locator('li.connection a', { hasText: 'Claude' }).click();
            await page.waitForURL(/\/manage\/connections\//);
            const connection = page.url();
            await check(page, 'manage-connection');
            await page.locator('ul.conversations a').nth(3).click();
            await page.waitForURL(/\/manage\/conversations\/[\w-]+$/);
            await check(page, 'manage-conversation');
            await page.goto(`${page.url()}/delete`);
            await check(page, 'manage-confirm-delete-conversation');
            await page.goto(`${connection}/disconnect`);
            await check(page, 'manage-confirm-disconnect');
            await page.locator('form button[type=submit]').click();
            await page.waitForURL(`${base()}/manage?notice=disconnected`);
            await check(page, 'manage-home-disconnected');
            await page.goto(connection);
            await check(page, 'manage-connection-disconnected');
            await page.goto(`${base()}/manage/delete-all`);
            await check(page, 'manage-confirm-delete-all');
            await page.locator('form button[type=submit]').click();
            await page.waitForURL(`${base()}/manage?notice=all-deleted`);
            await check(page, 'manage-home-deleted');

            // Errors: a used link (in a browser its session is not in: this one would be
            // sent back to that session), an expired one, a page without a session.
            await page.context().clearCookies();
            assert.equal((await page.goto(manage))!.status(), 403, 'the manage link was used');
            await check(page, 'error-link-used');
            assert.equal(
              await page.locator('main a[data-parley-status]').getAttribute('href'),
              `${RETURN_URL}?parley_status=error`,
            );
            assert.equal((await page.goto(expiring))!.status(), 403, 'the one-second link has expired');
            await check(page, 'error-link-expired');
            await page.context().clearCookies();
            await page.goto(`${base()}/connect`);
            await check(page, 'error-no-session');
          },
          { expectedStatuses: [400, 401, 403], context: { locale } },
        );
      });
    }
  });

  test('a conversation titled <script>alert(1)</script> shows as text and runs nothing', async () => {
    const title = '<script>alert(1)</script>';
    const [sample] = JSON.parse(readFileSync(CLAUDE_EXPORT, 'utf8'));
    await ingest('xss-user', [{ ...sample, uuid: 'xss-0001', name: title }]);
    await inBrowser(async (page) => {
      await page.goto(await link('manage', 'xss-user'));
      await page.getByRole('link', { name: /Claude/ }).click();
      assert.deepEqual(await conversationTitles(page), [title]);
      await page.getByRole('link', { name: title }).click();
      assert.equal(await heading(page), title);
      assert.equal(await page.title(), `${title} · Parley`);
      await page.getByRole('link', { name: 'Delete conversation' }).click();
      assert.ok(await page.getByText(`“${title}” will be deleted from Acme Notes.`).isVisible());
      assert.equal(await page.locator('body script').count(), 0);
      // inBrowser fails the test if any dialog opened.
    });
  });
});
