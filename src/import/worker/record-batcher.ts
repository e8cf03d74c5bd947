import { base64Url } from 'parley-sdk/encoding';
import { ExportScanner, type NotReadCount, type ReadLimits, type SourcedRecord } from '../scanning/export-scanner.ts';
import { EXPORT_FORMATS, type KnownSource } from '../formats/registry.ts';

/**
 * One record as it goes to the reader: a JSON object (its text, and the hash of
 * its bytes), a CSV row, or a conversation whose bytes are those already stored
 * (not sent at all). `seq` is its place in the upload. Or how many elements in
 * a row were not objects. Or a file of a zip passed over that a format names
 * as not kept (counted by the reader). Or the next bytes of a blob, or a blob the
 * connection already holds: these the thread that found them writes (see
 * importExport), and never go to the reader.
 */
export type WireRecord =
  | ({ seq: number; source: string } & (
      | { text: string; hash: string }
      | { row: Record<string, string> }
      | { unchanged: KnownSource }
    ))
  | { source: string; notObjects: number }
  | { source: string; notRead: NotReadCount }
  | BlobRecord;

export type BlobRecord = { source: string } & ({ blob: Uint8Array; final: boolean } | { known: number });

/** Whether a record is a blob's (its next bytes, or one the connection holds): the thread that found it writes it. */
export const isBlobRecord = (record: WireRecord | SourcedRecord): record is BlobRecord =>
  'blob' in record || 'known' in record;

/** The records one chunk of the upload completed. */
export interface RecordBatch {
  records: WireRecord[];
}

/**
 * Makes batches of the records an ExportScanner finds: each JSON element is
 * hashed, and one whose hash is that of a stored conversation goes as
 * `unchanged`, without its text: a re-import parses almost nothing. The others
 * are decoded here — on the receiving thread in a first import, where parsing
 * keeps the reader the busier of the two threads and a string crosses to it for
 * a fraction of what decoding costs.
 */
class BatchHasher {
  private seq = 0;
  private readonly known: Map<string, KnownSource>;
  private readonly decoder = new TextDecoder();

  constructor(
    known: KnownSource[],
    private readonly hash: SourceHash = webCryptoSourceHash,
  ) {
    this.known = new Map(known.map((source) => [source.hash, source]));
  }

  async batch(records: SourcedRecord[]): Promise<RecordBatch> {
    const hashes = await Promise.all(
      records.map((record) => ('bytes' in record ? this.hash(record.bytes) : undefined)),
    );
    const wire = records.map((record, i): WireRecord => {
      if (isBlobRecord(record) || 'notObjects' in record || 'notRead' in record) return record;
      const place = { seq: this.seq++, source: record.source };
      if (!('bytes' in record)) return { ...place, row: record.value };
      const hash = hashes[i]!;
      const known = this.known.get(hash);
      return known ? { ...place, unchanged: known } : { ...place, text: this.decoder.decode(record.bytes), hash };
    });
    return { records: wire };
  }
}

/**
 * How to read an upload's bytes: the limits on what it holds, the conversations
 * already stored, and the blobs too (blobKey).
 */
export interface UploadOptions {
  limits: ReadLimits;
  known: KnownSource[];
  knownBlobs: string[];
}

/**
 * An upload's bytes in, batches of its records out: an ExportScanner's batches
 * (at most MAX_BATCH_RECORDS records each), hashed, to `take`, each once the one
 * before was taken.
 */
export class RecordBatcher {
  private readonly records: ExportScanner;

  constructor(
    { limits, known, knownBlobs }: UploadOptions,
    take: (batch: RecordBatch) => Promise<void> | void,
    hash?: SourceHash,
  ) {
    const batches = new BatchHasher(known, hash);
    this.records = new ExportScanner(
      limits,
      EXPORT_FORMATS,
      async (records) => take(await batches.batch(records)),
      new Set(knownBlobs),
    );
  }

  /** Reads the chunk; the batches it completed have been taken when this settles. */
  push(chunk: Uint8Array): Promise<void> {
    return this.records.push(chunk);
  }

  /** Reads to the end, the last batch taken; an upload cut short is refused. */
  end(): Promise<void> {
    return this.records.end();
  }
}

/** The SHA-256 of a conversation's bytes as the export holds them, base64url. */
export type SourceHash = (bytes: Uint8Array) => string | Promise<string>;

/** The SourceHash where the runtime gives none cheaper (see Deps). */
export async function webCryptoSourceHash(bytes: Uint8Array): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}
