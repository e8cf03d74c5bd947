import { connectionJson, conversationsJson } from '../wire/wire-json.ts';
import type { ConnectionDownload } from '../conversations/download.ts';

const encoder = new TextEncoder();

/**
 * The "Download my data" file, written as it is read: `{"userRef", "exportedAt",
 * "connections": [...]}`, each connection as the API lists it with its
 * `memories` and `projects` as the API lists them, and its `conversations` as
 * the API pages them, one chunk per page read. Nothing is parsed: the stored
 * payloads go out as they are.
 */
export async function* downloadFile(
  userRef: string,
  exportedAt: string,
  connections: readonly ConnectionDownload[],
): AsyncGenerator<Uint8Array> {
  yield encoder.encode(
    `{"userRef":${JSON.stringify(userRef)},"exportedAt":${JSON.stringify(exportedAt)},"connections":[`,
  );
  for (const [i, { connection, beside, conversationPages }] of connections.entries()) {
    // The connection's object without its closing brace, so that its conversations go in last.
    const head = JSON.stringify({ ...connectionJson(connection), ...(await beside()) }).slice(0, -1);
    yield encoder.encode(`${i ? ',' : ''}${head},"conversations":[`);
    let written = 0;
    for await (const page of conversationPages()) {
      yield conversationsJson(page, written > 0);
      written += page.rows.length;
    }
    yield encoder.encode(']}');
  }
  yield encoder.encode(']}');
}
