const encoder = new TextEncoder();
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Uniform base62: bytes of 248 and above are dropped rather than folded, to avoid bias. */
export function randomBase62(bytes: (n: number) => Uint8Array, length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of bytes(length)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
