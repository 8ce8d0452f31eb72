/**
 * JSON with object keys sorted: two answers that differ only in key order compare equal.
 * @module
 */

/**
 * The canonical JSON text of a value.
 *
 * @example
 * ```ts
 * canonical({ b: 1, a: 2 }) === canonical({ a: 2, b: 1 }); // true
 * ```
 */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
