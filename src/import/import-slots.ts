import { ParleyError } from '../errors.ts';

/** What a refused import is told to wait: about what an ordinary import takes. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Admits at most `max` imports at once in this process; one more waits up to
 * `waitMs` for a slot, then is refused with 503 and Retry-After. Each import
 * holds a reader worker, its buffers and a share of the database's writes: a
 * burst of uploads costs what `max` of them cost, and everything else the
 * server answers keeps its pace.
 */
export class ImportSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly waitMs: number,
  ) {}

  /** Runs `work` once a slot is free, holding it until `work` settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.max) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(admit), 1);
        reject(new ParleyError('importsBusy', { retryAfterSeconds: RETRY_AFTER_SECONDS }));
      }, this.waitMs);
      this.waiting.push(admit);
    });
  }

  private release(): void {
    // The slot passes straight to the longest waiting import, if any.
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
