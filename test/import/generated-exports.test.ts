/**
 * The benchmark's generated exports (scripts/generate-export) import whole:
 * every conversation the generator says it wrote is created, in each
 * provider's zip, and in Duck.ai's bare file of one conversation.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { PROVIDERS, SHAPES, writeExport, type Format, type Provider } from '../../scripts/generate-export/index.ts';
import { conversationsOf, setup } from '../helpers.ts';
import { imports, ZIP_TYPE } from './provider-imports.ts';

const work = mkdtempSync(join(tmpdir(), 'parley-generated-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A few dozen conversations of `provider` written as `format`, and the generator's summary. */
async function generated(provider: Provider, format: Format) {
  const out = join(work, `${provider}.${format}`);
  const summary = await writeExport({ shape: SHAPES[provider], format, sizeMb: 0.05, splitMb: 0.02, seed: 7, out });
  return { bytes: readFileSync(out), summary };
}

describe('generated exports', () => {
  for (const provider of PROVIDERS)
    test(`${SHAPES[provider].name} (${provider}): the zip imports every generated conversation`, async () => {
      const t = await setup();
      const { bytes, summary } = await generated(provider, 'zip');
      assert.ok(summary.conversations > 1);
      await imports(t, bytes, ZIP_TYPE, provider, {
        created: summary.conversations,
        skipped: 0,
        conversationCount: summary.conversations,
      });
    });

  test('Duck.ai: the zip holds one duck.ai_<date>_<time>.txt per conversation, each with every generated message', async () => {
    const t = await setup();
    const { bytes, summary } = await generated('duckduckgo', 'zip');
    assert.equal(summary.members?.length, summary.conversations);
    assert.ok(summary.members?.every((name) => /^duck\.ai_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.txt$/.test(name)));
    const { connectionId } = await imports(t, bytes, ZIP_TYPE, 'duckduckgo', {
      created: summary.conversations,
      skipped: 0,
      conversationCount: summary.conversations,
    });
    const conversations = await conversationsOf(t, connectionId);
    assert.equal(
      conversations.reduce((sum, conversation) => sum + conversation.payload.messages.length, 0),
      summary.messages,
    );
  });

  test('Duck.ai: the bare .txt is one conversation, whatever the size asked', async () => {
    const t = await setup();
    const { bytes, summary } = await generated('duckduckgo', 'txt');
    assert.equal(summary.conversations, 1);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    await imports(t, bytes, 'text/plain', 'duckduckgo', { created: 1, skipped: 0, conversationCount: 1 });
  });
});
