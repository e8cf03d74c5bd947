import { chatgptExport } from './chatgpt.ts';
import { claudeExport } from './claude.ts';
import type { Provider } from 'parley-sdk';
import type { ExportFormat } from './format.ts';
import { copilotExport } from './copilot.ts';
import { deepseekExport } from './deepseek.ts';
import { duckaiExport } from './duckai.ts';
import { geminiExport } from './gemini.ts';
import { grokExport } from './grok.ts';
import { perplexityExport } from './perplexity.ts';
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
  perplexityExport,
  duckaiExport,
  mistralExport,
  metaExport,
];

export const formatFor = (provider: string): ExportFormat | undefined =>
  EXPORT_FORMATS.find((format) => format.provider === provider);

/** What people call each provider's assistant, for a sentence that names it. */
const PROVIDER_NAMES: Record<Provider, string> = {
  openai: 'ChatGPT',
  anthropic: 'Claude',
  google: 'Gemini',
  microsoft: 'Microsoft Copilot',
  xai: 'Grok',
  deepseek: 'DeepSeek',
  perplexity: 'Perplexity',
  duckduckgo: 'Duck.ai',
  mistral: 'Le Chat',
  meta: 'Meta AI',
};

export const providerName = (provider: string): string => PROVIDER_NAMES[provider as Provider] ?? provider;

/** A conversation already stored, known by its source bytes' hash: it need not be read again. */
export interface KnownSource {
  hash: string;
  externalId: string;
  provider: string;
}

/**
 * How a conversation's bytes were read: the version of the reader, and the
 * zone its times without one were read in, for a format whose exports write
 * such times (`.<version>@<zone>`).
 */
const readWith = (format: ExportFormat, timeZone: string | undefined) =>
  `.${format.readerVersion}${format.zonelessTimes && timeZone !== undefined ? `@${timeZone}` : ''}`;

/**
 * A conversation's `source_hash` as stored: the hash of its bytes in the export
 * and how they were read (readWith), `<hash>.<version>`.
 */
export const storedSourceHash = (format: ExportFormat, bytesHash: string, timeZone?: string) =>
  `${bytesHash}${readWith(format, timeZone)}`;

/**
 * Of the stored conversations, those the current reader of their provider
 * made (in this upload's zone, where the format reads one), known by their
 * bytes' hash alone. Those an older reader made (or a Parley whose hashes
 * named no reader) are left out: their bytes are read again.
 */
export function currentlyRead(stored: KnownSource[], timeZone?: string): KnownSource[] {
  return stored.flatMap((source) => {
    const format = formatFor(source.provider);
    const suffix = format ? readWith(format, timeZone) : undefined;
    return suffix && source.hash.endsWith(suffix) ? [{ ...source, hash: source.hash.slice(0, -suffix.length) }] : [];
  });
}
