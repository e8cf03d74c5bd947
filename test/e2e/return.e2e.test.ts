/**
 * The way back to the app in a real Chromium: the customer's page (another
 * origin) opens Parley with window.open(); Parley's pages tell it the outcome by
 * postMessage, on the registered origin, and "Return to …" closes the popup.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { signLink } from 'parley-sdk';
import {
  accessibilityViolations,
  cli,
  describeInBrowser,
  launchChromium,
  startServer,
  watchPage,
  type RunningServer,
} from './browser.ts';
import { freePort, ROOT } from '../conformance/server.ts';

/** The customer's page: records every message it receives, with the sender's origin. */
const OPENER_PAGE = `<!doctype html><title>Acme</title><script>
  window.received = [];
  window.addEventListener('message', (event) => window.received.push({ origin: event.origin, data: event.data }));
</script><p>Acme</p>`;

let tmp: string;
let server: RunningServer | undefined;
let customer: Server | undefined;
let customerOrigin: string;
let browser: Browser | undefined;
let tenant: { appId: string; appSecret: string; apiKey: string };

describeInBrowser('the way back to the app, in a popup', () => {
  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'parley-return-e2e-'));
    server = await startServer(join(tmp, 'parley.db'));
    const port = await freePort();
    // localhost against Parley's 127.0.0.1: another origin, as the customer's site is.
    customerOrigin = `http://localhost:${port}`;
    customer = createServer((_request, response) =>
      response.writeHead(200, { 'Content-Type': 'text/html' }).end(OPENER_PAGE),
    );
    await new Promise<void>((resolve) => customer!.listen(port, '127.0.0.1', resolve));
    tenant = await cli(server, 'app', 'create', '--name', 'Acme Notes');
    await cli(
      server,
      'app',
      'update',
      '--app',
      tenant.appId,
      '--return-origin',
      customerOrigin,
      '--logo',
      join(ROOT, 'test/fixtures/logo.png'),
      '--accent-color',
      '#0b5fff',
    );
    // Something to manage, so that the manage home has its buttons.
    const imported = await fetch(`${server.baseUrl}/api/ingest-export?userRef=popup-user`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'Content-Type': 'application/json' },
      body: readFileSync(join(ROOT, 'test/fixtures/claude-conversations.json')),
    });
    assert.equal(imported.status, 200);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => customer?.close(resolve));
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const link = (purpose: 'connect' | 'manage', returnUrl: string) =>
    signLink(
      {
        appId: tenant.appId,
        userRef: 'popup-user',
        scopes: ['conversations:read'],
        purpose,
        baseUrl: server!.baseUrl,
        returnUrl,
      },
      tenant.appSecret,
    );

  /** The customer's page, and the popup it opens on `url`. */
  async function openPopup(url: string): Promise<{ opener: Page; popup: Page }> {
    const context = await browser!.newContext();
    const opener = await context.newPage();
    await opener.goto(`${customerOrigin}/settings`);
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      opener.evaluate((href) => void window.open(href, 'parley', 'width=420,height=720'), url),
    ]);
    await popup.waitForLoadState('load');
    return { opener, popup };
  }

  const received = (opener: Page) => opener.evaluate(() => (window as unknown as { received: unknown[] }).received);

  test('a manage session: "Return to Acme Notes" posts success to the opener, then the popup closes', async () => {
    const { opener, popup } = await openPopup(await link('manage', `${customerOrigin}/settings?tab=ai`));
    const watcher = watchPage(popup);
    assert.equal(new URL(popup.url()).pathname, '/manage');
    const back = popup.getByRole('link', { name: 'Return to Acme Notes' });
    assert.equal(await back.getAttribute('href'), `${customerOrigin}/settings?tab=ai&parley_status=success`);
    // The brand: the logo loads from Parley itself, the accent colour paints the primary buttons.
    assert.equal(
      await popup.locator('header img.logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      4,
    );
    assert.equal(
      await popup
        .locator('.button:not(.secondary):not(.danger)')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor),
      'rgb(11, 95, 255)',
    );
    assert.deepEqual(await accessibilityViolations(popup), []);
    // The click's own wait for what follows can outlive the popup it closed: only a click on a page still open failed.
    await Promise.all([
      popup.waitForEvent('close'),
      back.click().catch((error) => {
        if (!popup.isClosed()) throw error;
      }),
    ]);
    assert.deepEqual(await received(opener), [
      { origin: server!.baseUrl, data: { type: 'parley', status: 'success' } },
    ]);
    assert.deepEqual(watcher.unexpected([]), []);
    await opener.context().close();
  });

  test('an error page tells the opener as it loads; without an opener the link is followed', async () => {
    const url = await link('connect', `${customerOrigin}/done`);
    // Used up first (the person's Continue in another tab): the popup shows Link already used.
    const used = await fetch(`${server!.baseUrl}/start`, {
      method: 'POST',
      body: new URLSearchParams({ token: new URL(url).searchParams.get('token')! }),
      redirect: 'manual',
    });
    assert.equal(used.status, 303);
    const { opener, popup } = await openPopup(url);
    assert.equal(await popup.locator('h1').innerText(), 'Link already used');
    assert.deepEqual(await accessibilityViolations(popup), []);
    await opener.waitForFunction(() => (window as unknown as { received: unknown[] }).received.length > 0);
    assert.deepEqual(await received(opener), [{ origin: server!.baseUrl, data: { type: 'parley', status: 'error' } }]);
    await opener.context().close();

    // The same page in a tab of its own: the button is a plain link back.
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await Promise.all([
      page.waitForURL(`${customerOrigin}/done?parley_status=error`),
      page.getByRole('link', { name: 'Return to Acme Notes' }).click(),
    ]);
    await context.close();
  });
});
