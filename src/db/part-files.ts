import { mkdir, open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobWriter } from '../attachments/attachment-store.ts';

/** Bytes per write and per read: a gigabyte is a thousand system calls, and a read holds little. */
const IO_BYTES = 1024 * 1024;

/**
 * The parts of resumable uploads as files, a file a part named by its id, in a
 * folder beside SQLite's database file. One process serves that file, so
 * nothing another instance needs is kept out of its reach; and an upload of
 * gigabytes is then written once, at the speed of the disk, read back as fast,
 * and removed at once. In the database its bytes went through the
 * write-ahead log into the file, were read back a chunk row at a time, and
 * were overwritten when freed (secure_delete): the upload took longer than
 * the import after it.
 *
 * A part's row is written before its file and deleted before it: a file whose
 * part has no row is left over (an upload removed, a process stopped part-way)
 * and `removeLeftovers` takes it. What the server acknowledged is out of the
 * process once acknowledged: it survives a crash of the process (as the
 * database's last commits do, not necessarily a power cut).
 */
export interface PartFiles {
  /** Starts writing the part's file; it must not exist yet. */
  create(partId: string): BlobWriter;
  /** The part's bytes in order, read as they are asked for. */
  read(partId: string): AsyncIterable<Uint8Array>;
  /** Removes the part's file (none there: nothing to do). */
  remove(partId: string): Promise<void>;
  /** Removes the files whose parts `kept` does not find (it answers which of the ids named have a part). */
  removeLeftovers(kept: (partIds: string[]) => Promise<Set<string>>): Promise<void>;
}

/** The part files of the SQLite database file at `databasePath`: the folder `<databasePath>-uploads`. */
export function partFilesBeside(databasePath: string): PartFiles {
  const folder = `${databasePath}-uploads`;
  const pathOf = (partId: string) => join(folder, partId);
  const remove = (partId: string) => rm(pathOf(partId), { force: true });
  return {
    create: (partId) => new PartFileWriter(folder, pathOf(partId)),
    read: (partId) => readFile(pathOf(partId)),
    remove,
    async removeLeftovers(kept) {
      const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      if (names.length === 0) return;
      const parts = await kept(names);
      for (const name of names) if (!parts.has(name)) await remove(name);
    },
  };
}

/**
 * A part's bytes into its file, a megabyte a write, the folder made by the
 * first part. The request's chunks are copied into one of two buffers kept for
 * the whole part: one is being written while the other fills, so the request's
 * bytes keep coming while the disk takes the ones before. A chunk is garbage
 * as soon as it is copied, and no buffer is made per write: chunks held until
 * their write, or a buffer joined for each, lived long enough for V8 to move
 * them to its old generation, whose collections cost more than the copy.
 */
class PartFileWriter implements BlobWriter {
  private file: Promise<FileHandle> | undefined;
  private filling = new Uint8Array(IO_BYTES);
  private spare = new Uint8Array(IO_BYTES);
  private filled = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly folder: string,
    private readonly path: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    let copied = 0;
    while (copied < chunk.length) {
      const taken = Math.min(chunk.length - copied, IO_BYTES - this.filled);
      this.filling.set(chunk.subarray(copied, copied + taken), this.filled);
      this.filled += taken;
      copied += taken;
      if (this.filled === IO_BYTES) await this.flush();
    }
  }

  async close(): Promise<void> {
    await this.flush();
    await this.writing;
    await (await this.opened()).close();
  }

  async abort(): Promise<void> {
    await this.writing.catch(() => undefined);
    await (await this.file?.catch(() => undefined))?.close();
    await rm(this.path, { force: true });
  }

  /** Waits for the write before, then starts this one's (its failure comes out of the next call). */
  private async flush(): Promise<void> {
    await this.writing;
    if (this.filled === 0) return;
    const bytes = this.filling.subarray(0, this.filled);
    this.filling = this.spare;
    this.filled = 0;
    this.writing = this.opened().then(async (file) => {
      const { bytesWritten } = await file.write(bytes);
      // A regular file takes all of a write or fails; a short one would lose bytes silently.
      if (bytesWritten !== bytes.length)
        throw new Error(`wrote ${bytesWritten} of ${bytes.length} bytes to ${this.path}`);
      this.spare = bytes;
    });
  }

  private opened(): Promise<FileHandle> {
    this.file ??= mkdir(this.folder)
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      })
      .then(() => open(this.path, 'wx'));
    return this.file;
  }
}

/** A part whose file is not there: a database restored from a backup, which holds no part files, has such uploads. */
export class MissingPartFile extends Error {}

async function* readFile(path: string): AsyncIterable<Uint8Array> {
  const file = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new MissingPartFile(`no file ${path}`) : error;
  });
  try {
    for (;;) {
      // A buffer each: the reader may still hold the one before.
      const buffer = new Uint8Array(IO_BYTES);
      const { bytesRead } = await file.read(buffer, 0, IO_BYTES, null);
      if (bytesRead === 0) return;
      yield bytesRead === IO_BYTES ? buffer : buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}
