/**
 * The Prometheus text exposition format (version 0.0.4), written here rather
 * than taken from a client library: Parley needs counters, gauges and
 * histograms with labels and nothing else, and the libraries keep a registry
 * of their own, where the app's must come from what createApp is given.
 */

export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  labels: Labels;
  value: number;
}

export interface HistogramSample {
  labels: Labels;
  /** Upper bounds in ascending order, and how many observations fell at or below each. */
  bounds: readonly number[];
  cumulative: readonly number[];
  count: number;
  sum: number;
}

export type Family =
  | { name: string; help: string; type: 'counter' | 'gauge'; samples: readonly Sample[] }
  | { name: string; help: string; type: 'histogram'; samples: readonly HistogramSample[] };

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

const formatValue = (value: number) =>
  Number.isNaN(value) ? 'NaN' : value === Infinity ? '+Inf' : value === -Infinity ? '-Inf' : String(value);

function labelText(labels: Labels): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return pairs.length ? `{${pairs.join(',')}}` : '';
}

function sampleLines(family: Family): string[] {
  if (family.type !== 'histogram')
    return family.samples.map(({ labels, value }) => `${family.name}${labelText(labels)} ${formatValue(value)}`);
  return family.samples.flatMap(({ labels, bounds, cumulative, count, sum }) => [
    ...bounds.map(
      (bound, i) => `${family.name}_bucket${labelText({ ...labels, le: formatValue(bound) })} ${cumulative[i]}`,
    ),
    `${family.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${count}`,
    `${family.name}_sum${labelText(labels)} ${formatValue(sum)}`,
    `${family.name}_count${labelText(labels)} ${count}`,
  ]);
}

/** The families as one scrape's body. */
export function exposition(families: readonly Family[]): string {
  return families
    .map((family) =>
      [
        `# HELP ${family.name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`,
        `# TYPE ${family.name} ${family.type}`,
        ...sampleLines(family),
      ].join('\n'),
    )
    .join('\n')
    .concat('\n');
}
