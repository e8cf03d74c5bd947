export function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Where `needle` first occurs in `haystack`, or -1; the native indexOf finds candidates. */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0]!;
  const last = haystack.length - needle.length;
  for (let i = haystack.indexOf(first); i !== -1 && i <= last; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/**
 * A byte stream read from `chunks` only as fast as its reader takes them: the
 * next chunk is made when the last was taken, so a slow reader holds up the
 * maker instead of letting chunks pile up. `onError` hears of a failure before
 * the stream breaks off with it (its response already started, so nothing else
 * can say so).
 */
export function streamOf(
  chunks: AsyncIterator<Uint8Array>,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        onError(error);
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

/**
 * `text` as UTF-8, encoded `pieceCharacters` at a time as its reader takes
 * them (never between the halves of a surrogate pair): encoding a long text
 * at once would hold the thread as long.
 */
export function textStream(text: string, pieceCharacters: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= text.length) return controller.close();
      let end = Math.min(text.length, at + pieceCharacters);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      controller.enqueue(encoder.encode(text.slice(at, end)));
      at = end;
    },
  });
}
