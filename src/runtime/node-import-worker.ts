import { parentPort } from 'node:worker_threads';
import { serveImport } from '../import/worker/import-worker.ts';
import { nodeSourceHash } from './node-source-hash.ts';

// One import's reading, in a worker thread of Node's (see node-workers.ts).
serveImport(
  {
    postMessage: (message, transfer) => parentPort!.postMessage(message, transfer),
    onMessage: (handler) => parentPort!.on('message', handler),
  },
  nodeSourceHash,
);
