import { base64Url } from '../crypto.ts';
import type { SourcedRecord } from './export-reader.ts';

/** A conversation already stored, known by its source bytes' hash: it need not be read again. */
export interface KnownSource {
  hash: string;
  externalId: string;
  provider: string;
}

/**
 * One record as it goes to the reader: a JSON element (its bytes at
 * start…end of the batch's buffer, and their hash), a CSV row, or a conversation
 * whose bytes are those already stored (not sent at all). `seq` is its place in
 * the upload.
 */
export type WireRecord = { seq: number; source: string } & (
  | { start: number; end: number; hash: string }
  | { row: Record<string, string> }
  | { unchanged: KnownSource }
);

/** The records one chunk of the upload completed, their bytes in one buffer that is handed over, not copied. */
export interface RecordBatch {
  records: WireRecord[];
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * Makes batches of the records an ExportReader finds: each JSON element is
 * hashed, and one whose hash is that of a stored conversation goes as
 * `unchanged`, without its bytes — a re-import sends the reader almost nothing.
 */
export class BatchMaker {
  private seq = 0;
  private readonly known: Map<string, KnownSource>;

  constructor(
    known: KnownSource[],
    private readonly hash: SourceHash = webCryptoSourceHash,
  ) {
    this.known = new Map(known.map((source) => [source.hash, source]));
  }

  async batch(records: SourcedRecord[]): Promise<RecordBatch> {
    const hashes = await Promise.all(records.map((record) => ('bytes' in record ? this.hash(record.bytes) : undefined)));
    const sent: Array<[SourcedRecord, string | undefined, KnownSource | undefined]> = records.map((record, i) => [record, hashes[i], this.known.get(hashes[i] ?? '')]);
    const bytes = new Uint8Array(sent.reduce((sum, [record, , known]) => sum + ('bytes' in record && !known ? record.bytes.length : 0), 0));
    let offset = 0;
    const wire = sent.map(([record, hash, known]): WireRecord => {
      const place = { seq: this.seq++, source: record.source };
      if (known) return { ...place, unchanged: known };
      if (!('bytes' in record)) return { ...place, row: record.value };
      bytes.set(record.bytes, offset);
      offset += record.bytes.length;
      return { ...place, start: offset - record.bytes.length, end: offset, hash: hash! };
    });
    return { records: wire, bytes };
  }
}

/** The SHA-256 of a conversation's bytes as the export holds them, base64url. */
export type SourceHash = (bytes: Uint8Array) => string | Promise<string>;

async function webCryptoSourceHash(bytes: Uint8Array): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}
