import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { en } from '../../pages/i18n/en.ts';
import { CATALOGUES, messagesFor, negotiateLocale } from '../../pages/i18n/locales.ts';
import { fixtureBytes, setup, type TestContext } from '../helpers.ts';
import { hiddenField, PageClient, pageLink } from './page-client.ts';

/** A link of `purpose` for user u1, in `locale` if given. */
const link = (t: TestContext, purpose: 'connect' | 'manage', locale?: string) =>
  pageLink(t, purpose, 'u1', undefined, undefined, locale);

const headings = (html: string) => [...html.matchAll(/<h1[^>]*>(.*?)<\/h1>/g)].map((m) => m[1]);
const lang = (html: string) => /<html lang="([^"]+)"/.exec(html)?.[1];

describe('the pages’ language', () => {
  test('a link with locale "de" shows German through the whole connect session, whatever the browser asks for', async () => {
    const t = await setup();
    const url = await link(t, 'connect', 'de');
    const browser = new PageClient(t);
    const start = await (
      await browser.request(url.pathname + url.search, { headers: { 'Accept-Language': 'en' } })
    ).text();
    assert.equal(lang(start), 'de');
    assert.deepEqual(headings(start), ['Test app möchte deine KI-Unterhaltungen importieren']);
    assert.equal((await browser.post('/start', { token: url.searchParams.get('token')! })).status, 303);
    assert.equal(browser.cookie('parley_connect_locale'), 'de');

    const upload = await browser.request('/connect/anthropic', { headers: { 'Accept-Language': 'fr' } });
    const page = await upload.text();
    assert.equal(lang(page), 'de');
    assert.deepEqual(headings(page), ['Import aus Claude']);
    assert.match(page, /Exportdatei \(\.zip oder \.json\)/);
    assert.match(page, /data-text-progress="\{loaded\} von \{total\} · \{percent\} %"/);
    assert.match(page, /Datei auswählen oder hierher ziehen/);
    const form = new FormData();
    form.set('csrf', hiddenField(page, 'csrf'));
    form.set('file', new Blob([fixtureBytes('claude-conversations.json') as BlobPart]), 'export.json');
    await browser.request('/connect/anthropic', { method: 'POST', body: form });
    const result = await (await browser.get('/connect/result')).text();
    assert.match(result, /5 Unterhaltungen aus Claude sind jetzt für Test app verfügbar\./);

    // An error inside the session is in its language too.
    t.clock.advance(25 * 3_600_000);
    const expired = await (await browser.get('/connect')).text();
    assert.deepEqual(headings(expired), ['Sitzung abgelaufen']);
    assert.match(
      expired,
      /Diese Seite bleibt 24 Stunden lang offen, nachdem du sie zum ersten Mal geöffnet hast, und diese Zeit ist vorbei\./,
    );
  });

  test('a manage session keeps its link’s language; a later link without one drops it', async () => {
    const t = await setup();
    const browser = new PageClient(t);
    const ja = await link(t, 'manage', 'ja');
    assert.equal((await browser.get(ja.pathname + ja.search)).status, 303);
    const home = await (await browser.get('/manage')).text();
    assert.equal(lang(home), 'ja');
    assert.deepEqual(headings(home), ['インポートした会話']);
    const confirm = await (await browser.get('/manage/delete-all')).text();
    assert.deepEqual(headings(confirm), ['すべてのデータを削除しますか？']);

    const plain = await link(t, 'manage');
    assert.equal((await browser.get(plain.pathname + plain.search)).status, 303);
    assert.equal(browser.cookie('parley_manage_locale'), undefined);
    assert.equal(lang(await (await browser.get('/manage')).text()), 'en');
  });

  test('without a locale claim, Accept-Language decides by q-value', async () => {
    const t = await setup();
    const url = await link(t, 'connect');
    const page = await (
      await t.app.request(url.pathname + url.search, {
        headers: { 'Accept-Language': 'fr;q=0.5, zh-Hans;q=0.9, de;q=0' },
      })
    ).text();
    assert.equal(lang(page), 'zh-CN');
    assert.deepEqual(headings(page), ['Test app 想要导入你的 AI 对话']);
    // An error page with no link to go by follows the browser as well; the API's JSON stays English.
    const missing = await t.app.request('/manage', { headers: { 'Accept-Language': 'es-MX,es;q=0.9' } });
    assert.deepEqual(headings(await missing.text()), ['Falta el enlace']);
    const api = await t.app.request('/api/conversations?userRef=u1', { headers: { 'Accept-Language': 'de' } });
    assert.deepEqual(await api.json(), { error: 'Missing Authorization header' });
  });

  test('a well-formed locale the pages do not speak is accepted and falls back to the browser’s, else English', async () => {
    const t = await setup();
    const url = await link(t, 'connect', 'pt-BR');
    const browser = new PageClient(t);
    assert.equal(
      lang(await (await browser.request(url.pathname + url.search, { headers: { 'Accept-Language': 'es' } })).text()),
      'es',
    );
    assert.equal(lang(await (await browser.get(url.pathname + url.search)).text()), 'en');
    assert.equal((await browser.post('/start', { token: url.searchParams.get('token')! })).status, 303);
    assert.equal(browser.cookie('parley_connect_locale'), undefined);
    assert.equal(
      lang(await (await browser.request('/connect', { headers: { 'Accept-Language': 'fr-CA' } })).text()),
      'fr',
    );
  });

  test('a link whose locale claim is not a language tag is an invalid link; an expired German link says so in German', async () => {
    const t = await setup();
    const iat = Math.floor(t.clock.now() / 1000);
    const token = await new SignJWT({
      appId: t.tenant.appId,
      userRef: 'u1',
      scopes: ['conversations:read'],
      purpose: 'connect',
      iat,
      exp: iat + 600,
      jti: 'j1',
      locale: 'de_DE',
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(t.tenant.appSecret));
    const malformed = await t.app.request(`/start?token=${token}`);
    assert.equal(malformed.status, 401);
    assert.deepEqual(headings(await malformed.text()), ['Invalid link']);

    const url = await link(t, 'connect', 'de');
    t.clock.advance(16 * 60_000);
    const expired = await t.app.request(url.pathname + url.search);
    assert.equal(expired.status, 403);
    const html = await expired.text();
    assert.deepEqual([lang(html), headings(html)], ['de', ['Link abgelaufen']]);
    assert.match(html, /Fehler 403/);
  });

  test('negotiation: q-values, regions, Chinese scripts, and English for anything else', () => {
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'en'],
      ['', 'en'],
      ['de-AT', 'de'],
      ['zh', 'zh-CN'],
      ['zh-CN', 'zh-CN'],
      ['zh-Hans-SG', 'zh-CN'],
      ['zh-TW, ja;q=0.2', 'ja'],
      ['zh-Hant', 'en'],
      ['pt-BR, *;q=0.5', 'en'],
      ['es;q=0.3, fr;q=0.8', 'fr'],
      ['de;q=0, fr', 'fr'],
      ['ja;q=0.5, es;q=0.5', 'ja'],
      ['en_US, de', 'de'],
      ['EN-gb;q=1, de;q=0.9', 'en'],
    ];
    for (const [header, expected] of cases) assert.equal(negotiateLocale(header), expected, String(header));
  });

  test('dates, relative times, numbers and plurals follow the language', () => {
    const date = new Date('2025-09-14T08:20:12.307Z');
    assert.deepEqual(
      Object.values(CATALOGUES).map((t) => [t.locale, t.dateTime(date)]),
      [
        ['en', '2025-09-14 08:20 UTC'],
        ['de', '14. Sept. 2025, 08:20 UTC'],
        ['fr', '14 sept. 2025, 08:20 UTC'],
        ['es', '14 sept 2025, 08:20 UTC'],
        ['ja', '2025年9月14日 08:20 UTC'],
        ['zh-CN', '2025年9月14日 UTC 08:20'],
      ],
    );
    assert.equal(messagesFor('de').countNewestFirst({ count: 1234 }), '1.234 Unterhaltungen, neueste zuerst');
    assert.equal(messagesFor('de').countNewestFirst({ count: 1 }), '1 Unterhaltung, neueste zuerst');
    assert.equal(messagesFor('fr').countNewestFirst({ count: 0 }), '0 conversation, la plus récente d’abord');
    assert.equal(messagesFor('en').countNewestFirst({ count: 1 }), '1 conversation, newest first');
    const notRead = (locale: 'en' | 'de' | 'ja') => {
      const t = messagesFor(locale);
      return t.notImported({
        items: [t.notReadCounts['design chats']({ count: 3 }), t.notReadCounts['voice recordings']({ count: 1 })],
      });
    };
    assert.equal(notRead('en'), 'Not imported: 3 design chats, 1 voice recording.');
    assert.equal(notRead('de'), 'Nicht importiert: 3 Design-Chats, 1 Sprachaufnahme.');
    assert.equal(notRead('ja'), 'インポートされなかったもの：3 件のデザインチャット、1 件の音声録音。');
    // Grok's arrays Parley does not keep, one and several, in every language.
    assert.deepEqual(
      Object.values(CATALOGUES).map((t) =>
        t.notImported({
          items: [
            t.notReadCounts['media posts']({ count: 3 }),
            t.notReadCounts.projects({ count: 1 }),
            t.notReadCounts.tasks({ count: 2 }),
          ],
        }),
      ),
      [
        'Not imported: 3 media posts, 1 project, 2 tasks.',
        'Nicht importiert: 3 Medienbeiträge, 1 Projekt, 2 Aufgaben.',
        'Non importé : 3 publications média, 1 projet, 2 tâches.',
        'No importado: 3 publicaciones multimedia, 1 proyecto, 2 tareas.',
        'インポートされなかったもの：3 件のメディア投稿、1 件のプロジェクト、2 件のタスク。',
        '未导入：3 条媒体帖子、1 个项目、2 个任务。',
      ],
    );
    assert.equal(messagesFor('fr').bytes(1024 ** 3 * 1.5), '1,5\u202fGo'); // a narrow no-break space, as French writes it
    const now = Date.parse('2026-03-01T12:00:00Z');
    assert.deepEqual(
      Object.values(CATALOGUES).map((t) => [
        t.locale,
        t.ago(new Date(now - 2 * 3_600_000 - 59_000), now),
        t.ago(new Date(now - 26 * 3_600_000), now),
        t.ago(new Date(now + 5_000), now),
      ]),
      [
        ['en', '2 hr. ago', 'yesterday', 'now'],
        ['de', 'vor 2 Std.', 'gestern', 'jetzt'],
        ['fr', 'il y a 2\u00a0h', 'hier', 'maintenant'],
        ['es', 'hace 2 h', 'ayer', 'ahora'],
        ['ja', '2 時間前', '昨日', '今'],
        ['zh-CN', '2小时前', '昨天', '现在'],
      ],
    );
  });

  test('every catalogue has every key of the English one, and no empty sentence', () => {
    const sample = {
      app: 'Acme',
      provider: 'Claude',
      services: 'A or B',
      count: 2,
      status: 404,
      files: '.zip',
      size: '1 GB',
      title: 'T',
      page: 1,
      pages: 2,
      when: 'now',
      connections: 1,
      conversations: 3,
      items: ['3 design chats'],
    };
    const texts = (value: unknown, path: string): Array<[string, string]> => {
      if (typeof value === 'function') return texts(value.length === 0 ? value() : value(sample), path);
      if (typeof value === 'string') return [[path, value]];
      if (Array.isArray(value))
        return value.length === 0 ? [[path, '']] : value.flatMap((item, i) => texts(item, `${path}[${i}]`));
      return Object.entries(value as object).flatMap(([key, item]) => texts(item, `${path}.${key}`));
    };
    // dateTime, number, bytes, or and ago take other arguments than the sample: checked above.
    const { dateTime: _d, number: _n, bytes: _b, or: _o, ago: _a, ...sentences } = en;
    const keysOf = (catalogue: object) => texts(catalogue, '').map(([path]) => path);
    for (const [locale, catalogue] of Object.entries(CATALOGUES)) {
      const { dateTime: _cd, number: _cn, bytes: _cb, or: _co, ago: _ca, ...own } = catalogue;
      const found = texts(own, locale);
      assert.deepEqual(
        found.filter(([, text]) => text.trim() === ''),
        [],
        locale,
      );
      const ownKeys = new Set(keysOf(own).map((path) => path.replace(/\[\d+\]$/, '')));
      assert.deepEqual(
        keysOf(sentences)
          .map((path) => path.replace(/\[\d+\]$/, ''))
          .filter((path) => !ownKeys.has(path)),
        [],
        locale,
      );
    }
  });
});
