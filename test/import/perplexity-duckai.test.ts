/**
 * Perplexity and Duck.ai exports through the API, with times written without a
 * zone read in the import's `timeZone`.
 * Every expected conversation was worked out by hand from those rules and the
 * fixtures (test/fixtures/README.md says what each shows), never read back
 * from the importer.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { zipSync } from 'fflate';
import {
  conversationsOf,
  expectRefused,
  fixtureBytes,
  postExport,
  rowCounts,
  setup,
  zipFolderFiles,
} from '../helpers.ts';
import {
  imports,
  importsOneConversation,
  JSON_TYPE,
  message,
  refusedAs,
  reimportChangesNothing,
  shown,
  truncatedWritesNothing,
  inZoneNotUtc,
  ZIP_TYPE,
} from './provider-imports.ts';

const TEXT_TYPE = 'text/plain';

describe('Perplexity (perplexity)', () => {
  inZoneNotUtc();
  const file = fixtureBytes('perplexity-conversations.json');

  /** The official export's two conversations, their zoneless times read in `zoned` (UTC by default). */
  const official = (zoned = (utc: string) => utc) => [
    {
      external_id: '3f1c9a2e-7b4d-4e8a-9c1f-2a6b8d0e4f13',
      // The first line of context_title, cut before the word the 80th character falls in.
      title: "I'm planning three days in Lisbon in early April with my partner, who doesn't…",
      // updated_at (14:18:40) is earlier than the last entry: the entry's time.
      update_time: '2026-03-10T14:21:09.904Z',
      payload: {
        title: "I'm planning three days in Lisbon in early April with my partner, who doesn't…",
        messages: [
          message(
            'user',
            "I'm planning three days in Lisbon in early April with my partner, who doesn't eat meat. Which neighbourhoods should we stay in, and what should we book ahead?\nWe like walking, tiled buildings and small bakeries.",
            '2026-03-10T14:15:02.118Z',
          ),
          message(
            'assistant',
            '## Where to stay\n\n- **Alfama**: steep lanes, tiled façades and viewpoints; quiet at night[1][2].\n- **Príncipe Real**: gardens, independent shops and several vegetarian restaurants[3].\n\n## Book ahead\n\n1. Tickets for the Gulbenkian Museum and the Tile Museum (Museu Nacional do Azulejo)[2].\n2. A table at a fado house for one evening[4].',
            '2026-03-10T14:15:02.118Z',
          ),
          // Listed last in the file, asked second; its answer is empty: the question alone.
          message('user', 'Which of those bakeries open before 8 a.m.?', '2026-03-10T14:17:45.320Z'),
          // label "reject" is an answer like any other; no engine_mode is a model.
          message('user', 'Is the 28 tram worth it, or is it too crowded?', '2026-03-10T14:21:09.904Z'),
          message(
            'assistant',
            'It is worth it if you board at **Martim Moniz** before 9 a.m.; later in the day the queue can take an hour[1]. Walking the same route downhill from Graça is a good alternative[5].',
            '2026-03-10T14:21:09.904Z',
          ),
        ],
      },
    },
    {
      external_id: 'a8e24c6f-0d1b-4a3c-9e5f-7b9d1f3a5c7e',
      title: 'What does "mise en place" mean in a restaurant kitchen?',
      update_time: zoned('2025-11-02T08:03:58.119Z'),
      payload: {
        title: 'What does "mise en place" mean in a restaurant kitchen?',
        messages: [
          message('user', 'What does "mise en place" mean in a restaurant kitchen?', zoned('2025-11-02T08:03:11.402Z')),
          message(
            'assistant',
            '*Mise en place* is French for "everything in its place": before service, each cook prepares and arranges every ingredient and tool they will need[1].\n\n| Step | Example |\n| --- | --- |\n| Prepare | Dice the onions, pick the herbs |\n| Arrange | Containers within reach, in order of use |',
            zoned('2025-11-02T08:03:11.402Z'),
          ),
        ],
      },
    },
  ];

  test('the official file imports as perplexity, though named like a ChatGPT shard and keyed like Grok, exactly: entries in time order, question and answer at the entry’s time, [n] markers kept, no model, the title cut; a re-import is all unchanged', async () => {
    const t = await setup();
    await refusedAs(t, file, ['openai', 'xai']);
    const first = await imports(t, file, JSON_TYPE, 'perplexity', { created: 2, skipped: 0, conversationCount: 2 });
    assert.deepEqual((await conversationsOf(t, first.connectionId)).map(shown), official());
    await reimportChangesNothing(t, file, JSON_TYPE, first);
  });

  test('times without a zone are read in the upload’s timeZone (here the day New York leaves summer time); those with one are not moved', async () => {
    const t = await setup();
    const { connectionId } = await imports(
      t,
      file,
      JSON_TYPE,
      'perplexity',
      { created: 2, skipped: 0, conversationCount: 2 },
      'userRef=u1&timeZone=America/New_York',
    );
    const fiveHoursLater = (utc: string) => new Date(Date.parse(utc) + 5 * 3_600_000).toISOString();
    assert.deepEqual((await conversationsOf(t, connectionId)).map(shown), official(fiveHoursLater));
  });

  test('the zip as Perplexity ships it (conversations-<date>_<time>-<hex>.json) holds the same conversations', async () => {
    const t = await setup();
    const zip = zipSync(zipFolderFiles('perplexity-zip'));
    const first = await imports(t, zip, ZIP_TYPE, 'perplexity', { created: 2, skipped: 0, conversationCount: 2 });
    await reimportChangesNothing(t, zip, ZIP_TYPE, first);
    await imports(t, file, JSON_TYPE, 'perplexity', { created: 0, unchanged: 2, skipped: 0, conversationCount: 2 });
  });

  test('the Thread Exporter’s older file: one thread from metadata, its model per answer, sources as links under it', async () => {
    const t = await setup();
    const thread = fixtureBytes('perplexity-thread-exporter.json');
    assert.deepEqual(await importsOneConversation(t, thread, JSON_TYPE, 'perplexity'), [
      {
        external_id: 'b6d4f0e2-1a3c-4b5d-8e7f-9a0b1c2d3e4f',
        title: 'How do heat pumps cope with very cold weather?',
        update_time: '2026-01-18T19:33:47.918Z',
        payload: {
          title: 'How do heat pumps cope with very cold weather?',
          messages: [
            message('user', 'How do heat pumps cope with very cold weather?', '2026-01-18T19:31:05.220Z'),
            message(
              'assistant',
              'Modern air-source heat pumps keep heating down to about -25 °C, though their efficiency falls as it gets colder[1][2]. Below that, most switch to a backup electric heater[2].\n- [Cold-climate heat pumps explained](https://example.org/heat-pumps/cold-climate)\n- https://example.net/backup-heaters',
              '2026-01-18T19:31:05.220Z',
              { model: 'sonar-pro' },
            ),
            message('user', 'Do they need a defrost cycle?', '2026-01-18T19:33:47.918Z'),
            message(
              'assistant',
              'Yes. When frost builds up on the outdoor coil, the unit briefly reverses to melt it; you may see steam from the outdoor unit for a few minutes.',
              '2026-01-18T19:33:47.918Z',
              { model: 'claude-sonnet-4.5' },
            ),
          ],
        },
      },
    ]);
  });

  test('the Thread Exporter’s newer file: the entries’ context_uuid, query_str, the markdown block’s answer (else its chunks), display_model', async () => {
    const t = await setup();
    const thread = fixtureBytes('perplexity-thread-api.json');
    assert.deepEqual(await importsOneConversation(t, thread, JSON_TYPE, 'perplexity'), [
      {
        external_id: 'c7e5a3f1-9d7b-4c5a-8e3f-1d9b7c5a3e1f',
        title: 'What should I pack for a week of hiking in the Dolomites in September?',
        update_time: '2026-02-04T09:15:02.004Z',
        payload: {
          title: 'What should I pack for a week of hiking in the Dolomites in September?',
          messages: [
            message(
              'user',
              'What should I pack for a week of hiking in the Dolomites in September?',
              '2026-02-04T09:12:44.871Z',
            ),
            message(
              'assistant',
              'Pack **layers**: nights at the huts can drop near freezing while afternoons reach 20 °C[1].\n\n- Waterproof jacket\n- Broken-in boots\n- A light down jacket',
              '2026-02-04T09:12:44.871Z',
              { model: 'claude45sonnet' },
            ),
            message('user', 'And is a via ferrata kit necessary?', '2026-02-04T09:15:02.004Z'),
            message(
              'assistant',
              'Only if you plan to climb a via ferrata; you can rent a kit in Cortina or Canazei.',
              '2026-02-04T09:15:02.004Z',
              { model: 'gpt5' },
            ),
          ],
        },
      },
    ]);
  });

  test('a truncated file or zip writes nothing; an unknown timeZone is refused', async () => {
    const t = await setup();
    await truncatedWritesNothing(t, file, JSON_TYPE, 'perplexity-zip');
    await expectRefused(
      t,
      () => postExport(t, file, { query: 'userRef=u1&timeZone=Mars/Olympus_Mons' }),
      400,
      'Invalid timeZone parameter',
    );
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
  });
});

describe('Duck.ai (duckduckgo)', () => {
  inZoneNotUtc();
  const file = fixtureBytes('duckai-cast-iron.txt');
  const firstPrompt = 'My cast-iron pan has orange spots after I left it to soak overnight. Is it ruined?';
  const externalId = `duckai-2026-06-21T23:58:58-${createHash('sha256').update(firstPrompt).digest('hex').slice(0, 8)}`;

  /** The conversation, its times (written without a zone) read as `zoned` says (UTC by default). */
  const castIron = (zoned = (utc: string) => utc) => {
    const model = { model: 'GPT-4o mini' };
    return {
      external_id: externalId,
      title: 'My cast-iron pan has orange spots after I left it to soak overnight. Is it…',
      update_time: zoned('2026-06-22T00:04:10.000Z'),
      payload: {
        title: 'My cast-iron pan has orange spots after I left it to soak overnight. Is it…',
        messages: [
          message('user', firstPrompt, zoned('2026-06-21T23:58:58.000Z')),
          message(
            'assistant',
            'It is not ruined: those spots are surface rust, and cast iron recovers well.\n\n1. Scrub the rust off with steel wool and a little water.\n2. Dry the pan completely over low heat.\n3. Wipe on a thin layer of oil and heat it until it smokes, then let it cool.',
            zoned('2026-06-21T23:58:58.000Z'),
            model,
          ),
          // "12:00:32 a.m." is just after midnight. The model's heading inside the prompt
          // (no empty line before it) is the person's text.
          message(
            'user',
            'A friend pasted me your earlier advice:\nGPT-4o mini:\nNever use soap on cast iron.\nIs that still true?',
            zoned('2026-06-22T00:00:32.000Z'),
          ),
          message(
            'assistant',
            'Not really. A drop of mild dish soap will not harm a well-seasoned pan; what harms it is soaking and leaving it wet.',
            zoned('2026-06-22T00:00:32.000Z'),
            model,
          ),
          message('user', 'Which oil is best for seasoning?', zoned('2026-06-22T00:04:10.000Z')),
          message(
            'assistant',
            'Any oil with a high smoke point works:\n\n| Oil | Smoke point |\n|-----|-------------|\n| Flaxseed | 225 °C |\n| Canola | 205 °C |\n\nMany people prefer canola because it is cheap and forms a durable layer.',
            zoned('2026-06-22T00:04:10.000Z'),
            model,
          ),
        ],
      },
    };
  };

  test('the .txt (byte order mark, a.m./p.m. with dots) imports as duckduckgo from text/plain, exactly; a re-import is all unchanged', async () => {
    const t = await setup();
    await refusedAs(t, file, ['openai', 'microsoft']);
    // The exact conversation: prompts and answers at the prompt’s time, the model from the header, the title cut.
    assert.deepEqual(await importsOneConversation(t, file, TEXT_TYPE, 'duckduckgo'), [castIron()]);
  });

  test('times are read in the upload’s timeZone; the id is the time as written, so the conversation is the same', async () => {
    const t = await setup();
    const { connectionId } = await imports(
      t,
      file,
      TEXT_TYPE,
      'duckduckgo',
      { created: 1, skipped: 0, conversationCount: 1 },
      'userRef=u1&timeZone=America/Toronto',
    );
    const summerTimeInToronto = (utc: string) => new Date(Date.parse(utc) + 4 * 3_600_000).toISOString();
    assert.deepEqual((await conversationsOf(t, connectionId)).map(shown), [castIron(summerTimeInToronto)]);
    // Read again in UTC: the same conversation, updated.
    await imports(t, file, TEXT_TYPE, 'duckduckgo', { created: 0, updated: 1, skipped: 0, conversationCount: 1 });
  });

  test('several .txt files in a zip are one conversation each', async () => {
    const t = await setup();
    const zip = zipSync(zipFolderFiles('duckai-zip'));
    const first = await imports(t, zip, ZIP_TYPE, 'duckduckgo', { created: 2, skipped: 0, conversationCount: 2 });
    await reimportChangesNothing(t, zip, ZIP_TYPE, first);
    await imports(t, file, TEXT_TYPE, 'duckduckgo', { created: 0, unchanged: 1, skipped: 0, conversationCount: 2 });
    const bookshop = (await conversationsOf(t, first.connectionId))
      .map(shown)
      .find((conversation) => conversation.external_id !== externalId);
    assert.deepEqual(bookshop?.payload.messages.at(-1), {
      role: 'assistant',
      content: '"Stay for a chapter, leave with a story."',
      timestamp: '2026-07-03T12:02:41.000Z',
      model: 'Claude Haiku 4.5',
    });
  });

  test('a text file longer than MAX_CONVERSATION_BYTES is refused, as a JSON conversation is, and writes nothing', async () => {
    const t = await setup({ MAX_CONVERSATION_BYTES: '1000' });
    assert.ok(file.length > 1000);
    await expectRefused(
      t,
      () => postExport(t, file, { contentType: TEXT_TYPE }),
      413,
      'Export file too large: MAX_CONVERSATION_BYTES',
    );
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
  });

  test('a file cut short, or a zip of one, writes nothing', async () => {
    const t = await setup();
    await truncatedWritesNothing(t, file, TEXT_TYPE, 'duckai-zip');
  });
});
