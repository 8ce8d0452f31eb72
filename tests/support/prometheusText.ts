/**
 * Scrapes a Prometheus `/metrics` endpoint and parses the text with a real parser
 * (`parse-prometheus-text-format`, prom2json's output shape), then finds samples by labels.
 *
 * @example
 * ```ts
 * const families = await scrape('http://127.0.0.1:9464/metrics');
 * sample(families, 'mcpkit_server_requests_total', { mcp_method_name: 'tools/call', outcome: 'ok' })?.value; // '10'
 * ```
 */
// @ts-expect-error: the package ships no type declarations; its shape is declared below.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/** One sample (counter or gauge) or one histogram series, as the parser returns it. */
export interface Sample {
  readonly labels?: Record<string, string>;
  readonly value?: string;
  readonly buckets?: Record<string, string>;
  readonly count?: string;
  readonly sum?: string;
}

/** One metric family. */
export interface Family {
  readonly name: string;
  readonly help: string;
  readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  readonly metrics: readonly Sample[];
}

/** Parses Prometheus text exposition format. */
export const parsePrometheus = parsePrometheusTextFormat as (text: string) => Family[];

/**
 * Fetches `url` and parses it; fails unless the answer is 200 in the text format.
 *
 * The parser folds every series of a histogram family into one (it keeps only unlabelled
 * `_count`/`_sum`), so histograms with labels are read a second time with their `# TYPE` lines
 * left out: each `_bucket`, `_sum` and `_count` series is then a sample of its own, labels kept.
 * The families' types come from the first, unaltered parse.
 */
export async function scrape(url: string): Promise<Family[]> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain')) throw new Error(`${url} answered ${type}`);
  const text = await response.text();
  const typed = parsePrometheus(text);
  const histograms = new Set(typed.filter((f) => f.type === 'HISTOGRAM').map((f) => f.name));
  const untyped = text
    .split('\n')
    .filter((line) => !/^# TYPE \S+ histogram$/.test(line))
    .join('\n');
  // Without a TYPE the parser starts a new family at each series: gather them by name again.
  const series = new Map<string, Family>();
  for (const family of parsePrometheus(untyped)) {
    if (![...histograms].some((h) => family.name.startsWith(`${h}_`))) continue;
    const seen = series.get(family.name);
    series.set(family.name, seen ? { ...seen, metrics: [...seen.metrics, ...family.metrics] } : family);
  }
  return [...typed, ...series.values()];
}

/**
 * The `_count` of the histogram series of `name` whose labels include `labels` (exactly one must
 * match), as a number; `NaN` when none does.
 */
export function histogramCount(
  families: readonly Family[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return Number(sample(families, `${name}_count`, labels)?.value);
}

/** The upper bounds of the buckets of the matching histogram series (without `+Inf`). */
export function histogramBounds(
  families: readonly Family[],
  name: string,
  labels: Record<string, string> = {},
): number[] {
  const family = families.find((f) => f.name === `${name}_bucket`);
  const bounds = family?.metrics
    .filter((metric) => Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value))
    .map((metric) => metric.labels?.le)
    .filter((le): le is string => le !== undefined && le !== '+Inf');
  return [...new Set(bounds)].map(Number).sort((a, b) => a - b);
}

/** The series of `name` whose labels include `labels`, if exactly one matches. */
export function sample(
  families: readonly Family[],
  name: string,
  labels: Record<string, string> = {},
): Sample | undefined {
  const family = families.find((f) => f.name === name);
  const found = family?.metrics.filter((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );
  if (found && found.length > 1)
    throw new Error(`${found.length} series of ${name} match ${JSON.stringify(labels)}`);
  return found?.[0];
}
