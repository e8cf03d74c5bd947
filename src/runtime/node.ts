import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { openBetterSqlite3 } from '../db/better-sqlite3.ts';
import { readSchema } from '../db/schema-file.ts';
import { boot, SHUTDOWN_SIGNALS } from './boot.ts';
import { lingerOnUnreadBodies } from './node-lingering-close.ts';
import { nodeSourceHash } from './node-source-hash.ts';
import { startNodeCheckpointWorker, startNodeImportWorker } from './node-workers.ts';

const parley = await boot({
  name: 'node',
  env: process.env,
  openSqlite: openBetterSqlite3,
  schemas: { sqlite: () => readSchema('schema.sql'), postgres: () => readSchema('schema.postgres.sql') },
  importWorker: startNodeImportWorker,
  checkpointWorker: startNodeCheckpointWorker,
  sourceHash: nodeSourceHash,
  exit: (code) => process.exit(code),
});

const { config } = parley;
const server = serve(
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
