import { bunSqlite } from '../db/bun-sqlite.ts';
import { serveCheckpoints, type FromCheckpointer, type ToCheckpointer } from '../db/checkpoint.ts';

declare const self: {
  postMessage(message: FromCheckpointer): void;
  onmessage: ((event: { data: ToCheckpointer }) => void) | null;
};

// SQLite checkpoints on a connection of their own, in a Web Worker of Bun's (see checkpoint.ts).
serveCheckpoints(
  {
    postMessage: (message) => self.postMessage(message),
    onMessage: (handler) => (self.onmessage = (event) => handler(event.data)),
  },
  bunSqlite,
);
