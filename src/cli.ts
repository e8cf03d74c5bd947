import { existsSync, statSync } from 'node:fs';
import { commands, parseArgs, USAGE, UsageError } from './cli/commands.ts';
import { ConfigError, parseConfig } from './config.ts';
import { openBetterSqlite3 } from './db/better-sqlite3.ts';
import { OperationRefused } from './db/database.ts';
import { openDatabase } from './db/open-database.ts';
import { openPostgres } from './db/postgres.ts';
import { readSchema } from './db/schema-file.ts';
import { cryptoRandom, systemClock } from './deps.ts';
import { ApiError } from './errors.ts';
import { resolveHost } from './runtime/resolve-host.ts';

// Operator commands on the server's database (DATABASE_URL, or DATABASE_PATH: safe while it runs, WAL).
// One JSON object on stdout and exit 0, or {"error"} on stderr and exit 1.
async function main(): Promise<number> {
  let db;
  try {
    const { command, flags } = parseArgs(process.argv.slice(2));
    const config = parseConfig(process.env);
    const schemas = { sqlite: () => readSchema('schema.sql'), postgres: () => readSchema('schema.postgres.sql') };
    db = await openDatabase(config, schemas, openBetterSqlite3);
    const result = await commands[command]!({ db, config, clock: systemClock, random: cryptoRandom, resolveHost }, flags, {
      fileSize: (path) => statSync(path).size,
      fileExists: (path) => existsSync(path),
      openSqlite: (path) => openBetterSqlite3(path, schemas.sqlite()),
      openPostgres: (url) => openPostgres(url, schemas.postgres()),
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    const known = error instanceof UsageError || error instanceof ApiError || error instanceof ConfigError || error instanceof OperationRefused || error instanceof TypeError;
    const message = known ? (error as Error).message : `Unexpected error: ${String(error)}`;
    process.stderr.write(`${JSON.stringify({ error: message })}\n`);
    // stderr stays one JSON object for scripts; a person at a terminal also gets the usage.
    if (error instanceof UsageError && process.stderr.isTTY) process.stderr.write(`${USAGE}\n`);
    return 1;
  } finally {
    await db?.destroy();
  }
}

process.exitCode = await main();
