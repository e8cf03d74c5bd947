import { serveCheckpointsInWebWorker, type CheckpointWorkerScope } from '../db/checkpoint.ts';
import { bunSqlite } from '../db/bun-sqlite.ts';

declare const self: CheckpointWorkerScope;

// SQLite checkpoints on a connection of their own, in a Web Worker of Bun's (see checkpoint.ts).
serveCheckpointsInWebWorker(self, bunSqlite);
