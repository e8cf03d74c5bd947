/**
 * Writes a ChatGPT export with images, for the benchmarks (scripts/bench.ts):
 * `imageMb` of distinct JPEG-like files of `imageKb` each, stored (not deflated,
 * as exports ship them) as `file-<id>-photo-<n>.jpg`, each shown by a user
 * message of `conversations-001.json` (ten to a conversation); and, with
 * `textMb`, a generated ChatGPT export of that many MB of conversations as
 * `conversations-000.json` (deflated). Streamed to disk: memory stays small.
 */
import { randomFillSync } from 'node:crypto';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { Deflate, strToU8 } from 'fflate';

export interface AttachmentExport {
  /** Bytes of the zip, and of the image files in it. */
  bytes: number;
  imageBytes: number;
  images: number;
}

const JPEG_HEADER = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00];
const IMAGES_PER_CONVERSATION = 10;

/**
 * A zip written the way exports are: each member's CRC and sizes in its local
 * header (patched in once the member is written), no data descriptors; stored
 * or deflated. fflate's streaming writer always writes descriptors.
 */
class ZipFile {
  private readonly fd: number;
  private offset = 0;
  private readonly entries: Array<{
    name: Uint8Array;
    method: number;
    crc: number;
    size: number;
    compressed: number;
    at: number;
  }> = [];

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  /** A member of `parts` (each written as it comes), stored (method 0) or deflated (8). */
  add(name: string, method: 0 | 8, parts: Iterable<Uint8Array>): void {
    const encoded = strToU8(name);
    const at = this.offset;
    this.write(new Uint8Array(30 + encoded.length));
    let crc = 0;
    let size = 0;
    let compressed = 0;
    const out = (bytes: Uint8Array) => {
      compressed += bytes.length;
      this.write(bytes);
    };
    const deflate = method === 8 ? new Deflate({ level: 1 }, (bytes) => out(bytes)) : undefined;
    for (const part of parts) {
      crc = crc32(part, crc);
      size += part.length;
      if (deflate) deflate.push(part, false);
      else out(part);
    }
    deflate?.push(new Uint8Array(0), true);
    const entry = { name: encoded, method, crc, size, compressed, at };
    this.entries.push(entry);
    writeSync(this.fd, this.header(entry, false), 0, 30 + encoded.length, at);
  }

  /** Writes the central directory and closes the file; the zip's size. */
  end(): number {
    const start = this.offset;
    for (const entry of this.entries) this.write(this.header(entry, true));
    const end = new Uint8Array(22);
    const view = new DataView(end.buffer);
    view.setUint32(0, 0x06054b50, true);
    view.setUint16(8, this.entries.length, true);
    view.setUint16(10, this.entries.length, true);
    view.setUint32(12, this.offset - start, true);
    view.setUint32(16, start, true);
    this.write(end);
    closeSync(this.fd);
    return this.offset;
  }

  private header(
    entry: { name: Uint8Array; method: number; crc: number; size: number; compressed: number; at: number },
    central: boolean,
  ): Uint8Array {
    const fixed = central ? 46 : 30;
    const bytes = new Uint8Array(fixed + entry.name.length);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, central ? 0x02014b50 : 0x04034b50, true);
    // The central record has the version that made it before the fields both share.
    const at = central ? 6 : 4;
    if (central) view.setUint16(4, 20, true);
    view.setUint16(at, 20, true);
    view.setUint16(at + 2, 0x800, true);
    view.setUint16(at + 4, entry.method, true);
    view.setUint32(at + 6, 0x5b210000, true);
    view.setUint32(at + 10, entry.crc, true);
    view.setUint32(at + 14, entry.compressed, true);
    view.setUint32(at + 18, entry.size, true);
    view.setUint16(at + 22, entry.name.length, true);
    if (central) view.setUint32(42, entry.at, true);
    bytes.set(entry.name, fixed);
    return bytes;
  }

  private write(bytes: Uint8Array): void {
    writeSync(this.fd, bytes);
    this.offset += bytes.length;
  }
}

/** `textFile`: a generated ChatGPT conversations.json to put in first, when given. */
export function writeAttachmentExport(
  file: string,
  { imageMb, imageKb, textFile }: { imageMb: number; imageKb: number; textFile?: string },
): AttachmentExport {
  const zip = new ZipFile(file);
  if (textFile) {
    zip.add('conversations-000.json', 8, readChunks(textFile));
  }
  const images = Math.max(1, Math.floor((imageMb * 1024) / imageKb));
  const id = (n: number) => `file-Bench${String(n).padStart(17, '0')}`;
  const conversations = [];
  for (let first = 0; first < images; first += IMAGES_PER_CONVERSATION) {
    const mapping: Record<string, unknown> = {};
    let parent: string | null = null;
    for (let n = first; n < Math.min(images, first + IMAGES_PER_CONVERSATION); n++) {
      const node = `node-${n}`;
      mapping[node] = {
        id: node,
        parent,
        message: {
          id: node,
          author: { role: 'user' },
          create_time: 1_700_000_000 + n,
          content: {
            content_type: 'multimodal_text',
            parts: [
              {
                content_type: 'image_asset_pointer',
                asset_pointer: `file-service://${id(n)}`,
                size_bytes: imageKb * 1024,
              },
              `Photo ${n}`,
            ],
          },
          metadata: { attachments: [{ id: id(n), name: `photo-${n}.jpg`, size: imageKb * 1024 }] },
        },
      };
      parent = node;
    }
    conversations.push({ id: `bench-${first}`, title: `Photos ${first}`, mapping, current_node: parent });
  }
  zip.add('conversations-001.json', 8, [strToU8(JSON.stringify(conversations))]);
  const image = new Uint8Array(imageKb * 1024);
  for (let n = 0; n < images; n++) {
    randomFillSync(image);
    image.set(JPEG_HEADER);
    zip.add(`${id(n)}-photo-${n}.jpg`, 0, [image]);
  }
  return { bytes: zip.end(), imageBytes: images * image.length, images };
}

function* readChunks(file: string): Generator<Uint8Array> {
  const input = openSync(file, 'r');
  const buffer = new Uint8Array(4 * 1024 * 1024);
  try {
    for (let read = readSync(input, buffer); read > 0; read = readSync(input, buffer)) yield buffer.subarray(0, read);
  } finally {
    closeSync(input);
  }
}
