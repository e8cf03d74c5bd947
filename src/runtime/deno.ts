import { runCli } from '../cli/run-cli.ts';
import type { CheckpointWorkerLike } from '../db/checkpoint.ts';
import { nodeSqlite } from '../db/node-sqlite.ts';
import { readSchema } from '../db/schema-file.ts';
import type { WorkerLike } from '../import/worker/import-worker.ts';
import { boot, SHUTDOWN_SIGNALS } from './boot.ts';
import { nodeBlobHash, nodeSourceHash } from './node-source-hash.ts';
import { resolveHost } from './resolve-host.ts';

// Deno's entry (`npm run start:deno`): the server, or an operator command.
const env = Deno.env.toObject();
const database = { sqlite: nodeSqlite, schema: readSchema };

async function serve(): Promise<void> {
  const parley = await boot({
    name: 'deno',
    env,
    ...database,
    importWorker: () =>
      new Worker(new URL('./web-import-worker.ts', import.meta.url).href, { type: 'module' }) as unknown as WorkerLike,
    checkpointWorker: () =>
      new Worker(new URL('./deno-checkpoint-worker.ts', import.meta.url).href, {
        type: 'module',
      }) as unknown as CheckpointWorkerLike,
    sourceHash: nodeSourceHash,
    blobHash: nodeBlobHash,
    resolveHost,
    pid: Deno.pid,
    exit: (code) => Deno.exit(code),
  });

  // Deno.serve has no setting for a headers timeout nor for how it closes on a body left
  // unread: HEADERS_TIMEOUT_MS and LINGER_TIMEOUT_MS are Node's; bodies are bounded in
  // time by the app (BODY_TIMEOUT_MS, UPLOAD_IDLE_TIMEOUT_MS).
  let server: Deno.HttpServer;
  try {
    server = Deno.serve(
      {
        hostname: parley.config.host,
        port: parley.config.port,
        onListen: ({ hostname, port }) => parley.listening(hostname, port),
      },
      async (request) => {
        const response = await parley.fetch(request);
        // Deno.serve manages the connection itself, closing it when a body is left
        // unread; a Connection header from the app would be sent twice.
        response.headers.delete('Connection');
        return response;
      },
    );
  } catch (error) {
    return parley.cannotListen(error);
  }

  for (const signal of SHUTDOWN_SIGNALS) {
    Deno.addSignalListener(signal, async () => {
      // shutdown() cuts off request bodies still arriving: let those requests finish first.
      await parley.drain();
      await server.shutdown();
      await parley.close(signal);
      Deno.exit(0);
    });
  }
}

const exitCode = await runCli(Deno.args, { env, ...database, serve, resolveHost });
if (exitCode !== undefined) Deno.exitCode = exitCode;
