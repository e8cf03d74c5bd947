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
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from 'fflate';

export interface AttachmentExport {
  /** Bytes of the zip, and of the image payloads in it. */
  bytes: number;
  imageBytes: number;
  images: number;
}

const JPEG_HEADER = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00];
const IMAGES_PER_CONVERSATION = 10;

/** `textFile`: a generated ChatGPT conversations.json to put in first, when given. */
export function writeAttachmentExport(
  file: string,
  { imageMb, imageKb, textFile }: { imageMb: number; imageKb: number; textFile?: string },
): AttachmentExport {
  const fd = openSync(file, 'w');
  let bytes = 0;
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    writeSync(fd, chunk);
    bytes += chunk.length;
  });
  if (textFile) {
    const member = new ZipDeflate('conversations-000.json', { level: 1 });
    zip.add(member);
    const input = openSync(textFile, 'r');
    const buffer = new Uint8Array(4 * 1024 * 1024);
    for (let read = readSync(input, buffer); read > 0; read = readSync(input, buffer))
      member.push(buffer.slice(0, read), false);
    member.push(new Uint8Array(0), true);
    closeSync(input);
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
  const shard = new ZipDeflate('conversations-001.json', { level: 1 });
  zip.add(shard);
  shard.push(strToU8(JSON.stringify(conversations)), true);
  const image = new Uint8Array(imageKb * 1024);
  for (let n = 0; n < images; n++) {
    randomFillSync(image);
    image.set(JPEG_HEADER);
    const member = new ZipPassThrough(`${id(n)}-photo-${n}.jpg`);
    zip.add(member);
    member.push(image, true);
  }
  zip.end();
  closeSync(fd);
  return { bytes, imageBytes: images * image.length, images };
}
