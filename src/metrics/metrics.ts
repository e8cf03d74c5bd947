import type { ServerFigures } from '../db/server-figures.ts';
import type { Family, HistogramSample, Labels, Sample } from './exposition.ts';

/** Upper bounds of a request's time to its answer's headers, in seconds. */
const REQUEST_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Upper bounds of an import's time, in seconds: from a small JSON file to a 1 GB zip on a slow line. */
const IMPORT_SECONDS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

/** Methods named in the labels; any other (there are few, and no client needs them) counts as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const keyOf = (labels: Labels) => JSON.stringify(Object.values(labels));

/** A counter per set of label values, each call site naming the labels in one order. */
class Counter {
  readonly #samples = new Map<string, Sample>();

  add(labels: Labels, amount = 1): void {
    const sample = this.#samples.get(keyOf(labels));
    if (sample) sample.value += amount;
    else this.#samples.set(keyOf(labels), { labels, value: amount });
  }

  samples(): Sample[] {
    return [...this.#samples.values()];
  }
}

class Histogram {
  readonly #series = new Map<string, { labels: Labels; inBucket: number[]; count: number; sum: number }>();

  constructor(readonly bounds: readonly number[]) {}

  observe(labels: Labels, value: number): void {
    let series = this.#series.get(keyOf(labels));
    if (!series) {
      series = { labels, inBucket: this.bounds.map(() => 0), count: 0, sum: 0 };
      this.#series.set(keyOf(labels), series);
    }
    const bucket = this.bounds.findIndex((bound) => value <= bound);
    if (bucket >= 0) series.inBucket[bucket]!++;
    series.count++;
    series.sum += value;
  }

  samples(): HistogramSample[] {
    return [...this.#series.values()].map(({ labels, inBucket, count, sum }) => {
      let below = 0;
      const cumulative = inBucket.map((n) => (below += n));
      return { labels, bounds: this.bounds, cumulative, count, sum };
    });
  }
}

const gauge = (name: string, help: string, samples: Sample[]): Family => ({ name, help, type: 'gauge', samples });
const counter = (name: string, help: string, counts: Counter): Family => ({
  name,
  help,
  type: 'counter',
  samples: counts.samples(),
});
const histogram = (name: string, help: string, observed: Histogram): Family => ({
  name,
  help,
  type: 'histogram',
  samples: observed.samples(),
});

/**
 * What the server has done since it started, counted in this process as it
 * happens (a few map updates per request, nothing awaited), for GET /metrics.
 * One per app: createApp's deps carry it, so a test's app counts only its own.
 */
export class Metrics {
  readonly #requests = new Counter();
  readonly #requestSeconds = new Histogram(REQUEST_SECONDS);
  readonly #imports = new Counter();
  readonly #importBytes = new Counter();
  readonly #importSeconds = new Histogram(IMPORT_SECONDS);
  readonly #importFailures = new Counter();

  constructor() {
    // At 0 from the start, so a rate over them is defined before the first import.
    for (const result of ['imported', 'failed']) this.#imports.add({ result }, 0);
    this.#importBytes.add({}, 0);
  }

  /** A request answered: `route` is the route's template (`/api/conversations/:id`), never the path asked for, so the series stay few. */
  requestAnswered(method: string, route: string, status: number, seconds: number): void {
    const labels = { method: METHODS.has(method) ? method : 'other', route };
    this.#requests.add({ ...labels, status: String(status) });
    this.#requestSeconds.observe(labels, seconds);
  }

  /** An import ended, having read `bytes` of its upload; `failure`: the error code it failed with. */
  importEnded(bytes: number, seconds: number, failure?: string): void {
    this.#imports.add({ result: failure ? 'failed' : 'imported' });
    this.#importBytes.add({}, bytes);
    this.#importSeconds.observe({}, seconds);
    if (failure) this.#importFailures.add({ reason: failure });
  }

  /** Every series: those counted here, and `figures`, read from the database for this scrape. */
  families(figures: ServerFigures): Family[] {
    return [
      counter('parley_http_requests_total', 'Requests answered, by method, route template and status.', this.#requests),
      histogram(
        'parley_http_request_duration_seconds',
        "Time from a request's arrival to its answer's headers, by method and route template.",
        this.#requestSeconds,
      ),
      counter('parley_imports_total', 'Imports ended, by result (imported or failed).', this.#imports),
      counter('parley_import_failures_total', "Failed imports, by reason (the error's code).", this.#importFailures),
      counter(
        'parley_import_bytes_total',
        'Bytes of uploads read by imports, failed ones included.',
        this.#importBytes,
      ),
      histogram(
        'parley_import_duration_seconds',
        'Time an import took, from its first byte to its answer.',
        this.#importSeconds,
      ),
      gauge('parley_webhook_deliveries', 'Webhook deliveries by status: pending (to be tried) and failed (given up).', [
        { labels: { status: 'pending' }, value: figures.webhookDeliveries.pending },
        { labels: { status: 'failed' }, value: figures.webhookDeliveries.failed },
      ]),
      gauge(
        'parley_database_bytes',
        'Size of the database (the SQLite file without its log, or the PostgreSQL database).',
        [{ labels: {}, value: figures.databaseBytes }],
      ),
      gauge(
        'parley_attachment_store_bytes',
        'Bytes of attachments kept, by store (database or s3).',
        figures.attachmentBytes.map(({ store, bytes }) => ({ labels: { store }, value: bytes })),
      ),
      gauge('parley_open_uploads', 'Resumable uploads begun and neither finished nor expired.', [
        { labels: {}, value: figures.openUploads },
      ]),
    ];
  }
}
