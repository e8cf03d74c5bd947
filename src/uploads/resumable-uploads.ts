import * as uploads from '../db/uploads.ts';
import type { UploadRow } from '../db/uploads.ts';
import type { BlobWriter } from '../attachments/attachment-store.ts';
import { databaseStore } from '../attachments/database-store.ts';
import { MissingPartFile, type PartFiles } from '../db/part-files.ts';
import { writeTransaction } from '../db/transaction.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import type { ImportResult, ImportTarget } from '../import/import-commit.ts';
import { importExport } from '../import/import-export.ts';
import { isValidUserRef } from '../users/user-ref.ts';

export type { UploadRow };

type UploadDeps = Pick<Deps, 'db' | 'clock' | 'random' | 'config' | 'attachments' | 'partFiles'>;
type ImportDeps = Parameters<typeof importExport>[0];

const HOUR_MS = 3_600_000;

/**
 * Who an upload belongs to: an app, through its API key; or one connect page's
 * session of that app (its token's hash), which alone reaches it, for its user.
 */
export type UploadOwner =
  | { appId: string; pageSession?: undefined }
  | { appId: string; pageSession: string; userRef: string };

/** When an upload whose last byte came now expires. */
export const expiryFrom = (deps: Pick<Deps, 'config'>, now: number) => now + deps.config.uploadExpiryHours * HOUR_MS;

/**
 * The pairs of a tus Upload-Metadata header: `key base64value`, comma-separated,
 * a key alone for an empty value. 400 for one that does not decode as UTF-8.
 */
export function parseUploadMetadata(header: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (const pair of header.split(',')) {
    const [key, value = '', extra] = pair.trim().split(' ');
    if (!key || extra !== undefined) throw new ParleyError('invalidUploadMetadata');
    try {
      pairs[key] = utf8.decode(Uint8Array.from(atob(value), (char) => char.charCodeAt(0)));
    } catch {
      throw new ParleyError('invalidUploadMetadata');
    }
  }
  return pairs;
}

/**
 * Creates an upload of `length` bytes for its owner: 413 over MAX_EXPORT_BYTES (no
 * export larger is imported) or when the app's open uploads would then declare
 * more than MAX_OPEN_UPLOAD_BYTES. A `userRef` in the metadata — or the page
 * session's user, whatever the metadata says — ties it to that user (their purge
 * removes it; only their import reads it).
 */
export async function createUpload(
  deps: UploadDeps,
  owner: UploadOwner,
  { length, metadata }: { length: number; metadata: string },
): Promise<UploadRow> {
  const named = metadata === '' ? undefined : parseUploadMetadata(metadata).userRef;
  const userRef = owner.pageSession === undefined ? named : owner.userRef;
  if (userRef !== undefined && !isValidUserRef(userRef)) throw new ParleyError('invalidUserRef');
  if (length > deps.config.maxExportBytes) throw new ParleyError('exportTooLarge');
  const upload = {
    // A random UUID: 122 random bits, so an id cannot be guessed.
    id: deps.random.uuid(),
    app_id: owner.appId,
    page_session: owner.pageSession ?? null,
    user_ref: userRef ?? null,
    metadata,
    length,
    expires_at: expiryFrom(deps, deps.clock.now()),
  };
  if (!(await uploads.insertUpload(deps.db, upload, deps.config.maxOpenUploadBytes)))
    throw new ParleyError('tooManyOpenUploads');
  return { ...upload, received: 0 };
}

/**
 * The owner's upload, or 404 as for one that does not exist (another app's,
 * another page session's, one expired; a page session's, asked with an API key).
 */
export async function uploadOfApp(
  deps: Pick<Deps, 'db' | 'clock'>,
  { appId, pageSession }: { appId: string; pageSession?: string | undefined },
  id: string,
): Promise<UploadRow> {
  const owner = { appId, pageSession: pageSession ?? null };
  const upload = await uploads.uploadOfApp(deps.db, owner, id, deps.clock.now());
  if (!upload) throw new ParleyError('uploadNotFound');
  return upload;
}

/**
 * Appends `body` to the upload from `offset`, which must be what it has
 * received (409 otherwise); what it has received after them, and its new
 * expiry. The bytes go into a part of their own: a part file where the server
 * keeps them (`partFiles`), else a blob of the attachments' store. A body cut
 * off part-way (the client gone, a stall, too many bytes) keeps what arrived
 * before its error is thrown, so that the client resumes from there.
 */
export async function appendToUpload(
  deps: UploadDeps,
  upload: UploadRow,
  offset: number,
  body: AsyncIterable<Uint8Array>,
): Promise<Pick<UploadRow, 'received' | 'expires_at'>> {
  if (offset !== upload.received) throw new ParleyError('uploadOffsetMismatch');
  const part = { blobId: deps.random.uuid(), uploadId: upload.id, startByte: offset };
  const files = deps.attachments.objects ? undefined : deps.partFiles;
  let writer: BlobWriter | undefined;
  let size = 0;
  let cutOff: unknown;
  try {
    for await (const chunk of body) {
      if (chunk.length === 0) continue;
      if (!writer) {
        const store = files ? null : deps.attachments.name;
        await uploads.beginPart(deps.db, { ...part, store, now: deps.clock.now() });
        writer = (files ?? deps.attachments).create(part.blobId);
      }
      await writer.write(chunk);
      size += chunk.length;
    }
  } catch (error) {
    cutOff = error;
  }
  if (!writer) {
    if (cutOff) throw cutOff;
    return upload;
  }
  try {
    await writer.close();
  } catch (error) {
    await writer.abort().catch(() => undefined);
    await uploads.deletePart(deps.db, part.blobId);
    throw error;
  }
  const expiresAt = expiryFrom(deps, deps.clock.now());
  const received = await uploads.commitPart(deps.db, { ...part, size, expiresAt });
  // Refused, the part's row is gone: so goes its file.
  if (received === undefined) await removeLeftoverPartFiles(deps);
  if (cutOff) throw cutOff;
  // Another request took these bytes first while this one's arrived.
  if (received === undefined) throw new ParleyError('uploadOffsetMismatch');
  return { received, expires_at: expiresAt };
}

/** The upload's bytes in order, read from the parts' files or stores as they are asked for. */
export async function* uploadBytes(
  deps: Pick<Deps, 'db' | 'attachments' | 'partFiles'>,
  uploadId: string,
): AsyncIterable<Uint8Array> {
  for (const part of await uploads.partsOf(deps.db, uploadId)) {
    if (part.store !== null) yield* deps.attachments.forBlob(part.store).read(part.blob_id);
    else if (deps.partFiles) {
      try {
        yield* deps.partFiles.read(part.blob_id);
      } catch (error) {
        if (!(error instanceof MissingPartFile)) throw error;
        // Its bytes are lost: the upload goes, and the client, finding it gone, sends the file again.
        await deleteUpload(deps, uploadId);
        throw new ParleyError('uploadNotFound');
      }
    } else throw new Error('An upload part is a file beside a SQLite database, and this server has none');
  }
}

/** How long an import may read uploads before another may take them: past it, its process died. */
const IMPORT_CLAIM_MS = 3_600_000;
/** When to ask again while another import reads the uploads. */
const IMPORTING_RETRY_AFTER_SECONDS = 2;

/**
 * Imports the app's complete uploads `ids`, the files of one export, for the
 * target's user, as an export sent in one request would be, then removes them
 * and their bytes: 404 for an unknown upload, another app's, or one that names
 * another user; 409 while bytes are missing; 413 when together they hold more
 * than MAX_IMPORT_BYTES; 409 while another import reads one of them. A failed
 * import leaves the uploads, to be imported again.
 */
export async function importUploads(deps: ImportDeps, target: ImportTarget, ids: string[]): Promise<ImportResult> {
  const chosen: UploadRow[] = [];
  // Each once: an id named twice is one file.
  for (const id of new Set(ids)) {
    // The connect page's import (target.pageSession) reads only that session's uploads.
    const upload = await uploadOfApp(deps, target, id);
    if (upload.user_ref !== null && upload.user_ref !== target.userRef) throw new ParleyError('uploadNotFound');
    if (upload.received < upload.length) throw new ParleyError('uploadNotComplete');
    chosen.push(upload);
  }
  if (chosen.reduce((sum, upload) => sum + upload.length, 0) > deps.config.maxImportBytes)
    throw new ParleyError('exportTooLarge');
  const claimed = chosen.map((upload) => upload.id);
  const now = deps.clock.now();
  if (!(await uploads.claimUploads(deps.db, target.appId, claimed, now, now + IMPORT_CLAIM_MS)))
    throw new ParleyError('uploadImporting', { retryAfterSeconds: IMPORTING_RETRY_AFTER_SECONDS });
  async function* files() {
    for (const upload of chosen) yield { name: uploadName(upload), bytes: uploadBytes(deps, upload.id) };
  }
  let result: ImportResult;
  try {
    result = await importExport(deps, target, files(), async () => target);
  } catch (error) {
    await uploads.releaseUploads(deps.db, claimed);
    throw error;
  }
  for (const id of claimed) await deleteUpload(deps, id);
  return result;
}

/** The file name an upload's metadata gives, if any. */
const uploadName = (upload: UploadRow): string | undefined =>
  upload.metadata === '' ? undefined : parseUploadMetadata(upload.metadata).filename;

/** Removes the upload and its bytes (termination, or once imported). */
export async function deleteUpload(deps: Pick<Deps, 'db' | 'partFiles'>, id: string): Promise<void> {
  await uploads.deleteUpload(deps.db, id);
  await removeLeftoverPartFiles(deps);
}

/** Removes those of the uploads `ids` that the connect page session made (others are left), with their bytes. */
export async function discardSessionUploads(
  deps: Pick<Deps, 'db' | 'partFiles'>,
  session: { appId: string; tokenHash: string },
  ids: string[],
): Promise<void> {
  await uploads.deleteUploadsOfSession(deps.db, { appId: session.appId, pageSession: session.tokenHash }, ids);
  await removeLeftoverPartFiles(deps);
}

/**
 * Removes the part files whose part is gone (see part-files.ts): after each
 * removal of uploads, and by maintenance for those that went with their app
 * or page session.
 */
export async function removeLeftoverPartFiles(deps: Pick<Deps, 'db' | 'partFiles'>): Promise<void> {
  await deps.partFiles?.removeLeftovers((partIds) => uploads.existingParts(deps.db, partIds));
}

/**
 * Moves the parts kept as files into the database, each a blob of chunk rows
 * written in one transaction, then removes its file: before a copy to
 * PostgreSQL, whose servers have no such folder, so that the uploads go on
 * there.
 */
export async function movePartFilesIntoDatabase(deps: Pick<Deps, 'db' | 'clock'>, partFiles: PartFiles): Promise<void> {
  for (const blobId of await uploads.filedParts(deps.db)) {
    await writeTransaction(deps.db, async (trx) => {
      await uploads.insertPartBlob(trx, blobId, deps.clock.now());
      const writer = databaseStore(trx).create(blobId);
      for await (const bytes of partFiles.read(blobId)) await writer.write(bytes);
      await writer.close();
    });
    await partFiles.remove(blobId);
  }
}
