/**
 * A connect session outlives 30 idle minutes: a person who left to request their
 * export comes back in the same browser within CONNECT_SESSION_HOURS and finds
 * the page; past that, the page says the session ended and how to go on.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startBackgroundWork } from '../../src/background.ts';
import { setup, type TestContext } from '../helpers.ts';
import { openSession, PageClient, pageLink } from './page-client.ts';

const HOUR_MS = 3_600_000;

const mainText = (html: string) =>
  /<main[^>]*>([\s\S]*)<\/main>/
    .exec(html)![1]!
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');

const connectLinkToken = async (t: TestContext) => (await pageLink(t, 'connect')).searchParams.get('token')!;

const sessionRows = async (t: TestContext) =>
  (await t.deps.db.selectFrom('page_sessions').select('purpose').orderBy('purpose').execute()).map(
    (row) => row.purpose,
  );

describe('coming back to the connect page', () => {
  test('the same browser finds the page 23 hours later; at 25 hours it has ended, with what to do', async () => {
    const t = await setup();
    const browser = await openSession(t, 'connect');
    const page = await browser.get('/connect/openai');
    assert.match(
      mainText(await page.text()),
      /Keep this tab, or come back to this page in this browser on this device within 24 hours: it will be where you left it\. The link from Test app works only once, so another browser or device needs a new one\./,
    );
    t.clock.advance(23 * HOUR_MS);
    assert.equal((await browser.get('/connect/openai')).status, 200);
    t.clock.advance(2 * HOUR_MS);
    const ended = await browser.get('/connect/openai');
    assert.equal(ended.status, 401);
    const text = mainText(await ended.text());
    assert.match(text, /Session expired/);
    assert.match(
      text,
      /This page stays open for 24 hours after you first opened it, and that time has passed\. Go back to the app you came from and open this page again: it will give you a new link\./,
    );
    // Ended on the server: the row is gone, whatever the browser still sends.
    assert.deepEqual(await sessionRows(t), []);
  });

  test('CONNECT_SESSION_HOURS sets how long; the cookie lasts as long, so a closed browser keeps it', async () => {
    const t = await setup({ CONNECT_SESSION_HOURS: '6' });
    const response = await new PageClient(t).post('/start', { token: await connectLinkToken(t) });
    assert.match(
      response.headers.get('set-cookie')!,
      /^parley_connect=[\w-]{43}; Max-Age=21600; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const browser = await openSession(t, 'connect');
    t.clock.advance(5 * HOUR_MS);
    assert.equal((await browser.get('/connect')).status, 200);
    t.clock.advance(HOUR_MS + 60_000);
    const ended = await browser.get('/connect');
    assert.equal(ended.status, 401);
    assert.match(mainText(await ended.text()), /This page stays open for 6 hours after you first opened it/);
  });

  test('the link was used once: coming back through it goes to the session; another browser needs a new link', async () => {
    const t = await setup();
    const token = await connectLinkToken(t);
    const browser = new PageClient(t);
    assert.equal((await browser.post('/start', { token })).status, 303);
    t.clock.advance(3 * HOUR_MS);
    const back = await browser.post('/start', { token });
    assert.equal(back.status, 303);
    assert.equal(back.headers.get('location'), '/connect');
    assert.equal((await browser.get('/connect')).status, 200);
    const other = await new PageClient(t).post('/start', { token });
    assert.equal(other.status, 403);
    assert.match(mainText(await other.text()), /Link (already used|expired)/);
  });

  test('a manage session still ends after 30 idle minutes, and maintenance keeps a connect session for its hours', async () => {
    const t = await setup();
    const connect = await openSession(t, 'connect');
    const manage = await openSession(t, 'manage');
    t.clock.advance(2 * HOUR_MS);
    const background = startBackgroundWork(t.deps, { pollMs: 60_000 });
    try {
      for (let waited = 0; (await sessionRows(t)).length > 1 && waited < 5_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await background.stop();
    }
    assert.deepEqual(await sessionRows(t), ['connect']);
    assert.equal((await manage.get('/manage')).status, 401);
    assert.equal((await connect.get('/connect')).status, 200);
  });
});
