import { Worker } from 'node:worker_threads';
import type { WorkerLike } from '../import/import-worker.ts';

/**
 * A small young generation: the reader's garbage is collected sooner, which keeps
 * an import of 1 GB under 256 MB of RSS (Node's default let it pass 260 MB) at
 * no measurable cost in speed.
 */
const resourceLimits = { maxYoungGenerationSizeMb: 4 };

/**
 * An import reader in a Node worker thread, shaped like a Web Worker. Its script
 * sits beside this module: node-import-worker.mjs in the bundle `npm start`
 * runs; node-import-worker.ts when running from source, where the worker first
 * registers tsx itself (Node 20 does not pass loader hooks on to workers).
 */
export function startNodeImportWorker(): WorkerLike {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = new URL(`./node-import-worker.${fromSource ? 'ts' : 'mjs'}`, import.meta.url);
  const worker = fromSource
    ? new Worker(new URL(`data:text/javascript,${encodeURIComponent(`import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); await import(${JSON.stringify(script.href)});`)}`), { resourceLimits })
    : new Worker(script, { resourceLimits });
  const like: WorkerLike = {
    postMessage: (message) => worker.postMessage(message),
    onmessage: null,
    terminate: () => void worker.terminate(),
  };
  worker.on('message', (data) => like.onmessage?.({ data }));
  // A worker that could not start or crashed: the import fails with its error (a 500).
  worker.on('error', (error) => like.onmessage?.({ data: { type: 'failed', message: error.stack ?? String(error) } }));
  return like;
}

