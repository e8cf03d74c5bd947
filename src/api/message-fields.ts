const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MESSAGES_KEY = new TextEncoder().encode('messages');
const COMMA = 0x2c;

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

/** stringEnd by the native indexOf, each quote found checked for the backslashes before it. */
function escapedStringEnd(json: Uint8Array, from: number): number {
  for (let quote = json.indexOf(QUOTE, from); quote !== -1; quote = json.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (json[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  throw new Error('a stored payload ends inside a string');
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
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
      if (depth === 2 && byte === OPEN_ARRAY && keyIsMessages) inMessages = true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (inMessages && depth === 3 && byte === CLOSE_OBJECT) ends.push(i);
      if (depth === 2 && byte === CLOSE_ARRAY) inMessages = false;
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
