import { serve as serveHttp } from '@hono/node-server';
import type { Server } from 'node:http';
import { runCli } from '../cli/run-cli.ts';
import { betterSqlite3 } from '../db/better-sqlite3.ts';
import { readSchema } from '../db/schema-file.ts';
import { boot, SHUTDOWN_SIGNALS } from './boot.ts';
import { lingerOnUnreadBodies } from './node-lingering-close.ts';
import { nodeBlobHash, nodeSourceHash } from './node-source-hash.ts';
import { startNodeCheckpointWorker, startNodeImportWorker } from './node-workers.ts';
import { resolveHost } from './resolve-host.ts';

// Node's entry: `npm start` (bundled) and `npm run cli` (from source) — the server, or an operator command.
const env = process.env;
const database = { sqlite: betterSqlite3, schema: readSchema };

async function serve(): Promise<void> {
  const parley = await boot({
    name: 'node',
    env,
    ...database,
    importWorker: startNodeImportWorker,
    checkpointWorker: startNodeCheckpointWorker,
    sourceHash: nodeSourceHash,
    blobHash: nodeBlobHash,
    resolveHost,
    pid: process.pid,
    exit: (code) => process.exit(code),
  });

  const { config } = parley;
  const server = serveHttp(
    {
      fetch: parley.fetch,
      hostname: config.host,
      port: config.port,
      // Unread bodies are handled by lingerOnUnreadBodies, not by the adapter's shorter drain.
      autoCleanupIncoming: false,
      serverOptions: {
        headersTimeout: config.headersTimeoutMs,
        // No cut-off for a whole request: a 1 GB export from a phone takes long. Bodies
        // are bounded by the app instead (BODY_TIMEOUT_MS, UPLOAD_IDLE_TIMEOUT_MS).
        requestTimeout: 0,
        // How often Node looks for requests past headersTimeout.
        connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
      },
    },
    (info) => parley.listening(info.address, info.port),
  ) as Server;
  // Node reports a failed listen as an event; unhandled, it is a stack trace.
  server.once('error', (error) => parley.cannotListen(error));
  lingerOnUnreadBodies(server, config.lingerTimeoutMs);

  for (const signal of SHUTDOWN_SIGNALS) {
    process.once(signal, async () => {
      // close() stops accepting and ends idle keep-alive connections; draining makes
      // the answers still to come close theirs, so the server stops once they are sent.
      const closed = new Promise((resolve) => server.close(resolve));
      await parley.drain();
      server.closeIdleConnections();
      await closed;
      await parley.close(signal);
      process.exit(0);
    });
  }
}

const exitCode = await runCli(process.argv.slice(2), { env, ...database, serve, resolveHost });
if (exitCode !== undefined) process.exitCode = exitCode;
