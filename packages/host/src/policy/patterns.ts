/**
 * `*` patterns for tool names (`read_*`, `*_file`, `*`), matched without regular expressions so
 * no pattern can take super-linear time.
 * @module
 */

/**
 * True when `name` matches `pattern`, where `*` stands for any run of characters.
 *
 * @example
 * ```ts
 * matchesPattern('read_*', 'read_file'); // true
 * ```
 */
export function matchesPattern(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  // The classic greedy wildcard walk: O(pattern × name) at worst, no backtracking explosion.
  while (n < name.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * True when any pattern of `patterns` matches `name`.
 *
 * @example
 * ```ts
 * matchesAny(['echo', 'read_*'], 'read_file'); // true
 * ```
 */
export function matchesAny(patterns: readonly string[] | undefined, name: string): boolean {
  return patterns?.some((pattern) => matchesPattern(pattern, name)) ?? false;
}
