import type { Db } from './database.ts';
import { dialectOf } from './dialects/dialect.ts';
import { checkpointSql, type CheckpointResult } from './dialects/sqlite-dialect.ts';
import type { SqliteConnection, SqliteDriver } from './sqlite-driver.ts';

/**
 * Copies what the database's write-ahead log holds into the database proper,
 * where it has one to copy (see the dialect's checkpoint). `erasing` empties
 * the log too; whether it finished.
 */
export const checkpoint = (db: Db, erasing = false): Promise<boolean> => dialectOf(db).checkpoint(db, erasing);

/**
 * A checkpoint copies and syncs everything written since the last, and SQLite's
 * drivers are synchronous: on the server's own thread, the one after a large
 * import held up every request for most of a second. A worker with a connection of its own
 * does it instead. The worker says when it is listening, and only then does
 * the server send the file's path and ask for checkpoints, waiting for each
 * answer: a worker that never starts (a build without its file) costs skipped
 * checkpoints, never a wait.
 */
export type ToCheckpointer = { type: 'open'; path: string } | { type: 'checkpoint'; erasing: boolean };
export type FromCheckpointer =
  | { type: 'ready' }
  | { type: 'done'; complete: boolean }
  | { type: 'failed'; message: string };

/** The worker's side; `open` is the runtime's SQLite driver. A file that cannot be opened fails every checkpoint, saying why. */
export function serveCheckpoints(
  port: { postMessage(message: FromCheckpointer): void; onMessage(handler: (message: ToCheckpointer) => void): void },
  open: SqliteDriver,
): void {
  let connection: SqliteConnection | Error = new Error('no database file named');
  const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
  port.onMessage((message) => {
    if (message.type === 'open') {
      try {
        connection = open(message.path);
      } catch (error) {
        connection = new Error(messageOf(error));
      }
      return;
    }
    try {
      if (connection instanceof Error) throw connection;
      const [{ busy }] = connection.prepare(checkpointSql(message.erasing)).all([]) as [CheckpointResult];
      port.postMessage({ type: 'done', complete: busy === 0 });
    } catch (error) {
      port.postMessage({ type: 'failed', message: messageOf(error) });
    }
  });
  port.postMessage({ type: 'ready' });
}

/** A Web Worker's global scope, as a checkpoint worker of Deno's or Bun's sees it. */
export interface CheckpointWorkerScope {
  postMessage(message: FromCheckpointer): void;
  onmessage: ((event: { data: ToCheckpointer }) => void) | null;
}

/** serveCheckpoints from a Web Worker's global scope. */
export function serveCheckpointsInWebWorker(scope: CheckpointWorkerScope, open: SqliteDriver): void {
  serveCheckpoints(
    {
      postMessage: (message) => scope.postMessage(message),
      onMessage: (handler) => {
        scope.onmessage = (event) => handler(event.data);
      },
    },
    open,
  );
}

/** The server's end of a checkpoint worker: a Web Worker, or anything shaped like one. */
export interface CheckpointWorkerLike {
  postMessage(message: ToCheckpointer): void;
  onmessage: ((event: { data: FromCheckpointer }) => void) | null;
  /** A worker that could not start or died. */
  onerror: ((event: { message?: string }) => void) | null;
  terminate(): void;
}

/**
 * Checkpoints of the file at `path`, each done by `worker`; `stop` ends it, and
 * settles a checkpoint still awaited. One asked for before the worker is
 * listening is skipped: the next second asks again.
 */
export function workerCheckpoints(worker: CheckpointWorkerLike, path: string) {
  let ready = false;
  let pending: { resolve(complete: boolean): void; reject(error: Error): void } | undefined;
  const settle = (outcome: boolean | Error) => {
    const waiting = pending;
    pending = undefined;
    if (outcome instanceof Error) waiting?.reject(outcome);
    else waiting?.resolve(outcome);
  };
  worker.onmessage = ({ data }) => {
    if (data.type === 'ready') {
      ready = true;
      worker.postMessage({ type: 'open', path });
      return;
    }
    settle(data.type === 'failed' ? new Error(data.message) : data.complete);
  };
  worker.onerror = (event) => settle(new Error(`checkpoint worker: ${event.message ?? 'failed'}`));
  return {
    /** One checkpoint (see `checkpoint`); whether it finished. Call again once it has settled. */
    run(erasing = false): Promise<boolean> {
      if (!ready) return Promise.resolve(false);
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage({ type: 'checkpoint', erasing });
      });
    },
    stop(): void {
      worker.terminate();
      settle(false);
    },
  };
}
