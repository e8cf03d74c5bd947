/** What every provider's export is normalised to. */
export type Role = 'user' | 'assistant' | 'system' | 'tool';

export interface Message {
  role: Role;
  content: string;
  timestamp: string | null;
}

export interface NormalizedConversation {
  externalId: string;
  title: string | null;
  /** ISO 8601, UTC. */
  updateTime: string | null;
  payload: { title: string; messages: Message[] };
}

/** One provider's export: how to recognise its conversations and normalise one. */
export interface ExportFormat {
  provider: string;
  recognizes(raw: Record<string, unknown>): boolean;
  /** Null when the conversation cannot be read (no id): it is skipped and counted. */
  normalize(raw: Record<string, unknown>): NormalizedConversation | null;
}

/**
 * The conversation with every lone surrogate (a `\ud800` escape in the export,
 * say) replaced by U+FFFD, so the text stored as a column and inside the JSON
 * payload is the same valid Unicode.
 */
export function wellFormed(conversation: NormalizedConversation): NormalizedConversation {
  const title = conversation.title?.toWellFormed() ?? null;
  return {
    externalId: conversation.externalId.toWellFormed(),
    title,
    updateTime: conversation.updateTime,
    payload: {
      title: conversation.payload.title.toWellFormed(),
      messages: conversation.payload.messages.map((message) => ({ ...message, content: message.content.toWellFormed() })),
    },
  };
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Unix seconds (ChatGPT) or an ISO string (Claude) to ISO 8601 UTC; anything else is null. */
export function isoFrom(value: unknown): string | null {
  let ms: number;
  if (typeof value === 'number') ms = value * 1000;
  else if (typeof value === 'string' && value !== '') ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value);
  else return null;
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A conversation id as the provider wrote it: a non-empty string (numbers are kept as text). */
export function externalIdFrom(...candidates: unknown[]): string | null {
  for (const value of candidates) {
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

export const titleFrom = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
