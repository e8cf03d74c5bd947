import { Zip, ZipPassThrough } from 'fflate';
import { safeFileName } from '../http/attachment-response.ts';

/** A stored file going into the download, its bytes read as they are asked for. */
export interface DownloadedFile {
  /** The attachment's id: it names the file in the zip, so two of one name stay two. */
  id: string;
  name: string;
  bytes: AsyncIterable<Uint8Array>;
}

/** Where a file goes in the zip: `attachments/<id>-<name>`, the name made safe to unpack anywhere. */
export const zipMemberName = (file: Pick<DownloadedFile, 'id' | 'name'>) =>
  `attachments/${file.id}-${safeFileName(file.name)}`;

/**
 * "Download my data" as a zip, written as it is read: the JSON file (`jsonName`)
 * first, then each stored file. Members are stored, not deflated: each chunk
 * read goes out at once (nothing is read ahead of a slow reader, no CPU is
 * spent on the server), and images, the bulk of most downloads, are compressed
 * already. fflate writes a member's bytes as they are pushed, its sizes and CRC
 * in a data descriptor after them, so a chunk is all that is held, whatever the
 * sizes. `modified` (unix ms) dates every member.
 */
export async function* downloadZip(
  jsonName: string,
  json: AsyncIterable<Uint8Array>,
  files: AsyncIterable<DownloadedFile>,
  modified: number,
): AsyncGenerator<Uint8Array> {
  let written: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else written.push(chunk);
  });
  // What the last push wrote: a stored member's bytes go out as they are pushed.
  function* taken() {
    if (failure) throw failure;
    const chunks = written;
    written = [];
    yield* chunks;
  }
  const member = (name: string) => {
    const file = new ZipPassThrough(name);
    file.mtime = modified;
    zip.add(file);
    return file;
  };
  const end = new Uint8Array(0);

  const jsonFile = member(jsonName);
  for await (const chunk of json) {
    jsonFile.push(chunk);
    yield* taken();
  }
  jsonFile.push(end, true);
  yield* taken();
  for await (const file of files) {
    const stored = member(zipMemberName(file));
    for await (const chunk of file.bytes) {
      stored.push(chunk);
      yield* taken();
    }
    stored.push(end, true);
    yield* taken();
  }
  zip.end();
  yield* taken();
}
