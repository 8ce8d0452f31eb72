/**
 * A per-connection cap on the rate of messages a peer may start (requests and notifications), for
 * transports that can stop reading: past the cap they pause the peer's stream until the current
 * window ends, so a flooding peer gets backpressure instead of this process's CPU.
 * @module
 */

/** The window the budget is counted in, in ms; the per-second rate is spread over it. */
const WINDOW_MS = 100;

/**
 * The default cap on messages a peer may start per second (requests and notifications; answers to
 * our own requests are never counted). Far above what a well-behaved server sends (progress at
 * 60 Hz plus logs), far below the million a second a runaway one manages.
 *
 * @example
 * ```ts
 * new StdioClientTransport({ command: 'server', maxIncomingPerSecond: 4 * DEFAULT_MAX_INCOMING_PER_SECOND });
 * ```
 */
export const DEFAULT_MAX_INCOMING_PER_SECOND = 2000;

/**
 * Counts the messages a peer starts and says how long to stop reading once it sends too many.
 * One instance per connection; no timer of its own (the transport owns the one pause timer).
 *
 * @example
 * ```ts
 * const limit = new IncomingRateLimit(2000, (error) => onError(error));
 * const pause = limit.admit(message); // ms to stop reading the stream, 0 to go on
 * ```
 */
export class IncomingRateLimit {
  readonly #budget: number;
  #windowStart = 0;
  #count = 0;
  #reported = false;

  readonly #onThrottled: (error: Error) => void;
  /**
   * @param perSecond messages the peer may start per second; `Infinity` turns the limit off.
   * @param onThrottled told once per connection, the first time the peer is slowed down.
   */
  constructor(
    readonly perSecond: number,
    onThrottled: (error: Error) => void,
  ) {
    this.#onThrottled = onThrottled;
    this.#budget = Math.max(1, Math.floor((perSecond * WINDOW_MS) / 1000));
  }

  /**
   * Counts `message` if the peer started it (it has a `method`). Returns how many ms the
   * transport should stop reading, 0 to go on.
   */
  admit(message: unknown, at?: number): number {
    // Checked before the clock is read: most messages a client receives are responses, not counted.
    if (this.perSecond === Number.POSITIVE_INFINITY || !startedByPeer(message)) return 0;
    const now = at ?? Date.now();
    if (now - this.#windowStart >= WINDOW_MS) {
      this.#windowStart = now;
      this.#count = 0;
    }
    if (++this.#count < this.#budget) return 0;
    if (!this.#reported) {
      this.#reported = true;
      this.#onThrottled(
        new Error(
          `The peer sends more than ${this.perSecond} requests and notifications a second (maxIncomingPerSecond); reading from it is slowed down to that rate`,
        ),
      );
    }
    return Math.max(1, this.#windowStart + WINDOW_MS - now);
  }
}

function startedByPeer(message: unknown): boolean {
  if (Array.isArray(message)) return message.some(startedByPeer);
  return typeof message === 'object' && message !== null && 'method' in message;
}
