/**
 * Realistic, seeded exports of the providers' shapes, of any size, for tests
 * and benchmarks: one module per shape (chatgpt, claude, deepseek, grok, gemini,
 * copilot, perplexity, mistral, meta, duckai) over the shared PRNG (rng), text (text), times (time) and writer
 * (writer). `scripts/generate-export.ts` is the command line. Importing any of
 * these modules has no side effects.
 */
import { shape as chatgpt } from './chatgpt.ts';
import { shape as claude } from './claude.ts';
import { shape as copilot } from './copilot.ts';
import { shape as deepseek } from './deepseek.ts';
import { shape as duckai } from './duckai.ts';
import { shape as gemini } from './gemini.ts';
import { shape as grok } from './grok.ts';
import { shape as meta } from './meta.ts';
import { shape as mistral } from './mistral.ts';
import { shape as perplexity } from './perplexity.ts';
import type { Conversation, Provider, Shape } from './shape.ts';
import { exportBytes, RawJson } from './writer.ts';

export type { Conversation, Json, Layout, Provider, Shape } from './shape.ts';
export { writeExport, ZIP_MAX_MB, type Format, type Summary, type WriteOptions } from './writer.ts';

export const SHAPES: Readonly<Record<Provider, Shape>> = {
  openai: chatgpt,
  anthropic: claude,
  deepseek,
  xai: grok,
  google: gemini,
  microsoft: copilot,
  perplexity,
  mistral,
  meta,
  duckduckgo: duckai,
};
export const PROVIDERS = Object.keys(SHAPES) as Provider[];

export interface GenerateOptions {
  provider: Provider;
  seed?: number;
}

/** An endless, deterministic stream of conversations in file order, each with its records and message count. */
export function conversations(options: GenerateOptions): Generator<Conversation, never, undefined> {
  return SHAPES[options.provider].conversations(options.seed ?? 1);
}

/**
 * The records of those conversations one by one: a conversation object for
 * ChatGPT, Claude, DeepSeek and Grok; an activity entry for Gemini; a CSV row
 * (an array of strings) for Copilot; a whole file's text for Duck.ai.
 */
export function* generateConversations(options: GenerateOptions): Generator<unknown, never, undefined> {
  const stream = conversations(options);
  for (;;)
    for (const record of stream.next().value.records)
      yield record instanceof RawJson ? JSON.parse(record.json) : record;
}

/** A small export (the bare file: JSON, CSV, or one Duck.ai text) in memory, for unit tests: the same bytes the CLI writes, cut short. */
export function generateExportBytes(options: GenerateOptions & { conversations: number }): Uint8Array {
  return exportBytes(SHAPES[options.provider], options.seed ?? 1, options.conversations);
}
