import { ApiError, type ErrorCode } from '../errors.ts';
import { ImportReader, type ImportItem, type ImportReaderOptions } from './import-reader.ts';
import type { RecordBatch } from './record-batch.ts';

/**
 * An import's reading runs in a worker: the thread that receives the upload and
 * writes the database hands it the bytes and gets items back, so reading,
 * parsing and writing overlap on two cores. These are the messages between them.
 */
export type ToReader = { type: 'start'; options: ImportReaderOptions } | { type: 'batch'; batch: RecordBatch } | { type: 'end' };
export type FromReader =
  /** The items of one batch (or the end). */
  | { type: 'items'; items: ImportItem[]; last: boolean }
  /** Reading stopped: an ApiError's code and detail, or an unexpected error's message. */
  | { type: 'failed'; code?: ErrorCode; detail?: string; message: string };

/** The worker's end of the conversation, on whatever runtime. */
export interface ReaderPort {
  postMessage(message: FromReader): void;
  onMessage(handler: (message: ToReader) => void): void;
}

/** The writer's end: a Web Worker, or anything shaped like one. */
export interface WorkerLike {
  postMessage(message: ToReader): void;
  onmessage: ((event: { data: FromReader }) => void) | null;
  terminate(): void;
}

/**
 * Serves one import on `port`: messages are handled in order, and every batch
 * is answered with its items — which is also how the writer knows it may send
 * more. After a failure, the rest is ignored.
 */
export function serveImport(port: ReaderPort): void {
  let reader: ImportReader | undefined;
  let failed = false;
  port.onMessage((message) => {
    if (failed) return;
    try {
      if (message.type === 'start') reader = new ImportReader(message.options);
      else if (message.type === 'batch') port.postMessage({ type: 'items', items: reader!.read(message.batch), last: false });
      else port.postMessage({ type: 'items', items: reader!.end(), last: true });
    } catch (error) {
      failed = true;
      port.postMessage(
        error instanceof ApiError
          ? { type: 'failed', code: error.code, ...(error.detail ? { detail: error.detail } : {}), message: error.message }
          : { type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      );
    }
  });
}

/** A worker in this thread, over a MessageChannel: the same messages, for where no real worker is given (tests). */
export function localImportWorker(): WorkerLike {
  const { port1, port2 } = new MessageChannel();
  serveImport({ postMessage: (message) => port2.postMessage(message), onMessage: (handler) => (port2.onmessage = (event) => handler(event.data)) });
  const worker: WorkerLike = {
    postMessage: (message) => port1.postMessage(message),
    onmessage: null,
    terminate: () => {
      port1.close();
      port2.close();
    },
  };
  port1.onmessage = (event) => worker.onmessage?.(event);
  return worker;
}
