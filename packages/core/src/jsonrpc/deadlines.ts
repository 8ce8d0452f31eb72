/**
 * One timer for many deadlines.
 *
 * Every outgoing request has a deadline, but arming a timer per request costs a timer object and a
 * closure per message. Instead one timer is armed for the earliest deadline; when it fires, the
 * owner sweeps its pending requests and tells us the next earliest deadline. Deadlines that move
 * later (progress resets them) need no work at all: the sweep simply finds them not yet due.
 * @module
 */
import { timerDelay } from '../timerDelay.js';

/**
 * Runs `sweep(now)` at (or just after) the earliest scheduled time.
 *
 * @example
 * ```ts
 * declare function expireDue(now: number): number;
 * const timer = new DeadlineTimer((now) => expireDue(now)); // returns the next deadline, or Infinity
 * timer.schedule(Date.now() + 5_000);
 * ```
 */
export class DeadlineTimer {
  #handle: ReturnType<typeof setTimeout> | undefined;
  #armedAt = Number.POSITIVE_INFINITY;

  readonly #sweep: (now: number) => number;
  /** `sweep` returns the next deadline to arm for, or `Infinity` when nothing is pending. */
  constructor(sweep: (now: number) => number) {
    this.#sweep = sweep;
  }

  /** Ensures the timer fires no later than `deadline` (ms since epoch). */
  schedule(deadline: number): void {
    if (deadline >= this.#armedAt) return;
    this.#arm(deadline);
  }

  /** Stops the timer. */
  stop(): void {
    if (this.#handle !== undefined) clearTimeout(this.#handle);
    this.#handle = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
  }

  #arm(deadline: number): void {
    if (this.#handle !== undefined) clearTimeout(this.#handle);
    this.#armedAt = deadline;
    // A deadline past what a timer takes re-arms when the capped timer fires.
    this.#handle = setTimeout(this.#fire, timerDelay(deadline - Date.now()));
    // A pending deadline should not keep a process alive on its own (Node and Bun have unref).
    (this.#handle as { unref?: () => void }).unref?.();
  }

  readonly #fire = (): void => {
    this.#handle = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const next = this.#sweep(Date.now());
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  };
}
