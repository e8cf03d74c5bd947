import { serveCheckpoints, type FromCheckpointer, type ToCheckpointer } from '../db/checkpoint.ts';
import { nodeSqlite } from '../db/node-sqlite.ts';

declare const self: {
  postMessage(message: FromCheckpointer): void;
  onmessage: ((event: { data: ToCheckpointer }) => void) | null;
};

// SQLite checkpoints on a connection of their own, in a Web Worker of Deno's (see checkpoint.ts).
serveCheckpoints(
  {
    postMessage: (message) => self.postMessage(message),
    onMessage: (handler) => (self.onmessage = (event) => handler(event.data)),
  },
  nodeSqlite,
);
