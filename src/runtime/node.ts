import { serve } from '@hono/node-server';
import { createApp } from '../app.ts';
import { startBackgroundWork } from '../background.ts';
import { ConfigError, parseConfig } from '../config.ts';
import { openBetterSqlite3 } from '../db/better-sqlite3.ts';
import { cryptoRandom, systemClock } from '../deps.ts';
import { createLogger } from '../log.ts';

let config;
try {
  config = parseConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const log = createLogger(config.logLevel);
const db = openBetterSqlite3(config.databasePath);
const deps = { db, config, clock: systemClock, random: cryptoRandom, log };
const app = createApp(deps);
const background = startBackgroundWork(deps);

const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
  log.info('listening', { url: `http://${info.address.includes(':') ? `[${info.address}]` : info.address}:${info.port}`, runtime: 'node' });
});

function shutdown(signal: string) {
  log.info('shutdown', { signal });
  // Stops accepting, lets in-flight requests finish, then closes the database.
  server.close(async () => {
    await background.stop();
    await db.destroy();
    process.exit(0);
  });
}
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));
