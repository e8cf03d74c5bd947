/**
 * tus-js-client, the tus project's own client, uploading unchanged to
 * /api/uploads over HTTP — into the database store and into S3 — with a PATCH
 * interrupted part-way and resumed from the offset the server kept, then the
 * upload imported.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serve } from '@hono/node-server';
import * as tus from 'tus-js-client';
import { claudeConversations, json, setup, type TestContext } from '../helpers.ts';
import { startS3, type S3TestServer } from '../s3-server.ts';

/** An export of a few megabytes: more than sockets buffer, so that a PATCH can be cut while it is read. */
function largeExport(): Buffer {
  const conversations = claudeConversations(40).map((conversation, i) => ({
    ...conversation,
    chat_messages: conversation.chat_messages.map((message: { text: string }) => ({
      ...message,
      text: `${message.text} ${String(i).repeat(50_000)}`,
    })),
  }));
  return Buffer.from(JSON.stringify(conversations));
}

interface Served {
  url: string;
  /** Each PATCH as it came: its Upload-Offset, and the answer's status once the server has handled it. */
  patches: Array<{ offset: number; status: Promise<number> }>;
  /** Settles once the first PATCH has passed CUT_AT bytes to the app: its body then waits for `release`. */
  cutPoint: Promise<void>;
  release(): void;
  close(): Promise<void>;
}

/** Where the first PATCH is held until the client has dropped it. */
const CUT_AT = 1024 * 1024;

/**
 * The app over HTTP. The first PATCH's body stops reaching the app after
 * CUT_AT bytes, until `release`, and then ends in an error: the client is still
 * sending when it drops the request, whatever the sockets buffer.
 */
async function served(t: TestContext): Promise<Served> {
  const patches: Served['patches'] = [];
  let reachedCut!: () => void;
  const cutPoint = new Promise<void>((resolve) => {
    reachedCut = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let passed = 0;
  const server = serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request: Request) => {
      if (request.method !== 'PATCH') return t.app.fetch(request);
      const first = patches.length === 0;
      const slowed = first
        ? request.body!.pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              async transform(chunk, controller) {
                if (passed >= CUT_AT) {
                  reachedCut();
                  await released;
                  // The client dropped the request: nothing more of it arrives, whatever the sockets still held.
                  throw new Error('connection dropped');
                }
                passed += chunk.length;
                controller.enqueue(chunk);
              },
            }),
          )
        : request.body;
      const answer = Promise.resolve(
        t.app.fetch(
          new Request(request.url, {
            method: 'PATCH',
            headers: request.headers,
            body: slowed,
            duplex: 'half',
          } as RequestInit),
        ),
      );
      patches.push({ offset: Number(request.headers.get('Upload-Offset')), status: answer.then((r) => r.status) });
      return answer;
    },
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    patches,
    cutPoint,
    release,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

for (const store of ['database', 's3'] as const) {
  describe(`tus-js-client uploads to /api/uploads (${store} store)`, () => {
    let s3: S3TestServer | undefined;
    before(async () => {
      if (store === 's3') s3 = await startS3();
    });
    after(async () => {
      await s3?.stop();
    });

    test('an upload cut part-way resumes from the bytes the server kept, and imports whole', async () => {
      const t = await setup(s3 ? s3.env(`tus-${Date.now()}`) : {});
      const http = await served(t);
      try {
        const file = largeExport();
        const options = {
          endpoint: `${http.url}/api/uploads`,
          headers: { Authorization: `Bearer ${t.tenant.apiKey}` },
          metadata: { filename: 'conversations.json', userRef: 'u1' },
          retryDelays: null,
          storeFingerprintForResuming: false,
        };
        // The first attempt: dropped while its PATCH is under way.
        const first = new tus.Upload(file, options);
        first.start();
        await http.cutPoint;
        await first.abort();
        http.release();
        await http.patches[0]!.status;
        assert.ok(first.url, 'the upload was created');

        // The second: the same upload, resumed where HEAD says.
        await new Promise<void>((resolve, reject) => {
          new tus.Upload(file, {
            ...options,
            uploadUrl: first.url,
            onSuccess: () => resolve(),
            onError: reject,
          }).start();
        });
        const resumedAt = http.patches[1]!.offset;
        assert.ok(resumedAt >= CUT_AT && resumedAt < file.length, `resumed at ${resumedAt} of ${file.length}`);
        assert.equal(http.patches.length, 2);

        const id = first.url.split('/').pop();
        const response = await t.request(`/api/ingest-export?userRef=u1&upload=${id}`, { method: 'POST' });
        const answer = await json(response);
        assert.equal(response.status, 200, JSON.stringify(answer));
        assert.equal(answer.created, 40);
      } finally {
        await http.close();
      }
    });
  });
}
