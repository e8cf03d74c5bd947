import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { onboardApp } from '../../src/apps/apps.ts';
import {
  conversationsInFixture,
  conversationsOf,
  expectRefused,
  EXPORT_FIXTURE_NAMES,
  FIXED_NOW,
  FIXTURE_CONVERSATIONS_BY_PROVIDER,
  fixtureBytes,
  fixtureContentType,
  fixtureJson,
  form,
  json,
  postExport,
  recordWrites,
  providerOfFixture,
  rowCounts,
  seedConnection,
  setup,
  streamedZip,
  zipFolderFiles,
} from '../helpers.ts';

const bytesOf = (value: unknown) => strToU8(JSON.stringify(value));

describe('POST /api/ingest-export', () => {
  test('every fixture imports, each provider into one connection', async () => {
    const t = await setup();
    const totals: Record<string, number> = {};
    for (const name of EXPORT_FIXTURE_NAMES) {
      const response = await postExport(t, fixtureBytes(name), { contentType: fixtureContentType(name) });
      const body = await json(response);
      assert.equal(response.status, 200, `${name}: ${JSON.stringify(body)}`);
      assert.equal(body.provider, providerOfFixture(name), name);
      assert.equal(body.created + body.updated + body.unchanged + body.skipped, conversationsInFixture(name), name);
      totals[body.provider] = body.conversationCount;
    }
    const { connections } = await json(await t.request('/api/conversations?userRef=u1'));
    assert.deepEqual(Object.fromEntries(connections.map((c: any) => [c.provider, c.conversationCount])), totals);
    assert.deepEqual(totals, FIXTURE_CONVERSATIONS_BY_PROVIDER);
  });

  test('the exact response, and the stored conversation as the API lists it', async () => {
    const t = await setup();
    const response = await postExport(t, fixtureBytes('chatgpt-branches.json'), { query: 'userRef=alice' });
    const body = await json(response);
    assert.deepEqual(Object.keys(body), [
      'ok',
      'userRef',
      'connectionId',
      'provider',
      'created',
      'updated',
      'unchanged',
      'skipped',
      'conversationCount',
      'attachmentCount',
      'memories',
      'projects',
      'memoryCount',
      'projectCount',
      'notRead',
    ]);
    assert.deepEqual(
      { ...body, connectionId: 'x' },
      {
        ok: true,
        userRef: 'alice',
        connectionId: 'x',
        provider: 'openai',
        created: 1,
        updated: 0,
        unchanged: 0,
        skipped: 0,
        conversationCount: 1,
        attachmentCount: 0,
        memories: { created: 0, updated: 0, unchanged: 0 },
        projects: { created: 0, updated: 0, unchanged: 0 },
        memoryCount: 0,
        projectCount: 0,
        notRead: [],
      },
    );
    const [conversation] = await conversationsOf(t, body.connectionId);
    assert.equal(conversation.external_id, '5e0c9a7b-2f41-4d6a-8b3e-91c0d4a7f2e6');
    assert.equal(conversation.title, 'Feeding a sourdough starter');
    assert.equal(conversation.update_time, '2024-06-08T09:52:03.507Z');
    assert.equal(conversation.payload.title, 'Feeding a sourdough starter');
    assert.deepEqual(
      conversation.payload.messages.map((m: any) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.deepEqual(conversation.payload.messages[2], {
      role: 'user',
      content: 'And if I keep it in the fridge between bakes?',
      timestamp: '2024-06-08T09:51:28.442Z',
      attachments: [],
    });

    const { connections } = await json(await t.request('/api/conversations?userRef=alice'));
    assert.deepEqual(connections, [
      {
        id: body.connectionId,
        provider: 'openai',
        status: 'active',
        capturedAt: new Date(FIXED_NOW).toISOString(),
        lastSyncAt: new Date(FIXED_NOW).toISOString(),
        conversationCount: 1,
        memoryCount: 0,
        projectCount: 0,
      },
    ]);
  });

  test('a Claude conversation with tool blocks, through the API', async () => {
    const t = await setup();
    const body = await json(await postExport(t, fixtureBytes('claude-tools.json')));
    assert.equal(body.created, 2);
    const conversation = (await conversationsOf(t, body.connectionId)).find(
      (c) => c.external_id === '9a1c3e5b-7d2f-4a6c-8e0b-2d4f6a8c1e3b',
    );
    assert.equal(conversation.title, 'Converting gallons to litres');
    assert.equal(conversation.update_time, '2025-08-03T10:15:48.726Z');
    assert.deepEqual(
      conversation.payload.messages.map((m: any) => [m.role, m.content]),
      [
        ['user', 'How many litres are 5 US gallons?'],
        ['assistant', "I'll work it out with the calculator."],
        ['tool', 'Tool call: calculator\nexpression: 5 * 3.785411784'],
        ['tool', '18.92705892'],
        ['assistant', '5 US gallons are about 18.93 litres.'],
        ['user', 'And 5 imperial gallons?'],
        ['tool', 'Tool call: calculator\nexpression: 5 * 4.54609'],
        ['tool', '22.73045'],
        ['assistant', '5 imperial gallons are about 22.73 litres.'],
      ],
    );
  });

  test('re-importing the same file changes nothing and writes no conversation row', async () => {
    const t = await setup();
    const file = fixtureBytes('claude-conversations.json');
    const first = await json(await postExport(t, file));
    const writes = await recordWrites(t.deps.db, 'conversations', {
      operations: ['INSERT', 'UPDATE', 'DELETE'],
      key: 'id',
      value: 'external_id',
    });
    t.clock.advance(60_000);
    const again = await json(await postExport(t, file));
    assert.deepEqual({ ...again, connectionId: first.connectionId }, { ...first, created: 0, unchanged: 5 });
    assert.deepEqual(await writes(), []);
    const [connection] = (await json(await t.request('/api/conversations?userRef=u1'))).connections;
    assert.equal(connection.lastSyncAt, new Date(FIXED_NOW + 60_000).toISOString());
  });

  test('a changed conversation is updated, a new one created, the rest unchanged', async () => {
    const t = await setup();
    const conversations = fixtureJson('claude-conversations.json');
    await postExport(t, bytesOf(conversations));
    conversations[0].name = 'Renamed';
    conversations.push({ ...conversations[1], uuid: 'brand-new' });
    const body = await json(await postExport(t, bytesOf(conversations)));
    assert.deepEqual(
      [body.created, body.updated, body.unchanged, body.skipped, body.conversationCount],
      [1, 1, 4, 0, 6],
    );
    const titles = (await conversationsOf(t, body.connectionId)).map((c) => c.title);
    assert.ok(titles.includes('Renamed'));
  });

  test('conversations without an id are skipped; a repeated id keeps the last copy', async () => {
    const t = await setup();
    const [a, b] = fixtureJson('claude-conversations.json');
    const file = [
      { ...a, name: 'first copy' },
      { ...b, uuid: undefined },
      'not an object',
      { ...a, name: 'last copy' },
    ];
    const body = await json(await postExport(t, bytesOf(file)));
    assert.deepEqual([body.created, body.skipped, body.conversationCount], [1, 3, 1]);
    const [stored] = await conversationsOf(t, body.connectionId);
    assert.equal(stored.title, 'last copy');
  });

  test('an empty export: with a provider it succeeds, without one it is unrecognised', async () => {
    const t = await setup();
    await expectRefused(t, () => postExport(t, strToU8('[]')), 400, 'Unrecognized export format');
    await expectRefused(
      t,
      () => postExport(t, strToU8('[{"hello": "world"}]'), { query: 'userRef=u1&provider=openai' }),
      400,
      'Unrecognized export format',
    );
    const body = await json(await postExport(t, strToU8('[]'), { query: 'userRef=u1&provider=anthropic' }));
    assert.deepEqual([body.provider, body.created, body.conversationCount], ['anthropic', 0, 0]);
    const { connections } = await json(await t.request('/api/conversations?userRef=u1'));
    assert.equal(connections.length, 1);
  });

  test('zip archives: split ChatGPT files, a streamed Claude zip, other files ignored', async () => {
    const t = await setup();
    // conversations-000.json (2) and conversations-001.json (1), chat.html and user.json beside them, and an image.
    const split = zipSync({
      ...zipFolderFiles('chatgpt-zip'),
      'file-3Kq8VwYt2NpR7sLm4XcJ9b-IMG_4471.jpeg': new Uint8Array([0xff, 0xd8, 0xff, 0xe0]),
    });
    const openai = await json(await postExport(t, split, { contentType: 'application/zip' }));
    assert.deepEqual([openai.provider, openai.created, openai.skipped, openai.conversationCount], ['openai', 3, 0, 3]);
    assert.deepEqual(
      (await conversationsOf(t, openai.connectionId)).map((c) => c.title),
      ['Weekend hike packing', 'Good morning in Portuguese', 'Soft-boiled eggs'],
    );

    const claude = streamedZip({
      'users.json': strToU8('[]'),
      'conversations.json': fixtureBytes('claude-conversations.json'),
      'projects.json': strToU8('[]'),
    });
    const anthropic = await json(await postExport(t, claude, { contentType: 'application/x-zip-compressed' }));
    assert.deepEqual([anthropic.provider, anthropic.created], ['anthropic', 5]);
  });

  test('multipart uploads: json or zip in the file field, fields beside it', async () => {
    const t = await setup();
    const viaForm = await json(
      await t.request('/api/ingest-export', {
        method: 'POST',
        body: form(
          { userRef: 'bob', provider: 'anthropic' },
          { bytes: fixtureBytes('claude-conversations.json'), type: 'application/json' },
        ),
      }),
    );
    assert.deepEqual([viaForm.userRef, viaForm.provider, viaForm.created], ['bob', 'anthropic', 5]);
    const zip = zipSync({ 'conversations.json': fixtureBytes('chatgpt-branches.json') });
    const zipped = await json(
      await t.request('/api/ingest-export', {
        method: 'POST',
        body: form({ userRef: 'bob' }, { bytes: zip, type: 'application/octet-stream', name: 'export.zip' }),
      }),
    );
    assert.deepEqual([zipped.provider, zipped.created], ['openai', 1]);
    const intoConnection = await json(
      await t.request('/api/ingest-export', {
        method: 'POST',
        body: form(
          { userRef: 'bob', connectionId: zipped.connectionId },
          { bytes: fixtureBytes('chatgpt-reasoning-and-context.json'), type: 'application/json' },
        ),
      }),
    );
    assert.deepEqual(
      [intoConnection.connectionId, intoConnection.created, intoConnection.conversationCount],
      [zipped.connectionId, 2, 3],
    );
  });

  test('multipart uploads: fields after the file count too, a field named before it stands, a second file is read with the first', async () => {
    const t = await setup();
    const claude = { bytes: fixtureBytes('claude-conversations.json'), type: 'application/json' };
    const post = (body: FormData) => t.request('/api/ingest-export', { method: 'POST', body });
    const after = await json(await post(form({}, claude, { userRef: 'carol', provider: 'anthropic' })));
    assert.deepEqual([after.userRef, after.provider, after.created], ['carol', 'anthropic', 5]);
    const both = await json(
      await post(form({ userRef: 'carol' }, claude, { userRef: 'dave', connectionId: after.connectionId })),
    );
    assert.deepEqual([both.userRef, both.connectionId, both.unchanged], ['carol', after.connectionId, 5]);
    const twoFiles = form({}, claude);
    twoFiles.append('file', new Blob([fixtureBytes('claude-thinking.json') as BlobPart]), 'claude-thinking.json');
    twoFiles.append('userRef', 'erin');
    const second = await json(await post(twoFiles));
    assert.deepEqual([second.userRef, second.created], ['erin', 6]);
    assert.deepEqual((await rowCounts(t.deps)).users, 2);
  });

  test('a connection in needs_reauth becomes active again on a successful import', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, {
      appId: t.tenant.appId,
      userRef: 'u1',
      provider: 'anthropic',
      status: 'needs_reauth',
      count: 2,
    });
    const body = await json(await postExport(t, fixtureBytes('claude-thinking.json')));
    assert.equal(body.connectionId, connectionId, 'goes to the open connection of that provider');
    assert.equal(body.conversationCount, 3);
    const [connection] = (await json(await t.request('/api/conversations?userRef=u1'))).connections;
    assert.equal(connection.status, 'active');
  });

  test('after a connection is revoked, an import without connectionId opens a new one', async () => {
    const t = await setup();
    const { connectionId } = await seedConnection(t.deps, {
      appId: t.tenant.appId,
      userRef: 'u1',
      provider: 'anthropic',
      status: 'revoked',
    });
    const body = await json(await postExport(t, fixtureBytes('claude-thinking.json')));
    assert.notEqual(body.connectionId, connectionId);
    const { connections } = await json(await t.request('/api/conversations?userRef=u1'));
    assert.deepEqual(connections.map((c: any) => c.status).sort(), ['active', 'revoked']);
  });

  test('ten concurrent imports for one user and provider share one connection', async () => {
    const t = await setup();
    const file = fixtureBytes('claude-conversations.json');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => postExport(t, file, { query: 'userRef=racer' })),
    );
    const bodies = await Promise.all(responses.map(json));
    assert.deepEqual(
      responses.map((r) => r.status),
      Array(10).fill(200),
    );
    assert.equal(new Set(bodies.map((b) => b.connectionId)).size, 1);
    assert.equal(
      bodies.reduce((sum, b) => sum + b.created, 0),
      5,
    );
    assert.deepEqual(await rowCounts(t.deps), { users: 1, connections: 1, conversations: 5, staged: 0 });
  });

  describe('refusals write nothing', () => {
    test('415 for any other content type, checked first', async () => {
      const t = await setup();
      for (const contentType of ['image/png', 'application/octet-stream', 'application/jsonx', '']) {
        await expectRefused(
          t,
          () => postExport(t, fixtureBytes('claude-conversations.json'), { contentType, query: '' }),
          415,
          'Unsupported content type',
        );
      }
    });

    test('400 without userRef, in the query or the form', async () => {
      const t = await setup();
      await expectRefused(
        t,
        () => postExport(t, fixtureBytes('claude-conversations.json'), { query: '' }),
        400,
        'Missing userRef parameter',
      );
      await expectRefused(
        t,
        () => postExport(t, fixtureBytes('claude-conversations.json'), { query: 'userRef=' }),
        400,
        'Missing userRef parameter',
      );
      await expectRefused(
        t,
        () =>
          t.request('/api/ingest-export', {
            method: 'POST',
            body: form(
              { provider: 'anthropic' },
              { bytes: fixtureBytes('claude-conversations.json'), type: 'application/json' },
            ),
          }),
        400,
        'Missing userRef parameter',
      );
    });

    test('a form’s fields after its file are checked once it is read, and outrank what is wrong with the file', async () => {
      const t = await setup();
      const revoked = await seedConnection(t.deps, {
        appId: t.tenant.appId,
        userRef: 'u1',
        provider: 'anthropic',
        status: 'revoked',
      });
      const claude = { bytes: fixtureBytes('claude-conversations.json'), type: 'application/json' };
      const garbage = { bytes: strToU8('garbage'), type: 'application/json' };
      const post = (body: FormData) => () => t.request('/api/ingest-export', { method: 'POST', body });
      await expectRefused(t, post(form({}, claude)), 400, 'Missing userRef parameter');
      await expectRefused(
        t,
        post(form({}, claude, { userRef: 'u1', provider: 'openai' })),
        400,
        'Invalid provider parameter',
      );
      await expectRefused(
        t,
        post(form({}, claude, { userRef: 'u1', provider: 'no-such-provider' })),
        400,
        'Invalid provider parameter',
      );
      await expectRefused(
        t,
        post(form({}, claude, { userRef: 'u1', connectionId: revoked.connectionId })),
        409,
        'Connection is revoked',
      );
      await expectRefused(
        t,
        post(form({ userRef: 'u1' }, claude, { provider: 'openai' })),
        400,
        'Invalid provider parameter',
      );
      await expectRefused(t, post(form({}, garbage)), 400, 'Missing userRef parameter');
      await expectRefused(t, post(form({}, garbage, { userRef: 'u1' })), 400, /^Invalid export file: /);
    });

    test('413 by Content-Length, while streaming without one, and when it lies', async () => {
      const t = await setup({ MAX_EXPORT_BYTES: '1000' });
      const big = fixtureBytes('claude-conversations.json');
      const declared = await expectRefused(t, () => postExport(t, big), 413, 'Export file too large');
      assert.equal(declared.headers.get('connection'), 'close');
      const stream = () =>
        new ReadableStream({
          pull(controller) {
            controller.enqueue(big.subarray(0, 600));
          },
        });
      const streamed = await expectRefused(
        t,
        () =>
          t.request('/api/ingest-export?userRef=u1', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: stream(),
            duplex: 'half',
          } as RequestInit),
        413,
        'Export file too large',
      );
      assert.equal(streamed.headers.get('connection'), 'close');
      await expectRefused(
        t,
        () =>
          t.request('/api/ingest-export?userRef=u1', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Content-Length': '10' },
            body: stream(),
            duplex: 'half',
          } as RequestInit),
        413,
        'Export file too large',
      );
      await expectRefused(
        t,
        () =>
          t.request('/api/ingest-export', {
            method: 'POST',
            body: form({ userRef: 'u1' }, { bytes: big, type: 'application/json' }),
          }),
        413,
        'Export file too large',
      );
    });

    test('400 for an unknown provider, or one the file disagrees with', async () => {
      const t = await setup();
      await expectRefused(
        t,
        () => postExport(t, fixtureBytes('claude-conversations.json'), { query: 'userRef=u1&provider=gemini' }),
        400,
        'Invalid provider parameter',
      );
      await expectRefused(
        t,
        () => postExport(t, fixtureBytes('claude-conversations.json'), { query: 'userRef=u1&provider=openai' }),
        400,
        'Invalid provider parameter',
      );
    });

    test('404 and 409 for a connectionId that is not this user’s or is revoked; 400 when its provider differs', async () => {
      const t = await setup();
      const other = await onboardApp(t.deps, 'Other app');
      const foreign = await seedConnection(t.deps, { appId: other.appId, userRef: 'u1', provider: 'anthropic' });
      const otherUser = await seedConnection(t.deps, {
        appId: t.tenant.appId,
        userRef: 'someone-else',
        provider: 'anthropic',
      });
      const revoked = await seedConnection(t.deps, {
        appId: t.tenant.appId,
        userRef: 'u1',
        provider: 'anthropic',
        status: 'revoked',
      });
      const openai = await seedConnection(t.deps, { appId: t.tenant.appId, userRef: 'u1', provider: 'openai' });
      const file = fixtureBytes('claude-conversations.json');
      for (const id of [
        '00000000-0000-4000-8000-000000000000',
        'not-a-uuid',
        foreign.connectionId,
        otherUser.connectionId,
      ]) {
        await expectRefused(
          t,
          () => postExport(t, file, { query: `userRef=u1&connectionId=${id}` }),
          404,
          'Connection not found',
        );
      }
      await expectRefused(
        t,
        () => postExport(t, file, { query: `userRef=u1&connectionId=${revoked.connectionId}` }),
        409,
        'Connection is revoked',
      );
      await expectRefused(
        t,
        () => postExport(t, file, { query: `userRef=u1&connectionId=${openai.connectionId}` }),
        400,
        'Invalid provider parameter',
      );
    });

    test('400 for files that are not readable exports', async (t2) => {
      const t = await setup();
      const fixture = fixtureBytes('chatgpt-browsing.json');
      const cases: Array<[string, Uint8Array, string, string | RegExp]> = [
        ['not JSON', strToU8('hello'), 'application/json', /^Invalid export file: /],
        [
          'truncated',
          fixture.subarray(0, fixture.length / 2),
          'application/json',
          'Invalid export file: the file ends before the JSON document does (truncated?)',
        ],
        ['empty body', new Uint8Array(0), 'application/json', 'Invalid export file: the file is empty'],
        [
          'bad element',
          strToU8('[{"mapping": {}, "id": "a"}, {"id": tru}]'),
          'application/json',
          /^Invalid export file: /,
        ],
        [
          'an object of no provider',
          strToU8('{"conversations": []}'),
          'application/json',
          'Unrecognized export format',
        ],
        ['an array of strangers', bytesOf([{ id: 1 }, { id: 2 }]), 'application/json', 'Unrecognized export format'],
        [
          'a zip without conversations',
          zipSync({ 'user.json': strToU8('{}') }),
          'application/zip',
          'Unrecognized export format',
        ],
        [
          'a corrupt zip',
          (() => {
            const z = zipSync({ 'conversations.json': fixture });
            for (let i = 60; i < 400; i++) z[i] = 0xff;
            return z;
          })(),
          'application/zip',
          /^Invalid export file: /,
        ],
        [
          'a truncated zip',
          (() => {
            const z = streamedZip({ 'conversations.json': fixture });
            return z.subarray(0, z.length / 2);
          })(),
          'application/zip',
          /^Invalid export file: /,
        ],
        [
          'bad JSON inside a zip',
          zipSync({ 'conversations.json': strToU8('[{"mapping":') }),
          'application/zip',
          /^Invalid export file: /,
        ],
      ];
      for (const [name, body, contentType, error] of cases) {
        await t2.test(
          name,
          async () => void (await expectRefused(t, () => postExport(t, body, { contentType }), 400, error)),
        );
      }
      await expectRefused(
        t,
        () => t.request('/api/ingest-export', { method: 'POST', body: form({ userRef: 'u1' }) }),
        400,
        'Invalid export file: the form has no "file" field',
      );
    });

    test('401 without a key; 405 for other methods', async () => {
      const t = await setup();
      await expectRefused(
        t,
        async () =>
          t.app.request('/api/ingest-export?userRef=u1', {
            method: 'POST',
            body: '[]',
            headers: { 'Content-Type': 'application/json' },
          }),
        401,
        'Missing Authorization header',
      );
      const response = await expectRefused(t, () => t.request('/api/ingest-export'), 405, 'Method not allowed');
      assert.equal(response.headers.get('allow'), 'POST');
    });
  });
});
