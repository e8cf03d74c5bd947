import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { signLink } from 'parley-sdk';
import { ParleyError } from '../../src/errors.ts';
import { importProblem } from '../../src/hosted/import-problem.ts';
import { fixtureBytes, postExport, rowCounts, SERVICE_NAMES, setup, type TestContext } from '../helpers.ts';
import { hiddenField, openSession } from './page-client.ts';

const headings = (html: string) => [...html.matchAll(/<h1[^>]*>(.*?)<\/h1>/g)].map((m) => m[1]);
/** The page's words a person reads: its main, without markup. */
const mainText = (html: string) =>
  /<main>([\s\S]*)<\/main>/
    .exec(html)![1]!
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

/** A PNG's first bytes: a picture picked instead of the export. */
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
]);
const CHATGPT = fixtureBytes('chatgpt-branches.json');
const chatgptZip = zipSync({ 'conversations.json': CHATGPT });

/** A connect session in `locale` (a link's locale claim) on the upload page of `provider`, ready to upload. */
async function uploader(t: TestContext, provider: string, locale?: string) {
  const browser = await localeSession(t, locale);
  const csrf = hiddenField(await (await browser.get(`/connect/${provider}`)).text(), 'csrf');
  return async (file: Uint8Array, name = 'export.json') => {
    const form = new FormData();
    form.set('csrf', csrf);
    form.set('file', new Blob([file as BlobPart]), name);
    assert.equal((await browser.request(`/connect/${provider}`, { method: 'POST', body: form })).status, 303);
    const result = await browser.get('/connect/result');
    return { status: result.status, html: await result.text() };
  };
}

describe('a failed import: one page per kind, in the person’s language, saying what to do next', () => {
  const kinds: Array<{
    kind: string;
    provider: string;
    file: () => Uint8Array;
    status: number;
    en: [string, RegExp];
    de: [string, RegExp];
    reason: RegExp;
  }> = [
    {
      kind: 'a picture instead of an export',
      provider: 'openai',
      file: () => PNG,
      status: 400,
      en: [
        'This file is not a conversations export',
        /Upload the file you downloaded from ChatGPT \(\.zip or \.json\), not a screenshot or another document\./,
      ],
      de: [
        'Diese Datei ist kein Export von Unterhaltungen',
        /Lade die Datei hoch, die du von ChatGPT heruntergeladen hast \(\.zip oder \.json\)/,
      ],
      reason: /Invalid export file: the file is not JSON/,
    },
    {
      kind: 'JSON that is no export',
      provider: 'openai',
      file: () => strToU8('{"hello": "world"}'),
      status: 400,
      en: ['This file is not a conversations export', /not a screenshot or another document/],
      de: ['Diese Datei ist kein Export von Unterhaltungen', /keinen Screenshot und kein anderes Dokument/],
      reason: /Unrecognized export format/,
    },
    {
      kind: 'an export of another service',
      provider: 'openai',
      file: () => fixtureBytes('claude-conversations.json'),
      status: 400,
      // The service the file is from, recognised: named, with the import as that one offered (see "no dead ends").
      en: [
        'This is a Claude export',
        /You chose ChatGPT, but this file is an export from Claude\. Import it as Claude\?/,
      ],
      de: ['Das ist ein Claude-Export', /Du hast ChatGPT gewählt, aber diese Datei ist ein Export von Claude\./],
      reason: /Invalid provider parameter/,
    },
    {
      kind: 'JSON cut short',
      provider: 'openai',
      file: () => CHATGPT.subarray(0, CHATGPT.length / 2),
      status: 400,
      en: [
        'This file is damaged or incomplete',
        /It may have been cut short while it downloaded\. Download the export from ChatGPT again/,
      ],
      de: ['Diese Datei ist beschädigt oder unvollständig', /Lade den Export erneut von ChatGPT herunter/],
      reason: /the file ends before the JSON document does/,
    },
    {
      kind: 'a zip cut short',
      provider: 'openai',
      file: () => chatgptZip.subarray(0, chatgptZip.length - 30),
      status: 400,
      en: ['This file is damaged or incomplete', /Download the export from ChatGPT again/],
      de: ['Diese Datei ist beschädigt oder unvollständig', /Lade den Export erneut von ChatGPT herunter/],
      reason: /Invalid export file: the zip/,
    },
    {
      kind: 'a Takeout made as HTML',
      provider: 'google',
      file: () => zipSync({ 'Takeout/My Activity/Gemini Apps/My Activity.html': strToU8('<html></html>') }),
      status: 400,
      en: ['This Gemini export was made with other settings', /choosing JSON as the format/],
      de: ['Dieser Gemini-Export wurde mit anderen Einstellungen erstellt', /mit JSON als Format/],
      reason: /Gemini activity was exported as HTML/,
    },
  ];
  for (const { kind, provider, file, status, en, de, reason } of kinds) {
    test(kind, async () => {
      const t = await setup();
      for (const [locale, [heading, advice]] of [
        ['en', en],
        ['de', de],
      ] as const) {
        const before = await rowCounts(t.deps);
        const result = await (await uploader(t, provider, locale))(file());
        assert.equal(result.status, status);
        assert.deepEqual(headings(result.html), [heading], locale);
        assert.match(mainText(result.html), advice, locale);
        // The technical reason is neither shown nor half-translated.
        assert.doesNotMatch(
          result.html,
          /Invalid export file|Ungültige Exportdatei|Unrecognized|Unbekanntes Exportformat|Invalid provider|truncated|JSON document|the zip/,
        );
        assert.deepEqual(await rowCounts(t.deps), before, 'nothing written');
      }
      // The reason stays in the API's answer and in the log.
      const api = await postExport(t, file(), { query: `userRef=api-user&provider=${provider}` });
      assert.match((await api.json()).error, reason);
      assert.ok(
        t.logs.some((line) => line.event === 'page import refused' && reason.test(String(line.error))),
        'the reason is logged',
      );
    });
  }

  test('a file too large: what to do, and no limit names from the configuration', async () => {
    const t = await setup({ MAX_EXPORT_BYTES: '1000' });
    for (const [locale, heading, advice] of [
      ['en', 'This file is too large to import here', /Contact Test app’s support: they can raise the limit\./],
      [
        'de',
        'Diese Datei ist zu groß, um sie hier zu importieren',
        /Wende dich an den Support von Test app: Er kann das Limit erhöhen\./,
      ],
    ] as const) {
      const result = await (await uploader(t, 'openai', locale))(CHATGPT);
      assert.equal(result.status, 413);
      assert.deepEqual(headings(result.html), [heading]);
      assert.match(mainText(result.html), advice);
      assert.doesNotMatch(result.html, /MAX_|Export file too large/);
    }
  });

  test('nothing new: said as the heading, with the way to bring newer conversations', async () => {
    const t = await setup();
    for (const [locale, heading, text] of [
      [
        'en',
        'Nothing new in this ChatGPT export',
        /Everything in it was already imported\. To bring in newer conversations, make a new export from ChatGPT and upload it\./,
      ],
      ['de', 'Nichts Neues in diesem ChatGPT-Export', /Alles darin war schon importiert\./],
    ] as const) {
      const upload = await uploader(t, 'openai', locale);
      await upload(CHATGPT);
      const again = await upload(CHATGPT);
      assert.equal(again.status, 200);
      assert.deepEqual(headings(again.html), [heading]);
      assert.match(mainText(again.html), text);
    }
  });

  test('every other refusal of the import is a kind too, and an unknown one says so without its reason', () => {
    assert.equal(importProblem(new ParleyError('importConflict')), 'conflict');
    assert.equal(importProblem(new ParleyError('conversationTooLarge')), 'conversationTooLarge');
    assert.equal(importProblem(new ParleyError('expandedTooLarge')), 'tooLarge');
    // The person cannot make room; the app's support can raise the bound, as the page says.
    assert.equal(importProblem(new ParleyError('userStorageFull')), 'tooLarge');
    assert.equal(importProblem(new ParleyError('appStorageFull')), 'tooLarge');
    assert.equal(importProblem(new ParleyError('fileNotAnExport', { detail: 'the file is empty' })), 'notAnExport');
    assert.equal(
      importProblem(new ParleyError('invalidExport', { detail: 'the CSV file is malformed (x)' })),
      'damaged',
    );
    assert.equal(importProblem(new ParleyError('internal')), 'failed');
  });
});

describe('session and link messages say what happened', () => {
  test('a browser that never opened a session is told to open the page from the app, not that a session expired', async () => {
    const t = await setup();
    for (const [language, heading, advice] of [
      [
        'en',
        'Open this page from the app',
        /This page works only after you open a link the app gives you, and this browser has not opened one\./,
      ],
      ['de', 'Öffne diese Seite über die App', /Diese Seite funktioniert nur, nachdem du einen Link geöffnet hast/],
    ] as const) {
      for (const path of ['/connect', '/connect/openai', '/manage/delete-all']) {
        const response = await t.app.request(path, { headers: { 'Accept-Language': language } });
        assert.equal(response.status, 401);
        const html = await response.text();
        assert.deepEqual(headings(html), [heading], `${language} ${path}`);
        assert.match(mainText(html), advice);
        assert.doesNotMatch(html, /30/);
      }
    }
  });

  test('a session that did end says so, in the session’s language', async () => {
    const t = await setup();
    const browser = await openSession(t, 'manage');
    t.clock.advance(31 * 60_000);
    const html = await (await browser.get('/manage')).text();
    assert.deepEqual(headings(html), ['Session expired']);
    assert.match(mainText(html), /Your session here has ended: it closes after 30 minutes without activity\./);
  });

  test('an expired link is not said to have worked for 15 minutes', async () => {
    const t = await setup();
    for (const [locale, heading, advice] of [
      ['en', 'Link expired', /This link has run out: the app makes links that work only for a short time\./],
      ['de', 'Link abgelaufen', /Dieser Link ist abgelaufen: Die App erstellt Links, die nur kurze Zeit gelten\./],
    ] as const) {
      const url = new URL(
        await signLink(
          {
            appId: t.tenant.appId,
            userRef: 'u1',
            scopes: ['conversations:read'],
            purpose: 'connect',
            baseUrl: t.deps.config.publicUrl,
            expiresInSeconds: 1,
            locale,
          },
          t.tenant.appSecret,
          t.clock.now(),
        ),
      );
      t.clock.advance(2_000);
      const response = await t.app.request(url.pathname + url.search);
      assert.equal(response.status, 403);
      const html = await response.text();
      assert.deepEqual(headings(html), [heading]);
      assert.match(mainText(html), advice);
      assert.doesNotMatch(mainText(html), /15/);
    }
  });
});

describe('no dead ends on the connect page', () => {
  test('the chooser ends with “My assistant is not listed”: a page of what Parley reads, taking no file, with a way back', async () => {
    const t = await setup();
    for (const [locale, choice, heading, ask] of [
      ['en', 'My assistant is not listed', 'Your assistant is not listed', /Tell Test app which assistant you use/],
      [
        'de',
        'Mein Assistent ist nicht dabei',
        'Dein Assistent ist nicht dabei',
        /Sag Test app, welchen Assistenten du nutzt/,
      ],
    ] as const) {
      const browser = await localeSession(t, locale);
      const chooser = await (await browser.get('/connect')).text();
      const choices = [...chooser.matchAll(/<a class="choice" href="([^"]+)"><strong>([^<]+)<\/strong>/g)];
      assert.deepEqual(choices.at(-1)!.slice(1), ['/connect/not-listed', choice]);
      const response = await browser.get('/connect/not-listed');
      assert.equal(response.status, 200);
      const html = await response.text();
      assert.deepEqual(headings(html), [heading]);
      assert.deepEqual(
        [...html.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]),
        SERVICE_NAMES,
      );
      assert.match(mainText(html), ask);
      assert.doesNotMatch(html, /<form|type="file"/);
      assert.match(html, /<a href="\/connect">/);
    }
  });

  test('a file of another assistant names it, and one click (in the same session) imports it as that one', async () => {
    const t = await setup();
    const browser = await localeSession(t, 'en');
    const csrf = hiddenField(await (await browser.get('/connect/openai')).text(), 'csrf');
    const post = async (provider: string) => {
      const form = new FormData();
      form.set('csrf', csrf);
      form.set('file', new Blob([fixtureBytes('claude-conversations.json') as BlobPart]), 'conversations.json');
      assert.equal((await browser.request(`/connect/${provider}`, { method: 'POST', body: form })).status, 303);
      return browser.get('/connect/result');
    };
    const refused = await post('openai');
    assert.equal(refused.status, 400);
    const html = await refused.text();
    assert.deepEqual(headings(html), ['This is a Claude export']);
    // The upload script sends the same file to this address; without it, the link opens Claude's upload page.
    assert.match(
      html,
      /<a class="button" href="\/connect\/anthropic" data-import-as="anthropic">Import it as Claude<\/a>/,
    );
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
    const imported = await post('anthropic');
    assert.equal(imported.status, 200);
    assert.deepEqual(headings(await imported.text()), ['Your Claude conversations are in']);
  });

  test('a file Parley cannot read at all says which assistants it reads', async () => {
    const t = await setup();
    for (const file of [PNG, strToU8('{"hello": "world"}')]) {
      const result = await (await uploader(t, 'mistral'))(file);
      assert.equal(result.status, 400);
      assert.deepEqual(headings(result.html), ['This file is not a conversations export']);
      assert.match(mainText(result.html), /Parley reads the exports of these assistants:/);
      assert.deepEqual(
        [...result.html.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]),
        SERVICE_NAMES,
      );
    }
  });
});

/** A connect session in `locale` (a link's locale claim), opened through a signed link. */
function localeSession(t: TestContext, locale?: string) {
  return openSession(t, 'connect', 'u1', t.tenant.appId, t.tenant.appSecret, locale);
}
