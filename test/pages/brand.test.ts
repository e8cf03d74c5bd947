/**
 * The app's brand on the pages: its name and logo lead the header, its accent
 * colour is a stylesheet of Parley's own, its privacy policy is linked from the
 * connect start page, and "Secured by Parley" stays small in the footer. The
 * CSP stays `img-src 'self'; style-src 'self'`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { updateAppPageSettings } from '../../src/apps/page-settings.ts';
import { fixtureBytes, setup, type TestContext } from '../helpers.ts';
import { jpegOf, pngOf, webpOf } from '../image-bytes.ts';
import { openSession, PageClient, pageLink } from './page-client.ts';

async function startPage(t: TestContext) {
  const url = await pageLink(t, 'connect');
  const response = await new PageClient(t).get(url.pathname + url.search);
  return { response, html: await response.text() };
}

const header = (html: string) => /<header class="site">(.*?)<\/header>/s.exec(html)![1]!;
const footer = (html: string) => /<footer class="site">(.*?)<\/footer>/s.exec(html)![1]!;

describe('the app’s brand', () => {
  test('without one: the app’s name leads the header, Parley’s colours, no logo, no privacy link', async () => {
    const t = await setup();
    const { html } = await startPage(t);
    assert.equal(header(html), '<span class="brand">Test app</span>');
    assert.doesNotMatch(html, /\/brand\//);
    assert.equal(
      footer(html),
      '<p>Your conversations are stored for Test app and only shown to you and to it.</p><p class="secured">Secured by Parley</p>',
    );
  });

  test('with one: logo and display name lead, the accent colour’s stylesheet, the privacy policy on the start page', async () => {
    const t = await setup();
    const settings = await updateAppPageSettings(t.deps, t.tenant.appId, {
      displayName: 'Acme Notes',
      logo: fixtureBytes('logo.png'),
      accentColor: '#0B5FFF',
      privacyUrl: 'https://acme.example/privacy',
    });
    const version = settings.logo!.sha256.slice(0, 16);
    const { response, html } = await startPage(t);
    assert.equal(
      header(html),
      `<img class="logo" src="/brand/${t.tenant.appId}/logo?v=${version}" alt/><span class="brand">Acme Notes</span>`,
    );
    assert.match(html, /<h1 id="start-title">Acme Notes would like to import your AI conversations<\/h1>/);
    assert.match(
      html,
      /<link rel="stylesheet" href="\/assets\/parley\.css"\/><link rel="stylesheet" href="\/brand\/accent\/0b5fff\.css"\/>/,
    );
    // The app's privacy policy is linked once, in the start page's "Your data" section.
    const trust = /<section class="card trust"[\s\S]*?<\/section>/.exec(html)![0];
    assert.match(
      trust,
      /How Acme Notes uses your data: <a href="https:\/\/acme\.example\/privacy" rel="noopener noreferrer">Acme Notes’s privacy policy<\/a>/,
    );
    assert.equal(html.match(/acme\.example\/privacy/g)!.length, 1);
    assert.match(footer(html), /<p class="secured">Secured by Parley<\/p>$/);
    const csp = response.headers.get('content-security-policy')!;
    assert.match(csp, /img-src 'self';/);
    assert.match(csp, /style-src 'self';/);

    // The session's pages keep the brand; the privacy link belongs to the start page.
    const browser = await openSession(t, 'manage');
    const home = await (await browser.get('/manage')).text();
    assert.match(header(home), /<span class="brand">Acme Notes<\/span>/);
    assert.match(home, /0b5fff\.css/);
  });

  test('the logo is served by Parley: its bytes and type, cached for good at its versioned URL only', async () => {
    const t = await setup();
    const bytes = fixtureBytes('logo.png');
    const settings = await updateAppPageSettings(t.deps, t.tenant.appId, { logo: bytes });
    const path = `/brand/${t.tenant.appId}/logo`;
    const versioned = await t.app.request(`${path}?v=${settings.logo!.sha256.slice(0, 16)}`);
    assert.equal(versioned.status, 200);
    assert.equal(versioned.headers.get('content-type'), 'image/png');
    assert.deepEqual(new Uint8Array(await versioned.arrayBuffer()), bytes);
    assert.equal(versioned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(versioned.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(versioned.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    assert.equal((await t.app.request(`${path}?v=0000`)).headers.get('cache-control'), 'no-cache');

    await updateAppPageSettings(t.deps, t.tenant.appId, { logo: null });
    assert.equal((await t.app.request(path)).status, 404);
    assert.equal((await t.app.request('/brand/app_unknown/logo')).status, 404);
    assert.doesNotMatch(header((await startPage(t)).html), /<img/);
  });

  test('the accent colour is a one-line stylesheet named by the colour; anything else is not found', async () => {
    const t = await setup();
    const sheet = await t.app.request('/brand/accent/0b5fff.css');
    assert.equal(sheet.status, 200);
    assert.equal(sheet.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.equal(await sheet.text(), ':root{--accent:#0b5fff}\n');
    for (const name of ['0B5FFF.css', '0b5ff.css', '0b5fff', 'red.css', '0b5fff.css;x']) {
      assert.equal((await t.app.request(`/brand/accent/${encodeURIComponent(name)}`)).status, 404, name);
    }
    // The main stylesheet paints primary buttons and links in cards with it.
    const css = await (await t.app.request('/assets/parley.css')).text();
    assert.match(css, /\.button:not\(\.secondary\):not\(\.danger\)\{background:var\(--accent\)\}/);
    assert.match(css, /:where\(\.card\) a\{color:var\(--accent\)\}/);
  });

  test('error pages about an authentic link wear the brand too', async () => {
    const t = await setup();
    await updateAppPageSettings(t.deps, t.tenant.appId, { displayName: 'Acme Notes', accentColor: '#0b5fff' });
    const url = await pageLink(t, 'manage');
    const wrong = await (await new PageClient(t).get(`/start${url.search}`)).text();
    assert.match(wrong, /<h1 id="error-title">Wrong link purpose<\/h1>/);
    assert.equal(header(wrong), '<span class="brand">Acme Notes</span>');
    assert.match(wrong, /0b5fff\.css/);
  });
});

describe('the logo’s shape: at most 4:1 either way, read from the image’s header', () => {
  const INVALID = 'Invalid logo: use a PNG, JPEG or WebP image';
  const images: Record<string, (width: number, height: number) => Uint8Array> = {
    PNG: pngOf,
    'JPEG (baseline)': (width, height) => jpegOf(width, height),
    'JPEG (progressive)': (width, height) => jpegOf(width, height, 0xc2),
    'WebP (lossy)': webpOf.lossy,
    'WebP (lossless)': webpOf.lossless,
    'WebP (extended)': webpOf.extended,
  };
  for (const [format, image] of Object.entries(images)) {
    test(`${format}: 4:1 and 1:4 are taken, 390×1700 and 1700×390 refused with the size and the rule`, async () => {
      const t = await setup();
      for (const [width, height] of [
        [400, 100],
        [100, 400],
        [96, 96],
      ] as const) {
        const settings = await updateAppPageSettings(t.deps, t.tenant.appId, { logo: image(width, height) });
        assert.equal(settings.logo?.bytes, image(width, height).byteLength, `${width}×${height}`);
      }
      await assert.rejects(updateAppPageSettings(t.deps, t.tenant.appId, { logo: image(390, 1700) }), {
        message: `${INVALID}: 390×1700 is taller than 4:1; crop it to at most 4 times as tall as wide`,
      });
      await assert.rejects(updateAppPageSettings(t.deps, t.tenant.appId, { logo: image(1700, 390) }), {
        message: `${INVALID}: 1700×390 is wider than 4:1; crop it to at most 4 times as wide as tall`,
      });
      await assert.rejects(updateAppPageSettings(t.deps, t.tenant.appId, { logo: image(401, 100) }), {
        message: `${INVALID}: 401×100 is wider than 4:1; crop it to at most 4 times as wide as tall`,
      });
      // The refused ones changed nothing: the last logo taken stays.
      const kept = await updateAppPageSettings(t.deps, t.tenant.appId, {});
      assert.equal(kept.logo?.bytes, image(96, 96).byteLength);
    });
  }

  test('an image whose size cannot be read is refused', async () => {
    const t = await setup();
    const png = pngOf(100, 100);
    const jpeg = jpegOf(100, 100);
    const unreadable = {
      'a PNG cut after its signature': png.subarray(0, 12),
      'a PNG of width 0': pngOf(0, 100),
      // The image data begins before any frame header gave the size.
      'a JPEG without a frame header': Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0, 0xff, 0xd9]),
      'a JPEG cut inside its frame header': jpeg.subarray(0, jpeg.indexOf(0xc0) + 4),
      'a WebP whose VP8 lacks its start code': Uint8Array.from(webpOf.lossy(100, 100)).fill(0, 23, 26),
      'a WebP of an unknown first chunk': Uint8Array.from([
        ...Buffer.from('RIFF'),
        30,
        0,
        0,
        0,
        ...Buffer.from('WEBPALPH'),
        ...new Array(22).fill(1),
      ]),
    };
    for (const [name, logo] of Object.entries(unreadable))
      await assert.rejects(
        updateAppPageSettings(t.deps, t.tenant.appId, { logo }),
        { message: `${INVALID}: its width and height cannot be read (a damaged file?); export it again` },
        name,
      );
  });
});
