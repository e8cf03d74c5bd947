import { ParleyError, type ErrorCode } from '../../errors.ts';
import {
  ConversationReader,
  movableItems,
  type ConversationItem,
  type ImportItem,
  type ConversationReaderOptions,
  type RecordGroup,
} from './conversation-reader.ts';
import { RecordBatcher, type RecordBatch, type SourceHash, type UploadOptions } from './record-batcher.ts';

/**
 * An import's reading runs in a worker: the thread that receives the upload and
 * writes the database hands it the bytes and gets items back, so reading,
 * parsing and writing overlap on two cores. These are the messages between them:
 * batches of records the writer found in the upload — or, when `start` says how
 * to read it (`upload`), the upload's bytes themselves. Then, for the formats
 * whose records make a conversation only once all are in (Gemini, Copilot), the
 * writer sends back each group it assembled, for the reader to normalise.
 */
export type ToReader =
  | { type: 'start'; options: ConversationReaderOptions; upload?: UploadOptions }
  | { type: 'batch'; batch: RecordBatch }
  | { type: 'bytes'; bytes: Uint8Array }
  | { type: 'end' }
  /** After the end: a conversation of a grouped format to normalise. */
  | { type: 'group'; group: RecordGroup };
export type FromReader =
  /** The items of one batch (or the end). */
  | { type: 'items'; items: ImportItem[]; last: boolean }
  /** A group, normalised; groups are answered in the order they came. */
  | { type: 'normalized'; item: ConversationItem }
  /** Reading stopped: an ParleyError's code and detail, or an unexpected error's message. */
  | { type: 'failed'; code?: ErrorCode; detail?: string; message: string };

/** The worker's end of the conversation, on whatever runtime. */
export interface ReaderPort {
  /** `transfer`: buffers moved to the writer, not copied. */
  postMessage(message: FromReader, transfer?: ArrayBuffer[]): void;
  onMessage(handler: (message: ToReader) => void): void;
}

/** The writer's end: a Web Worker, or anything shaped like one. */
export interface WorkerLike {
  /** `transfer`: buffers moved to the worker, not copied. */
  postMessage(message: ToReader, transfer?: ArrayBuffer[]): void;
  onmessage: ((event: { data: FromReader }) => void) | null;
  terminate(): void;
}

/**
 * Serves one import on `port`: messages are handled in order, and every batch
 * (or slice of bytes) is answered with its items — which is also how the writer
 * knows it may send more. After a failure, the rest is ignored. `hash` hashes
 * the records of an upload read here.
 */
export function serveImport(port: ReaderPort, hash?: SourceHash): void {
  let reader: ConversationReader | undefined;
  let upload: RecordBatcher | undefined;
  /** What the upload's batches read so far made, for the answer to the bytes they came in. */
  const made: ImportItem[] = [];
  const takeMade = () => made.splice(0);
  let failed = false;
  const answer = (read: ImportItem[], last = false) => {
    const { items, buffers } = movableItems(read);
    port.postMessage({ type: 'items', items, last }, buffers);
  };
  const handle = async (message: ToReader) => {
    if (failed) return;
    try {
      switch (message.type) {
        case 'start':
          reader = new ConversationReader(message.options);
          if (message.upload)
            upload = new RecordBatcher(message.upload, (batch) => void made.push(...reader!.read(batch)), hash);
          return;
        case 'batch':
          return answer(reader!.read(message.batch));
        case 'bytes':
          await upload!.push(message.bytes);
          return answer(takeMade());
        case 'end':
          await upload?.end();
          return answer([...takeMade(), ...reader!.end()], true);
        case 'group':
          return port.postMessage({ type: 'normalized', item: await reader!.normalizeGroup(message.group) });
      }
    } catch (error) {
      failed = true;
      port.postMessage(
        error instanceof ParleyError
          ? {
              type: 'failed',
              code: error.code,
              ...(error.detail ? { detail: error.detail } : {}),
              message: error.message,
            }
          : { type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      );
    }
  };
  // Reading an upload's bytes waits on hashing and inflating: one message at a time, in order.
  let handled = Promise.resolve();
  port.onMessage((message) => {
    handled = handled.then(() => handle(message));
  });
}

/** A worker in this thread, over a MessageChannel: the same messages, for where no real worker is given (tests). */
export function localImportWorker(): WorkerLike {
  const { port1, port2 } = new MessageChannel();
  serveImport({
    postMessage: (message, transfer = []) => port2.postMessage(message, transfer),
    onMessage: (handler) => (port2.onmessage = (event) => handler(event.data)),
  });
  const worker: WorkerLike = {
    postMessage: (message, transfer = []) => port1.postMessage(message, transfer),
    onmessage: null,
    terminate: () => {
      port1.close();
      port2.close();
    },
  };
  port1.onmessage = (event) => worker.onmessage?.(event);
  return worker;
}
