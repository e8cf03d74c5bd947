import { attachmentContentType } from './content-type.ts';

/**
 * Types a browser shows without running anything: images it only decodes,
 * sound, video and plain text. Anything else — SVG and HTML above all, which
 * run scripts on Parley's origin if shown there — is only ever downloaded.
 */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif|bmp)|audio\/[\w.+-]+|video\/[\w.+-]+|text\/plain)$/;

/** The media type without its parameters: `text/plain; charset=utf-8` → `text/plain`. */
const essence = (contentType: string) => attachmentContentType(contentType).split(';')[0]!;

/** A sound or video type's subtype, the container (`audio/webm` and `video/webm` alike: `webm`); undefined for any other. */
const container = (type: string) => /^(?:audio|video)\/(.+)$/.exec(type)?.[1];

/**
 * Whether a browser may show a file in place: its type (the export's) is one
 * it shows without running anything, and its bytes sniff as that type too — a
 * container's sound and its video count as one, as its bytes do not say which.
 */
export function showsInline(contentType: string, sniffedType: string): boolean {
  const [declared, sniffed] = [essence(contentType), essence(sniffedType)];
  const sameContainer = container(declared) !== undefined && container(declared) === container(sniffed);
  return INLINE_TYPES.test(declared) && (sniffed === declared || sameContainer);
}

/** Whether an image may be put in an `<img>` of the manage page: raster images only, never SVG. */
export const isInlineImage = (contentType: string, sniffedType: string) =>
  essence(contentType).startsWith('image/') && showsInline(contentType, sniffedType);
