import { CsvError, parse } from 'csv-parse/stream';
import { ParleyError } from '../../errors.ts';
import { invalidExport } from '../import-errors.ts';

/** More columns than any export has: a row with more is refused, as is one over MAX_CONVERSATION_BYTES. */
export const MAX_CSV_COLUMNS = 64;

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Reads a CSV document, pushed as byte chunks, into one record per row, keyed by
 * the header's column names (RFC 4180 quoting, a byte order mark skipped). The
 * parser is csv-parse's Web-stream one, so this runs on every runtime; no row
 * may be longer than `maxRecordBytes` nor have more than MAX_CSV_COLUMNS fields.
 */
export class CsvRecords {
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly reading: Promise<void>;
  /** Where the row being read stands: checked here, byte by byte, before the parser builds it. */
  private quoted = false;
  private rowBytes = 0;
  private rowFields = 1;

  constructor(
    onRecord: (record: Record<string, string>) => void,
    private readonly maxRecordBytes: number,
  ) {
    const parser = parse({ bom: true, columns: true, skip_empty_lines: true, max_record_size: maxRecordBytes });
    this.writer = parser.writable.getWriter();
    this.reading = (async () => {
      for await (const record of parser.readable) onRecord(record as Record<string, string>);
    })();
    // Failures surface from write() too; this keeps the reading's copy from going unhandled until end().
    this.reading.catch(() => {});
  }

  async push(chunk: Uint8Array): Promise<void> {
    this.checkRows(chunk);
    await this.writer.write(chunk).catch(refusal);
  }

  /**
   * csv-parse bounds a field, not a row: a row of millions of empty fields (a
   * header, then megabytes of commas) would become an array of millions of
   * strings before it could be refused. Quotes toggle whether commas and line
   * ends count; a doubled quote inside a field toggles twice.
   */
  private checkRows(chunk: Uint8Array): void {
    let { quoted, rowBytes, rowFields } = this;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === QUOTE) quoted = !quoted;
      else if (!quoted && (byte === LF || byte === CR)) {
        rowBytes = 0;
        rowFields = 1;
        continue;
      } else if (!quoted && byte === COMMA && ++rowFields > MAX_CSV_COLUMNS) {
        throw invalidExport(`a CSV row has more than ${MAX_CSV_COLUMNS} columns`);
      }
      if (++rowBytes > this.maxRecordBytes) throw new ParleyError('conversationTooLarge');
    }
    this.quoted = quoted;
    this.rowBytes = rowBytes;
    this.rowFields = rowFields;
  }

  async end(): Promise<void> {
    // A parse error errors the stream, so close() fails on its state; the reading says why.
    await this.writer.close().catch(() => {});
    await this.reading.catch(refusal);
  }
}

function refusal(error: unknown): never {
  if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') throw new ParleyError('conversationTooLarge');
  if (error instanceof CsvError) throw invalidExport(`the CSV file is malformed (${error.message.replace(/\.$/, '')})`);
  throw error;
}
