/**
 * ChatGPT's archives as people download them in 2026: shards without a
 * manifest, at any depth, and the privacy portal's outer zip around the export.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { conversationsOf, expectRefused, fixtureBytes, json, postExport, setup, zipFolderFiles } from '../helpers.ts';

const ZIP = { contentType: 'application/zip' };
const SHARD = 'chatgpt-2026-shard.json';

/** What the API shows of a stored conversation, without Parley's own id. */
const shown = ({ external_id, title, update_time, payload }: any) => ({ external_id, title, update_time, payload });

/** The attachments (name and type) of each stored message that reads `content`: one list per such message. */
const attachmentsOfMessages = (stored: any[], content: string) =>
  stored
    .flatMap(({ payload }) => payload.messages)
    .filter((message: any) => message.content === content)
    .map((message: any) => message.attachments.map((a: any) => [a.name, a.contentType]));

async function storedFrom(bytes: Uint8Array, contentType: string) {
  const t = await setup();
  const response = await postExport(t, bytes, { contentType });
  const body = await json(response);
  assert.equal(response.status, 200, JSON.stringify(body));
  assert.deepEqual([body.provider, body.created, body.skipped], ['openai', 2, 0]);
  return { t, body, stored: (await conversationsOf(t, body.connectionId)).map(shown) };
}

describe('ChatGPT 2026 archives', () => {
  test('the 2026 zip without export_manifest.json, its shard under a folder, and the same zip inside an outer one: the conversations of the bare shard, images named by the zip', async () => {
    const bare = (await storedFrom(fixtureBytes(SHARD), 'application/json')).stored;
    // The one image no attachment names is named by conversation_asset_file_names.json.
    const unnamed = '[image]\nIs this one safe for cats?';
    assert.equal(
      bare.filter(({ payload }) => payload.messages.some(({ content }: any) => content === unnamed)).length,
      1,
    );
    const stored = JSON.parse(
      JSON.stringify(bare).replace(
        JSON.stringify(unnamed).slice(1, -1),
        '[image: IMG_2291.jpeg]\\nIs this one safe for cats?',
      ),
    );
    const files = zipFolderFiles('chatgpt-2026-zip');
    const underFolder = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [`export/${name}`, bytes]));
    // Attachments have ids of their own in each import, and the zip names them too: compared apart.
    const withoutAttachments = (conversations: any[]) =>
      conversations.map(({ payload, ...conversation }) => ({
        ...conversation,
        payload: { ...payload, messages: payload.messages.map(({ attachments, ...message }: any) => message) },
      }));
    for (const zip of [
      zipSync(files),
      zipSync(underFolder),
      zipSync({ 'chatgpt-export-2026-09-07.zip': zipSync(files), 'README.txt': new Uint8Array([0x68, 0x69]) }),
    ]) {
      const zipped = (await storedFrom(zip, ZIP.contentType)).stored;
      assert.deepEqual(withoutAttachments(zipped), withoutAttachments(stored));
      assert.deepEqual(attachmentsOfMessages(zipped, '[image: IMG_2291.jpeg]\nIs this one safe for cats?'), [
        [['IMG_2291.jpeg', 'image/jpeg']],
      ]);
    }
  });

  test('the names are not part of what makes a conversation unchanged: the zip after the bare shard is all unchanged', async () => {
    const { t } = await storedFrom(fixtureBytes(SHARD), 'application/json');
    const again = await json(await postExport(t, zipSync(zipFolderFiles('chatgpt-2026-zip')), ZIP));
    assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, 2]);
  });

  test('a names list that is not JSON names nothing, and the zip imports', async () => {
    const files = {
      ...zipFolderFiles('chatgpt-2026-zip'),
      'conversation_asset_file_names.json': new TextEncoder().encode(
        '{"file-4XRVLundkxLE4uAahQV1SN.dat": IMG_2291.jpeg}',
      ),
    };
    const { stored } = await storedFrom(zipSync(files), ZIP.contentType);
    assert.deepEqual(attachmentsOfMessages(stored, '[image]\nIs this one safe for cats?'), [
      [['file-4XRVLundkxLE4uAahQV1SN', 'application/octet-stream']],
    ]);
  });

  test('a re-import of the nested zip is all unchanged', async () => {
    const zip = zipSync({ 'outer.zip': zipSync(zipFolderFiles('chatgpt-2026-zip')) });
    const { t, body } = await storedFrom(zip, ZIP.contentType);
    const again = await json(await postExport(t, zip, ZIP));
    assert.deepEqual([again.created, again.updated, again.unchanged, again.connectionId], [0, 0, 2, body.connectionId]);
  });

  test('an upload the person once attached (file-<id>-<name>.zip) and a zip two levels down are not opened', async () => {
    const t = await setup();
    const inner = zipSync({ 'conversations.json': fixtureBytes(SHARD) });
    await expectRefused(
      t,
      () => postExport(t, zipSync({ 'file-3Kq8VwYt2NpR7sLm4XcJ9b-backup.zip': inner }), ZIP),
      400,
      'Unrecognized export format',
    );
    await expectRefused(
      t,
      () => postExport(t, zipSync({ 'outer.zip': zipSync({ 'inner.zip': inner }) }), ZIP),
      400,
      'Unrecognized export format',
    );
  });

  test('MAX_EXPANDED_BYTES counts what is read out of the outer zip and out of the zip inside it', async () => {
    const files = zipFolderFiles('chatgpt-2026-zip');
    const inner = zipSync(files);
    const shard =
      files['conversations-000.json']!.length +
      files['conversation_asset_file_names.json']!.length +
      files['file_000000004d5e6f708192a3b4c5d6e7f8.dat']!.length;
    // Enough for the shard, its file names and its upload alone, not for the inner zip's bytes as well.
    const t = await setup({ MAX_EXPANDED_BYTES: String(shard + inner.length - 1) });
    await expectRefused(
      t,
      () => postExport(t, zipSync({ 'outer.zip': inner }), ZIP),
      413,
      'Export file too large: MAX_EXPANDED_BYTES',
    );
    const roomy = await setup({ MAX_EXPANDED_BYTES: String(shard + inner.length) });
    assert.equal((await json(await postExport(roomy, zipSync({ 'outer.zip': inner }), ZIP))).created, 2);
  });

  test('a truncated inner zip writes nothing', async () => {
    const t = await setup();
    const inner = zipSync(zipFolderFiles('chatgpt-2026-zip'));
    // expectRefused checks that no row was written.
    await expectRefused(
      t,
      () => postExport(t, zipSync({ 'outer.zip': inner.subarray(0, Math.floor(inner.length / 2)) }), ZIP),
      400,
      /^Invalid export file: /,
    );
  });
});
