import postgresSchemaSql from '../../schema.postgres.sql' with { type: 'text' };
import schemaSql from '../../schema.sql' with { type: 'text' };
import { runCli } from '../cli/run-cli.ts';
import { bunSqlite } from '../db/bun-sqlite.ts';
import type { CheckpointWorkerLike } from '../db/checkpoint.ts';
import type { WorkerLike } from '../import/worker/import-worker.ts';
import { boot, SHUTDOWN_SIGNALS } from './boot.ts';
import { nodeBlobHash, nodeSourceHash } from './node-source-hash.ts';
import { resolveHost } from './resolve-host.ts';

// Bun's entry, and the single binary's (`npm run build:binary`): the server, or an operator command.
const env = process.env;
// The schemas are imported as text so `bun build --compile` embeds them in the binary.
const schemas = { 'schema.sql': schemaSql, 'schema.postgres.sql': postgresSchemaSql };
const database = { sqlite: bunSqlite, schema: (file: keyof typeof schemas) => schemas[file] };

async function serve(): Promise<void> {
  const parley = await boot({
    name: 'bun',
    env,
    ...database,
    // smol: a worker heap that is collected sooner, which keeps a large import's memory lower.
    importWorker: () =>
      new Worker(new URL('./web-import-worker.ts', import.meta.url).href, {
        type: 'module',
        smol: true,
      }) as unknown as WorkerLike,
    checkpointWorker: () =>
      new Worker(new URL('./bun-checkpoint-worker.ts', import.meta.url).href, {
        type: 'module',
        smol: true,
      }) as unknown as CheckpointWorkerLike,
    sourceHash: nodeSourceHash,
    blobHash: nodeBlobHash,
    resolveHost,
    pid: process.pid,
    exit: (code) => process.exit(code),
  });

  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      hostname: parley.config.host,
      port: parley.config.port,
      fetch: parley.fetch,
      // Parley enforces MAX_EXPORT_BYTES itself, with its own 413; Bun's default cap is 128 MB.
      maxRequestBodySize: Number.MAX_SAFE_INTEGER,
      // Bun closes a connection idle for 10 s by default; finishing a large import can take longer.
      // Being Bun's only timeout, it cannot stand in for HEADERS_TIMEOUT_MS either: bodies are
      // bounded in time by the app (BODY_TIMEOUT_MS, UPLOAD_IDLE_TIMEOUT_MS).
      idleTimeout: 0,
    });
  } catch (error) {
    return parley.cannotListen(error);
  }
  parley.listening(server.hostname ?? parley.config.host, server.port ?? parley.config.port);

  for (const signal of SHUTDOWN_SIGNALS) {
    process.once(signal, async () => {
      // stop() stops accepting and lets requests under way finish.
      await server.stop();
      await parley.drain();
      await parley.close(signal);
      process.exit(0);
    });
  }
}

const exitCode = await runCli(process.argv.slice(2), { env, ...database, serve, resolveHost });
if (exitCode !== undefined) process.exitCode = exitCode;
