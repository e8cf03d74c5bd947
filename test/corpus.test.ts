/**
 * Real third-party exports (LibreChat's, echomine's and osteele's test data; see
 * the PROVENANCE.md beside them) imported through the app. They may not live in
 * the repository, so this is the one test that reads outside it: a folder beside
 * the repository root, where it exists (CI has it). Elsewhere each missing folder
 * is one skipped test saying so; the exports in test/fixtures/ cover the same
 * shapes everywhere.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { JsonElementSplitter } from '../src/import/json-elements.ts';
import { json, postExport, setup } from './helpers.ts';

interface Corpus {
  /** The folder as the output names it, relative to the repository root. */
  name: string;
  dir: URL;
  /** The provider a file's name prefix (before the first `-`) says it is from. */
  providers: Record<string, string>;
}

/** Each folder of real exports is one entry; ../shared/fixtures/providers/ joins when Parley reads those providers. */
const CORPORA: Corpus[] = [
  {
    name: '../shared/fixtures/exports',
    dir: new URL('../../shared/fixtures/exports/', import.meta.url),
    providers: { chatgpt: 'openai', claude: 'anthropic' },
  },
];

/** The elements JsonElementSplitter hands over when the file arrives in chunks of `size` bytes. */
function splitInChunks(bytes: Uint8Array, size: number): unknown[] {
  const elements: unknown[] = [];
  const splitter = new JsonElementSplitter((value) => elements.push(value), Infinity);
  for (let i = 0; i < bytes.length; i += size) splitter.push(bytes.subarray(i, i + size));
  splitter.end();
  return elements;
}

for (const corpus of CORPORA) {
  if (!existsSync(corpus.dir)) {
    const skip = `corpus: ${corpus.name} not found beside the repository; the real third-party exports are imported only where that folder exists (CI has it)`;
    test(`real exports in ${corpus.name}`, { skip }, () => {});
    continue;
  }

  describe(`real exports in ${corpus.name}`, () => {
    const names = readdirSync(corpus.dir).filter((name) => name.endsWith('.json')).sort();

    test('the folder holds exports', () => assert.ok(names.length > 0, `no *.json in ${corpus.name}`));

    for (const name of names) {
      test(name, async () => {
        const provider = corpus.providers[name.split('-')[0]!];
        assert.ok(provider, `${name}: no provider for its prefix (known: ${Object.keys(corpus.providers).join(', ')})`);
        const bytes = new Uint8Array(readFileSync(new URL(name, corpus.dir)));
        const parsed = JSON.parse(new TextDecoder().decode(bytes));
        const conversations = Array.isArray(parsed) ? parsed : [parsed];

        for (const size of [1, 7, 4096, bytes.length]) {
          assert.deepEqual(splitInChunks(bytes, size), conversations, `${name} split in chunks of ${size} bytes`);
        }

        const t = await setup();
        const response = await postExport(t, bytes);
        const first = await json(response);
        assert.equal(response.status, 200, JSON.stringify(first));
        assert.equal(first.provider, provider);
        assert.equal(first.created + first.updated + first.unchanged + first.skipped, conversations.length, JSON.stringify(first));

        const again = await json(await postExport(t, bytes));
        assert.deepEqual(again, { ...first, created: 0, updated: 0, unchanged: first.created + first.updated + first.unchanged }, 'a second import changes nothing');
      });
    }
  });
}
