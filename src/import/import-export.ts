import { discardImportConnection } from '../db/import-connection.ts';
import { beginImport, endImport } from '../db/imports.ts';
import * as staging from '../db/import-staging.ts';
import { knownBlobs } from '../db/attachment-staging.ts';
import type { Deps } from '../deps.ts';
import { unrevokedConnectionOf } from '../conversations/ownership.ts';
import { ParleyError } from '../errors.ts';
import { currentlyRead, formatFor } from './formats/registry.ts';
import { commitImport, type ImportResult, type ImportTarget } from './import-commit.ts';
import { localImportWorker } from './worker/import-worker.ts';
import { WorkerChannel } from './worker/worker-channel.ts';
import { isBlobRecord, RecordBatcher, type RecordBatch, type UploadOptions } from './worker/record-batcher.ts';
import { blobItem } from './worker/conversation-reader.ts';
import { StagedImport } from './staging/staged-import.ts';
import { blobKey } from './scanning/export-scanner.ts';

/** Input is read on in slices of at most this many bytes. */
const SLICE_BYTES = 64 * 1024;

type ImportDeps = Pick<
  Deps,
  | 'db'
  | 'clock'
  | 'random'
  | 'config'
  | 'importWorker'
  | 'sourceHash'
  | 'erased'
  | 'attachments'
  | 'blobHash'
  | 'metrics'
>;

/**
 * Whether this thread finds the upload's records (inflating, splitting, hashing,
 * decoding) for the worker, so that the two threads share the work: when none
 * of the user's conversations is stored, the worker parses every record. With
 * some stored, the upload is most likely a newer export of them — mostly
 * unchanged, nothing to parse — and the worker, idle otherwise, scans its bytes
 * itself. Either way this thread writes.
 */
const scansOnThisThread = (upload: UploadOptions) => upload.known.length === 0;

/** One file of an export: its name, where the upload gives one, and its bytes. */
export interface ExportFile {
  name: string | undefined;
  bytes: AsyncIterable<Uint8Array>;
}

/** An export sent as one file. */
export async function* oneFile(bytes: AsyncIterable<Uint8Array>): AsyncIterable<ExportFile> {
  yield { name: undefined, bytes };
}

/**
 * Imports an export (a provider's zip, or its JSON or CSV file; or several
 * such files of one provider, read one after the other) for a user: all
 * or nothing. The conversations are found as the upload arrives and a reader —
 * in a worker of its own where the runtime gives one — parses and normalises
 * them; this thread stages what the reader makes of them out of sight in small
 * transactions (into a connection of the import's own when it opens the
 * user's: see import-connection.ts), and one final transaction (commitImport)
 * moves them into the connection, or gives it that one, so a failure at any
 * point — bad JSON at the end of a 1 GB file, a lost connection — leaves no
 * trace.
 *
 * `before` is what the request names before the file: its app, and the whole
 * target when it names its user there; `completed` answers the whole target
 * once the file is read, keeping what `before` named (a form may name fields
 * after its file). Without a target before the file, nothing is checked or
 * looked up until then.
 */
export async function importExport(
  deps: ImportDeps,
  before: ImportTarget | { appId: string; timeZone?: string | undefined },
  files: AsyncIterable<ExportFile>,
  completed: () => Promise<ImportTarget>,
): Promise<ImportResult> {
  const started = performance.now();
  let read = 0;
  let failure: string | undefined;
  try {
    return await runImport(
      deps,
      before,
      counting(files, (length) => (read += length)),
      completed,
    );
  } catch (error) {
    failure = error instanceof ParleyError ? error.code : 'internal';
    throw error;
  } finally {
    deps.metrics.importEnded(read, (performance.now() - started) / 1000, failure);
  }
}

/** The files, each byte of them counted as it is read. */
async function* counting(files: AsyncIterable<ExportFile>, count: (length: number) => void) {
  for await (const file of files) yield { ...file, bytes: countedBytes(file.bytes, count) };
}

async function* countedBytes(bytes: AsyncIterable<Uint8Array>, count: (length: number) => void) {
  for await (const chunk of bytes) {
    count(chunk.length);
    yield chunk;
  }
}

async function runImport(
  deps: ImportDeps,
  before: ImportTarget | { appId: string; timeZone?: string | undefined },
  files: AsyncIterable<ExportFile>,
  completed: () => Promise<ImportTarget>,
): Promise<ImportResult> {
  const target = 'userRef' in before ? before : undefined;
  // Checked before the first byte of the file is read: the provider id is known,
  // and a named connection is this app's and this user's, and not revoked.
  if (target?.provider !== undefined && !formatFor(target.provider)) throw new ParleyError('invalidProvider');
  const importId = deps.random.uuid();
  // Under way from here: a purge of its user from now on refuses it (see imports.ts).
  await beginImport(deps.db, { id: importId, app_id: before.appId, created_at: deps.clock.now() }, target);
  try {
    return await importUnderWay(deps, importId, target, before.timeZone, files, completed);
  } finally {
    await endImport(deps.db, importId);
  }
}

async function importUnderWay(
  deps: ImportDeps,
  importId: string,
  target: ImportTarget | undefined,
  timeZone: string | undefined,
  files: AsyncIterable<ExportFile>,
  completed: () => Promise<ImportTarget>,
): Promise<ImportResult> {
  const named =
    target?.connectionId === undefined ? undefined : await unrevokedConnectionOf(deps, target, target.connectionId);
  const expectedProvider = target?.provider ?? named?.provider;
  const { maxConversationBytes, maxExpandedBytes, maxAttachmentBytes, maxExportRecords } = deps.config;
  const where = target && { ...target, provider: expectedProvider };
  const upload: UploadOptions = {
    limits: { maxConversationBytes, maxExpandedBytes, maxAttachmentBytes, maxExportRecords },
    known: where ? currentlyRead(await staging.knownSources(deps.db, where), timeZone) : [],
    knownBlobs: where ? (await knownBlobs(deps.db, where)).map(({ source, size }) => blobKey(source, size)) : [],
  };
  // Nothing of the user's stored, no connection named: the import may open their connection.
  const owner = target?.connectionId === undefined && upload.known.length === 0 ? target : undefined;
  const staged = new StagedImport(deps, importId, upload.known, owner, timeZone);
  // The reader of the file being read; the last one's normalises the grouped formats' conversations.
  let channel: WorkerChannel | undefined;
  try {
    for await (const file of files) {
      channel?.close();
      channel = new WorkerChannel(
        (deps.importWorker ?? localImportWorker)(),
        { expectedProvider, timeZone },
        scansOnThisThread(upload) ? undefined : upload,
      );
      staged.beginFile(file.name);
      await readFile(deps, upload, channel, staged, file.bytes);
    }
    await staged.finish((format, group) => channel!.normalize(format, group));
    const whole = await completed();
    // A provider named only after the file could not be held against it while it was read.
    if (whole.provider !== undefined && whole.provider !== staged.format!.provider)
      throw new ParleyError('invalidProvider', { detail: staged.format!.provider });
    const result = await commitImport(deps, whole, staged.format!, staged);
    if (result.replaced > 0) deps.erased?.();
    const { replaced, ...answer } = result;
    return answer;
  } finally {
    channel?.close();
    await staged.blobs.abort();
    await staging.discardStaged(deps.db, staged.importId);
    // What it wrote is people's text, in the database file now.
    if (await discardImportConnection(deps.db, staged.importId)) deps.erased?.();
  }
}

/**
 * One file of the import read into `staged` through its reader, `channel`:
 * its records found here (scanned on this thread) or by the reader from the
 * bytes it is sent.
 */
async function readFile(
  deps: ImportDeps,
  upload: UploadOptions,
  channel: WorkerChannel,
  staged: StagedImport,
  bytes: AsyncIterable<Uint8Array>,
): Promise<void> {
  // Blobs found here are written from here: nothing in them is for the reader.
  const write = async ({ records }: RecordBatch) => {
    const forReader = records.filter((record) => !isBlobRecord(record));
    for (const record of records) if (isBlobRecord(record)) await staged.blobs.add(blobItem(record));
    // A batch of blobs alone stays here.
    if (forReader.length > 0) await channel.write({ records: forReader });
  };
  const here = scansOnThisThread(upload) ? new RecordBatcher(upload, write, deps.sourceHash) : undefined;
  const sending = (async () => {
    for await (const chunk of bytes) {
      // A large chunk (a whole body at once, from some servers) goes in slices, so batches stay small.
      for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
        const slice = chunk.subarray(at, at + SLICE_BYTES);
        await (here ? here.push(slice) : channel.writeBytes(slice));
      }
    }
    await here?.end();
    channel.end();
  })();
  // A failed upload or an unreadable file ends the reading with its error too.
  sending.catch((error) => channel.fail(error));
  for await (const items of channel.items()) for (const item of items) await staged.add(item);
  await sending;
}
