import type { AttachmentKind } from '../db/database.ts';

/** Bytes of a file's start that sniffContentType looks at. */
export const SNIFF_BYTES = 512;

const startsWith = (head: Uint8Array, bytes: number[], at = 0) => bytes.every((byte, i) => head[at + i] === byte);
const ascii = (head: Uint8Array, text: string, at = 0) =>
  startsWith(
    head,
    Array.from(text, (char) => char.charCodeAt(0)),
    at,
  );

/**
 * The type a file's first bytes show (ChatGPT's `.dat` files have no
 * extension and often no type in the export), or undefined.
 */
export function sniffContentType(head: Uint8Array): string | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(head, 'GIF87a') || ascii(head, 'GIF89a')) return 'image/gif';
  if (ascii(head, 'RIFF') && ascii(head, 'WEBP', 8)) return 'image/webp';
  if (ascii(head, 'RIFF') && ascii(head, 'WAVE', 8)) return 'audio/wav';
  if (ascii(head, '%PDF-')) return 'application/pdf';
  if (ascii(head, 'ID3') || (head[0] === 0xff && head[1] !== undefined && (head[1] & 0xe0) === 0xe0))
    return 'audio/mpeg';
  if (ascii(head, 'OggS')) return 'audio/ogg';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  if (ascii(head, 'ftyp', 4)) return ascii(head, 'M4A', 8) ? 'audio/mp4' : 'video/mp4';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  return textType(head);
}

/** SVG or plain text: UTF-8 with no control characters but whitespace. */
function textType(head: Uint8Array): string | undefined {
  if (head.length === 0) return undefined;
  for (const byte of head) if (byte < 0x09 || (byte > 0x0d && byte < 0x20) || byte === 0x7f) return undefined;
  // Cut at the last whole character: the head may end inside one.
  let end = head.length;
  while (end > 0 && end > head.length - 4 && (head[end - 1]! & 0xc0) === 0x80) end--;
  if (end > 0 && head[end - 1]! >= 0xc0) end--;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
  } catch {
    return undefined;
  }
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(text)
    ? 'image/svg+xml'
    : 'text/plain; charset=utf-8';
}

const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  svg: 'image/svg+xml',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  webm: 'audio/webm',
  mp4: 'video/mp4',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  html: 'text/html; charset=utf-8',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The type a file name's extension says, or undefined. */
export function contentTypeOfName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

/**
 * The name a file is saved under. A document whose text Parley holds in place
 * of the file the export names (Claude keeps the text it extracted from
 * `report.pdf` under that name, typed as text) gets `.txt` after the name, so
 * it opens as the text it is rather than as a PDF that cannot be opened. Any
 * other file keeps its name.
 */
export function savedName(file: { name: string; contentType: string; kind: AttachmentKind }): string {
  const named = contentTypeOfName(file.name);
  const isText = (type: string) => type.startsWith('text/') || type === 'application/json';
  return file.kind === 'document' && isText(file.contentType) && named !== undefined && !isText(named)
    ? `${file.name}.txt`
    : file.name;
}

/**
 * The types an attachment may have, as each is written. A text type carries its
 * charset. Every type sniffContentType and contentTypeOfName give is here.
 */
const ALLOWED_TYPES = new Set([
  ...['png', 'jpeg', 'gif', 'webp', 'avif', 'bmp', 'heic', 'heif', 'tiff', 'svg+xml', 'vnd.microsoft.icon'].map(
    (subtype) => `image/${subtype}`,
  ),
  ...['mpeg', 'wav', 'ogg', 'mp4', 'webm', 'aac', 'flac', 'opus'].map((subtype) => `audio/${subtype}`),
  ...['mp4', 'webm', 'ogg', 'quicktime', 'mpeg'].map((subtype) => `video/${subtype}`),
  ...['plain', 'markdown', 'csv', 'tab-separated-values', 'html', 'css', 'javascript', 'xml'].map(
    (subtype) => `text/${subtype}`,
  ),
  ...[
    'octet-stream',
    'pdf',
    'json',
    'xml',
    'zip',
    'gzip',
    'x-tar',
    'x-7z-compressed',
    'vnd.rar',
    'rtf',
    'epub+zip',
    'msword',
    'vnd.ms-excel',
    'vnd.ms-powerpoint',
    'vnd.openxmlformats-officedocument.wordprocessingml.document',
    'vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'vnd.openxmlformats-officedocument.presentationml.presentation',
    'vnd.oasis.opendocument.text',
    'vnd.oasis.opendocument.spreadsheet',
    'vnd.oasis.opendocument.presentation',
  ].map((subtype) => `application/${subtype}`),
]);

/** Other names exports give some of them. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/x-ms-bmp': 'image/bmp',
  'image/x-icon': 'image/vnd.microsoft.icon',
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/x-flac': 'audio/flac',
  'text/x-markdown': 'text/markdown',
  'application/javascript': 'text/javascript',
  'application/x-javascript': 'text/javascript',
  'application/x-pdf': 'application/pdf',
  'application/x-zip-compressed': 'application/zip',
  'application/x-gzip': 'application/gzip',
};

/**
 * A content type (an export's, or one stored by an older import) as one type of
 * ALLOWED_TYPES, written one way — lower case, no parameter but a text type's
 * charset (`utf-8` unless it says another) — or undefined if it is not one. A
 * text type not listed (`text/x-python`) is text/plain. Never a list: given
 * `image/png; q=1, text/html`, Parley would read PNG and a browser HTML.
 */
export function canonicalContentType(value: string | undefined): string | undefined {
  // Printable ASCII only: it becomes a response header.
  if (value === undefined || !/^[\x20-\x7e]*$/.test(value) || value.includes(',')) return undefined;
  const [given = '', ...parameters] = value
    .toLowerCase()
    .split(';')
    .map((part) => part.trim());
  const type =
    ALIASES[given] ?? (ALLOWED_TYPES.has(given) ? given : /^text\/[\w.+-]+$/.test(given) ? 'text/plain' : undefined);
  if (type === undefined || !type.startsWith('text/')) return type;
  const charset = parameters.map((parameter) => /^charset\s*=\s*"?([\w.:-]+)"?$/.exec(parameter)?.[1]).find(Boolean);
  return `${type}; charset=${charset ?? 'utf-8'}`;
}

/**
 * A stored attachment's type as Parley states it (in headers, the API and the
 * pages): canonical, or `application/octet-stream`, a download, when it has
 * no canonical form (an older import stored the export's type as given).
 */
export const attachmentContentType = (stored: string) => canonicalContentType(stored) ?? 'application/octet-stream';

/** image/* an image, audio/* audio, anything else a file (Claude's extracted text is said to be a document). */
export function kindOf(contentType: string): AttachmentKind {
  if (contentType.startsWith('image/')) return 'image';
  if (contentType.startsWith('audio/')) return 'audio';
  return 'file';
}
