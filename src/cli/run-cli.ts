import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, parseConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import { OperationRefused } from '../db/database.ts';
import { openDatabase, type DatabaseRuntime } from '../db/open-database.ts';
import { openCounters } from '../db/rate-buckets.ts';
import { cryptoRandom, systemClock } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { commands, parseArgs, usage, UsageError } from './commands.ts';

/** What an entry file (one per runtime) gives the command line. */
export interface CliRuntime extends DatabaseRuntime {
  env: Record<string, string | undefined>;
  /** Every address a host name resolves to (webhook targets are checked with it). */
  resolveHost(hostname: string): Promise<string[]>;
  /** Starts the server, which then runs until a signal stops it. */
  serve(): Promise<void>;
}

/**
 * The one command line of every entry (`npm run cli`, `npm start`, the single
 * binary): serves without a command; prints usage on stdout for help; else runs
 * an operator command on the server's database (DATABASE_URL, or DATABASE_PATH:
 * safe while it runs, WAL; never created here), which prints one JSON object on
 * stdout, or {"error"} on stderr. The exit code to set, or undefined while serving.
 */
export async function runCli(argv: string[], runtime: CliRuntime): Promise<number | undefined> {
  let db: Db | undefined;
  let counters: Db | undefined;
  try {
    const invocation = parseArgs(argv);
    if ('serve' in invocation) {
      await runtime.serve();
      return undefined;
    }
    if ('help' in invocation) {
      process.stdout.write(`${usage(invocation.help)}\n`);
      return 0;
    }
    const config = parseConfig(runtime.env);
    // A command run from another folder must not create an empty database there and report it empty.
    if (!config.databaseUrl && config.databasePath !== ':memory:' && !existsSync(config.databasePath))
      throw new UsageError(
        `No Parley database at ${resolve(config.databasePath)}: set DATABASE_PATH to the server's file (it creates it when it first starts), or DATABASE_URL to its PostgreSQL`,
      );
    db = await openDatabase(config, runtime);
    const result = await commands[invocation.command]!.run(
      { db, config, clock: systemClock, random: cryptoRandom, resolveHost: runtime.resolveHost },
      invocation.flags,
      {
        fileSize: (path) => statSync(path).size,
        fileExists: (path) => existsSync(path),
        readFile: (path) => readFileSync(path),
        openSqlite: (path) => openDatabase({ databaseUrl: undefined, databasePath: path }, runtime),
        openPostgres: (url) => openDatabase({ databaseUrl: url, databasePath: config.databasePath }, runtime),
        // Opened only when asked: the other commands leave no -counters file behind.
        counters: async () => {
          if (!config.databaseUrl) counters ??= await openCounters(runtime.sqlite, config.databasePath);
          return counters;
        },
      },
    );
    process.stdout.write(`${JSON.stringify(result)}\n`);
    // A result that says it failed (`webhook test` whose receiver refused) fails the command too, for scripts.
    return 'ok' in result && result.ok === false ? 1 : 0;
  } catch (error) {
    const known =
      error instanceof UsageError ||
      error instanceof ParleyError ||
      error instanceof ConfigError ||
      error instanceof OperationRefused ||
      error instanceof TypeError;
    const message = known ? (error as Error).message : `Unexpected error: ${String(error)}`;
    process.stderr.write(`${JSON.stringify({ error: message })}\n`);
    // stderr stays one JSON object for scripts; a person at a terminal also gets the usage.
    if (error instanceof UsageError && process.stderr.isTTY) process.stderr.write(`${usage()}\n`);
    return 1;
  } finally {
    await db?.destroy();
    await counters?.destroy();
  }
}
