/**
 * "Import from another service" on the manage page: a connect flow for the same
 * app and user, opened by a form post with the manage session's token — never
 * by a link, a GET, or another site's form.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixtureBytes, json, setup } from '../helpers.ts';
import { hiddenField, openSession, PageClient, pageLink } from './page-client.ts';

const headings = (html: string) => [...html.matchAll(/<h1[^>]*>(.*?)<\/h1>/g)].map((m) => m[1]);

describe('import from another service', () => {
  test('the manage page’s form opens a connect session of the same user, whose upload lands in that user’s data', async () => {
    const t = await setup();
    const browser = await openSession(t, 'manage', 'carol');
    const home = await (await browser.get('/manage')).text();
    assert.match(
      home,
      /<h2 id="import-title">Import from another service<\/h2>.*<form method="post" action="\/manage\/import"><input type="hidden" name="csrf" value="[^"]+"\/><button type="submit" class="button secondary">Import from another service<\/button><\/form>/,
    );
    const csrf = hiddenField(home, 'csrf');

    // Another site's form cannot know the token: nothing is opened.
    const forged = await browser.post('/manage/import', {});
    assert.equal(forged.status, 403);
    assert.equal(browser.cookie('parley_connect'), undefined);
    // Only a post opens one.
    assert.equal((await browser.get('/manage/import')).status, 404);
    assert.equal(browser.cookie('parley_connect'), undefined);

    const started = await browser.post('/manage/import', { csrf });
    assert.deepEqual([started.status, started.headers.get('location')], [303, '/connect']);
    const cookie = started.headers.getSetCookie().find((line) => line.startsWith('parley_connect='));
    assert.match(cookie!, /; Path=\/; HttpOnly; SameSite=Lax$/);
    assert.deepEqual(headings(await (await browser.get('/connect')).text()), ['Where are your conversations?']);

    const page = await (await browser.get('/connect/anthropic')).text();
    const form = new FormData();
    form.set('csrf', hiddenField(page, 'csrf'));
    form.set('file', new Blob([fixtureBytes('claude-conversations.json') as BlobPart]), 'export.json');
    const uploaded = await browser.request('/connect/anthropic', { method: 'POST', body: form });
    assert.deepEqual([uploaded.status, uploaded.headers.get('location')], [303, '/connect/result']);
    const { connections } = await json(await t.request('/api/conversations?userRef=carol'));
    assert.deepEqual(
      connections.map((c: any) => [c.provider, c.conversationCount]),
      [['anthropic', 5]],
    );
    // The manage session carries on beside it, and shows what was imported.
    assert.match(
      await (await browser.get('/manage')).text(),
      /<strong>Claude<\/strong><span class="muted small">5 conversations/,
    );
  });

  test('the connect session is in the manage session’s language, and needs a live manage session', async () => {
    const t = await setup();
    const url = await pageLink(t, 'manage', 'u1', undefined, undefined, 'de');
    const browser = new PageClient(t);
    assert.equal((await browser.get(url.pathname + url.search)).status, 303);
    const csrf = hiddenField(await (await browser.get('/manage')).text(), 'csrf');
    assert.equal((await browser.post('/manage/import', { csrf })).status, 303);
    assert.equal(browser.cookie('parley_connect_locale'), 'de');
    assert.deepEqual(headings(await (await browser.get('/connect')).text()), ['Wo sind deine Unterhaltungen?']);

    // Without a manage session (none, or ended after 30 idle minutes) nothing is opened.
    const stranger = new PageClient(t);
    assert.equal((await stranger.post('/manage/import', { csrf })).status, 401);
    t.clock.advance(31 * 60_000);
    const late = await browser.post('/manage/import', { csrf });
    assert.equal(late.status, 401);
  });
});
