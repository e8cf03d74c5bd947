import { serve as serveHttp } from '@hono/node-server';
import type { Server } from 'node:http';
import { runCli } from '../cli/run-cli.ts';
import { openBetterSqlite3 } from '../db/better-sqlite3.ts';
import { readSchema } from '../db/schema-file.ts';
import { boot, SHUTDOWN_SIGNALS } from './boot.ts';
import { nodeSourceHash } from './node-source-hash.ts';
import { startNodeCheckpointWorker, startNodeImportWorker } from './node-workers.ts';
import { resolveHost } from './resolve-host.ts';

// Node's entry: `npm start` (bundled) and `npm run cli` (from source) — the server, or an operator command.
const env = process.env;
const openSqlite = openBetterSqlite3;
const schemas = { sqlite: () => readSchema('schema.sql'), postgres: () => readSchema('schema.postgres.sql') };

async function serve(): Promise<void> {
  const parley = await boot({
    name: 'node',
    env,
    openSqlite,
    schemas,
    importWorker: startNodeImportWorker,
    checkpointWorker: startNodeCheckpointWorker,
    sourceHash: nodeSourceHash,
    resolveHost,
    exit: (code) => process.exit(code),
  });

  const server = serveHttp({ fetch: parley.fetch, hostname: parley.config.host, port: parley.config.port }, (info) =>
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
}

const exitCode = await runCli(process.argv.slice(2), { env, openSqlite, schemas, serve, resolveHost });
if (exitCode !== undefined) process.exitCode = exitCode;
