import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import { ApiError } from '../errors.ts';
import { concatBytes } from '../bytes.ts';
import { invalidExport, unrecognizedExport } from './import-errors.ts';
import { JsonElementSplitter } from './json-elements.ts';

/** conversations.json, or the conversations-000.json … split files of newer ChatGPT archives. */
const CONVERSATIONS_FILE = /(^|\/)conversations(-\d+)?\.json$/;

const isZip = (head: Uint8Array) => head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;

/**
 * Reads an export — a conversations JSON file or the provider's zip — from a byte
 * stream and yields its conversations (raw, as the provider wrote them) in small
 * batches as they complete. Nothing is buffered beyond the conversation being read.
 */
export async function* readExportConversations(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<unknown[]> {
  let ready: unknown[] = [];
  const collect = (value: unknown) => void ready.push(value);
  let input: { push(chunk: Uint8Array): void; end(): void } | undefined;
  let head: Uint8Array = new Uint8Array(0);

  for await (const chunk of bytes) {
    if (!input) {
      // Four bytes tell a zip from JSON; a first chunk may be shorter.
      head = concatBytes([head, chunk]);
      if (head.length < 4) continue;
      input = isZip(head) ? new ZipConversations(collect) : new JsonElementSplitter(collect);
      input.push(head);
    } else {
      input.push(chunk);
    }
    if (ready.length > 0) {
      yield ready;
      ready = [];
    }
  }
  if (!input) {
    input = new JsonElementSplitter(collect);
    input.push(head);
  }
  input.end();
  if (ready.length > 0) yield ready;
}

class ZipConversations {
  private readonly unzip = new Unzip();
  private files = 0;
  private open = 0;

  constructor(onConversation: (value: unknown) => void) {
    this.unzip.register(UnzipInflate);
    this.unzip.register(UnzipPassThrough);
    this.unzip.onfile = (file) => {
      if (!CONVERSATIONS_FILE.test(file.name)) return;
      const splitter = new JsonElementSplitter(onConversation);
      this.files++;
      this.open++;
      file.ondata = (error, data, final) => {
        if (error) throw invalidExport(`the zip is damaged (${error.message})`);
        splitter.push(data);
        if (final) {
          splitter.end();
          this.open--;
        }
      };
      try {
        file.start();
      } catch {
        throw invalidExport(`${file.name} uses a compression method Parley cannot read`);
      }
    };
  }

  push(chunk: Uint8Array, final = false): void {
    try {
      this.unzip.push(chunk, final);
    } catch (error) {
      // Our own verdicts come up through fflate's callbacks; anything else is fflate's.
      if (error instanceof ApiError) throw error;
      throw invalidExport(`the zip is damaged (${(error as Error).message})`);
    }
  }

  end(): void {
    this.push(new Uint8Array(0), true);
    if (this.open > 0) throw invalidExport('the zip ends in the middle of a file (truncated?)');
    if (this.files === 0) throw unrecognizedExport();
  }
}
