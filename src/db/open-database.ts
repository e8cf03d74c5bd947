import type { Config } from '../config.ts';
import { workerCheckpoints, type CheckpointWorkerLike } from './checkpoint.ts';
import type { Db } from './database.ts';
import type { SchemaFile } from './dialects/dialect.ts';
import { openPostgres, postgres } from './dialects/postgres.ts';
import { sqlite } from './dialects/sqlite-dialect.ts';
import { openSqlite } from './dialects/sqlite-open.ts';
import { createFoldersFor } from './database-folder.ts';
import { partFilesBeside, type PartFiles } from './part-files.ts';
import { openCounters } from './rate-buckets.ts';
import { holdServerLock } from './server-lock.ts';
import type { SqliteDriver } from './sqlite-driver.ts';

/** What a runtime's entry file gives the data layer: its SQLite driver, and the schema files' text (read from beside package.json, or embedded in a binary). */
export interface DatabaseRuntime {
  sqlite: SqliteDriver;
  schema(file: SchemaFile): string;
}

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'databasePath'>;

/**
 * The database the configuration names, its schema brought up to date:
 * PostgreSQL when DATABASE_URL is set, else the SQLite file at DATABASE_PATH,
 * opened with the runtime's own driver. Another database is one more dialect
 * (see dialects/dialect.ts) and one more case here.
 */
export function openDatabase(config: DatabaseConfig, runtime: DatabaseRuntime): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, runtime.schema(postgres.schemaFile));
  return Promise.resolve(openSqlite(runtime.sqlite, config.databasePath, runtime.schema(sqlite.schemaFile)));
}

/** The database a server serves from, and what serving it takes besides the handle. */
export interface ServedDatabase {
  db: Db;
  /** Where requests are counted for the rate limit, when not in `db` (see rate-buckets.ts). */
  counters: Db | undefined;
  /** How a checkpoint is made, when a worker of its own makes them (see checkpoint.ts); else they are made on `db`. */
  checkpoint: ((erasing: boolean) => Promise<boolean>) | undefined;
  /** Where the parts of resumable uploads are kept, on a SQLite file (see part-files.ts). */
  partFiles: PartFiles | undefined;
  /** Ends the checkpoint worker, cutting short a checkpoint under way (it is safe to) rather than waiting for it. */
  stopCheckpoints(): void;
  close(): Promise<void>;
}

/**
 * Opens the database for a server. SQLite also gets its counters database
 * (rate-buckets.ts), and a file a worker for its checkpoints, started by
 * `checkpointWorker`, the lock that keeps a second server off it
 * (server-lock.ts), which names this one by `holder`, and its uploads' part files.
 */
export async function openServedDatabase(
  config: DatabaseConfig,
  runtime: DatabaseRuntime & { checkpointWorker: () => CheckpointWorkerLike },
  holder: string,
): Promise<ServedDatabase> {
  const sqliteFile = !config.databaseUrl && config.databasePath !== ':memory:';
  let releaseFile = () => {};
  if (sqliteFile) {
    createFoldersFor(config.databasePath);
    releaseFile = holdServerLock(runtime.sqlite, config.databasePath, holder);
  }
  const db = await openDatabase(config, runtime);
  const counters = config.databaseUrl ? undefined : await openCounters(runtime.sqlite, config.databasePath);
  const checkpoints = sqliteFile ? workerCheckpoints(runtime.checkpointWorker(), config.databasePath) : undefined;
  return {
    db,
    counters,
    checkpoint: checkpoints?.run,
    partFiles: sqliteFile ? partFilesBeside(config.databasePath) : undefined,
    stopCheckpoints: () => checkpoints?.stop(),
    async close() {
      await db.destroy();
      await counters?.destroy();
      releaseFile();
    },
  };
}
