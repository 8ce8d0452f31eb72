/**
 * Small statistics helpers; medians everywhere because a benchmark round on a shared 2-core box has
 * outliers in both directions.
 * @module
 */

/**
 * The value at quantile `q` (0..1) of `values`, by linear interpolation between closest ranks.
 * @param {readonly number[]} values
 * @param {number} q
 * @example
 * quantile([1, 2, 3, 4], 0.5); // 2.5
 */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

/**
 * @param {readonly number[]} values
 * @example
 * median([3, 1, 2]); // 2
 */
export function median(values) {
  return quantile(values, 0.5);
}

/**
 * Quantiles of a latency sample, sorted in place. A `Float64Array` is sorted numerically without a
 * comparator: sorting a large plain array with a JS comparator inside a measuring process left the
 * following measurement ~3× slower on Node 20 (measured in the call worker).
 * @param {number[] | Float64Array} values sorted in place
 * @param {readonly number[]} qs
 * @example
 * latencyQuantiles([5, 1, 3], [0.5, 0.99]);
 * latencyQuantiles(Float64Array.of(5, 1, 3), [0.5]);
 */
export function latencyQuantiles(values, qs) {
  if (values instanceof Float64Array) values.sort();
  else values.sort((a, b) => a - b);
  return qs.map((q) => {
    if (values.length === 0) return Number.NaN;
    return values[Math.min(values.length - 1, Math.floor((values.length - 1) * q + 0.5))];
  });
}

/**
 * The medians of every numeric field that appears in `records`.
 * @param {readonly Record<string, unknown>[]} records
 * @example
 * medianFields([{ p50: 1 }, { p50: 3 }]); // { p50: 2 }
 */
export function medianFields(records) {
  /** @type {Record<string, number[]>} */
  const columns = {};
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      columns[key] ??= [];
      columns[key].push(value);
    }
  }
  return Object.fromEntries(Object.entries(columns).map(([key, values]) => [key, median(values)]));
}

/**
 * `items` rotated left by `by`, so successive rounds start with a different implementation and no one
 * always runs first (on a warm or on a cold machine).
 * @template T
 * @param {readonly T[]} items
 * @param {number} by
 * @example
 * rotate(['a', 'b', 'c'], 1); // ['b', 'c', 'a']
 */
export function rotate(items, by) {
  if (items.length === 0) return [];
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
