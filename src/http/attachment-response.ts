import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { ByteRange } from '../attachments/attachment-store.ts';
import { streamOf } from '../bytes.ts';
import { neutraliseBidi } from '../bidi-controls.ts';
import { showsInline } from '../attachments/inline-types.ts';
import { attachmentContentType } from '../attachments/content-type.ts';
import { ParleyError } from '../errors.ts';

// Controls, and the characters a path or a shell gives meaning to.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const UNSAFE_IN_NAMES = /[\u0000-\u001f\u007f-\u009f/\\:*?"<>|]/g;
const MAX_NAME_CHARACTERS = 150;
/** The longest extension a cut name keeps: `.docx`, `.markdown`, not half of a long name after a dot. */
const MAX_EXTENSION_CHARACTERS = 16;

/** Without the dots and spaces some systems drop or refuse at a name's ends. */
const trimmedName = (name: string) => name.replace(/^[\s.]+|[\s.]+$/g, '');

/**
 * A file name safe to save under on any system: what would make it a path, a
 * control character or a reversed extension (a bidirectional control) becomes
 * `_`, leading and trailing dots and spaces go, at most 150 characters — a
 * longer name is cut before its extension, so `.png` stays `.png`; `file` if
 * nothing is left.
 */
export function safeFileName(name: string): string {
  const characters = Array.from(trimmedName(neutraliseBidi(name.normalize('NFC')).replace(UNSAFE_IN_NAMES, '_')));
  if (characters.length > MAX_NAME_CHARACTERS) {
    const dot = characters.lastIndexOf('.');
    const extension = dot > 0 && characters.length - dot <= MAX_EXTENSION_CHARACTERS + 1 ? characters.slice(dot) : [];
    characters.splice(MAX_NAME_CHARACTERS - extension.length, Number.POSITIVE_INFINITY, ...extension);
  }
  return trimmedName(characters.join('')) || 'file';
}

/** RFC 5987's encoding of a UTF-8 value: percent-encoding, including what encodeURIComponent leaves. */
const rfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `Content-Disposition` (RFC 6266) for a file of this name: `filename` in
 * ASCII for old clients, `filename*` (RFC 5987) with the name itself.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const safe = safeFileName(name);
  const ascii = safe.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${rfc5987(safe)}`;
}

/**
 * The one byte range a `Range` header asks for: `null` to send the whole file
 * (no header, another unit, several ranges, or one that is not valid, which
 * RFC 9110 says to ignore), `unsatisfiable` when it starts past the end.
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size : Math.min(size, Number(last) + 1) };
}

/** Whether an `If-None-Match` list names this entity tag (weak comparison, as RFC 9110 says for it). */
function matchesAny(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

export interface ServedFile {
  name: string;
  /** The type it is served as (the export's, or the sniffed one). */
  contentType: string;
  /** The type sniffed from its bytes: both must be safe for it to be shown in place. */
  sniffedType: string;
  size: number;
  /** SHA-256 of the bytes, base64url: the strong entity tag. */
  sha256: string;
}

/**
 * A stored file's bytes, for the API and the manage page alike: the whole file
 * or one range of it (206, or 416 past its end), 304 when the client's copy
 * is current, headers only for HEAD. The bytes stream from `read` as the client
 * takes them. `Cache-Control: private, no-cache`: the caller's own cache may
 * keep the bytes (no shared one), and it asks again before each use — a 304
 * by the ETag, or a 404 once the person deleted the file.
 */
export function fileResponse(
  c: Context<AppEnv>,
  file: ServedFile,
  read: (range?: ByteRange) => AsyncIterable<Uint8Array>,
  onError: (error: unknown) => void,
): Response {
  const etag = `"${file.sha256}"`;
  c.header('ETag', etag);
  c.header('Cache-Control', 'private, no-cache');
  c.header('X-Content-Type-Options', 'nosniff');
  // Opened by itself in a tab, the file can do nothing on this origin either.
  c.header('Content-Security-Policy', "default-src 'none'; sandbox");
  c.header('Accept-Ranges', 'bytes');
  if (matchesAny(c.req.header('If-None-Match'), etag)) return c.body(null, 304);
  const ifRange = c.req.header('If-Range');
  const range = ifRange === undefined || ifRange === etag ? requestedRange(c.req.header('Range'), file.size) : null;
  if (range === 'unsatisfiable') {
    c.header('Content-Range', `bytes */${file.size}`);
    throw new ParleyError('rangeNotSatisfiable');
  }
  const inline = showsInline(file.contentType, file.sniffedType);
  c.header('Content-Type', attachmentContentType(file.contentType));
  c.header('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', file.name));
  c.header('Content-Length', String(range ? range.end - range.start : file.size));
  if (range) c.header('Content-Range', `bytes ${range.start}-${range.end - 1}/${file.size}`);
  const status = range ? 206 : 200;
  if (c.req.method === 'HEAD') return c.body(null, status);
  const bytes = read(range ?? undefined)[Symbol.asyncIterator]();
  return c.body(streamOf(bytes, onError), status);
}
