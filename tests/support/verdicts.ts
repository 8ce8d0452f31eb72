import { expect, it } from 'vitest';

/**
 * Declares one test per value for a yes/no check: each of `accepts` must pass `check`, each of
 * `rejects` must fail it. The failing value is in the test's name.
 *
 * @example
 * ```ts
 * describe('isValidToolName', () => {
 *   itJudges(isValidToolName, { accepts: ['a', 'x-y'], rejects: ['', 'a b'] });
 * });
 * ```
 */
export function itJudges(
  check: (value: string) => boolean,
  verdicts: { readonly accepts?: readonly string[]; readonly rejects?: readonly string[] },
): void {
  if (verdicts.accepts) it.each(verdicts.accepts)('accepts %j', (value) => expect(check(value)).toBe(true));
  if (verdicts.rejects) it.each(verdicts.rejects)('rejects %j', (value) => expect(check(value)).toBe(false));
}
