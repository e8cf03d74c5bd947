import { concatBytes } from '../bytes.ts';
import { ParleyError } from '../errors.ts';

/**
 * The most each route reads of a body that is not an export upload. Uploads are
 * bounded by MAX_EXPORT_BYTES, and a form's fields beside its file by
 * multipart.ts; no other route reads its body at all.
 */
export const BODY_LIMITS = {
  /** A hosted page's form: a link token or a CSRF token, nothing more. */
  pageForm: 8 * 1024,
  /** `POST /api/purge`: `{"userRef"}` or `{"connectionId"}`; `POST /api/agent-tokens` too: `{"userRef", "expiresInSeconds"}`. */
  purge: 64 * 1024,
  /** A JSON-RPC message to /mcp: a tool call's arguments are a few short strings. */
  mcp: 64 * 1024,
} as const;

/** The next chunk from `reader`, or 408 if none comes within `timeoutMs`. */
export async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  timeoutMs: number,
): ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ParleyError('requestTimeout')), Math.max(0, timeoutMs));
  });
  try {
    return await Promise.race([reader.read(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A whole body of at most `maxBytes`, arrived within `timeoutMs`: 413 as soon as
 * it is known to be longer (from Content-Length, before reading anything, or
 * once the bytes read pass it), 408 once the time is up. What is left unread goes
 * with the connection (see the entry files).
 */
export async function readBoundedBody(request: Request, maxBytes: number, timeoutMs: number): Promise<Uint8Array> {
  if (Number(request.headers.get('Content-Length')) > maxBytes) throw new ParleyError('bodyTooLarge');
  if (!request.body) return new Uint8Array(0);
  const deadline = performance.now() + timeoutMs;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, deadline - performance.now());
      if (done) return concatBytes(chunks);
      bytes += value.length;
      if (bytes > maxBytes) throw new ParleyError('bodyTooLarge');
      chunks.push(value);
    }
  } finally {
    // Not cancel(): see LimitedBody.
    reader.releaseLock();
  }
}

/** A JSON object body of at most `limit` bytes, or 400 `Invalid JSON body`. */
export async function readJsonObject(
  request: Request,
  limit: number,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request, limit, timeoutMs);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ParleyError('invalidJsonBody');
  return body as Record<string, unknown>;
}

/** A JSON body of at most `limit` bytes, or 400 `Invalid JSON body`. */
export async function readJsonBody(request: Request, limit: number, timeoutMs: number): Promise<unknown> {
  const bytes = await readBoundedBody(request, limit, timeoutMs);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ParleyError('invalidJsonBody');
  }
}
