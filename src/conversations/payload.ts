import type { Message } from '../import/formats/format.ts';

/** The messages of a stored conversation's payload (none when it has no payload, or the payload no messages). */
export const messagesOf = (payload: string | null | undefined): Message[] =>
  payload ? ((JSON.parse(payload) as { messages?: Message[] }).messages ?? []) : [];
