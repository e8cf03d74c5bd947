import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  unescapedQuote,
} from '../json-bytes.ts';

const MESSAGES_KEY = new TextEncoder().encode('messages');

/** Bytes of a string looked at one by one before the native indexOf is called: most strings (keys, roles, times) are shorter, and a call costs more than these. */
const SHORT_STRING = 32;

/** The index of the quote that ends the string whose content starts at `from`. */
function stringEnd(json: Uint8Array, from: number): number {
  const short = Math.min(json.length, from + SHORT_STRING);
  for (let i = from; i < short; i++) {
    const byte = json[i];
    if (byte === QUOTE) return i;
    if (byte === BACKSLASH) return escapedStringEnd(json, from);
  }
  return escapedStringEnd(json, short);
}

/** stringEnd by the native indexOf (unescapedQuote). */
function escapedStringEnd(json: Uint8Array, from: number): number {
  const quote = unescapedQuote(json, from);
  if (quote === -1) throw new Error('a stored payload ends inside a string');
  return quote;
}

const isMessagesKey = (json: Uint8Array, start: number, end: number) =>
  end - start === MESSAGES_KEY.length && MESSAGES_KEY.every((byte, i) => json[start + i] === byte);

/**
 * Where each message of a stored payload (`{"title": …, "messages": [{…}, …]}`)
 * closes: the offset of its `}`, in order. Strings are skipped whole (see
 * stringEnd), so the bytes looked at one by one are the few between them.
 */
export function messageEnds(json: Uint8Array): number[] {
  const ends: number[] = [];
  let depth = 0;
  let inMessages = false;
  // The last string at the payload's top level: the key of the value that follows it.
  let keyIsMessages = false;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i];
    if (byte === QUOTE) {
      const end = stringEnd(json, i + 1);
      if (depth === 1) keyIsMessages = isMessagesKey(json, i + 1, end);
      i = end;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
      if (depth === 2 && byte === OPEN_BRACKET && keyIsMessages) inMessages = true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (inMessages && depth === 3 && byte === CLOSE_BRACE) ends.push(i);
      if (depth === 2 && byte === CLOSE_BRACKET) inMessages = false;
      depth--;
    }
  }
  return ends;
}

/** A stored payload with a member to add to each message: where each message closes (messageEnds), and the `"name":value` bytes to add to it. */
export interface PayloadWithFields {
  json: Uint8Array;
  ends: readonly number[];
  fields: readonly Uint8Array[];
}

/** The length of a PayloadWithFields once written. */
export const writtenLength = ({ json, fields }: PayloadWithFields) =>
  fields.reduce((length, field) => length + 1 + field.length, json.length);

/**
 * Writes the payload into `out` at `at` with each field added to its message,
 * before the message's closing brace, nothing parsed; returns where it ended.
 * Parley writes its payloads with JSON.stringify, so no message object is empty
 * and none has white space.
 */
export function writeWithFields(out: Uint8Array, at: number, { json, ends, fields }: PayloadWithFields): number {
  let from = 0;
  let position = at;
  for (const [i, end] of ends.entries()) {
    out.set(json.subarray(from, end), position);
    position += end - from;
    out[position++] = COMMA;
    out.set(fields[i]!, position);
    position += fields[i]!.length;
    from = end;
  }
  out.set(from === 0 ? json : json.subarray(from), position);
  return position + json.length - from;
}
