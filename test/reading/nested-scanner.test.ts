import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { NestedScanner, TOO_MANY_VALUES, UNCOUNTED_VALUES } from '../../src/import/scanning/nested-scanner.ts';
import { nestedScannerModule } from '../../scripts/build-wasm.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * What the scanner must find, read byte by byte: its answer, then its state —
 * or TOO_MANY_VALUES when more than `valuesLeft` values and keys start before its answer.
 */
function byteByByte(chunk: Uint8Array, from: number, floor: number, depth: number, valuesLeft: number) {
  let inString = false;
  let escaped = false;
  const answer = (found: unknown[]) => (valuesLeft < 0 ? [TOO_MANY_VALUES] : [...found, valuesLeft]);
  for (let i = from; i < chunk.length; i++) {
    const byte = chunk[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === COMMA || byte === COLON) valuesLeft--;
    else if (byte === 0x7b || byte === 0x5b) {
      depth++;
      valuesLeft--;
    } else if ((byte === 0x7d || byte === 0x5d) && --depth === floor) return answer([i + 1, depth, false, false]);
  }
  return answer([-1, depth, inString, inString && escaped]);
}

/** A seeded source of numbers in [0, 1), so a failure can be replayed. */
function seeded(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

test('the embedded module is nested-scanner.wat assembled (npm run build:wasm)', async () => {
  assert.equal(readFileSync('src/import/scanning/nested-scanner-wasm.ts', 'utf8'), await nestedScannerModule());
});

test('the scanner agrees with a byte-by-byte reading: runs of backslashes, quotes, brackets, commas and colons at every offset of its 64-byte blocks, and the values counted', () => {
  const random = seeded(13);
  const scanner = new NestedScanner();
  const pick = (bytes: string) => bytes.charCodeAt(Math.floor(random() * bytes.length));
  for (let round = 0; round < 20_000; round++) {
    // Valid JSON's shape, cut anywhere: strings (with escapes, brackets inside) between brackets.
    const bytes: number[] = [];
    const starts: number[] = [];
    for (const length = 1 + Math.floor(random() * 300); bytes.length < length; ) {
      starts.push(bytes.length);
      if (random() < 0.3) {
        bytes.push(QUOTE);
        for (let n = Math.floor(random() * (random() < 0.5 ? 6 : 140)); n > 0; n--) {
          if (random() < 0.3) bytes.push(BACKSLASH, pick('\\"n'));
          else bytes.push(pick('{}[],:a '));
        }
        bytes.push(QUOTE);
      } else bytes.push(pick('{}[],:a '));
    }
    const chunk = Uint8Array.from(bytes.slice(0, 1 + Math.floor(random() * bytes.length)));
    const outside = starts.filter((at) => at < chunk.length);
    const from = outside[Math.floor(random() * outside.length)]!;
    const floor = Math.floor(random() * 2);
    const depth = floor + 1 + Math.floor(random() * 3);
    // Budgets around what a chunk this long holds, so that some are passed and some not.
    const valuesLeft = Math.floor(random() * chunk.length * 0.5);
    // A new array each round: the scanner copies a chunk only when it has not seen that array.
    scanner.forget();
    const end = scanner.skipNested(chunk, from, floor, depth, valuesLeft);
    const found =
      end === TOO_MANY_VALUES
        ? [end]
        : [end, scanner.depth, scanner.inString, scanner.escapePending, scanner.valuesLeft];
    assert.deepEqual(
      found,
      byteByByte(chunk, from, floor, depth, valuesLeft),
      `round ${round}: ${JSON.stringify(String.fromCharCode(...chunk))} from ${from}, ${valuesLeft} values left`,
    );
  }
});

test("a chunk larger than the scanner's memory grows it", () => {
  const scanner = new NestedScanner();
  const chunk = new TextEncoder().encode(`{"a":"${'x'.repeat(300_000)}"}`);
  assert.equal(scanner.skipNested(chunk, 1, 0, 1, UNCOUNTED_VALUES), chunk.length);
});
