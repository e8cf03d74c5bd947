/**
 * Exports from outside Parley imported through the app: real third-party ones
 * (LibreChat's, echomine's and osteele's test data) and hand-made DeepSeek, Grok,
 * Gemini and Copilot ones in those providers' real shapes (see the PROVENANCE.md
 * beside each). They may not live in the repository, so this is the one test that
 * reads outside it: folders beside the repository root, where they exist (CI has
 * them). Elsewhere each missing folder is one skipped test saying so; the exports
 * in test/fixtures/ cover the same shapes everywhere.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { JsonElementSplitter, parseElement } from '../src/import/scanning/json-elements.ts';
import { json, postExport, providerOfFixture, setup } from './helpers.ts';

interface Corpus {
  /** The folder as the output names it, relative to the repository root. */
  name: string;
  dir: URL;
  /** The providers its files may be from; a file's name prefix (before the first `-`) says which (PROVIDER_BY_PREFIX). */
  providers: string[];
}

/** Each folder of real exports (or of hand-made ones in the providers' real shapes) is one entry. */
const CORPORA: Corpus[] = [
  {
    name: '../shared/fixtures/exports',
    dir: new URL('../../shared/fixtures/exports/', import.meta.url),
    providers: ['openai', 'anthropic'],
  },
  {
    name: '../shared/fixtures/providers',
    dir: new URL('../../shared/fixtures/providers/', import.meta.url),
    providers: ['deepseek', 'xai', 'google', 'microsoft'],
  },
];

/**
 * Providers whose file is not one record per conversation: Gemini's activity entries
 * and Copilot's rows are grouped into conversations, so only the import itself can
 * say how many there are.
 */
const GROUPED = new Set(['google', 'microsoft']);

/** The elements JsonElementSplitter hands over when the file arrives in chunks of `size` bytes. */
function splitInChunks(bytes: Uint8Array, size: number): unknown[] {
  const elements: unknown[] = [];
  const decoder = new TextDecoder();
  const splitter = new JsonElementSplitter((bytes) => elements.push(parseElement(decoder.decode(bytes))), Infinity);
  for (let i = 0; i < bytes.length; i += size) splitter.push(bytes.subarray(i, i + size));
  splitter.end();
  return elements;
}

for (const corpus of CORPORA) {
  if (!existsSync(corpus.dir)) {
    const skip = `corpus: ${corpus.name} not found beside the repository; the exports from outside Parley are imported only where that folder exists (CI has it)`;
    test(`exports in ${corpus.name}`, { skip }, () => {});
    continue;
  }

  describe(`exports in ${corpus.name}`, () => {
    const names = readdirSync(corpus.dir)
      .filter((name) => /\.(json|csv)$/.test(name))
      .sort();

    test('the folder holds exports', () => assert.ok(names.length > 0, `no *.json or *.csv in ${corpus.name}`));

    for (const name of names) {
      test(name, async () => {
        const provider = providerOfFixture(name);
        assert.ok(
          corpus.providers.includes(provider),
          `${name}: ${provider} is not one of ${corpus.name}'s providers (${corpus.providers.join(', ')})`,
        );
        const bytes = new Uint8Array(readFileSync(new URL(name, corpus.dir)));
        const csv = name.endsWith('.csv');

        // One record per conversation: an array of them, Grok's `conversations` array, or one conversation object.
        let records: unknown[] | undefined;
        if (!csv) {
          const parsed = JSON.parse(new TextDecoder().decode(bytes));
          records = Array.isArray(parsed)
            ? parsed
            : Array.isArray(parsed?.conversations)
              ? parsed.conversations
              : [parsed];
          for (const size of [1, 7, 4096, bytes.length]) {
            assert.deepEqual(splitInChunks(bytes, size), records, `${name} split in chunks of ${size} bytes`);
          }
        }

        const t = await setup();
        const contentType = csv ? 'text/csv' : 'application/json';
        const response = await postExport(t, bytes, { contentType });
        const first = await json(response);
        assert.equal(response.status, 200, JSON.stringify(first));
        assert.equal(first.provider, provider);
        assert.ok(first.created > 0, `${name}: the first import creates conversations ${JSON.stringify(first)}`);
        if (records && !GROUPED.has(provider)) {
          assert.equal(
            first.created + first.updated + first.unchanged + first.skipped,
            records.length,
            JSON.stringify(first),
          );
        }

        const again = await json(await postExport(t, bytes, { contentType }));
        assert.deepEqual(
          again,
          { ...first, created: 0, updated: 0, unchanged: first.created + first.updated + first.unchanged },
          'a second import changes nothing',
        );
      });
    }
  });
}
