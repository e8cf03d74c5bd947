import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { Config } from '../config.ts';
import { ParleyError } from '../errors.ts';
import { requireUserRef } from '../users/user-ref.ts';
import { oneFile, type ExportFile } from '../import/import-export.ts';
import { readMultipartUpload } from './multipart.ts';
import { readWithin } from './request-body.ts';

type UploadKind = 'json' | 'zip' | 'csv' | 'text' | 'html' | 'multipart';

/** What a file is, is read from its content; the type only has to be one an export can come as. */
const KINDS: Record<string, UploadKind> = {
  'application/json': 'json',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'text/csv': 'csv',
  // Duck.ai's download is a .txt file.
  'text/plain': 'text',
  'multipart/form-data': 'multipart',
  'text/html': 'html',
};

/** The upload's kind from its Content-Type, or 415. */
function uploadKind(contentType: string | undefined): UploadKind {
  const kind = KINDS[(contentType ?? '').split(';')[0]!.trim().toLowerCase()];
  if (!kind) throw new ParleyError('unsupportedContentType');
  return kind;
}

/**
 * A request body read chunk by chunk that stops with 413 once it passes `maxBytes`
 * — whatever Content-Length claimed, or when there is none — and with 408 when no
 * byte comes for `idleTimeoutMs` while it is waited for (an upload may take as
 * long as it needs while its bytes flow).
 */
export class LimitedBody implements AsyncIterable<Uint8Array> {
  /** Whether the body was read to its end; if not, the connection should close. */
  finished = false;

  constructor(
    private readonly stream: ReadableStream<Uint8Array> | null,
    private readonly maxBytes: number,
    private readonly idleTimeoutMs: number,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    if (!this.stream) {
      this.finished = true;
      return;
    }
    const reader = this.stream.getReader();
    let bytes = 0;
    try {
      for (;;) {
        const { done, value } = await readWithin(reader, this.idleTimeoutMs);
        if (done) {
          this.finished = true;
          return;
        }
        bytes += value.length;
        if (bytes > this.maxBytes) throw new ParleyError('exportTooLarge');
        // Node's server hands over Buffers, whose slice() is a view rather than a
        // copy; the reader's slice() calls rely on a copy (part of a buffer, copied
        // before it moves to a re-import's worker; multipart's field values).
        yield value.constructor === Uint8Array
          ? value
          : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      }
    } finally {
      // Not cancel(): the server answers (413, 400) with `Connection: close` and drops
      // the rest of the body with the connection, whereas cancelling makes Deno's
      // server read the rest of the body before it answers.
      reader.releaseLock();
    }
  }
}

export interface ExportUpload {
  /** Query parameters, then the form fields before the first file (multipart). */
  fields: Record<string, string>;
  /** The body, or a form's files: one export. */
  files: AsyncIterable<ExportFile>;
  /** A form's fields after its first file (none for other uploads): see MultipartUpload.fieldsAfter. */
  fieldsAfterFile(): Promise<Record<string, string>>;
}

/** A form's file, refused with 413 once it passes `maxBytes` (the body's bound is that of all its files). */
async function* withinBytes(bytes: AsyncIterable<Uint8Array>, maxBytes: number): AsyncIterable<Uint8Array> {
  let read = 0;
  for await (const chunk of bytes) {
    read += chunk.length;
    if (read > maxBytes) throw new ParleyError('exportTooLarge');
    yield chunk;
  }
}

/**
 * Opens an export upload, checked in the order the API's errors take: content type
 * (415), then userRef if asked (400; for multipart once the fields before its
 * first file are read, and only if given there: a form may name it after the file),
 * then the declared size (413: MAX_EXPORT_BYTES for a file, MAX_IMPORT_BYTES for a
 * form, whose every file is bounded by MAX_EXPORT_BYTES too). A multipart body is
 * read up to its first file. The body is noted on the context, so that an answer
 * given before it was read to its end closes the connection.
 */
export async function openExportUpload(
  c: Context<AppEnv>,
  {
    maxExportBytes,
    maxImportBytes,
    uploadIdleTimeoutMs,
  }: Pick<Config, 'maxExportBytes' | 'maxImportBytes' | 'uploadIdleTimeoutMs'>,
  { withUserRef = false } = {},
): Promise<ExportUpload> {
  const request = c.req.raw;
  const kind = uploadKind(request.headers.get('Content-Type') ?? undefined);
  const fields: Record<string, string> = Object.fromEntries(new URL(request.url).searchParams);
  const checkUserRef = (known: Record<string, string>) => {
    if (withUserRef) requireUserRef(known.userRef);
  };
  if (kind !== 'multipart') checkUserRef(fields);
  const maxBytes = kind === 'multipart' ? maxImportBytes : maxExportBytes;
  const declared = Number(request.headers.get('Content-Length') ?? Number.NaN);
  if (declared > maxBytes) throw new ParleyError('exportTooLarge');
  const body = new LimitedBody(request.body, maxBytes, uploadIdleTimeoutMs);
  c.set('upload', body);
  if (kind !== 'multipart') return { fields, files: oneFile(body), fieldsAfterFile: async () => ({}) };

  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers.get('Content-Type')!);
  if (!boundary) throw new ParleyError('unsupportedContentType');
  const form = await readMultipartUpload(body, boundary[1] ?? boundary[2]!);
  const merged = { ...fields, ...form.fields };
  if (merged.userRef) checkUserRef(merged);
  async function* files() {
    for await (const { name, bytes } of form.files) yield { name, bytes: withinBytes(bytes, maxExportBytes) };
  }
  return { fields: merged, files: files(), fieldsAfterFile: form.fieldsAfter };
}
