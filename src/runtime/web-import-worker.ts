import { serveImport, type FromReader, type ToReader } from '../import/worker/import-worker.ts';
import { nodeSourceHash } from './node-source-hash.ts';

/** A Web Worker's global scope, as far as this file uses it. */
declare const self: {
  postMessage(message: FromReader, transfer?: ArrayBuffer[]): void;
  onmessage: ((event: { data: ToReader }) => void) | null;
};

// One import's reading, in a Web Worker (Deno, Bun and the binary).
serveImport(
  {
    postMessage: (message, transfer) => self.postMessage(message, transfer),
    onMessage: (handler) => (self.onmessage = (event) => handler(event.data)),
  },
  nodeSourceHash,
);
