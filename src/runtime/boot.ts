import { attachmentStores } from '../attachments/stores.ts';
import { createApp } from '../app.ts';
import { startBackgroundWork } from '../background.ts';
import { ConfigError, parseConfig, type Config } from '../config.ts';
import type { CheckpointWorkerLike } from '../db/checkpoint.ts';
import { openServedDatabase, type DatabaseRuntime, type ServedDatabase } from '../db/open-database.ts';
import { NewerSchema } from '../db/schema-versions.ts';
import { FileInUse } from '../db/server-lock.ts';
import type { WorkerLike } from '../import/worker/import-worker.ts';
import type { SourceHash } from '../import/worker/record-batcher.ts';
import type { BlobHasher } from '../attachments/blob-hash.ts';
import { cryptoRandom, isoTime, systemClock, type Deps } from '../deps.ts';
import { createLogger } from '../log.ts';
import { Metrics } from '../metrics/metrics.ts';

export interface Runtime extends DatabaseRuntime {
  name: 'node' | 'deno' | 'bun';
  env: Record<string, string | undefined>;
  /** Starts a worker that reads one import. */
  importWorker: () => WorkerLike;
  /** SHA-256 cheaper than Web Crypto's (see Deps). */
  sourceHash: SourceHash;
  /** SHA-256 of bytes that stream in, faster than the portable one (see Deps). */
  blobHash: BlobHasher;
  /** The addresses of a host name (see Deps). */
  resolveHost(hostname: string): Promise<string[]>;
  /** Starts a worker that checkpoints the database file (see checkpoint.ts). */
  checkpointWorker: () => CheckpointWorkerLike;
  /** This process's id, which a second server on the same SQLite file names. */
  pid: number;
  exit(code: number): never;
}

/**
 * What every entry file does before it serves: read the configuration (a bad
 * value stops start-up with one line), open the database, build the app and
 * start the background work. The entry then serves `fetch` and, on a signal,
 * stops accepting, `drain`s the requests under way and calls `close`.
 */
export async function boot(runtime: Runtime) {
  let config: Config;
  try {
    config = parseConfig(runtime.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return runtime.exit(1);
  }
  const log = createLogger(config.logLevel);
  let database: ServedDatabase;
  try {
    const holder = `process ${runtime.pid} on ${addressOf(config.host, config.port)}, since ${isoTime(systemClock.now())}`;
    database = await openServedDatabase(config, runtime, holder);
  } catch (error) {
    // Unreachable or refusing: one line saying so, not a stack.
    console.error(databaseFailure(config, error));
    return runtime.exit(1);
  }
  const deps: Deps = {
    db: database.db,
    counters: database.counters,
    attachments: attachmentStores(database.db, config),
    partFiles: database.partFiles,
    config,
    clock: systemClock,
    random: cryptoRandom,
    log,
    metrics: new Metrics(),
    importWorker: runtime.importWorker,
    sourceHash: runtime.sourceHash,
    blobHash: runtime.blobHash,
    resolveHost: runtime.resolveHost,
    erased: () => background.erased(),
  };
  const app = createApp(deps);
  const background = startBackgroundWork(deps, { checkpoint: database.checkpoint });
  // Requests under way, so a shutdown can let them finish (an upload still
  // arriving included) before the database closes.
  let inFlight = 0;
  let draining = false;
  let drained = () => {};
  const fetch = async (request: Request): Promise<Response> => {
    inFlight++;
    try {
      const response = await app.fetch(request);
      // While shutting down, no connection is kept alive for another request.
      if (draining) response.headers.set('Connection', 'close');
      return response;
    } finally {
      if (--inFlight === 0 && draining) drained();
    }
  };
  return {
    config,
    fetch,
    /**
     * Marks the server as shutting down; resolves once no request is under way,
     * or DRAIN_LIMIT_MS later whatever is (an upload still arriving is cut off:
     * an import stores all or nothing). Past SHUTDOWN_LIMIT_MS the process ends
     * however far `close` has got: a supervisor (systemd, Docker) waits 10 s
     * before it kills, and a new process on the file should not wait on this one.
     */
    drain(): Promise<void> {
      draining = true;
      setTimeout(() => {
        log.warn('shutdown cut short', { requestsUnderWay: inFlight });
        runtime.exit(0);
      }, SHUTDOWN_LIMIT_MS);
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => {
        drained = resolve;
        setTimeout(resolve, DRAIN_LIMIT_MS);
      });
    },
    /** The server could not listen: one line saying why and what to change, and a non-zero exit. */
    cannotListen(error: unknown): never {
      console.error(listenFailure(config, error));
      return runtime.exit(1);
    },
    listening(host: string, port: number) {
      log.info('listening', {
        url: `http://${addressOf(host, port)}`,
        runtime: runtime.name,
      });
    },
    /** Call once the server has stopped accepting and its requests are done. */
    async close(signal: string) {
      log.info('shutdown', { signal });
      // First: a checkpoint under way is cut short (it is safe to), not waited for.
      database.stopCheckpoints();
      await background.stop();
      await database.close();
    },
  };
}

export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** How long a shutdown lets requests under way finish, and how long it may take in all (see `drain`). */
const DRAIN_LIMIT_MS = 5_000;
const SHUTDOWN_LIMIT_MS = 9_000;

/** Why the database cannot be opened, in one line that names it (never the URL: it may hold a password). */
function databaseFailure(config: Config, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (config.databaseUrl) return `Cannot open the database at DATABASE_URL: ${reason}`;
  const hint =
    error instanceof NewerSchema || error instanceof FileInUse
      ? ''
      : ' (set DATABASE_PATH to a file in a folder Parley may write)';
  return `Cannot open the database at ${config.databasePath}: ${reason}${hint}`;
}

/** Why a runtime could not listen, by its error's code (each runtime words its messages differently). */
function listenFailure({ host, port }: Pick<Config, 'host' | 'port'>, error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const reasons: Record<string, string> = {
    EADDRINUSE: 'the port is in use by another program: stop it, or set PORT to a free port',
    EADDRNOTAVAIL:
      'no network interface of this machine has that address: set HOST to one it has (127.0.0.1 for this machine only, 0.0.0.0 for every interface)',
    ENOTFOUND:
      'HOST is no address and no name this machine can resolve: set HOST to one of its addresses (127.0.0.1, 0.0.0.0)',
    EACCES:
      'this process may not use that port (ports below 1024 need privileges): set PORT to 1024 or above and put a reverse proxy in front (docs/deploy.md)',
  };
  // Deno's failed name lookup has no code.
  const lookupFailed = code === undefined && /lookup address/i.test(message ?? '');
  const reason = reasons[lookupFailed ? 'ENOTFOUND' : (code ?? '')] ?? message ?? String(error);
  return `Cannot listen on ${addressOf(host, port)}: ${reason}`;
}

/** host:port, an IPv6 address in brackets. */
const addressOf = (host: string, port: number) => `${host.includes(':') ? `[${host}]` : host}:${port}`;
