const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MESSAGES_KEY = new TextEncoder().encode('messages');
const COMMA = new TextEncoder().encode(',');

/** The index of the quote that ends the string whose content starts at `from`. */
function stringEnd(json: Uint8Array, from: number): number {
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
 * closes: the offset of its `}`, in order. Strings are skipped by the native
 * indexOf, so the bytes looked at one by one are the few between them.
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

/**
 * The payload's bytes with `field(i)` (a `"name":value` member) added to each
 * message i, as parts to write in order: views of the payload between the
 * additions, nothing parsed or copied. Parley writes its payloads with
 * JSON.stringify, so no message object is empty and none has white space.
 */
export function withMessageField(json: Uint8Array, field: (messageIndex: number) => Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const [i, end] of messageEnds(json).entries()) {
    parts.push(json.subarray(from, end), COMMA, field(i));
    from = end;
  }
  parts.push(json.subarray(from));
  return parts;
}
