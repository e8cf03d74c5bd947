import { portableBlobHasher, type BlobHash } from '../../attachments/blob-hash.ts';
import type { BlobWriter } from '../../attachments/attachment-store.ts';
import { contentTypeOfName, SNIFF_BYTES, sniffContentType } from '../../attachments/content-type.ts';
import { concatBytes } from '../../bytes.ts';
import * as blobs from '../../db/attachment-staging.ts';
import type { Deps } from '../../deps.ts';
import type { LibraryFile } from '../formats/format.ts';
import type { BlobItem } from '../worker/conversation-reader.ts';

/** A blob being written: its store's writer, its hash so far, its first bytes until its type is known. */
interface OpenBlob {
  id: string;
  writer: BlobWriter;
  hash: BlobHash;
  size: number;
  head: Uint8Array[];
  headBytes: number;
}

/** The type a text blob (Claude's extracted content) is stored as. */
export const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';

/**
 * The attachment bytes an import writes as they arrive, each a blob staged under
 * the import (no connection's until its commit adopts it), hashed and its type
 * sniffed on the way; and what the zip says of its files (names, the library),
 * for the commit to link them to messages.
 */
export class StagedBlobs {
  /** The blob each zip member went into, by member name. */
  readonly bySource = new Map<string, string>();
  /** Members not read because the connection holds them: name and size. */
  readonly known: Array<{ source: string; size: number }> = [];
  /** The blob each conversation's text attachment went into, by textKey. */
  readonly byText = new Map<string, string>();
  /** What the zip names its files, by file id. */
  readonly fileNames = new Map<string, string>();
  /** The person's library of files, where the zip has one. */
  readonly library: LibraryFile[] = [];
  private readonly open = new Map<string, OpenBlob>();
  private stopped = false;
  /** The write under way (or the last one): abort waits for it. */
  private busy: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'random' | 'attachments' | 'blobHash'>,
    private readonly importId: string,
    private readonly startedAt: number,
  ) {}

  /** A blob's next bytes, written before the next are taken: memory holds what the channel has in flight. */
  add(item: BlobItem): Promise<void> {
    return this.serially(async () => {
      if (item.kind === 'knownBlob') {
        this.known.push({ source: item.source, size: item.size });
        return;
      }
      const blob = this.open.get(item.source) ?? (await this.start(item.source));
      if (item.bytes.length > 0) await this.write(blob, item.bytes);
      if (item.final) {
        this.open.delete(item.source);
        await this.complete(blob, sniffContentType(concatBytes(blob.head)) ?? contentTypeOfName(item.source));
      }
    });
  }

  /** A conversation's text attachment, written whole (it came whole in the export's JSON). */
  text(conversation: string, ref: string, text: string): Promise<void> {
    return this.serially(async () => {
      const blob = await this.start('');
      await this.write(blob, new TextEncoder().encode(text));
      await this.complete(blob, TEXT_CONTENT_TYPE);
      this.byText.set(textKey(conversation, ref), blob.id);
    });
  }

  /**
   * Stops the writing (an import that failed): what is being written is let
   * finish, nothing more is, and the store drops what it has of open blobs.
   * Their rows the import's clean-up deletes.
   */
  async abort(): Promise<void> {
    this.stopped = true;
    await this.busy;
    const open = [...this.open.values()];
    this.open.clear();
    for (const blob of open) await blob.writer.abort();
  }

  /** Runs writes one at a time (the receiving thread's blobs and the conversations' texts may come at once). */
  private serially(work: () => Promise<void>): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the import has stopped'));
    const done = this.busy.then(work);
    this.busy = done.catch(() => {});
    return done;
  }

  private async start(source: string): Promise<OpenBlob> {
    const id = this.deps.random.uuid();
    // The row first: whatever the store holds of a blob, a row names it, and removing the row removes it.
    await blobs.insertStagedBlob(this.deps.db, {
      id,
      import_id: this.importId,
      store: this.deps.attachments.name,
      source,
      created_at: this.startedAt,
    });
    const blob: OpenBlob = {
      id,
      writer: this.deps.attachments.create(id),
      hash: (this.deps.blobHash ?? portableBlobHasher)(),
      size: 0,
      head: [],
      headBytes: 0,
    };
    if (source !== '') {
      this.open.set(source, blob);
      this.bySource.set(source, id);
    }
    return blob;
  }

  private async write(blob: OpenBlob, bytes: Uint8Array): Promise<void> {
    if (blob.headBytes < SNIFF_BYTES) {
      blob.head.push(bytes.subarray(0, SNIFF_BYTES - blob.headBytes));
      blob.headBytes += Math.min(bytes.length, SNIFF_BYTES - blob.headBytes);
    }
    blob.hash.update(bytes);
    blob.size += bytes.length;
    await blob.writer.write(bytes);
  }

  private async complete(blob: OpenBlob, contentType: string | undefined): Promise<void> {
    await blob.writer.close();
    await blobs.completeStagedBlob(this.deps.db, {
      id: blob.id,
      sha256: blob.hash.digest(),
      size: blob.size,
      content_type: contentType ?? 'application/octet-stream',
    });
  }
}

/** A text attachment's key: its conversation's external id and its ref. */
export const textKey = (conversation: string, ref: string) => `${conversation}\n${ref}`;

/** The conversation key a project's knowledge files are written under (textKey), apart from any conversation's id. */
export const knowledgeKey = (project: string) => `project:${project}`;
