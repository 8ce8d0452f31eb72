/**
 * Delays for `setTimeout` and `setInterval` that they honour as given.
 *
 * Timers take at most 2^31 - 1 ms (about 24.8 days). Node, Bun, Deno and browsers fire a longer
 * delay, `Infinity` or `NaN` after about 1 ms instead, so a value from the wire (a task's
 * `pollInterval`, an SSE `retry:` field) or a generous option would turn a wait of weeks into a
 * loop running a thousand times a second.
 * @module
 */

/** The longest delay a timer honours (ms). */
export const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * `ms` made safe for a timer: at most {@link MAX_TIMER_DELAY}, at least 0 (`NaN` is 0).
 *
 * @example
 * ```ts
 * setTimeout(poll, timerDelay(task.pollInterval ?? 1_000)); // 1e12 waits 24.8 days, not 1 ms
 * ```
 */
export function timerDelay(ms: number): number {
  return ms >= MAX_TIMER_DELAY ? MAX_TIMER_DELAY : ms > 0 ? ms : 0;
}
