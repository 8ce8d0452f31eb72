/**
 * Keep-alive: a periodic `ping` with a timeout, on any client. One timer per client, and at most
 * one ping in flight, however slow the server.
 * @module
 */
import { timerDelay } from '@mcpkit/core/internal';
import type { Client } from './client.js';

/**
 * Options of {@link keepAlive}.
 *
 * @example
 * ```ts
 * const options: KeepAliveOptions = { intervalMs: 30_000, timeoutMs: 5_000 };
 * ```
 */
export interface KeepAliveOptions {
  /** Time between pings. Default 30 s; 0 turns keep-alive off. */
  intervalMs?: number;
  /** How long a ping may take before the server counts as hung. Default 10 s. */
  timeoutMs?: number;
}

/**
 * Pings `client` every `intervalMs`; `onResult(true)` after a ping answered in time,
 * `onResult(false, error)` after one that failed or timed out. Returns the function that stops it.
 *
 * @example
 * ```ts
 * const stop = keepAlive(client, { intervalMs: 15_000 }, (alive) => { if (!alive) console.warn('server hung'); });
 * // later: stop();
 * ```
 */
export function keepAlive(
  client: Client,
  options: KeepAliveOptions,
  onResult: (alive: boolean, error?: Error) => void,
): () => void {
  const intervalMs = options.intervalMs ?? 30_000;
  // Zero, negative, `NaN` or `Infinity`: no keep-alive (a timer would turn `Infinity` into 1 ms).
  if (!(intervalMs > 0) || intervalMs === Number.POSITIVE_INFINITY) return () => {};
  const timeout = options.timeoutMs ?? 10_000;
  let inFlight = false;
  const timer = setInterval(() => {
    if (inFlight || !client.connected) return;
    inFlight = true;
    client.ping({ timeout }).then(
      () => {
        inFlight = false;
        onResult(true);
      },
      (error: unknown) => {
        inFlight = false;
        onResult(false, error instanceof Error ? error : new Error(String(error)));
      },
    );
  }, timerDelay(intervalMs));
  // A keep-alive alone must not keep a Node process running.
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}
