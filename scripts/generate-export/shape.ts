/**
 * What every provider's module exports: a stream of conversations in the shape
 * of that provider's export, and the description of its file layout (the bare
 * file and the archive the provider ships).
 */
import type { Account } from './text.ts';

/** How records become a file: a head, the records with a separator between them, a tail. */
export interface Framing {
  head: string;
  separator: string;
  tail: string;
  record(value: unknown): string;
}

export type Provider =
  | 'openai'
  | 'anthropic'
  | 'deepseek'
  | 'xai'
  | 'google'
  | 'microsoft'
  | 'perplexity'
  | 'mistral'
  | 'meta'
  | 'duckduckgo';
export type Json = Record<string, unknown>;

/**
 * One conversation as it goes into the file: the array elements (JSON) or rows
 * (CSV) that hold it — one conversation object for most providers, several
 * activity entries for Gemini, several rows for Copilot — and how many messages
 * they hold.
 */
export interface Conversation {
  /** Objects to serialise, a `RawJson` already serialised, or CSV rows (arrays of strings). */
  records: readonly unknown[];
  messages: number;
  /** Its file's name, where the provider writes a file per conversation (Duck.ai). */
  file?: string;
}

/** A small file of the archive beside the conversations. */
export interface Member {
  path: string;
  content: string;
}

export interface Layout {
  /** The bare file's format, what `--format` defaults to; a `txt` holds one conversation. */
  bare: 'json' | 'csv' | 'txt';
  /** How records become the bare file, and the archive's conversations member. */
  framing(account: Account, seed: number): Framing;
  zip: {
    /** Path of the member holding the conversations; `index` counts the split files, `first` is the first they hold. */
    member(index: number, account: Account, first: Conversation): string;
    /**
     * Whether `--split-mb` spreads the conversations over several members
     * (ChatGPT's conversations-000.json…), or each has a member of its own
     * (`'conversation'`: Duck.ai's duck.ai_<date>_<time>.txt).
     */
    split: boolean | 'conversation';
    /** The archive's other, small members, written after the conversations. */
    extras(account: Account, seed: number): Member[];
  };
}

export interface Shape {
  provider: Provider;
  /** The provider's product, for people: ChatGPT, Claude, DeepSeek, Grok, Gemini, Copilot. */
  name: string;
  layout: Layout;
  /** An endless, deterministic stream of conversations in file order. */
  conversations(seed: number): Generator<Conversation, never, undefined>;
}
