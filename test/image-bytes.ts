import { deflateSync } from 'node:zlib';

/**
 * Image files of a given width and height, built byte by byte: the headers are
 * real (each format's own layout, as image tools read it), so a logo's shape is
 * checked on what an operator's file would hold. The PNG decodes whole (a blank
 * image); the JPEG and WebP carry a real header and a token body.
 */

const u16be = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const u32be = (n: number) => [...u16be(n >>> 16), ...u16be(n & 0xffff)];
const u16le = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const u24le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
const u32le = (n: number) => [...u16le(n & 0xffff), ...u16le(n >>> 16)];
const ascii = (text: string) => [...Buffer.from(text, 'latin1')];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: number[]) =>
  (bytes.reduce((c, byte) => CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8), ~0) ^ ~0) >>> 0;

function pngChunk(type: string, data: number[]): number[] {
  const body = [...ascii(type), ...data];
  return [...u32be(data.length), ...body, ...u32be(crc32(body))];
}

/** A blank 1-bit greyscale PNG of width × height. */
export function pngOf(width: number, height: number): Uint8Array {
  const row = [0, ...new Array(Math.ceil(width / 8)).fill(0xff)];
  const pixels = deflateSync(Buffer.from(new Array(height).fill(row).flat()));
  return Uint8Array.from([
    0x89,
    ...ascii('PNG\r\n\x1a\n'),
    ...pngChunk('IHDR', [...u32be(width), ...u32be(height), 1, 0, 0, 0, 0]),
    ...pngChunk('IDAT', [...pixels]),
    ...pngChunk('IEND', []),
  ]);
}

const jpegSegment = (marker: number, data: number[]) => [0xff, marker, ...u16be(data.length + 2), ...data];

/** A baseline JPEG header of width × height: JFIF, an Exif-sized APP1 and a quantisation table before the frame. */
export function jpegOf(width: number, height: number, frame = 0xc0): Uint8Array {
  return Uint8Array.from([
    0xff,
    0xd8,
    ...jpegSegment(0xe0, [...ascii('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...jpegSegment(0xe1, [...ascii('Exif\0\0'), ...new Array(300).fill(0)]),
    ...jpegSegment(0xdb, [0, ...new Array(64).fill(1)]),
    ...jpegSegment(frame, [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0]),
    ...jpegSegment(0xda, [1, 1, 0, 0, 63, 0]),
    0x00,
    0xff,
    0xd9,
  ]);
}

const riff = (chunk: string, data: number[]) => {
  const padded = data.length % 2 ? [...data, 0] : data;
  return Uint8Array.from([
    ...ascii('RIFF'),
    ...u32le(4 + 8 + padded.length),
    ...ascii('WEBP'),
    ...ascii(chunk),
    ...u32le(data.length),
    ...padded,
  ]);
};

/** A WebP of width × height in each of its three first chunks: lossy (VP8), lossless (VP8L), extended (VP8X). */
export const webpOf = {
  lossy: (width: number, height: number) =>
    riff('VP8 ', [0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...u16le(width), ...u16le(height), ...new Array(10).fill(0)]),
  lossless: (width: number, height: number) => {
    const bits = ((width - 1) | ((height - 1) << 14)) >>> 0;
    return riff('VP8L', [0x2f, ...u32le(bits), ...new Array(8).fill(0)]);
  },
  extended: (width: number, height: number) => riff('VP8X', [0x10, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]),
};
