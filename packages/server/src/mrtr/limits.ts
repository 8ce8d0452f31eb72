/**
 * The bounds of input-required rounds: how many rounds, how large a sealed state, how long it is
 * valid, how many questions per round.
 * @module
 */

/**
 * Limits of input-required rounds (2026-07-28). Every one bounds what a client can make the
 * server carry or redo.
 *
 * @example
 * ```ts
 * const limits: Partial<InputRoundLimits> = { maxRounds: 4, ttlMs: 60_000 };
 * ```
 */
export interface InputRoundLimits {
  /** Input-required results one request may go through. Default 8. */
  readonly maxRounds: number;
  /** Largest sealed `requestState`, in bytes (its base64url length). Default 65536 (64 KiB). */
  readonly maxStateBytes: number;
  /** How long a `requestState` stays valid after it is issued, in ms. Default 600000 (10 min). */
  readonly ttlMs: number;
  /** Most input requests in one input-required result. Default 16. */
  readonly maxInputRequests: number;
}

/**
 * The defaults of {@link InputRoundLimits}.
 *
 * @example
 * ```ts
 * DEFAULT_INPUT_ROUND_LIMITS.maxRounds; // 8
 * ```
 */
export const DEFAULT_INPUT_ROUND_LIMITS: InputRoundLimits = Object.freeze({
  maxRounds: 8,
  maxStateBytes: 64 * 1024,
  ttlMs: 10 * 60 * 1000,
  maxInputRequests: 16,
});

/**
 * The defaults with `overrides` applied; throws a `TypeError` naming a limit that is not a
 * positive integer.
 *
 * @example
 * ```ts
 * resolveLimits({ maxRounds: 3 }).maxRounds; // 3
 * ```
 */
export function resolveLimits(overrides: Partial<InputRoundLimits> = {}): InputRoundLimits {
  const limits: Record<string, number> = { ...DEFAULT_INPUT_ROUND_LIMITS };
  for (const name of Object.keys(DEFAULT_INPUT_ROUND_LIMITS)) {
    const value = overrides[name as keyof InputRoundLimits];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new TypeError(`requestStateLimits.${name} must be a positive integer`);
    }
    limits[name] = value;
  }
  return Object.freeze(limits as unknown as InputRoundLimits);
}
