/**
 * When to reconnect a dropped SSE stream.
 * @module
 */
import { timerDelay } from '@mcpkit/core/internal';

/**
 * How a Streamable HTTP client reconnects dropped SSE streams.
 *
 * The first reconnection after a drop waits the server's `retry:` value when it sent one (the
 * spec's MUST), else `initialReconnectionDelay`. Each failed attempt, and each connection that
 * ends without a single event, multiplies the wait by `reconnectionDelayGrowFactor`, up to
 * `maxReconnectionDelay` (never below the server's value).
 *
 * @example
 * ```ts
 * // Patient: ride out a 1-minute outage.
 * new StreamableHttpClientTransport(url, { maxRetries: 10, maxReconnectionDelay: 10_000 });
 * // Never reconnect: a dropped answer stream fails its request at once.
 * new StreamableHttpClientTransport(url, { maxRetries: 0 });
 * ```
 */
export interface ReconnectionOptions {
  /** Wait before the first reconnection when the server gave no `retry:` value, in ms. Default 1 000. */
  initialReconnectionDelay?: number;
  /** Cap of the growing wait, in ms. A larger `retry:` from the server still wins. Default 30 000. */
  maxReconnectionDelay?: number;
  /** Factor the wait grows by after each failed attempt. Default 1.5. */
  reconnectionDelayGrowFactor?: number;
  /**
   * Reconnection attempts in a row that fail (network error; 408, 409, 425, 429 or 5xx) before a
   * stream is given up: its pending requests then fail with a clear error, or, for the GET stream,
   * the client's error hook hears of it. Any other HTTP error ends the stream at once. A
   * reconnection that opens resets the count, so SSE polling (the server closing the connection
   * now and then) goes on for as long as the server wants. 0 disables reconnection. Default 5:
   * about 13 s of outage with the default delays (1, 1.5, 2.25, 3.4, 5.1 s).
   */
  maxRetries?: number;
}

/** {@link ReconnectionOptions} with every default filled in. */
export type ResolvedReconnectionOptions = Readonly<Required<ReconnectionOptions>>;

/**
 * The defaults of {@link ReconnectionOptions}.
 *
 * @example
 * ```ts
 * DEFAULT_RECONNECTION.maxRetries; // 5
 * ```
 */
export const DEFAULT_RECONNECTION: ResolvedReconnectionOptions = Object.freeze({
  initialReconnectionDelay: 1000,
  maxReconnectionDelay: 30_000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 5,
});

/** Fills in the defaults and rejects values that would make reconnection spin or never happen. */
export function resolveReconnection(options: ReconnectionOptions = {}): ResolvedReconnectionOptions {
  const resolved = {
    initialReconnectionDelay:
      options.initialReconnectionDelay ?? DEFAULT_RECONNECTION.initialReconnectionDelay,
    maxReconnectionDelay: options.maxReconnectionDelay ?? DEFAULT_RECONNECTION.maxReconnectionDelay,
    reconnectionDelayGrowFactor:
      options.reconnectionDelayGrowFactor ?? DEFAULT_RECONNECTION.reconnectionDelayGrowFactor,
    maxRetries: options.maxRetries ?? DEFAULT_RECONNECTION.maxRetries,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a finite number >= 0`);
  }
  if (resolved.reconnectionDelayGrowFactor < 1)
    throw new RangeError('reconnectionDelayGrowFactor must be >= 1');
  return Object.freeze(resolved);
}

/**
 * The wait before reconnection attempt `attempt` (0 for the first after a drop).
 *
 * The base is the server's `retry:` value when it sent one (the spec says the client MUST wait
 * that long), else `initialReconnectionDelay`. The first attempt waits exactly the base, so a
 * server asking for 500 ms gets its client back after 500 ms. Later attempts grow the wait by
 * `reconnectionDelayGrowFactor` up to `maxReconnectionDelay`, but never below the server's value.
 */
export function reconnectionDelay(
  options: ResolvedReconnectionOptions,
  attempt: number,
  serverRetry: number | undefined,
): number {
  const base = serverRetry ?? options.initialReconnectionDelay;
  const grown = base * options.reconnectionDelayGrowFactor ** attempt;
  // A server's `retry:` may exceed the maximum (it asked for it), but never what a timer takes.
  return timerDelay(Math.min(grown, Math.max(options.maxReconnectionDelay, base)));
}
