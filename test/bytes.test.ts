import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textStream } from '../src/bytes.ts';

test('textStream encodes a text a piece at a time, never between the halves of a surrogate pair', async () => {
  const text = `${'a'.repeat(9)}😀${'é'.repeat(12)}😀`;
  const pieces: Uint8Array[] = [];
  for await (const piece of textStream(text, 10)) pieces.push(piece);
  assert.ok(pieces.length >= 3);
  // Each piece is whole UTF-8 on its own: a split pair would not decode.
  const decoded = pieces.map((piece) => new TextDecoder('utf-8', { fatal: true }).decode(piece));
  assert.equal(decoded.join(''), text);
  assert.ok(decoded.every((piece) => piece.length <= 10));
});
