import { ParleyError } from '../../errors.ts';
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  oddBackslashesBefore,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  unescapedQuote,
} from '../../json-bytes.ts';
import { EMPTY_FILE, fileNotAnExport, invalidExport, NOT_JSON, unrecognizedExport } from '../import-errors.ts';
import { NestedScanner, TOO_MANY_VALUES, UNCOUNTED_VALUES } from './nested-scanner.ts';

const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** The UTF-8 byte order mark some editors put before the document. */
const isByteOrderMark = (byte: number) => byte === 0xef || byte === 0xbb || byte === 0xbf;

type Expect = 'document' | 'first-element' | 'element' | 'comma-or-end' | 'rest-of-object' | 'trailing';

/** Longest key compared with the container key; longer keys cannot be it. */
const MAX_KEY_BYTES = 64;

/**
 * An element may hold one value or key for every this many bytes it may be
 * long. JSON.parse spends tens of bytes of memory on each, whatever the few
 * bytes that write it (`{},`, `0,`, `"k1":`), so an element of such values near
 * the byte bound would cost many times the bound. Real conversations spend
 * about half this or less on each (their text is long, their keys repeat), so
 * the byte bound, not this one, is the one they meet first in all but the
 * densest. Proportional, so that one setting (MAX_CONVERSATION_BYTES) sizes
 * what one conversation may cost.
 */
export const BYTES_PER_VALUE = 32;

/**
 * Splits a JSON document, pushed as byte chunks, into the elements of its
 * top-level array and hands each one's bytes to `onElement` (decoded,
 * parseElement reads them; they stay valid as long as the chunk they came in). A
 * top-level object (a file holding one conversation) is handed over whole — unless one of its
 * members is `containerKey` holding an array (Grok's `{"conversations": […],
 * "projects": […]}`): then that array's elements are handed over as they come,
 * the rest of the object is skipped, and the object is never held. The
 * elements of a member array named in `countedArrays` (Grok's `projects`,
 * `tasks`, `media_posts`), before or after that array, are counted as they
 * pass (`onCounted` called for each), never held, and the count handed to
 * its callback once the array ends (none for an empty one); such an array
 * drops the object as the container does. An object naming `wholeKey` before these arrays is one conversation
 * whose parts the container array holds (the Perplexity Thread Exporter's
 * `{"metadata": {thread_id…}, "conversations": [turns]}`): it is handed over
 * whole, as any other object.
 *
 * Why not a streaming JSON parser: those run several times slower than the
 * built-in JSON.parse. Only the element boundaries are found here — tracking
 * strings, escapes and nesting, inside elements with NestedScanner's
 * WebAssembly, 64 bytes at a time — and JSON.parse does the rest, so memory is
 * bounded by the largest element — which may be no longer than `maxElementBytes`,
 * and hold no more values (objects, arrays, scalars) and keys than one per
 * BYTES_PER_VALUE of that, counted as its bytes are scanned.
 */
export class JsonElementSplitter {
  private expect: Expect = 'document';
  private topLevelObject = false;
  private depth = 0;
  private inString = false;
  /** Inside a string, the previous chunk ended on an odd run of backslashes. */
  private escapePending = false;
  /** A scalar element (string, number, literal) being collected at depth 0. */
  private inScalar = false;
  /** The values and keys the element being read may still hold; each opening bracket, comma and colon outside strings starts one. */
  private valuesLeft = 0;
  private readonly maxValues: number;
  /**
   * An element that spans chunks is copied here as it arrives, so the chunks it
   * came in can go at once; the buffer is reused for every later element.
   */
  private pending = new Uint8Array(0);
  private pendingBytes = 0;
  /** Where the top-level object's containerKey array is: not met yet, being read, or read. */
  private container: 'none' | 'inside' | 'after' = 'none';
  /** The top-level object is kept to be handed over whole: until an array of it is read or counted. */
  private held = false;
  /** The countedArrays array being passed over, and its elements so far. */
  private counting: { key: string; elements: number } | null = null;
  /**
   * A string at depth 1 of the top-level object, perhaps a member's key: where it
   * starts in this chunk, its bytes from earlier chunks (null once too long to be
   * the container key), and what the last such string was followed by.
   */
  private keyStart = -1;
  private keyCarry: Uint8Array | null = null;
  private key: Uint8Array | null = null;
  private afterKey: 'none' | 'string' | 'colon' = 'none';
  /** The member whose `:` came last, if it is the container or a counted array's key. */
  private arrayKey: string | null = null;
  private readonly containerKey: Uint8Array;
  private readonly wholeKey: Uint8Array;
  private readonly countedKeys: Array<[key: string, bytes: Uint8Array]>;
  /** The top-level object named wholeKey: its containerKey array is read as part of it. */
  private whole = false;
  private readonly scanner = new NestedScanner();

  constructor(
    private readonly onElement: (bytes: Uint8Array) => void,
    private readonly maxElementBytes: number,
    private readonly countedArrays: ReadonlyMap<string, (elements: number) => void> = new Map(),
    private readonly onCounted: () => void = () => {},
    private readonly containerName = 'conversations',
    wholeKey = 'metadata',
  ) {
    const encoder = new TextEncoder();
    this.containerKey = encoder.encode(containerName);
    this.wholeKey = encoder.encode(wholeKey);
    this.countedKeys = [...countedArrays.keys()].map((key) => [key, encoder.encode(key)]);
    this.maxValues = Math.min(UNCOUNTED_VALUES, Math.floor(maxElementBytes / BYTES_PER_VALUE));
  }

  push(chunk: Uint8Array): void {
    this.scanner.forget();
    let start = this.collecting() ? 0 : -1;
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.inString) {
        const end = stringEnd(chunk, this.escapePending ? i + 1 : i);
        this.escapePending = end === UNPAIRED_BACKSLASH;
        if (end < 0) {
          i = n;
          break;
        }
        this.inString = false;
        if (this.keyStart !== -1) this.endKey(chunk, end - 1);
        i = end;
        if (this.depth === 0 && this.inScalar) {
          this.endElement(chunk, start, i);
          start = -1;
        }
        continue;
      }
      // Inside an element (or the nested values of the top-level object): the hot loop.
      const floor = this.atObjectMembers() ? 1 : 0;
      if (this.depth > floor) {
        i = this.skipNested(chunk, i, floor);
        if (this.depth === 0) {
          this.endElement(chunk, start, i);
          start = -1;
        }
        continue;
      }
      const byte = chunk[i]!;
      if (this.depth > 0) {
        // Depth 1 of the top-level object: its members, watched for the container's and the counted arrays' keys.
        const opened = this.watchMember(byte, i);
        if (opened !== null) {
          // An array's `[`: what was held of the object is dropped, its elements follow.
          if (opened === this.containerName) this.container = 'inside';
          else this.counting = { key: opened, elements: 0 };
          this.held = false;
          this.depth = 0;
          this.pendingBytes = 0;
          this.expect = 'first-element';
          start = -1;
          i++;
          continue;
        }
        if (byte === QUOTE) this.inString = true;
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
          this.depth++;
          this.countValue();
        } else if (byte === COMMA || byte === COLON) this.countValue();
        else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && --this.depth === 0) {
          if (this.held) this.finishElement(chunk, start, i + 1);
          else this.expect = 'trailing';
          start = -1;
        }
        i++;
        continue;
      }
      if (this.inScalar) {
        // A number or literal ends at the first delimiter; JSON.parse judges it.
        if (byte === COMMA || byte === CLOSE_BRACKET || isWhitespace(byte)) {
          this.endElement(chunk, start, i);
          start = -1;
          continue;
        }
        i++;
        continue;
      }
      i++;
      if (isWhitespace(byte) || (this.expect === 'document' && isByteOrderMark(byte))) continue;
      switch (this.expect) {
        case 'document':
          if (byte === OPEN_BRACKET) this.expect = 'first-element';
          else if (byte === OPEN_BRACE) {
            this.topLevelObject = true;
            this.held = true;
            this.expect = 'element';
            this.depth = 1;
            this.valuesLeft = this.maxValues;
            start = i - 1;
          } else throw unrecognizedOrInvalid(byte);
          break;
        case 'trailing':
          throw invalidExport('unexpected data after the end of the JSON document');
        case 'comma-or-end':
          if (byte === COMMA) this.expect = 'element';
          else if (byte === CLOSE_BRACKET) this.endArray();
          else throw invalidExport('expected "," or "]" between conversations');
          break;
        case 'first-element':
        case 'element':
          if (byte === CLOSE_BRACKET && this.expect === 'first-element') {
            this.endArray();
            break;
          }
          // A counted array's elements are never held.
          start = this.counting === null ? i - 1 : -1;
          this.valuesLeft = this.maxValues;
          if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth = 1;
          else {
            this.inScalar = true;
            if (byte === QUOTE) this.inString = true;
          }
          break;
      }
    }
    if (start !== -1) this.collect(chunk.subarray(start));
    if (this.keyStart !== -1) {
      this.keyCarry = this.keyBytes(chunk.subarray(this.keyStart));
      this.keyStart = 0;
    }
  }

  /**
   * Skips through nested values, strings included, until the depth falls back to
   * `floor` (returning the index after the closing bracket) or the chunk ends.
   * Nearly every byte of an export passes here, so it is WebAssembly's.
   */
  private skipNested(chunk: Uint8Array, from: number, floor: number): number {
    // What follows the container's array is skipped, not held: its values cost nothing.
    const counted = this.collecting();
    const end = this.scanner.skipNested(chunk, from, floor, this.depth, counted ? this.valuesLeft : UNCOUNTED_VALUES);
    if (end === TOO_MANY_VALUES) throw new ParleyError('conversationTooLarge');
    this.depth = this.scanner.depth;
    if (counted) this.valuesLeft = this.scanner.valuesLeft;
    if (end !== -1) return end;
    this.inString = this.scanner.inString;
    this.escapePending = this.scanner.escapePending;
    return chunk.length;
  }

  /** Call once the input has ended; a document cut short is an invalid export. */
  end(): void {
    if (this.inScalar && !this.inString && this.depth === 0) this.endElement(new Uint8Array(0), 0, 0);
    if (this.expect === 'document') throw fileNotAnExport(EMPTY_FILE);
    if (this.expect !== 'trailing') throw invalidExport('the file ends before the JSON document does (truncated?)');
  }

  /** A value or key of the top-level object's own, met outside the scanner: counted while the object is held. */
  private countValue(): void {
    if (this.held && --this.valuesLeft < 0) throw new ParleyError('conversationTooLarge');
  }

  private collecting(): boolean {
    if (this.counting !== null) return false;
    if (this.atObjectMembers()) return this.held && this.depth > 0;
    return this.depth > 0 || this.inScalar;
  }

  /** Whether the bytes are the top-level object's own members (and their values), not an array's elements. */
  private atObjectMembers(): boolean {
    return this.topLevelObject && this.container !== 'inside' && this.counting === null;
  }

  /** The top-level array ends the document; the object's arrays leave the rest of the object to read. */
  private endArray(): void {
    if (this.counting !== null) {
      const { key, elements } = this.counting;
      this.counting = null;
      if (elements > 0) this.countedArrays.get(key)!(elements);
    } else if (this.container === 'inside') this.container = 'after';
    else {
      this.expect = 'trailing';
      return;
    }
    this.expect = 'rest-of-object';
    this.depth = 1;
  }

  /**
   * Follows the members of the top-level object at depth 1, outside strings:
   * a string then `:` is a key; the container's key (until its array is read)
   * or a counted array's, its value starting with `[`, returns that key.
   */
  private watchMember(byte: number, at: number): string | null {
    if (isWhitespace(byte)) return null;
    const state = this.afterKey;
    this.afterKey = 'none';
    if (byte === QUOTE) {
      this.keyStart = at + 1;
      this.keyCarry = new Uint8Array(0);
    } else if (state === 'string' && byte === COLON) {
      if (this.held && this.isKey(this.wholeKey)) this.whole = true;
      else if (!this.whole) {
        this.arrayKey =
          this.container === 'none' && this.isKey(this.containerKey)
            ? this.containerName
            : (this.countedKeys.find(([, bytes]) => this.isKey(bytes))?.[0] ?? null);
        if (this.arrayKey !== null) this.afterKey = 'colon';
      }
    } else if (state === 'colon' && byte === OPEN_BRACKET) return this.arrayKey;
    return null;
  }

  /** Whether the last string at depth 1 was `name`. */
  private isKey(name: Uint8Array): boolean {
    return this.key !== null && this.key.length === name.length && this.key.every((b, j) => b === name[j]);
  }

  /** A string at depth 1 has ended at `quote`: keep its bytes in case a `:` makes it a key. */
  private endKey(chunk: Uint8Array, quote: number): void {
    this.key = this.keyBytes(chunk.subarray(this.keyStart, quote));
    this.keyStart = -1;
    this.afterKey = 'string';
  }

  /** The string's bytes so far with `part` added, or null once longer than any key compared. */
  private keyBytes(part: Uint8Array): Uint8Array | null {
    const carry = this.keyCarry;
    if (carry === null || carry.length + part.length > MAX_KEY_BYTES) return null;
    const bytes = new Uint8Array(carry.length + part.length);
    bytes.set(carry);
    bytes.set(part, carry.length);
    return bytes;
  }

  /** Keeps part of the element being read; one over the limit stops the import before it is whole. */
  private collect(part: Uint8Array): void {
    const needed = this.pendingBytes + part.length;
    if (needed > this.maxElementBytes) throw new ParleyError('conversationTooLarge');
    if (needed > this.pending.length) {
      const grown = new Uint8Array(Math.min(this.maxElementBytes, Math.max(needed, this.pending.length * 2)));
      grown.set(this.pending.subarray(0, this.pendingBytes));
      this.pending = grown;
    }
    this.pending.set(part, this.pendingBytes);
    this.pendingBytes = needed;
  }

  /** An element of the array being read has ended: handed over, or counted. */
  private endElement(chunk: Uint8Array, start: number, end: number): void {
    if (this.counting === null) {
      this.finishElement(chunk, start, end);
      return;
    }
    this.counting.elements++;
    this.onCounted();
    this.inScalar = false;
    this.expect = 'comma-or-end';
  }

  private finishElement(chunk: Uint8Array, start: number, end: number): void {
    let bytes = chunk.subarray(start, end);
    if (this.pendingBytes > 0) {
      this.collect(bytes);
      // A copy: the buffer is reused for the next element, and these bytes may outlive this call.
      bytes = this.pending.slice(0, this.pendingBytes);
      this.pendingBytes = 0;
    } else if (bytes.length > this.maxElementBytes) {
      throw new ParleyError('conversationTooLarge');
    }
    this.inScalar = false;
    this.expect = this.topLevelObject && this.container === 'none' ? 'trailing' : 'comma-or-end';
    this.onElement(bytes);
  }
}

/** An element's text, read as JSON; JSON that does not parse is an invalid export. */
export function parseElement(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidExport(error instanceof SyntaxError ? error.message : 'unreadable JSON');
  }
}

/** stringEnd's answers when the chunk ends inside the string: on an escape's backslash, or not. */
const UNPAIRED_BACKSLASH = -2;
const CHUNK_ENDED = -1;

/**
 * Where a string's body starting at `from` ends: the index after its closing
 * quote, or — when the chunk ends first — CHUNK_ENDED or UNPAIRED_BACKSLASH.
 */
function stringEnd(chunk: Uint8Array, from: number): number {
  const quote = unescapedQuote(chunk, from);
  if (quote !== -1) return quote + 1;
  return oddBackslashesBefore(chunk, from, chunk.length) ? UNPAIRED_BACKSLASH : CHUNK_ENDED;
}

/** A document that is JSON but not an array or object is readable yet no export. */
function unrecognizedOrInvalid(byte: number) {
  const scalarStart =
    byte === QUOTE ||
    byte === 0x2d ||
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x74 ||
    byte === 0x66 ||
    byte === 0x6e;
  return scalarStart ? unrecognizedExport() : fileNotAnExport(NOT_JSON);
}
