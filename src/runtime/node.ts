import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { openBetterSqlite3 } from '../db/better-sqlite3.ts';
import { readSchema } from '../db/schema-file.ts';
import { boot, SHUTDOWN_SIGNALS } from './boot.ts';
import { nodeSourceHash } from './node-source-hash.ts';
import { startNodeCheckpointWorker, startNodeImportWorker } from './node-workers.ts';
import { resolveHost } from './resolve-host.ts';

const parley = await boot({
  name: 'node',
  env: process.env,
  openSqlite: openBetterSqlite3,
  schemas: { sqlite: () => readSchema('schema.sql'), postgres: () => readSchema('schema.postgres.sql') },
  importWorker: startNodeImportWorker,
  checkpointWorker: startNodeCheckpointWorker,
  sourceHash: nodeSourceHash,
  resolveHost,
  exit: (code) => process.exit(code),
});

const server = serve({ fetch: parley.fetch, hostname: parley.config.host, port: parley.config.port }, (info) =>
  parley.listening(info.address, info.port),
) as Server;
// Node's default cuts a request off after 5 minutes; a 1 GB export from a phone takes longer.
server.requestTimeout = 0;

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
