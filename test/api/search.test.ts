/**
 * `q` on the conversation listing: full-text search over titles and message
 * text, ranked, scoped to the connection; and the index kept in step with every
 * import and deletion. Runs on SQLite (FTS5) and PostgreSQL (tsvector) alike.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { onboardApp } from '../../src/apps/apps.ts';
import { sql } from 'kysely';
import { startBackgroundWork } from '../../src/background.ts';
import { countConnectionMatches } from '../../src/db/conversation-search.ts';
import {
  connectionsToIndex,
  indexConversations,
  indexPendingInBatches,
} from '../../src/db/dialects/sqlite-search-index.ts';
import {
  databaseBefore,
  isPostgres,
  json,
  postExport,
  seedApp,
  seedConnection,
  setup,
  type TestContext,
} from '../helpers.ts';
import { openSession } from '../pages/page-client.ts';

/** A Claude export of conversations given by id, title, update time and message texts. */
function claudeExport(conversations: Array<{ id: string; title: string; updated: string; texts: string[] }>) {
  const file = conversations.map(({ id, title, updated, texts }) => ({
    uuid: id,
    name: title,
    created_at: updated,
    updated_at: updated,
    chat_messages: texts.map((text, i) => ({
      uuid: `${id}-${i}`,
      text,
      content: [{ type: 'text', text }],
      sender: i % 2 ? 'assistant' : 'human',
      created_at: updated,
    })),
  }));
  return new TextEncoder().encode(JSON.stringify(file));
}

const CORPUS = [
  {
    id: 'garden',
    title: 'Tomato garden plans',
    updated: '2026-01-05T00:00:00Z',
    texts: ['How deep should tomato seedlings go?', 'Plant tomato seedlings deep: tomato stems root.'],
  },
  {
    id: 'soup',
    title: 'Soup for dinner',
    updated: '2026-01-04T00:00:00Z',
    texts: ['A soup with one tomato and lentils?', 'Yes: lentil soup.'],
  },
  {
    id: 'cafe',
    title: 'Café Crème in Zürich',
    updated: '2026-01-03T00:00:00Z',
    texts: ['Where is a good CAFÉ near the lake?', 'Try the one by the Bürkliplatz.'],
  },
  {
    id: 'html',
    title: 'Markup question',
    updated: '2026-01-02T00:00:00Z',
    texts: ['What does <script>alert("x")</script> do in a tomato page?', 'It runs: escape it.'],
  },
  {
    id: 'ops',
    title: 'Operators',
    updated: '2026-01-01T00:00:00Z',
    texts: ['Search for "quoted" AND NOT this OR that NEAR(x y) col:value * ^start'],
  },
];

async function imported(t: TestContext, corpus = CORPUS, userRef = 'u1') {
  const answer = await json(
    await postExport(t, claudeExport(corpus), { query: `userRef=${userRef}&provider=anthropic` }),
  );
  assert.ok(answer.connectionId, JSON.stringify(answer));
  return answer.connectionId as string;
}

const find = async (t: TestContext, connectionId: string, q: string, more = '') => {
  const res = await t.request(`/api/conversations?connectionId=${connectionId}&q=${encodeURIComponent(q)}${more}`);
  assert.equal(res.status, 200, `${q}: ${res.status}`);
  return json(res);
};
const ids = (page: { conversations: Array<{ external_id: string }> }) => page.conversations.map((c) => c.external_id);

describe('q: search a connection’s conversations', () => {
  test('ranked: more matches (the title counting most) first; ties in the listing’s order', async () => {
    const t = await setup();
    const connectionId = await imported(t);
    const page = await find(t, connectionId, 'tomato');
    // garden: title and three times in messages; soup and html once each, in listing order (newer first).
    assert.deepEqual(ids(page), ['garden', 'soup', 'html']);
    assert.deepEqual([page.total, page.limit, page.offset], [3, 50, 0]);
    // The answer has the listing's shape, payloads included.
    const listing = await json(await t.request(`/api/conversations?connectionId=${connectionId}`));
    assert.deepEqual(
      page.conversations[0],
      listing.conversations.find((c: { external_id: string }) => c.external_id === 'garden'),
    );
  });

  test('every word must match; the last also as a prefix; case and accents folded', async () => {
    const t = await setup();
    const connectionId = await imported(t);
    assert.deepEqual(ids(await find(t, connectionId, 'tomato lentils')), ['soup']);
    assert.deepEqual(ids(await find(t, connectionId, 'tomato zebra')), []);
    assert.deepEqual(ids(await find(t, connectionId, 'lentil')), ['soup'], 'a whole word');
    assert.deepEqual(ids(await find(t, connectionId, 'lent')), ['soup'], 'the last word as a prefix');
    assert.deepEqual(ids(await find(t, connectionId, 'lent soup')), [], 'not the others');
    for (const q of ['cafe', 'CAFE', 'café', 'zurich', 'ZÜRICH creme', 'burkliplatz'])
      assert.deepEqual(ids(await find(t, connectionId, q)), ['cafe'], q);
  });

  test('quotes, operators and punctuation are plain text, never a failure', async () => {
    const t = await setup();
    const connectionId = await imported(t);
    assert.deepEqual(ids(await find(t, connectionId, '"quoted" AND NOT')), ['ops']);
    assert.deepEqual(ids(await find(t, connectionId, 'col:value')), ['ops']);
    assert.deepEqual(ids(await find(t, connectionId, '<script>')), ['html']);
    for (const q of [
      '"',
      "'",
      '"unbalanced',
      'NEAR(',
      'a OR',
      '* ^ - + : ( ) { } [ ] \\ / & | ! <-> :*',
      '*',
      'OR',
      "don't",
      'x:*',
      "'a' & 'b'",
      '\u0301',
      '😀',
      '%_',
    ]) {
      const page = await find(t, connectionId, q);
      assert.ok(Array.isArray(page.conversations), q);
      assert.equal(page.total, page.conversations.length, q);
    }
    // Words-less punctuation is a search that matches nothing; an empty or blank q searches nothing.
    assert.deepEqual(await find(t, connectionId, '?!'), { conversations: [], total: 0, limit: 50, offset: 0 });
    assert.equal((await find(t, connectionId, '')).total, CORPUS.length);
    assert.equal((await find(t, connectionId, '   ')).total, CORPUS.length);
  });

  test('paging: limit and offset over the ranked matches; total counts them', async () => {
    const t = await setup();
    const connectionId = await imported(t);
    const pages = [
      await find(t, connectionId, 'tomato', '&limit=2'),
      await find(t, connectionId, 'tomato', '&limit=2&offset=2'),
    ];
    assert.deepEqual(pages.map(ids), [['garden', 'soup'], ['html']]);
    assert.deepEqual(
      pages.map((page) => page.total),
      [3, 3],
    );
  });

  test('combines with updatedSince', async () => {
    const t = await setup();
    const connectionId = await imported(t);
    const before = new Date(t.clock.now()).toISOString();
    t.clock.advance(60_000);
    const changed = CORPUS.map((c) =>
      c.id === 'html' ? { ...c, updated: '2026-02-01T00:00:00Z', texts: [...c.texts, 'More tomato.'] } : c,
    );
    await imported(t, changed);
    assert.deepEqual(ids(await find(t, connectionId, 'tomato', `&updatedSince=${encodeURIComponent(before)}`)), [
      'html',
    ]);
    assert.equal((await find(t, connectionId, 'tomato', `&updatedSince=${encodeURIComponent(before)}`)).total, 1);
    assert.equal((await find(t, connectionId, 'lentils', `&updatedSince=${encodeURIComponent(before)}`)).total, 0);
  });

  test('over 200 characters is 400 Invalid q parameter; 200 is fine', async () => {
    const t = await setup();
    const connectionId = await imported(t);
    const res = await t.request(`/api/conversations?connectionId=${connectionId}&q=${'a'.repeat(201)}`);
    assert.equal(res.status, 400);
    assert.deepEqual(await json(res), { error: 'Invalid q parameter' });
    assert.equal((await find(t, connectionId, 'a'.repeat(200))).total, 0);
  });

  test('scoped: another connection’s, user’s or app’s conversations never appear', async () => {
    const t = await setup();
    const mine = await imported(t);
    const otherUser = await imported(
      t,
      CORPUS.map((c) => ({ ...c, title: `${c.title} elsewhere` })),
      'u2',
    );
    const other = await onboardApp(t.deps, 'Other');
    await seedConnection(t.deps, { appId: other.appId, userRef: 'u1', count: 3 });
    assert.equal((await find(t, mine, 'elsewhere')).total, 0);
    assert.equal((await find(t, otherUser, 'elsewhere')).total, CORPUS.length);
    assert.equal((await find(t, mine, 'conversation')).total, 0, 'the other app’s seeded titles');
    const foreign = await t.request(`/api/conversations?connectionId=${otherUser}&q=tomato`, {
      headers: { Authorization: `Bearer ${other.apiKey}` },
    });
    assert.equal(foreign.status, 404);
  });
});

describe('the search index follows every change', () => {
  test('re-import: changed text is found by its new words, not its old', async () => {
    const t = await setup();
    const connectionId = await imported(t);
    t.clock.advance(60_000);
    await imported(
      t,
      CORPUS.map((c) =>
        c.id === 'soup'
          ? { ...c, updated: '2026-02-01T00:00:00Z', title: 'Stew for dinner', texts: ['Barley stew?'] }
          : c,
      ),
    );
    assert.deepEqual(ids(await find(t, connectionId, 'barley')), ['soup']);
    assert.deepEqual(ids(await find(t, connectionId, 'stew')), ['soup']);
    assert.deepEqual(ids(await find(t, connectionId, 'lentils')), []);
    assert.deepEqual(ids(await find(t, connectionId, 'tomato')), ['garden', 'html']);
  });

  test('deleting a conversation, disconnecting', async () => {
    const t = await setup();
    const connectionId = await imported(t);
    const browser = await openSession(t, 'manage');
    const soup = (await find(t, connectionId, 'lentils')).conversations[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(
      await (await browser.get(`/manage/conversations/${soup.id}/delete`)).text(),
    )![1]!;
    assert.equal((await browser.post(`/manage/conversations/${soup.id}/delete`, { csrf })).status, 303);
    assert.equal((await find(t, connectionId, 'lentils')).total, 0);
    assert.deepEqual(ids(await find(t, connectionId, 'tomato')), ['garden', 'html']);
    assert.equal((await browser.post(`/manage/connections/${connectionId}/disconnect`, { csrf })).status, 303);
    assert.equal((await find(t, connectionId, 'tomato')).total, 0);
    assert.equal(await indexedWith(t, 'tomato'), 0);
    // Imported again, into a new connection: found again, once.
    const again = await imported(t);
    assert.deepEqual(ids(await find(t, again, 'lentils')), ['soup']);
  });

  test('an import’s conversations are indexed after it answers: by the background work, or by a search first', async () => {
    const t = await setup();
    const first = await imported(t);
    const second = await imported(t, CORPUS, 'u2');
    if (!isPostgres(t.deps.db)) {
      // SQLite: noted, not yet indexed (PostgreSQL indexes the row as it is written).
      assert.deepEqual((await pendingConnections(t)).sort(), [first, second].sort());
      assert.equal(await indexedWith(t, 'tomato'), 0);
    }
    // A search indexes its connection first; the other one stays noted.
    assert.deepEqual(ids(await find(t, first, 'tomato')), ['garden', 'soup', 'html']);
    if (!isPostgres(t.deps.db)) assert.deepEqual(await pendingConnections(t), [second]);
    // The background work indexes the rest without a search.
    const background = startBackgroundWork(t.deps, { pollMs: 60_000, maintenanceMs: 3_600_000 });
    try {
      for (let waited = 0; (await pendingConnections(t)).length > 0 && waited < 5_000; waited += 100) await sleep(100);
    } finally {
      await background.stop();
    }
    assert.deepEqual(await pendingConnections(t), []);
    assert.equal(await indexedWith(t, 'tomato'), 2 * 3);
    assert.deepEqual(ids(await find(t, second, 'lentils')), ['soup']);
  });

  test('indexed in batches, the connection noted until the last', {
    skip: isPostgresRun() && 'SQLite only: PostgreSQL indexes each row as it is written',
  }, async () => {
    const t = await setup();
    const connectionId = await imported(t);
    const keyed = async () =>
      Number(
        (await sql<{ n: number }>`SELECT count(*) AS n FROM conversation_search_keys`.execute(t.deps.db)).rows[0]!.n,
      );
    const two = { rows: 2, bytes: 1024 * 1024 };
    const after = await indexConversations(t.deps.db, connectionId, two);
    assert.notEqual(after, null);
    assert.equal(await keyed(), 2);
    // A batch holds as many as its bytes allow, and at least one.
    const next = await indexConversations(t.deps.db, connectionId, { rows: 500, bytes: 1 }, after!);
    assert.notEqual(next, null);
    assert.equal(await keyed(), 3);
    assert.notEqual(await indexConversations(t.deps.db, connectionId, two, next!), null);
    assert.equal(await keyed(), 5);
    assert.deepEqual(await pendingConnections(t), [connectionId]);
    await indexPendingInBatches(t.deps.db, { connectionId }, undefined, two);
    assert.equal(await keyed(), CORPUS.length);
    assert.deepEqual(await pendingConnections(t), []);
    assert.equal(await indexedWith(t, 'tomato'), 3);
  });

  test('a conversation deleted or changed before it is indexed is found as it is now', async () => {
    const t = await setup();
    const connectionId = await imported(t);
    const browser = await openSession(t, 'manage');
    const soup = (await json(await t.request(`/api/conversations?connectionId=${connectionId}`))).conversations.find(
      (c: { external_id: string }) => c.external_id === 'soup',
    );
    const csrf = /name="csrf" value="([^"]+)"/.exec(
      await (await browser.get(`/manage/conversations/${soup.id}/delete`)).text(),
    )![1]!;
    assert.equal((await browser.post(`/manage/conversations/${soup.id}/delete`, { csrf })).status, 303);
    await imported(t, [{ ...CORPUS[0]!, texts: ['Cucumbers instead.'], updated: '2026-02-01T00:00:00Z' }]);
    assert.equal((await find(t, connectionId, 'lentils')).total, 0);
    assert.deepEqual(ids(await find(t, connectionId, 'tomato')), ['garden', 'html']);
    assert.deepEqual(ids(await find(t, connectionId, 'cucumbers')), ['garden']);
  });

  for (const target of ['connection', 'user'] as const) {
    test(`purging a ${target}`, async () => {
      const t = await setup();
      const connectionId = await imported(t);
      const kept = await imported(t, CORPUS, 'u2');
      const body = target === 'user' ? { userRef: 'u1' } : { connectionId };
      const res = await t.request('/api/purge', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200);
      // Imported again for the same user: only the new copies are found, not the purged ones.
      const again = await imported(t);
      assert.notEqual(again, connectionId);
      assert.equal((await find(t, again, 'tomato')).total, 3);
      assert.equal((await find(t, kept, 'tomato')).total, 3);
      assert.equal(await indexedWith(t, 'tomato'), 2 * 3, 'the purged conversations are out of the index');
    });
  }

  test('the index removes deleted words (secure-delete) and merges segments eight at a time, new or upgraded', {
    skip: isPostgresRun() && 'SQLite only: the settings of its FTS5 index',
  }, async () => {
    const settingsOf = async (db: TestContext['deps']['db']) =>
      Object.fromEntries(
        (
          await sql<{ k: string; v: number }>`SELECT k, v FROM conversation_search_config
            WHERE k IN ('automerge', 'secure-delete')`.execute(db)
        ).rows.map((row) => [row.k, row.v]),
      );
    const expected = { automerge: 8, 'secure-delete': 1 };
    assert.deepEqual(await settingsOf((await setup()).deps.db), expected);
    const { db, upgraded } = await databaseBefore(`search_settings_${crypto.randomUUID().replace(/-/g, '')}`, {
      sqlite: 21,
      postgres: 15,
    });
    assert.deepEqual(await settingsOf(db), { 'secure-delete': 1 });
    await db.destroy();
    const current = await upgraded();
    try {
      assert.deepEqual(await settingsOf(current), expected);
    } finally {
      await current.destroy();
    }
  });

  test('a database at the previous version gets its conversations indexed by the upgrade', async () => {
    const { db, upgraded } = await databaseBefore(`search_upgrade_${crypto.randomUUID().replace(/-/g, '')}`, {
      sqlite: 8,
      postgres: 4,
    });
    await seedApp(db, 'a1');
    const { connectionId } = await seedConnection(
      { db, clock: { now: () => Date.now() } },
      { appId: 'a1', userRef: 'u1', count: 3 },
    );
    await db.destroy();
    const current = await upgraded();
    try {
      assert.equal(await countConnectionMatches(current, connectionId, ['message']), 3);
      assert.equal(await countConnectionMatches(current, connectionId, ['conversation', '2']), 1);
    } finally {
      await current.destroy();
    }
  });
});

function isPostgresRun() {
  return Boolean(process.env.PARLEY_TEST_DATABASE_URL);
}

/** The connections SQLite has yet to index (none ever on PostgreSQL, which has no such list). */
const pendingConnections = async (t: TestContext) =>
  isPostgres(t.deps.db) ? [] : connectionsToIndex(t.deps.db, undefined);

/** How many conversations the index itself holds a word for, whatever their connection: gone ones must not linger. */
async function indexedWith(t: TestContext, word: string): Promise<number> {
  const { db } = t.deps;
  const query = isPostgres(db)
    ? sql<{ n: number }>`SELECT count(*) AS n FROM conversations WHERE search @@ to_tsquery('simple', ${word})`
    : sql<{ n: number }>`SELECT count(*) AS n FROM conversation_search WHERE conversation_search MATCH ${word}`;
  return Number((await query.execute(db)).rows[0]!.n);
}

describe('the manage page’s search', () => {
  test('the person’s own conversations across connections, best first, words marked, message HTML escaped', async () => {
    const t = await setup();
    await imported(t);
    await postExport(
      t,
      claudeExport([
        { id: 'other-app-user', title: 'Tomato elsewhere', updated: '2026-01-01T00:00:00Z', texts: ['tomato'] },
      ]),
      {
        query: 'userRef=u2&provider=anthropic',
      },
    );
    const browser = await openSession(t, 'manage');
    const home = await (await browser.get('/manage')).text();
    // The form leads to the results' anchor, so the browser scrolls them into view.
    assert.match(
      home,
      /<form method="get" action="\/manage#results" role="search" class="search"><label for="search-q">[^<]+<\/label>/,
    );
    assert.match(home, /<ul class="connections">/);
    assert.match(home, /<input id="search-q" type="search" name="q" value(="")? maxlength="200"/);

    const page = await (await browser.get('/manage?q=TOMATO+script')).text();
    assert.match(page, /1 conversation matches/);
    // The results stand where the connections stood.
    assert.match(page, /<section class="card" id="results"/);
    assert.doesNotMatch(page, /<ul class="connections">/);
    assert.match(page, /<a href="\/manage\/conversations\/[^"]+">Markup question<\/a>/);
    // The message's own markup shows as text; <mark> is the only markup added.
    assert.match(
      page,
      /What does &lt;<mark>script<\/mark>>alert\(&quot;x&quot;\)&lt;\/<mark>script<\/mark>> do in a <mark>tomato<\/mark> page\?/,
    );
    assert.doesNotMatch(page, /elsewhere/);

    const ranked = await (await browser.get('/manage?q=tomato')).text();
    const titles = [...ranked.matchAll(/<a href="\/manage\/conversations\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
    assert.deepEqual(titles, ['Tomato garden plans', 'Soup for dinner', 'Markup question']);
    assert.match(ranked, /Plant <mark>tomato<\/mark> seedlings|<mark>tomato<\/mark> seedlings go/);

    const none = await (await browser.get('/manage?q=zebra')).text();
    assert.match(none, /No conversations match\./);
  });
});
