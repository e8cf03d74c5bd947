/**
 * The seeded PRNG every generated export comes from: a seed always gives the
 * same bytes.
 */

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** mulberry32: tiny, fast, and good enough for test data. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  u32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** [0, 1) */
  next(): number {
    return this.u32() / 4294967296;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Between min and max, skewed towards min (most messages are short, a few are long). */
  skewed(min: number, max: number, skew = 2): number {
    return Math.round(min * (max / min) ** (this.next() ** skew));
  }
  /** Exponentially distributed with the given mean. */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
  /** Eight hex digits. */
  hex8(): string {
    const x = this.u32();
    return HEX[x >>> 24]! + HEX[(x >>> 16) & 255]! + HEX[(x >>> 8) & 255]! + HEX[x & 255]!;
  }
  /** Four hex digits. */
  hex4(): string {
    const x = this.u32();
    return HEX[x >>> 24]! + HEX[(x >>> 16) & 255]!;
  }
  hex16(): string {
    return this.hex8() + this.hex8();
  }
  hex32(): string {
    return this.hex8() + this.hex8() + this.hex8() + this.hex8();
  }
  /** A version 4 UUID. */
  uuid(): string {
    const x = this.u32();
    const version = `4${HEX[(x >>> 16) & 15]!.charAt(1)}${HEX[(x >>> 8) & 255]!}`;
    const variant = `${'89ab'.charAt(x & 3)}${HEX[x >>> 24]!.charAt(1)}${HEX[(x >>> 2) & 255]!}`;
    return `${this.hex8()}-${this.hex4()}-${version}-${variant}-${this.hex4()}${this.hex8()}`;
  }
  base62(chars: number): string {
    let out = '';
    for (let i = 0; i < chars; i++) out += BASE62[this.u32() % 62];
    return out;
  }
}
