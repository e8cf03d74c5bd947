import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { NestedScanner } from '../../src/import/nested-scanner.ts';
import { nestedScannerModule } from '../../scripts/build-wasm.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** What the scanner must find, read byte by byte: its answer, then its state. */
function byteByByte(chunk: Uint8Array, from: number, floor: number, depth: number) {
  let inString = false;
  let escaped = false;
  for (let i = from; i < chunk.length; i++) {
    const byte = chunk[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === 0x7b || byte === 0x5b) depth++;
    else if ((byte === 0x7d || byte === 0x5d) && --depth === floor) return [i + 1, depth, false, false];
  }
  return [-1, depth, inString, inString && escaped];
}

/** A seeded source of numbers in [0, 1), so a failure can be replayed. */
function seeded(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

test('the embedded module is nested-scanner.wat assembled (npm run build:wasm)', async () => {
  assert.equal(readFileSync('src/import/nested-scanner-wasm.ts', 'utf8'), await nestedScannerModule());
});

test('the scanner agrees with a byte-by-byte reading: runs of backslashes, quotes and brackets at every offset of its 64-byte blocks', () => {
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
          else bytes.push(pick('{}[]a '));
        }
        bytes.push(QUOTE);
      } else bytes.push(pick('{}[]a '));
    }
    const chunk = Uint8Array.from(bytes.slice(0, 1 + Math.floor(random() * bytes.length)));
    const outside = starts.filter((at) => at < chunk.length);
    const from = outside[Math.floor(random() * outside.length)]!;
    const floor = Math.floor(random() * 2);
    const depth = floor + 1 + Math.floor(random() * 3);
    // A new array each round: the scanner copies a chunk only when it has not seen that array.
    scanner.forget();
    const found = [scanner.skipNested(chunk, from, floor, depth), scanner.depth, scanner.inString, scanner.escapePending];
    assert.deepEqual(found, byteByByte(chunk, from, floor, depth), `round ${round}: ${JSON.stringify(String.fromCharCode(...chunk))} from ${from}`);
  }
});

test('a chunk larger than the scanner\'s memory grows it', () => {
  const scanner = new NestedScanner();
  const chunk = new TextEncoder().encode(`{"a":"${'x'.repeat(300_000)}"}`);
  assert.equal(scanner.skipNested(chunk, 1, 0, 1), chunk.length);
});
