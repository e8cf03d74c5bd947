const encoder = new TextEncoder();

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export const base64Url = (bytes: Uint8Array): string =>
  base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Compares without an early exit, so the time taken says nothing about where two secrets differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let difference = x.length ^ y.length;
  for (let i = 0; i < x.length; i++) difference |= x[i]! ^ (y[i % Math.max(y.length, 1)] ?? 0);
  return difference === 0;
}
