import { chatgptExport } from './chatgpt.ts';
import { claudeExport } from './claude.ts';
import type { ExportFormat } from './format.ts';
import { copilotExport } from './copilot.ts';
import { deepseekExport } from './deepseek.ts';
import { geminiExport } from './gemini.ts';
import { grokExport } from './grok.ts';
import { metaExport } from './meta.ts';
import { mistralExport } from './mistral.ts';

/** Every export Parley reads; each recognises only its own records. */
export const EXPORT_FORMATS: readonly ExportFormat[] = [
  chatgptExport,
  claudeExport,
  deepseekExport,
  grokExport,
  geminiExport,
  copilotExport,
  mistralExport,
  metaExport,
];

export const formatFor = (provider: string): ExportFormat | undefined =>
  EXPORT_FORMATS.find((format) => format.provider === provider);

/** A conversation already stored, known by its source bytes' hash: it need not be read again. */
export interface KnownSource {
  hash: string;
  externalId: string;
  provider: string;
}

/**
 * A conversation's `source_hash` as stored: the hash of its bytes in the export
 * and the version of the reader that read them, `<hash>.<version>`.
 */
export const storedSourceHash = (format: ExportFormat, bytesHash: string) => `${bytesHash}.${format.readerVersion}`;

/**
 * Of the stored conversations, those the current reader of their provider
 * made, known by their bytes' hash alone. Those an older reader made (or a
 * Parley whose hashes named no reader) are left out: their bytes are read again.
 */
export function currentlyRead(stored: KnownSource[]): KnownSource[] {
  return stored.flatMap((source) => {
    const format = formatFor(source.provider);
    const suffix = format ? `.${format.readerVersion}` : undefined;
    return suffix && source.hash.endsWith(suffix) ? [{ ...source, hash: source.hash.slice(0, -suffix.length) }] : [];
  });
}
