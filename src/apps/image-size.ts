/**
 * The width and height of a PNG, JPEG or WebP image, read from its header bytes
 * (no decoding): what a logo's shape is checked by. Undefined when the header
 * does not say, or says zero: a damaged file, or one only its first bytes make
 * look like an image.
 */

export interface ImageSize {
  width: number;
  height: number;
}

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

const sized = (width: number, height: number): ImageSize | undefined =>
  width > 0 && height > 0 ? { width, height } : undefined;

const fourCc = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/** PNG: the first chunk is IHDR, width then height, 32-bit big-endian. */
function pngSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.byteLength < 24 || fourCc(bytes, 12) !== 'IHDR') return undefined;
  return sized(view.getUint32(16), view.getUint32(20));
}

/**
 * JPEG: segments follow one another, each a marker and a length, until a start
 * of frame (SOF0–SOF15 but DHT, JPG and DAC, which share the range) gives height
 * then width; the image data (SOS) before any means there is none.
 */
function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let at = 2;
  while (at + 4 <= bytes.byteLength) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    // Markers that stand alone, without a length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = view.getUint16(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > bytes.byteLength) return undefined;
      return sized(view.getUint16(at + 7), view.getUint16(at + 5));
    }
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/**
 * WebP: RIFF, then its first chunk: VP8X (extended) holds the canvas size,
 * VP8 (lossy) the key frame's, VP8L (lossless) the bitstream's; each its own way.
 */
function webpSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.byteLength < 30) return undefined;
  const data = 20;
  const uint24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
  switch (fourCc(bytes, 12)) {
    case 'VP8X':
      return sized(uint24(data + 4) + 1, uint24(data + 7) + 1);
    case 'VP8 ':
      // A 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height (2 bits of scaling above).
      if (bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a) return undefined;
      return sized(view.getUint16(data + 6, true) & 0x3fff, view.getUint16(data + 8, true) & 0x3fff);
    case 'VP8L': {
      // The signature 0x2f, then width − 1 and height − 1 in 14 bits each, least significant first.
      if (bytes[data] !== 0x2f) return undefined;
      const bits = view.getUint32(data + 1, true);
      return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    default:
      return undefined;
  }
}

const READERS: Record<ImageType, (bytes: Uint8Array, view: DataView) => ImageSize | undefined> = {
  'image/png': pngSize,
  'image/jpeg': jpegSize,
  'image/webp': webpSize,
};

/** The size an image of `type` (known by its first bytes) says it has. */
export const imageSize = (bytes: Uint8Array, type: ImageType): ImageSize | undefined =>
  READERS[type](bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
