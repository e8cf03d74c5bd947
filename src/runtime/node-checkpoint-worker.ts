import { parentPort } from 'node:worker_threads';
import { betterSqlite3 } from '../db/better-sqlite3.ts';
import { serveCheckpoints } from '../db/checkpoint.ts';

// SQLite checkpoints on a connection of their own, in a worker thread of Node's (see checkpoint.ts).
serveCheckpoints(
  {
    postMessage: (message) => parentPort!.postMessage(message),
    onMessage: (handler) => parentPort!.on('message', handler),
  },
  betterSqlite3,
);
