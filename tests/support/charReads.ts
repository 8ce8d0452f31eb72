/**
 * Counts the characters a scanner reads, so "linear on hostile input" is asserted as a number of
 * reads instead of a wall-clock bound (benchmarks are for `npm run bench`, not tests).
 * @module
 */

/**
 * Runs `scan` and returns what it returned with how many times it called
 * `String.prototype.charCodeAt` (the one way this repo's hand-written scanners read a string).
 * The counter is removed again before this returns, even if `scan` throws.
 *
 * @example
 * ```ts
 * const { reads } = countCharReads(() => uriProblem(hostile));
 * expect(reads).toBeLessThanOrEqual(2 * hostile.length);
 * ```
 */
export function countCharReads<T>(scan: () => T): { result: T; reads: number } {
  const original = String.prototype.charCodeAt;
  let reads = 0;
  String.prototype.charCodeAt = function (this: string, index: number) {
    reads++;
    return original.call(this, index);
  };
  try {
    const result = scan();
    return { result, reads };
  } finally {
    String.prototype.charCodeAt = original;
  }
}
