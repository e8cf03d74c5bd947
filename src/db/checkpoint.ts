import { sql } from 'kysely';
import { isPostgres, type Db } from './database.ts';

/**
 * Copies what SQLite's write-ahead log holds into the database file; nothing on
 * PostgreSQL. Connections do not do it as they commit (wal_autocheckpoint is
 * off, see sqlite.ts): an import's final commit would make its uploader wait
 * while everything it wrote is copied — 3 s of a 1 GB import. The background
 * work does it every second instead, once the answer is on its way: in a
 * checkpoint worker of its own where the runtime gives one (below), else here.
 * `erasing` empties the log too (see checkpointSql); whether it finished.
 */
export async function checkpoint(db: Db, erasing = false): Promise<boolean> {
  if (isPostgres(db)) return true;
  const { rows } = await sql.raw<CheckpointResult>(checkpointSql(erasing)).execute(db);
  return rows[0]!.busy === 0;
}

/**
 * PASSIVE copies what it can without waiting for, or holding up, any reader or
 * writer. After people's text was deleted, the log still holds it (the frames
 * of the pages before secure_delete overwrote them): TRUNCATE copies all of it,
 * waiting briefly for readers, and empties the log file. `busy` is 1 when it
 * could not finish: a reader was still on an older state.
 */
const checkpointSql = (erasing: boolean) => `PRAGMA wal_checkpoint(${erasing ? 'TRUNCATE' : 'PASSIVE'})`;

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * A checkpoint copies and syncs everything written since the last, and SQLite's
 * drivers are synchronous: on the server's own thread, the one after a 1 GB
 * import held up every request for 0.7 s. A worker with a connection of its own
 * does it instead. The worker says when it is listening, and only then does
 * the server send the file's path and ask for checkpoints, waiting for each
 * answer: a worker that never starts (a build without its file) costs skipped
 * checkpoints, never a wait.
 */
export type ToCheckpointer = { type: 'open'; path: string } | { type: 'checkpoint'; erasing: boolean };
export type FromCheckpointer = { type: 'ready' } | { type: 'done'; complete: boolean } | { type: 'failed'; message: string };

/** What the worker needs of a connection, in every runtime's driver. */
interface CheckpointConnection {
  prepare(sql: string): { get(): unknown };
}

/** The worker's side; `open` opens the file with the runtime's driver. A file that cannot be opened fails every checkpoint, saying why. */
export function serveCheckpoints(
  port: { postMessage(message: FromCheckpointer): void; onMessage(handler: (message: ToCheckpointer) => void): void },
  open: (path: string) => CheckpointConnection,
): void {
  let connection: CheckpointConnection | Error = new Error('no database file named');
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
      const { busy } = connection.prepare(checkpointSql(message.erasing)).get() as CheckpointResult;
      port.postMessage({ type: 'done', complete: busy === 0 });
    } catch (error) {
      port.postMessage({ type: 'failed', message: messageOf(error) });
    }
  });
  port.postMessage({ type: 'ready' });
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
