import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { CheckpointWorkerLike } from '../db/checkpoint.ts';
import type { WorkerLike } from '../import/worker/import-worker.ts';

/**
 * A Node worker thread running the script `name` that sits beside this module:
 * name.mjs in the bundle `npm start` runs; name.ts when running from source,
 * where the worker first registers tsx itself (Node 20 does not pass loader
 * hooks on to workers).
 */
function nodeWorker(name: string, resourceLimits?: ResourceLimits): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = new URL(`./${name}.${fromSource ? 'ts' : 'mjs'}`, import.meta.url);
  if (!fromSource) return new Worker(script, { resourceLimits });
  const loader = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); await import(${JSON.stringify(script.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(loader)}`), { resourceLimits });
}

/** A Node worker shaped like a Web Worker; `failed` turns a worker that could not start or crashed into its own message. */
function webWorkerShaped<
  Like extends {
    postMessage(message: never): void;
    onmessage: ((event: { data: never }) => void) | null;
    terminate(): void;
  },
>(worker: Worker, failed: (error: Error) => void, like: Like): Like {
  worker.on('message', (data) => like.onmessage?.({ data: data as never }));
  worker.on('error', failed);
  return like;
}

/**
 * A small young generation: the reader's garbage is collected sooner, which keeps
 * a large import's peak lower at no measurable cost in speed.
 */
const READER_LIMITS = { maxYoungGenerationSizeMb: 4 };

/** An import reader in a Node worker thread; one that fails, fails the import with its error (a 500). */
export function startNodeImportWorker(): WorkerLike {
  const worker = nodeWorker('node-import-worker', READER_LIMITS);
  const like: WorkerLike = {
    postMessage: (message, transfer) => worker.postMessage(message, transfer),
    onmessage: null,
    terminate: () => void worker.terminate(),
  };
  return webWorkerShaped(
    worker,
    (error) => like.onmessage?.({ data: { type: 'failed', message: error.stack ?? String(error) } }),
    like,
  );
}

/** The checkpoint worker in a Node worker thread. */
export function startNodeCheckpointWorker(): CheckpointWorkerLike {
  const worker = nodeWorker('node-checkpoint-worker');
  const like: CheckpointWorkerLike = {
    postMessage: (message) => worker.postMessage(message),
    onmessage: null,
    onerror: null,
    terminate: () => void worker.terminate(),
  };
  return webWorkerShaped(worker, (error) => like.onerror?.({ message: error.message }), like);
}
