import { serveCheckpointsInWebWorker, type CheckpointWorkerScope } from '../db/checkpoint.ts';
import { nodeSqlite } from '../db/node-sqlite.ts';

declare const self: CheckpointWorkerScope;

// SQLite checkpoints on a connection of their own, in a Web Worker of Deno's (see checkpoint.ts).
serveCheckpointsInWebWorker(self, nodeSqlite);
