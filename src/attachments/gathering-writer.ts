import type { BlobWriter } from './attachment-store.ts';

/**
 * A blob writer whose bytes gather in one buffer, handed on (`flush`) whole and
 * then filled again: a gigabyte streams through one buffer, not through a
 * thousand small ones left for the collector, and the store takes it in a few
 * large writes.
 */
export abstract class GatheringWriter implements BlobWriter {
  private readonly buffer: Uint8Array;
  private filled = 0;
  private flushes = 0;

  constructor(bufferBytes: number) {
    this.buffer = new Uint8Array(bufferBytes);
  }

  async write(chunk: Uint8Array): Promise<void> {
    for (let at = 0; at < chunk.length; ) {
      const taken = Math.min(chunk.length - at, this.buffer.length - this.filled);
      this.buffer.set(chunk.subarray(at, at + taken), this.filled);
      this.filled += taken;
      at += taken;
      if (this.filled === this.buffer.length) await this.flushGathered();
    }
  }

  abstract close(): Promise<void>;
  abstract abort(): Promise<void>;

  /**
   * Takes the next bytes: the buffer itself when full, which is filled again
   * once this resolves (the store must have taken them by then); the last,
   * shorter bytes as a copy.
   */
  protected abstract flush(bytes: Uint8Array): Promise<void>;

  /** Hands on what is still gathered; an empty blob too, once. */
  protected async flushRest(): Promise<void> {
    if (this.filled > 0 || this.flushes === 0) await this.flushGathered();
  }

  private async flushGathered(): Promise<void> {
    const bytes = this.filled === this.buffer.length ? this.buffer : this.buffer.slice(0, this.filled);
    await this.flush(bytes);
    this.flushes++;
    this.filled = 0;
  }
}
