/** What the provider tests share: importing a fixture with the counts it must give, a re-import, a file cut short. */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { zipSync } from 'fflate';
import {
  conversationsOf,
  expectRefused,
  json,
  postExport,
  rowCounts,
  shownConversation,
  zipFolderFiles,
  type TestContext,
} from '../helpers.ts';

export const JSON_TYPE = 'application/json';
export const ZIP_TYPE = 'application/zip';
export const CSV_TYPE = 'text/csv';

/**
 * Runs the tests of the suite it is called in in a zone that is not UTC, so
 * that reading a time written without one as the server's local time fails
 * there; then gives the process its zone back, for the files that share it.
 */
export function inZoneNotUtc() {
  const zone = process.env.TZ;
  before(() => {
    process.env.TZ = 'Asia/Kolkata';
  });
  after(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });
}

/** What the API shows of a stored conversation, without Parley's own id. */
export const shown = shownConversation;

/** One message as the payload holds it; `model` and `reasoning` only where the export has them. */
export const message = (
  role: 'user' | 'assistant' | 'tool',
  content: string,
  timestamp: string,
  extra: { model?: string; reasoning?: string } = {},
) => ({
  role,
  content,
  timestamp,
  ...extra,
});

/** Imports `bytes`, asserts a 200 from `provider` with these counts, and returns the answer. */
export async function imports(
  t: TestContext,
  bytes: Uint8Array,
  contentType: string,
  provider: string,
  counts: { created: number; updated?: number; unchanged?: number; skipped: number; conversationCount: number },
  query = 'userRef=u1',
) {
  const response = await postExport(t, bytes, { contentType, query });
  const body = await json(response);
  assert.equal(response.status, 200, JSON.stringify(body));
  const { created, updated = 0, unchanged = 0, skipped, conversationCount } = counts;
  assert.deepEqual(
    {
      provider: body.provider,
      created: body.created,
      updated: body.updated,
      unchanged: body.unchanged,
      skipped: body.skipped,
      conversationCount: body.conversationCount,
    },
    { provider, created, updated, unchanged, skipped, conversationCount },
  );
  return body;
}

/** Imports the same bytes again and asserts that nothing changed: every readable conversation `unchanged`. */
export async function reimportChangesNothing(
  t: TestContext,
  bytes: Uint8Array,
  contentType: string,
  first: any,
  query = 'userRef=u1',
) {
  const before = await conversationsOf(t, first.connectionId);
  const again = await json(await postExport(t, bytes, { contentType, query }));
  assert.deepEqual(
    again,
    { ...first, created: 0, updated: 0, unchanged: first.created + first.updated + first.unchanged },
    'a re-import is all unchanged',
  );
  assert.deepEqual(
    await conversationsOf(t, first.connectionId),
    before,
    'and the stored conversations are as they were',
  );
}

/** The first half of the bytes: a file cut short. */
export const truncated = (bytes: Uint8Array) => bytes.subarray(0, Math.floor(bytes.length / 2));

/** Naming any of `providers` for the file is refused: the file is another's export. */
export async function refusedAs(t: TestContext, bytes: Uint8Array, providers: string[]) {
  for (const provider of providers)
    await expectRefused(
      t,
      () => postExport(t, bytes, { query: `userRef=u1&provider=${provider}` }),
      400,
      'Invalid provider parameter',
    );
}

/** Imports a file of one conversation, re-imports it (all unchanged) and answers that conversation as shown. */
export async function importsOneConversation(t: TestContext, bytes: Uint8Array, contentType: string, provider: string) {
  const first = await imports(t, bytes, contentType, provider, { created: 1, skipped: 0, conversationCount: 1 });
  await reimportChangesNothing(t, bytes, contentType, first);
  return (await conversationsOf(t, first.connectionId)).map(shown);
}

/** The file cut short, and the provider's zip (a fixture folder) cut short, are refused and write nothing. */
export async function truncatedWritesNothing(
  t: TestContext,
  bytes: Uint8Array,
  contentType: string,
  zipFolder: string,
) {
  await expectRefused(t, () => postExport(t, truncated(bytes), { contentType }), 400, /^Invalid export file: /);
  const zip = zipSync(zipFolderFiles(zipFolder));
  await expectRefused(t, () => postExport(t, truncated(zip), { contentType: ZIP_TYPE }), 400, /^Invalid export file: /);
  assert.deepEqual(await rowCounts(t.deps), { users: 0, connections: 0, conversations: 0, staged: 0 });
}
