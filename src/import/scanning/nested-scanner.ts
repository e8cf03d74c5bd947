import { NESTED_SCANNER_WASM } from './nested-scanner-wasm.ts';

interface ScannerExports {
  memory: WebAssembly.Memory;
  depth: WebAssembly.Global;
  inString: WebAssembly.Global;
  escapePending: WebAssembly.Global;
  valuesLeft: WebAssembly.Global;
  skipNested(from: number, end: number, floor: number, depth: number, valuesLeft: number): number;
}

/** Bytes read past a chunk's end: the scanner reads whole 64-byte blocks. */
const PADDING = 64;
const PAGE_BYTES = 64 * 1024;
/** skipNested's answer once the values and keys passed exceed the budget (-1: the chunk ended first). */
export const TOO_MANY_VALUES = -2;
/** The largest budget of values the scanner counts down from (an i32). */
export const UNCOUNTED_VALUES = 2 ** 31 - 1;

/**
 * Skips through nested JSON values 64 bytes at a time (nested-scanner.wat), for
 * JsonElementSplitter: ten times the speed of a byte loop in JavaScript. A chunk
 * is copied into the scanner's memory once, on its first scan.
 */
export class NestedScanner {
  private readonly scanner: ScannerExports;
  private memory: Uint8Array;
  private loaded: Uint8Array | undefined;

  constructor() {
    const bytes = Uint8Array.from(atob(NESTED_SCANNER_WASM), (char) => char.charCodeAt(0));
    this.scanner = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as ScannerExports;
    this.memory = new Uint8Array(this.scanner.memory.buffer);
  }

  /** Whether the last scan that ran off its chunk's end stopped inside a string, and on an escaping backslash. */
  get inString(): boolean {
    return this.scanner.inString.value === 1;
  }

  get escapePending(): boolean {
    return this.scanner.escapePending.value === 1;
  }

  /** The depth where the last scan stopped. */
  get depth(): number {
    return this.scanner.depth.value as number;
  }

  /** What is left of the budget of values where the last scan stopped. */
  get valuesLeft(): number {
    return this.scanner.valuesLeft.value as number;
  }

  /** Call when a new chunk comes, even in the same array: its bytes are copied again. */
  forget(): void {
    this.loaded = undefined;
  }

  /**
   * From `from`, outside any string, at `depth`: the index after the bracket
   * that brings the depth down to `floor`, -1 when the chunk ends first, or
   * TOO_MANY_VALUES once it has passed more than `valuesLeft` values
   * and keys (an opening bracket, a comma or a colon outside strings starts one).
   */
  skipNested(chunk: Uint8Array, from: number, floor: number, depth: number, valuesLeft: number): number {
    if (this.loaded !== chunk) this.load(chunk);
    return this.scanner.skipNested(from, chunk.length, floor, depth, valuesLeft);
  }

  private load(chunk: Uint8Array): void {
    const needed = chunk.length + PADDING;
    if (needed > this.memory.length) {
      this.scanner.memory.grow(Math.ceil((needed - this.memory.length) / PAGE_BYTES));
      this.memory = new Uint8Array(this.scanner.memory.buffer);
    }
    this.memory.set(chunk);
    this.memory.fill(0, chunk.length, needed);
    this.loaded = chunk;
  }
}
