/** The bytes of JSON's structure, as UTF-8 writes them. */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

/**
 * The index of the first quote at or after `from` (where a string's content
 * starts) that no backslash escapes, or -1: the native indexOf finds each
 * quote, and an odd run of backslashes before it escapes it.
 */
export function unescapedQuote(bytes: Uint8Array, from: number): number {
  for (let quote = bytes.indexOf(QUOTE, from); quote !== -1; quote = bytes.indexOf(QUOTE, quote + 1))
    if (!oddBackslashesBefore(bytes, from, quote)) return quote;
  return -1;
}

/** Whether the bytes just before `end` (back to `from`) are an odd run of backslashes. */
export function oddBackslashesBefore(bytes: Uint8Array, from: number, end: number): boolean {
  let count = 0;
  for (let j = end - 1; j >= from && bytes[j] === BACKSLASH; j--) count++;
  return count % 2 === 1;
}
