/**
 * DeepSeek, Grok, Gemini, Copilot, Le Chat and Meta AI exports through the API, normalised as the
 * README's "Importing exports" describes. Every expected conversation below was
 * worked out by hand from those rules and the fixtures (test/fixtures/README.md
 * says what each shows), never read back from the importer.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import {
  conversationsOf,
  expectRefused,
  fixtureBytes,
  fixtureJson,
  form,
  json,
  postExport,
  rowCounts,
  setup,
  zipFolderFiles,
} from '../helpers.ts';
import {
  CSV_TYPE,
  imports,
  JSON_TYPE,
  message,
  reimportChangesNothing,
  shown,
  truncated,
  inZoneNotUtc,
  ZIP_TYPE,
} from './provider-imports.ts';

describe('DeepSeek (deepseek)', () => {
  inZoneNotUtc();
  const file = fixtureBytes('deepseek-conversations.json');

  test('the export imports as deepseek; the conversation without an id is skipped; a re-import is all unchanged', async () => {
    const t = await setup();
    const first = await imports(t, file, JSON_TYPE, 'deepseek', { created: 2, skipped: 1, conversationCount: 2 });
    await reimportChangesNothing(t, file, JSON_TYPE, first);
  });

  test('the exact conversations: the newest leaf’s branch, THINK as the reasoning of its answer, model, search results and files as lines, UTC times', async () => {
    const t = await setup();
    const { connectionId } = await imports(t, file, JSON_TYPE, 'deepseek', {
      created: 2,
      skipped: 1,
      conversationCount: 2,
    });
    assert.deepEqual((await conversationsOf(t, connectionId)).map(shown), [
      {
        // No updated_at: inserted_at. An empty title is null. The two answers to the files are
        // equally new: the one met last in `children` order ("2") wins. A SEARCH without results
        // is dropped; TOOL_SEARCH's empty content gives way to its results; TOOL_OPEN's text is kept.
        external_id: '5a8d2c41-7e3b-4f09-9c16-2b7e0d4a9f32',
        title: null,
        update_time: '2025-07-02T01:30:00.000Z',
        payload: {
          title: '',
          messages: [
            message('user', '[file: receipt-0412.png]\n[file: receipt-0413.png]', '2025-07-02T01:30:00.000Z'),
            message('tool', '- [EUR exchange rates](https://www.example.com/rates/eur)', '2025-07-02T01:30:09.000Z'),
            message('tool', 'Receipt 0412: total 12.40 EUR\nReceipt 0413: total 7.85 EUR', '2025-07-02T01:30:09.000Z'),
            message('assistant', 'Together the receipts come to 20.25 EUR.', '2025-07-02T01:30:09.000Z', {
              model: 'deepseek-chat',
            }),
          ],
        },
      },
      {
        // The regenerated answer ("3", 21:06) is newer than the first one ("2", 21:05), but the
        // person went on from "2": the newest leaf ("5", 21:07) is under it. THINK is the
        // reasoning of the RESPONSE after it, past the SEARCH between them.
        external_id: '5a8d2c41-7e3b-4f09-9c16-2b7e0d4a9f31',
        title: 'Quick pickles',
        update_time: '2025-06-14T13:07:15.500Z',
        payload: {
          title: 'Quick pickles',
          messages: [
            message(
              'user',
              'How long should quick pickles rest before I eat them?\n[file: brine-notes.txt]',
              '2025-06-14T13:05:12.300Z',
            ),
            message(
              'assistant',
              'Give them at least an hour in the fridge; overnight tastes better.',
              '2025-06-14T13:05:20.000Z',
              {
                model: 'deepseek-reasoner',
                reasoning: 'Their notes describe a hot vinegar brine. Thin slices pickle within an hour.',
              },
            ),
            message('user', 'Can you find a tested recipe?', '2025-06-14T13:07:00.000Z'),
            message(
              'tool',
              '- [Quick dill pickles](https://recipes.example.com/quick-dill-pickles)\n- [Fridge pickles in 10 minutes](https://kitchen.example.net/fridge-pickles)',
              '2025-06-14T13:07:15.500Z',
            ),
            message(
              'assistant',
              'This quick dill pickle recipe is well tested: slice, pour hot brine over, chill for an hour.',
              '2025-06-14T13:07:15.500Z',
              {
                model: 'deepseek-reasoner',
                reasoning: 'Look for a fridge pickle recipe with tested timings.',
              },
            ),
          ],
        },
      },
    ]);
  });

  test('[citation:N] markers become links to the node’s search results (by cite_index); one naming no result stays', async () => {
    const t = await setup();
    const { connectionId } = await imports(t, fixtureBytes('deepseek-citations.json'), JSON_TYPE, 'deepseek', {
      created: 1,
      skipped: 0,
      conversationCount: 1,
    });
    assert.deepEqual((await conversationsOf(t, connectionId)).map(shown), [
      {
        external_id: '8c1e5f27-93ab-4d60-b7e2-4f1a9c3d5e80',
        title: 'Tram to Belém',
        update_time: '2025-09-20T08:03:40.870Z',
        payload: {
          title: 'Tram to Belém',
          messages: [
            message('user', 'Which tram goes from Lisbon centre to Belém, and how often?', '2025-09-20T08:02:11.120Z'),
            message(
              'tool',
              '- [Tram 15E – Carris](https://www.carris.pt/en/tram-15e)\n- [Getting to Belém](https://travel.example.com/lisbon/belem)',
              '2025-09-20T08:03:40.870Z',
            ),
            message(
              'assistant',
              'Take tram 15E from Praça da Figueira [1](https://www.carris.pt/en/tram-15e). It runs every 8 to 12 minutes ' +
                '[2](https://travel.example.com/lisbon/belem)[1](https://www.carris.pt/en/tram-15e), and the ride takes about 25 minutes [citation:7].',
              '2025-09-20T08:03:40.870Z',
              {
                model: 'deepseek-reasoner',
                reasoning: 'They mean the tram, not the train. Check the line number and the timetable.',
              },
            ),
          ],
        },
      },
    ]);
  });

  test('the zip as DeepSeek ships it (conversations.json and user.json) holds the same conversations', async () => {
    const t = await setup();
    const zip = zipSync(zipFolderFiles('deepseek-zip'));
    const first = await imports(t, zip, ZIP_TYPE, 'deepseek', { created: 2, skipped: 1, conversationCount: 2 });
    await reimportChangesNothing(t, zip, ZIP_TYPE, first);
    const bare = await imports(t, file, JSON_TYPE, 'deepseek', {
      created: 0,
      unchanged: 2,
      skipped: 1,
      conversationCount: 2,
    });
    assert.equal(bare.connectionId, first.connectionId);
  });

  test('is never stored as ChatGPT: provider=openai is refused, provider=deepseek accepted', async () => {
    const t = await setup();
    await expectRefused(
      t,
      () => postExport(t, file, { query: 'userRef=u1&provider=openai' }),
      400,
      'Invalid provider parameter',
    );
    await expectRefused(
      t,
      () =>
        postExport(t, zipSync(zipFolderFiles('deepseek-zip')), {
          contentType: ZIP_TYPE,
          query: 'userRef=u1&provider=openai',
        }),
      400,
      'Invalid provider parameter',
    );
    await expectRefused(
      t,
      () => postExport(t, file, { query: 'userRef=u1&provider=anthropic' }),
      400,
      'Invalid provider parameter',
    );
    await imports(
      t,
      file,
      JSON_TYPE,
      'deepseek',
      { created: 2, skipped: 1, conversationCount: 2 },
      'userRef=u1&provider=deepseek',
    );
    const { connections } = await json(await t.request('/api/conversations?userRef=u1'));
    assert.deepEqual(
      connections.map((c: any) => c.provider),
      ['deepseek'],
    );
  });

  test('a truncated file or zip writes nothing', async () => {
    const t = await setup();
    await expectRefused(t, () => postExport(t, truncated(file)), 400, /^Invalid export file: /);
    await expectRefused(
      t,
      () => postExport(t, truncated(zipSync(zipFolderFiles('deepseek-zip'))), { contentType: ZIP_TYPE }),
      400,
      /^Invalid export file: /,
    );
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
  });
});

describe('Grok (xai)', () => {
  inZoneNotUtc();
  const file = fixtureBytes('grok-prod-grok-backend.json');
  const zipFiles = () => zipFolderFiles('grok-zip');

  test('the export object imports as xai; projects, tasks and media posts are not conversations; a re-import is all unchanged', async () => {
    const t = await setup();
    const first = await imports(t, file, JSON_TYPE, 'xai', { created: 2, skipped: 1, conversationCount: 2 });
    await reimportChangesNothing(t, file, JSON_TYPE, first);
  });

  test('the exact conversations: the newest response’s chain, thinking as reasoning, model, citations, images and files as lines', async () => {
    const t = await setup();
    const { connectionId } = await imports(t, file, JSON_TYPE, 'xai', { created: 2, skipped: 1, conversationCount: 2 });
    assert.deepEqual((await conversationsOf(t, connectionId)).map(shown), [
      {
        // No parent_response_id: create_time order. No modify_time: the latest response's time.
        // The response with only a thinking trace hands it to the next answer.
        external_id: 'e2c7a9b4-1d3f-4a6e-8b50-7c9d1e3f5a02',
        title: 'Fox logo',
        update_time: '2025-03-03T16:22:19.000Z',
        payload: {
          title: 'Fox logo',
          messages: [
            message('user', 'Sketch a minimal fox logo in orange.', '2025-03-03T16:20:30.000Z'),
            message('assistant', 'Here are two takes on a fox logo.\n[image]\n[image]', '2025-03-03T16:20:41.000Z'),
            message('user', 'Make the second one rounder.', '2025-03-03T16:22:00.000Z'),
            message('assistant', '[image]', '2025-03-03T16:22:19.000Z', {
              reasoning: 'Rounder ears, a shorter snout.',
            }),
          ],
        },
      },
      {
        // The chain from the newest response up through parent_response_id: the draft
        // regenerated away ("After every single ride.") is left out.
        external_id: 'e2c7a9b4-1d3f-4a6e-8b50-7c9d1e3f5a01',
        title: 'Cleaning a bike chain',
        update_time: '2025-02-10T07:41:30.250Z',
        payload: {
          title: 'Cleaning a bike chain',
          messages: [
            message('user', 'How often should I clean my bike chain?', '2025-02-10T07:30:05.000Z'),
            message(
              'assistant',
              'Every 150 to 300 km, and after any wet or muddy ride.\n- [Chain care basics](https://cycling.example.com/chain-care)\n- https://forum.example.org/t/how-often-chain',
              '2025-02-10T07:31:40.500Z',
              { model: 'grok-3', reasoning: 'Road or gravel? Either way, distance and weather decide.' },
            ),
            message('user', 'What should I use to degrease it?\n[file]', '2025-02-10T07:40:00.000Z'),
            // agent_thinking_traces are reasoning too; no `model` field, so none (the sender names one, but it is not `model`).
            message(
              'assistant',
              'A citrus degreaser and a stiff brush; rinse, dry, then oil the chain.',
              '2025-02-10T07:41:30.250Z',
              {
                reasoning: 'Compare citrus and solvent degreasers.',
              },
            ),
          ],
        },
      },
    ]);
  });

  test('the zip as xAI ships it (ttl/30d/export_data/<uuid>/prod-grok-backend.json) holds the same conversations', async () => {
    const t = await setup();
    const files = zipFiles();
    assert.ok('ttl/30d/export_data/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/prod-grok-backend.json' in files);
    const zip = zipSync(files);
    const first = await imports(t, zip, ZIP_TYPE, 'xai', { created: 2, skipped: 1, conversationCount: 2 });
    await reimportChangesNothing(t, zip, ZIP_TYPE, first);
    await imports(t, file, JSON_TYPE, 'xai', { created: 0, unchanged: 2, skipped: 1, conversationCount: 2 });
  });

  test('`conversations` is found wherever it stands among the object’s keys', async () => {
    const t = await setup();
    const { conversations, projects, tasks, media_posts } = fixtureJson('grok-prod-grok-backend.json');
    await imports(t, file, JSON_TYPE, 'xai', { created: 2, skipped: 1, conversationCount: 2 });
    const reordered = strToU8(JSON.stringify({ projects, tasks, media_posts, conversations }, null, 1));
    await imports(t, reordered, JSON_TYPE, 'xai', { created: 0, unchanged: 2, skipped: 1, conversationCount: 2 });
  });

  test('a provider parameter that disagrees is refused; a truncated file or zip writes nothing', async () => {
    const t = await setup();
    await expectRefused(
      t,
      () => postExport(t, file, { query: 'userRef=u1&provider=openai' }),
      400,
      'Invalid provider parameter',
    );
    await expectRefused(
      t,
      () => postExport(t, file, { query: 'userRef=u1&provider=google' }),
      400,
      'Invalid provider parameter',
    );
    await expectRefused(t, () => postExport(t, truncated(file)), 400, /^Invalid export file: /);
    await expectRefused(
      t,
      () => postExport(t, truncated(zipSync(zipFiles())), { contentType: ZIP_TYPE }),
      400,
      /^Invalid export file: /,
    );
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
    await imports(
      t,
      file,
      JSON_TYPE,
      'xai',
      { created: 2, skipped: 1, conversationCount: 2 },
      'userRef=u1&provider=xai',
    );
  });
});

describe('Gemini (google)', () => {
  inZoneNotUtc();
  const file = fixtureBytes('gemini-my-activity.json');
  const ACTIVITY = 'Takeout/My Activity/Gemini Apps/My Activity.json';

  test('the activity imports as google, four conversations; other entries are neither stored nor skipped; a re-import is all unchanged', async () => {
    const t = await setup();
    const first = await imports(t, file, JSON_TYPE, 'google', { created: 4, skipped: 0, conversationCount: 4 });
    await reimportChangesNothing(t, file, JSON_TYPE, first);
  });

  test('the exact conversations: exchanges grouped by gaps or by titleUrl, the last draft, attachments as lines, a long title cut', async () => {
    const t = await setup();
    const { connectionId } = await imports(t, file, JSON_TYPE, 'google', {
      created: 4,
      skipped: 0,
      conversationCount: 4,
    });
    const listed = (await conversationsOf(t, connectionId)).map(shown);
    assert.deepEqual(
      listed.map((c) => c.external_id),
      ['8b2e0d4f6a1c3e5b', '3f9a1c77e0b2d4a5', 'gemini-2025-08-04T15:15:30.000Z', 'gemini-2025-08-04T14:02:11.250Z'],
    );
    const [rivers, italian, , balcony] = listed;

    // Three exchanges, each under 30 minutes after the one before; "Selected preferred draft"
    // and "Gave feedback" between them are not messages. The first prompt is 128 characters:
    // its first 80 end inside "metres", so the title stops after "square".
    assert.deepEqual(balcony, {
      external_id: 'gemini-2025-08-04T14:02:11.250Z',
      title: 'I am planning a small vegetable garden on a sunny balcony of about four square…',
      update_time: '2025-08-04T14:45:30.000Z',
      payload: {
        title: 'I am planning a small vegetable garden on a sunny balcony of about four square…',
        messages: [
          message(
            'user',
            'I am planning a small vegetable garden on a sunny balcony of about four square metres; which crops would you start with and why?\n[file: balcony-plan.pdf]',
            '2025-08-04T14:02:11.250Z',
          ),
          // The last of the two drafts.
          message(
            'assistant',
            'Start with herbs and salad leaves: they are forgiving and quick.\n\nAdd cherry tomatoes once you know how much sun the balcony gets.',
            '2025-08-04T14:02:11.250Z',
          ),
          message('user', 'Which of those cope with strong wind?\n[image]', '2025-08-04T14:20:05.000Z'),
          message(
            'assistant',
            'Rosemary and thyme cope with wind well.\n\nSee [this guide](https://example.org/windy-balconies) for shelter ideas.',
            '2025-08-04T14:20:05.000Z',
          ),
          // A prompt without an answer.
          message('user', 'How often should I water them?', '2025-08-04T14:45:30.000Z'),
        ],
      },
    });

    // Two and a half hours apart, but one titleUrl id (…/app/<id>) makes them one conversation.
    assert.deepEqual(italian, {
      external_id: '3f9a1c77e0b2d4a5',
      title: 'How do I say good evening in Italian?',
      update_time: '2025-08-06T10:40:00.000Z',
      payload: {
        title: 'How do I say good evening in Italian?',
        messages: [
          message('user', 'How do I say good evening in Italian?', '2025-08-06T08:10:00.000Z'),
          message('assistant', 'Buona sera.', '2025-08-06T08:10:00.000Z'),
          message('user', 'And good night?', '2025-08-06T10:40:00.000Z'),
          message('assistant', 'Buona notte.', '2025-08-06T10:40:00.000Z'),
        ],
      },
    });

    // The …/app/c/<id> form of titleUrl.
    assert.deepEqual(rivers, {
      external_id: '8b2e0d4f6a1c3e5b',
      title: 'Name three rivers in Portugal',
      update_time: '2025-08-07T19:00:00.000Z',
      payload: {
        title: 'Name three rivers in Portugal',
        messages: [
          message('user', 'Name three rivers in Portugal', '2025-08-07T19:00:00.000Z'),
          message('assistant', 'The Douro, the Tagus and the Mondego.', '2025-08-07T19:00:00.000Z'),
        ],
      },
    });
  });

  test('a gap of exactly 30 minutes starts a conversation; its answer’s HTML becomes Markdown', async () => {
    const t = await setup();
    const { connectionId } = await imports(t, file, JSON_TYPE, 'google', {
      created: 4,
      skipped: 0,
      conversationCount: 4,
    });
    const plan = (await conversationsOf(t, connectionId))
      .map(shown)
      .find((c) => c.external_id === 'gemini-2025-08-04T15:15:30.000Z');
    assert.ok(plan, 'the exchange 30 minutes after the balcony conversation’s last one starts its own');
    assert.equal(plan.title, 'Give me a printable watering plan');
    assert.equal(plan.update_time, '2025-08-04T15:29:00.000Z');
    assert.equal(plan.payload.title, 'Give me a printable watering plan');
    const [ask, answer, shorter, short] = plan.payload.messages;
    assert.equal(plan.payload.messages.length, 4);
    assert.deepEqual(ask, message('user', 'Give me a printable watering plan', '2025-08-04T15:15:30.000Z'));
    assert.deepEqual(shorter, message('user', 'Shorter, please', '2025-08-04T15:29:00.000Z'));
    assert.deepEqual(
      short,
      message(
        'assistant',
        'Water in the morning, at the base, when the top centimetre is dry.',
        '2025-08-04T15:29:00.000Z',
      ),
    );
    assert.deepEqual([answer.role, answer.timestamp], ['assistant', '2025-08-04T15:15:30.000Z']);

    // The library's own choices (`*` or `-` bullets, `_` or `*` emphasis, padding) are left
    // to it; what it must do is below.
    const markdown: string = answer.content;
    assert.equal(markdown, markdown.trim(), 'trimmed');
    assert.doesNotMatch(
      markdown,
      /<\/?(p|em|strong|ul|ol|li|table|thead|tbody|tr|th|td|pre|code|a)\b/i,
      'no HTML left',
    );
    assert.doesNotMatch(markdown, /&gt;|&lt;|&amp;|&quot;/, 'entities decoded');
    const lines: Array<[string, RegExp]> = [
      ['emphasis and strong', /^Here is a plan for ([*_])most\1 balcony herbs\. (\*\*|__)Check the soil first\.\2$/m],
      ['a bullet list', /^[-*+] +Basil: daily in summer\n[-*+] +Rosemary: twice a week$/m],
      ['a numbered list', /^1\. +Fill the can\n2\. +Water at the base$/m],
      ['a table header', /^\| *Day *\| *Plants *\|$/m],
      ['its separator', /^\| *:?-{3,}:? *\| *:?-{3,}:? *\|$/m],
      ['its rows', /^\| *Monday *\| *Basil, mint *\|\n\| *Thursday *\| *Rosemary *\|$/m],
      ['a paragraph', /^A reminder for your crontab:$/m],
      // The code's own final newline may stay as a last empty line.
      ['a fenced code block, verbatim', /^```[a-z]*\n0 7 \* \* 1,4 echo "water the plants" >> ~\/todo\.txt\n\n?```$/m],
      ['a link', /^More in \[the watering guide\]\(https:\/\/example\.org\/watering\)\.$/m],
    ];
    let last = -1;
    for (const [what, pattern] of lines) {
      const found = pattern.exec(markdown);
      assert.ok(found, `${what}: ${pattern} in\n${markdown}`);
      assert.ok(found.index > last, `${what} comes after what precedes it in the HTML`);
      last = found.index;
    }
  });

  test('the Takeout zip (My Activity.json, or MyActivity.json, under Gemini Apps) holds the same conversations', async () => {
    const t = await setup();
    const files = zipFolderFiles('gemini-zip');
    assert.deepEqual(Object.keys(files), [ACTIVITY, 'Takeout/archive_browser.html']);
    const zip = zipSync(files);
    const first = await imports(t, zip, ZIP_TYPE, 'google', { created: 4, skipped: 0, conversationCount: 4 });
    await reimportChangesNothing(t, zip, ZIP_TYPE, first);
    await imports(t, file, JSON_TYPE, 'google', { created: 0, unchanged: 4, skipped: 0, conversationCount: 4 });
    const renamed = zipSync({
      'Takeout/archive_browser.html': files['Takeout/archive_browser.html']!,
      'Takeout/My Activity/Gemini Apps/MyActivity.json': files[ACTIVITY]!,
    });
    await imports(t, renamed, ZIP_TYPE, 'google', { created: 0, unchanged: 4, skipped: 0, conversationCount: 4 });
  });

  test('the details/subtitles variant: Request (or Prompt) and Response items are exchanges; an answer without a prompt is skipped, feedback and title-only entries are not counted', async () => {
    const t = await setup();
    const details = fixtureBytes('gemini-details-activity.json');
    const first = await imports(t, details, JSON_TYPE, 'google', { created: 2, skipped: 1, conversationCount: 2 });
    assert.deepEqual((await conversationsOf(t, first.connectionId)).map(shown), [
      {
        // One titleUrl id: one conversation, ten hours apart; the Response values are plain text, kept as they are.
        external_id: '5d1e9a2b7c3f',
        title: 'How do I make quick pickled onions?',
        update_time: '2025-11-03T19:42:10.512Z',
        payload: {
          title: 'How do I make quick pickled onions?',
          messages: [
            message('user', 'How do I make quick pickled onions?', '2025-11-03T09:15:00.000Z'),
            message(
              'assistant',
              'Slice a red onion thinly, cover it with hot vinegar, water, sugar and salt, and wait 30 minutes.\nThey turn bright pink.',
              '2025-11-03T09:15:00.000Z',
            ),
            message('user', 'And how long do they keep in the fridge?', '2025-11-03T19:42:10.512Z'),
            message('assistant', 'About two weeks in a sealed jar.', '2025-11-03T19:42:10.512Z'),
          ],
        },
      },
      {
        // No titleUrl: two exchanges 6 min 48 s apart, one in `details`, one in `subtitles` named Prompt.
        external_id: 'gemini-2025-11-02T15:58:12.000Z',
        title: 'Give me a word that means happy',
        update_time: '2025-11-02T16:05:00.000Z',
        payload: {
          title: 'Give me a word that means happy',
          messages: [
            message('user', 'Give me a word that means happy', '2025-11-02T15:58:12.000Z'),
            message('assistant', 'Joyful.', '2025-11-02T15:58:12.000Z'),
            message('user', 'What rhymes with orange?', '2025-11-02T16:05:00.000Z'),
            message('assistant', 'Almost nothing: "door hinge" is the usual near rhyme.', '2025-11-02T16:05:00.000Z'),
          ],
        },
      },
    ]);
    await reimportChangesNothing(t, details, JSON_TYPE, first);
  });

  test('a Takeout with the activity as HTML only is refused with what to do', async () => {
    const t = await setup();
    const html = strToU8(
      '<!DOCTYPE html><html><body><div class="outer-cell">Prompted How tall is Mont Blanc?<br>Aug 4, 2025, 4:02:11 PM CEST</div></body></html>',
    );
    const zip = zipSync({
      'Takeout/archive_browser.html': zipFolderFiles('gemini-zip')['Takeout/archive_browser.html']!,
      'Takeout/My Activity/Gemini Apps/My Activity.html': html,
    });
    const error =
      'Invalid export file: Gemini activity was exported as HTML; export it again from Takeout choosing JSON';
    await expectRefused(t, () => postExport(t, zip, { contentType: ZIP_TYPE }), 400, error);
    await expectRefused(
      t,
      () =>
        t.request('/api/ingest-export', {
          method: 'POST',
          body: form({ userRef: 'u1' }, { bytes: zip, type: ZIP_TYPE, name: 'takeout-20250805T101500Z-001.zip' }),
        }),
      400,
      error,
    );
  });

  test('a provider parameter that disagrees is refused; a truncated file or zip writes nothing', async () => {
    const t = await setup();
    await expectRefused(
      t,
      () => postExport(t, file, { query: 'userRef=u1&provider=openai' }),
      400,
      'Invalid provider parameter',
    );
    await expectRefused(
      t,
      () => postExport(t, file, { query: 'userRef=u1&provider=xai' }),
      400,
      'Invalid provider parameter',
    );
    await expectRefused(t, () => postExport(t, truncated(file)), 400, /^Invalid export file: /);
    await expectRefused(
      t,
      () => postExport(t, truncated(zipSync(zipFolderFiles('gemini-zip'))), { contentType: ZIP_TYPE }),
      400,
      /^Invalid export file: /,
    );
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
    await imports(
      t,
      file,
      JSON_TYPE,
      'google',
      { created: 4, skipped: 0, conversationCount: 4 },
      'userRef=u1&provider=google',
    );
  });
});

describe('Microsoft Copilot (microsoft)', () => {
  inZoneNotUtc();
  const file = fixtureBytes('copilot-activity-history.csv');
  // Newest first in the file (conversations are listed newest first too); each prompt and its answer
  // share one second, the answer first in the file. Ids: `copilot-` + the name's SHA-256 (8 hex) + the first time.
  const CONVERSATIONS = [
    {
      // One thread, four weeks long: one conversation. A `...` answer cut by Microsoft is kept as it is.
      external_id: 'copilot-c6be3b0c-2026-01-05T07:30:12.000Z',
      title: 'Best lighting hours for photography',
      update_time: '2026-02-02T06:55:00.000Z',
      payload: {
        title: 'Best lighting hours for photography',
        messages: [
          message('user', 'When is the best light for landscape photos?', '2026-01-05T07:30:12.000Z'),
          message(
            'assistant',
            'The golden hours: the first hour after sunrise and the last before sunset, when the light is low and warm.',
            '2026-01-05T07:30:12.000Z',
          ),
          message('user', 'And for portraits?', '2026-01-05T07:41:50.000Z'),
          message(
            'assistant',
            'Open shade or an overcast sky, which soften faces; avoid the noon sun.',
            '2026-01-05T07:41:50.000Z',
          ),
          message('user', 'Back again: what about blue hour?', '2026-01-19T16:02:03.000Z'),
          message(
            'assistant',
            'Blue hour is the 20 to 40 minutes after sunset, when the sky turns a deep blue and city lights come...',
            '2026-01-19T16:02:03.000Z',
          ),
          message('user', 'Thanks, it worked: sunrise at the lake was perfect.', '2026-02-02T06:55:00.000Z'),
          message('assistant', 'Glad to hear it!', '2026-02-02T06:55:00.000Z'),
        ],
      },
    },
    {
      // -05:00 and +01:00 → UTC; a quoted name with a comma; a newline (CRLF) inside a message.
      external_id: 'copilot-e3d6233b-2026-01-12T15:00:00.000Z',
      title: 'Regex, quickly',
      update_time: '2026-01-12T15:30:03.000Z',
      payload: {
        title: 'Regex, quickly',
        messages: [
          message('user', 'How do I match a date like 2026-01-12?', '2026-01-12T15:00:00.000Z'),
          message(
            'assistant',
            'Use \\d{4}-\\d{2}-\\d{2}, for example:\n/^\\d{4}-\\d{2}-\\d{2}$/.test(s)',
            '2026-01-12T15:00:00.000Z',
          ),
          message('user', 'And times?', '2026-01-12T15:30:03.000Z'),
          message('assistant', 'Add T\\d{2}:\\d{2} after it.', '2026-01-12T15:30:03.000Z'),
        ],
      },
    },
    {
      // Rows without a name are grouped by 30-minute gaps: 1 h 43 min after the upload's, another conversation.
      // Doubled quotes inside a quoted message. Times without an offset are UTC.
      external_id: 'copilot-e3b0c442-2026-01-10T11:00:00.000Z',
      title: null,
      update_time: '2026-01-10T11:00:00.000Z',
      payload: {
        title: '',
        messages: [
          message('user', 'Translate "obrigado"', '2026-01-10T11:00:00.000Z'),
          message('assistant', '"Thank you", said by a man; a woman says "obrigada".', '2026-01-10T11:00:00.000Z'),
        ],
      },
    },
    {
      // The person's empty row is an upload: `[file]`.
      external_id: 'copilot-e3b0c442-2026-01-10T09:15:02.000Z',
      title: null,
      update_time: '2026-01-10T09:16:40.000Z',
      payload: {
        title: '',
        messages: [
          message('user', '[file]', '2026-01-10T09:15:02.000Z'),
          message(
            'assistant',
            'It looks like a receipt from a bakery in Lisbon, dated 8 January.',
            '2026-01-10T09:15:02.000Z',
          ),
          message('user', 'What is the total?', '2026-01-10T09:16:40.000Z'),
          message('assistant', '12.40 EUR, with 1.43 EUR of VAT.', '2026-01-10T09:16:40.000Z'),
        ],
      },
    },
  ];

  test('the CSV (BOM, CRLF) imports as microsoft from text/csv; a re-import is all unchanged', async () => {
    const t = await setup();
    assert.deepEqual([...file.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the fixture starts with a byte order mark');
    assert.ok(new TextDecoder().decode(file).includes('\r\n'), 'and has CRLF line ends');
    const first = await imports(t, file, CSV_TYPE, 'microsoft', { created: 4, skipped: 0, conversationCount: 4 });
    await reimportChangesNothing(t, file, CSV_TYPE, first);
  });

  test('the exact conversations: Human and AI rows in time order, prompt first; threads by name, nameless rows by 30-minute gaps; uploads as [file]', async () => {
    const t = await setup();
    const { connectionId } = await imports(t, file, CSV_TYPE, 'microsoft', {
      created: 4,
      skipped: 0,
      conversationCount: 4,
    });
    assert.deepEqual((await conversationsOf(t, connectionId)).map(shown), CONVERSATIONS);
  });

  test('authors: Human and user (any case) are the person; AI, assistant, bot, Copilot and any other value (here `Bing`) the model', async () => {
    const t = await setup();
    const rows = ['Human', 'AI', 'USER', 'assistant', 'user', 'Bot', 'human', 'COPILOT', 'user', 'Bing'].map(
      (author, i) => `Authors,2026-03-01T10:00:${String(i).padStart(2, '0')},${author},row ${i}\r\n`,
    );
    const csv = strToU8(`Conversation,Time,Author,Message\r\n${rows.join('')}`);
    const { connectionId } = await imports(t, csv, CSV_TYPE, 'microsoft', {
      created: 1,
      skipped: 0,
      conversationCount: 1,
    });
    const [conversation] = await conversationsOf(t, connectionId);
    assert.deepEqual(
      conversation.payload.messages.map((m: any) => [m.content, m.role]),
      ['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant'].map(
        (role, i) => [`row ${i}`, role],
      ),
    );
  });

  test('a multipart upload, with the CSV or the zip in the file field', async () => {
    const t = await setup();
    const viaCsv = await json(
      await t.request('/api/ingest-export', {
        method: 'POST',
        body: form({ userRef: 'bob' }, { bytes: file, type: CSV_TYPE, name: 'copilot-activity-history.csv' }),
      }),
    );
    assert.deepEqual([viaCsv.userRef, viaCsv.provider, viaCsv.created, viaCsv.skipped], ['bob', 'microsoft', 4, 0]);
    assert.deepEqual((await conversationsOf(t, viaCsv.connectionId)).map(shown), CONVERSATIONS);
    const viaZip = await json(
      await t.request('/api/ingest-export', {
        method: 'POST',
        body: form(
          { userRef: 'bob', provider: 'microsoft' },
          { bytes: zipSync(zipFolderFiles('copilot-zip')), type: ZIP_TYPE, name: 'Copilot.zip' },
        ),
      }),
    );
    assert.deepEqual(
      [viaZip.connectionId, viaZip.provider, viaZip.created, viaZip.unchanged],
      [viaCsv.connectionId, 'microsoft', 0, 4],
    );
  });

  test('the zip as Microsoft ships it: copilot-activity-history.csv is read, the other CSV ignored', async () => {
    const t = await setup();
    const files = zipFolderFiles('copilot-zip');
    assert.deepEqual(Object.keys(files), ['browsing-activity.csv', 'copilot-activity-history.csv']);
    const zip = zipSync(files);
    const first = await imports(t, zip, ZIP_TYPE, 'microsoft', { created: 4, skipped: 0, conversationCount: 4 });
    await reimportChangesNothing(t, zip, ZIP_TYPE, first);
    assert.deepEqual((await conversationsOf(t, first.connectionId)).map(shown), CONVERSATIONS);
  });

  test('a CSV with another header is not an export', async () => {
    const t = await setup();
    const other = zipFolderFiles('copilot-zip')['browsing-activity.csv']!;
    await expectRefused(t, () => postExport(t, other, { contentType: CSV_TYPE }), 400, 'Unrecognized export format');
    await expectRefused(
      t,
      () =>
        postExport(t, strToU8('Conversation,Time,Message\r\nHi,2026-01-10T08:00:00,Hello\r\n'), {
          contentType: CSV_TYPE,
        }),
      400,
      'Unrecognized export format',
    );
    await expectRefused(
      t,
      () => postExport(t, zipSync({ 'browsing-activity.csv': other }), { contentType: ZIP_TYPE }),
      400,
      'Unrecognized export format',
    );
  });

  test('a provider parameter that disagrees is refused; a truncated file or zip writes nothing', async () => {
    const t = await setup();
    await expectRefused(
      t,
      () => postExport(t, file, { contentType: CSV_TYPE, query: 'userRef=u1&provider=openai' }),
      400,
      'Invalid provider parameter',
    );
    await expectRefused(
      t,
      () => postExport(t, file, { contentType: CSV_TYPE, query: 'userRef=u1&provider=google' }),
      400,
      'Invalid provider parameter',
    );
    // Cut inside the quoted message that holds a newline: the quote is never closed.
    const cut = Buffer.from(file).indexOf('/^\\d{4}');
    assert.ok(cut > 0);
    await expectRefused(
      t,
      () => postExport(t, file.subarray(0, cut), { contentType: CSV_TYPE }),
      400,
      /^Invalid export file: /,
    );
    await expectRefused(
      t,
      () => postExport(t, truncated(zipSync(zipFolderFiles('copilot-zip'))), { contentType: ZIP_TYPE }),
      400,
      /^Invalid export file: /,
    );
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
    await imports(
      t,
      file,
      CSV_TYPE,
      'microsoft',
      { created: 4, skipped: 0, conversationCount: 4 },
      'userRef=u1&provider=microsoft',
    );
  });
});

describe('every new provider under the import rules (streaming, all or nothing, one connection per provider)', () => {
  inZoneNotUtc();
  test('concurrent imports of one export share one connection; an import into a named connection of another provider is refused', async () => {
    const t = await setup();
    for (const [name, contentType, conversations] of [
      ['gemini-my-activity.json', JSON_TYPE, 4],
      ['copilot-activity-history.csv', CSV_TYPE, 4],
      ['grok-prod-grok-backend.json', JSON_TYPE, 2],
    ] as const) {
      const userRef = `racer-${name}`;
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          postExport(t, fixtureBytes(name), { contentType, query: `userRef=${userRef}` }),
        ),
      );
      const bodies = await Promise.all(answers.map(json));
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [200, 200, 200, 200, 200],
        name,
      );
      assert.equal(new Set(bodies.map((body) => body.connectionId)).size, 1, name);
      assert.equal(
        bodies.reduce((sum, body) => sum + body.created, 0),
        conversations,
        name,
      );
      const other = await json(
        await postExport(t, fixtureBytes('deepseek-conversations.json'), { query: `userRef=${userRef}` }),
      );
      await expectRefused(
        t,
        () =>
          postExport(t, fixtureBytes(name), {
            contentType,
            query: `userRef=${userRef}&connectionId=${other.connectionId}`,
          }),
        400,
        'Invalid provider parameter',
      );
    }
  });
});

/** An attachment as the API shows it, without its id. */
const withoutIds = (conversation: any) => ({
  ...conversation,
  payload: {
    ...conversation.payload,
    messages: conversation.payload.messages.map((one: any) =>
      one.attachments ? { ...one, attachments: one.attachments.map(({ id: _, ...rest }: any) => rest) } : one,
    ),
  },
});

describe('Mistral Le Chat (mistral)', () => {
  inZoneNotUtc();
  const LYON = 'chat-5d1e8a40-7c2b-4f6e-9a13-2b8c4e7f0a91';
  const IRA = 'chat-a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';
  const zip = () => zipSync(zipFolderFiles('mistral-zip'));

  test('the zip imports as mistral, one conversation per chat file, the upload kept as an attachment; a re-import is all unchanged', async () => {
    const t = await setup();
    const first = await imports(t, zip(), ZIP_TYPE, 'mistral', { created: 2, skipped: 0, conversationCount: 2 });
    assert.equal(first.attachmentCount, 2);
    await reimportChangesNothing(t, zip(), ZIP_TYPE, first);
  });

  test('the exact conversation: sorted by createdAt, reasoning chunks as reasoning, the tool call a message before the answer, the answer once, placeholders, canvas, files', async () => {
    const t = await setup();
    const { connectionId } = await imports(t, zip(), ZIP_TYPE, 'mistral', {
      created: 2,
      skipped: 0,
      conversationCount: 2,
    });
    const lyon = (await conversationsOf(t, connectionId)).find(
      (one) => one.external_id === '5d1e8a40-7c2b-4f6e-9a13-2b8c4e7f0a91',
    );
    const plan =
      'Here is a plan for two days in Lyon:\n\n**Day 1** — Les Halles Paul Bocuse in the morning, then the lanes of Vieux Lyon.\n**Day 2** — the Croix-Rousse market and its traboules, then dinner in a bouchon.';
    assert.deepEqual(withoutIds(shown(lyon)), {
      external_id: '5d1e8a40-7c2b-4f6e-9a13-2b8c4e7f0a91',
      // No title in the export: the first question's first line.
      title: 'Plan a two-day trip to Lyon in October.',
      update_time: '2026-08-26T20:47:03.500Z',
      payload: {
        title: 'Plan a two-day trip to Lyon in October.',
        messages: [
          {
            ...message(
              'user',
              'Plan a two-day trip to Lyon in October.\nI like food markets and old streets.\n\n[image: lyon-map.png]\n\n[file: budget.pdf]',
              '2026-08-26T20:45:30.594Z',
            ),
            attachments: [
              { name: 'lyon-map.png', contentType: 'image/png', size: 75, kind: 'image', stored: true },
              // Named by the message, its bytes not in the zip.
              { name: 'budget.pdf', contentType: 'application/pdf', size: null, kind: 'file', stored: false },
            ],
          },
          message(
            'tool',
            'Tool call: web_search\nquery: Lyon food markets opening days October 2026',
            '2026-08-26T20:45:31.006Z',
          ),
          // The answer is in `content` and in its last text chunk: once. The reference adds nothing.
          message('assistant', `${plan}\n\n[custom_element: map_widget]`, '2026-08-26T20:45:31.006Z', {
            reasoning:
              'The person wants two days in Lyon with markets and old streets; I should check market days in October.',
          }),
          message('user', 'Make it a one-page itinerary I can print.', '2026-08-26T20:47:02.120Z'),
          message(
            'assistant',
            'I put the itinerary in a canvas, ready to print.\n\n[image]\n\n**Lyon in two days**\n\n# Lyon in two days\n\n---\n\n## Day 1\n- 9:00 Les Halles Paul Bocuse\n- 14:00 Vieux Lyon and the cathedral\n\n---\n\n## Day 2\n- 8:30 Croix-Rousse market\n- 19:30 Dinner in a bouchon',
            '2026-08-26T20:47:03.500Z',
            { reasoning: 'A short answer; the itinerary itself goes in a canvas.' },
          ),
        ],
      },
    });
  });

  test('one chat file alone imports; a long first question is cut on a word boundary; turns without chunks are their content', async () => {
    const t = await setup();
    const file = zipFolderFiles('mistral-zip')[`${IRA}.json`]!;
    const first = await imports(t, file, JSON_TYPE, 'mistral', { created: 1, skipped: 0, conversationCount: 1 });
    const [ira] = await conversationsOf(t, first.connectionId);
    assert.equal(ira.title, 'Can you explain the difference between a Roth IRA and a traditional IRA for…');
    assert.ok(ira.title.length <= 80);
    assert.deepEqual(
      ira.payload.messages.map(({ role, content }: any) => [role, content.split('\n')[0]]),
      [
        [
          'user',
          'Can you explain the difference between a Roth IRA and a traditional IRA for someone who just started working?',
        ],
        ['assistant', 'Both are retirement accounts; the difference is when you pay tax.'],
        ['user', 'Which one suits a low income today?'],
        ['assistant', 'With a low tax rate today, a Roth IRA is usually the better fit.'],
      ],
    );
    await reimportChangesNothing(t, file, JSON_TYPE, first);
  });

  test('a provider parameter that disagrees is refused; a truncated file or zip writes nothing', async () => {
    const t = await setup();
    const file = zipFolderFiles('mistral-zip')[`${LYON}.json`]!;
    await expectRefused(
      t,
      () => postExport(t, file, { query: 'userRef=u1&provider=openai' }),
      400,
      'Invalid provider parameter',
    );
    await expectRefused(t, () => postExport(t, truncated(file)), 400, /^Invalid export file: /);
    await expectRefused(
      t,
      () => postExport(t, truncated(zip()), { contentType: ZIP_TYPE }),
      400,
      /^Invalid export file: /,
    );
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
  });
});

describe('Meta AI (meta)', () => {
  inZoneNotUtc();
  const HTML_TYPE = 'text/html';
  const html = fixtureBytes('meta-your_ai_conversations.html');
  const file = fixtureBytes('meta-your_ai_conversations.json');
  const soup = {
    external_id: 'meta-1776479869',
    title: 'What can I cook with leeks, potatoes and a bit of cream?',
    // The label's epoch seconds: every message's time (the export has no other).
    update_time: '2026-04-18T02:37:49.000Z',
    payload: {
      title: 'What can I cook with leeks, potatoes and a bit of cream?',
      messages: [
        message('user', 'What can I cook with leeks, potatoes and a bit of cream?', '2026-04-18T02:37:49.000Z'),
        message(
          'assistant',
          'A leek and potato soup is the classic:\n1. Soften the leeks in butter.\n2. Add the potatoes and stock, and simmer for 20 minutes.\n3. Blend, then stir in the cream.',
          '2026-04-18T02:37:49.000Z',
        ),
        message('user', 'Can I freeze it?', '2026-04-18T02:37:49.000Z'),
        // "You:" inside a line starts no turn.
        message(
          'assistant',
          'Yes: freeze it before the cream goes in, and stir the cream in when you reheat it.\nWrite on the lid what it is. You: future you will thank you.',
          '2026-04-18T02:37:49.000Z',
        ),
      ],
    },
  };

  test('the HTML page imports as meta, read with an HTML parser (entities decoded, <br> as lines); a re-import is all unchanged', async () => {
    const t = await setup();
    const first = await imports(t, html, HTML_TYPE, 'meta', { created: 2, skipped: 0, conversationCount: 2 });
    const conversations = (await conversationsOf(t, first.connectionId)).map(shown);
    assert.deepEqual(
      conversations.find((one) => one.external_id === 'meta-1776479869'),
      soup,
    );
    const sky = conversations.find((one) => one.external_id === 'meta-1777752000')!;
    assert.equal(sky.title, 'My daughter asks why the sky is blue but sunsets are red & orange — how do I…');
    assert.match(sky.payload.messages[1].content, /reds and oranges \(<600 nm and up>\) are what is left\.$/);
    await reimportChangesNothing(t, html, HTML_TYPE, first);
  });

  test('the JSON download: the same conversation from its label tree; other entries are no conversations', async () => {
    const t = await setup();
    const first = await imports(t, file, JSON_TYPE, 'meta', { created: 2, skipped: 0, conversationCount: 2 });
    const conversations = (await conversationsOf(t, first.connectionId)).map(shown);
    assert.deepEqual(
      conversations.find((one) => one.external_id === 'meta-1776479869'),
      soup,
    );
    await reimportChangesNothing(t, file, JSON_TYPE, first);
    // The HTML of the same conversations: the one in both is unchanged.
    await imports(t, html, HTML_TYPE, 'meta', { created: 1, unchanged: 1, skipped: 0, conversationCount: 3 });
  });

  test('the zip as Meta ships it (meta_ai_profile/your_ai_conversations.html beside other pages)', async () => {
    const t = await setup();
    const zip = zipSync(zipFolderFiles('meta-zip'));
    const first = await imports(t, zip, ZIP_TYPE, 'meta', { created: 2, skipped: 0, conversationCount: 2 });
    await reimportChangesNothing(t, zip, ZIP_TYPE, first);
  });

  test('any other shape is refused with what was found, nothing written', async () => {
    const t = await setup();
    const refusals: Array<[Uint8Array, string, string | RegExp]> = [
      // A Meta download without the conversations file.
      [
        zipSync({ 'meta_ai_profile/your_meta_ai_profile.html': strToU8('<html><body>Profile</body></html>') }),
        ZIP_TYPE,
        /^Invalid export file: this Meta download holds no your_ai_conversations file/,
      ],
      // A label tree with no conversation in it.
      [
        strToU8(JSON.stringify({ label_values: [{ label: 'Name', value: 'Alex' }] })),
        JSON_TYPE,
        'Invalid export file: a Meta download with no Meta AI conversation in it (entries labelled “Name”)',
      ],
      // A conversation whose text is not in turns.
      [
        strToU8(
          JSON.stringify({
            label_values: [
              {
                label: 'Conversation with Meta AI_04-17-2026_1776479869.txt',
                value: 'Conversation with Meta AI\n\nUser said: hello\nMeta AI: hi',
              },
            ],
          }),
        ),
        JSON_TYPE,
        'Invalid export file: a Meta AI conversation (“Conversation with Meta AI_04-17-2026_1776479869.txt”) holds text before its first “You:” or “Meta AI:” line',
      ],
      // A conversation cell without its name.
      [
        strToU8('<table><tr><td>Conversation with Meta AI<br>You: hi</td></tr></table>'),
        HTML_TYPE,
        'Invalid export file: a “Conversation with Meta AI” cell with no conversation name before it',
      ],
      // Another HTML page.
      [
        strToU8('<!DOCTYPE html><html><body><p>Hello</p></body></html>'),
        HTML_TYPE,
        'Invalid export file: the file is an HTML page with no conversation Parley reads (of HTML, Parley reads Meta AI’s your_ai_conversations.html)',
      ],
      [truncated(html), HTML_TYPE, /^Invalid export file: /],
      [truncated(file), JSON_TYPE, /^Invalid export file: /],
    ];
    for (const [bytes, contentType, error] of refusals)
      await expectRefused(t, () => postExport(t, bytes, { contentType }), 400, error);
    await expectRefused(
      t,
      () => postExport(t, html, { contentType: HTML_TYPE, query: 'userRef=u1&provider=openai' }),
      400,
      'Invalid provider parameter',
    );
    assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
  });
});
