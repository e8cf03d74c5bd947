import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { writeTransaction } from '../../src/db/transaction.ts';
import { json, seedConnection, setup } from '../helpers.ts';

describe('a long write transaction holds up no reader and no rate count', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-long-writes-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('while another request’s transaction is open, listings answer at once, counted, and see all or nothing of it', async () => {
    // A file: SQLite's reads then take a connection of their own (in memory there is only one).
    const t = await setup({ RATE_LIMIT_PER_MINUTE: '5' }, { databasePath: join(dir, 'parley.db') });
    const { connectionId } = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', count: 3 });
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    // Another request's long write: it has written rows and holds its transaction open.
    const holding = writeTransaction(t.deps.db, async (trx) => {
      await trx.deleteFrom('conversations').where('connection_id', '=', connectionId).execute();
      written();
      await finished;
    });
    await wrote;
    const listings = [];
    for (let i = 0; i < 6; i++) listings.push(await t.request(`/api/conversations?connectionId=${connectionId}`));
    assert.deepEqual(
      listings.map((response) => [response.status, response.headers.get('ratelimit-remaining')]),
      [
        [200, '4'],
        [200, '3'],
        [200, '2'],
        [200, '1'],
        [200, '0'],
        [429, '0'],
      ],
    );
    assert.equal((await json(listings[0]!)).conversations.length, 3, 'the transaction under way is not seen');
    finish();
    await holding;
    t.clock.advance(60_000);
    assert.equal(
      (await json(await t.request(`/api/conversations?connectionId=${connectionId}`))).conversations.length,
      0,
      'once committed, all of it is',
    );
    await t.deps.db.destroy();
    await t.deps.counters?.destroy();
  });
});
