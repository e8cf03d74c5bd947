import { openNodeSqlite } from '../db/node-sqlite.ts';
import { readSchema } from '../db/schema-file.ts';
import { boot, SHUTDOWN_SIGNALS } from './boot.ts';

const parley = boot({
  name: 'deno',
  env: Deno.env.toObject(),
  openDb: (config) => openNodeSqlite(config.databasePath, readSchema()),
  exit: (code) => Deno.exit(code),
});

const server = Deno.serve(
  { hostname: parley.config.host, port: parley.config.port, onListen: ({ hostname, port }) => parley.listening(hostname, port) },
  parley.fetch,
);

for (const signal of SHUTDOWN_SIGNALS) {
  Deno.addSignalListener(signal, async () => {
    await server.shutdown();
    await parley.close(signal);
    Deno.exit(0);
  });
}
