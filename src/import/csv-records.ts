import { CsvError, parse } from 'csv-parse/stream';
import { ApiError } from '../errors.ts';
import { invalidExport } from './import-errors.ts';

/**
 * Reads a CSV document, pushed as byte chunks, into one record per row, keyed by
 * the header's column names (RFC 4180 quoting, a byte order mark skipped). The
 * parser is csv-parse's Web-stream one, so this runs on every runtime; no row
 * may be longer than `maxRecordBytes`.
 */
export class CsvRecords {
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly reading: Promise<void>;

  constructor(onRecord: (record: Record<string, string>) => void, maxRecordBytes: number) {
    const parser = parse({ bom: true, columns: true, skip_empty_lines: true, max_record_size: maxRecordBytes });
    this.writer = parser.writable.getWriter();
    this.reading = (async () => {
      for await (const record of parser.readable) onRecord(record as Record<string, string>);
    })();
    // Failures surface from write() too; this keeps the reading's copy from going unhandled until end().
    this.reading.catch(() => {});
  }

  async push(chunk: Uint8Array): Promise<void> {
    await this.writer.write(chunk).catch(refusal);
  }

  async end(): Promise<void> {
    // A parse error errors the stream, so close() fails on its state; the reading says why.
    await this.writer.close().catch(() => {});
    await this.reading.catch(refusal);
  }
}

function refusal(error: unknown): never {
  if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') throw new ApiError('conversationTooLarge');
  if (error instanceof CsvError) throw invalidExport(`the CSV file is malformed (${error.message.replace(/\.$/, '')})`);
  throw error;
}
