/**
 * The one timer of a Streamable HTTP handler: keep-alive comments on idle SSE connections and
 * expiry of idle sessions. It runs only while there is something to keep (an open connection or a
 * session), starts again when something appears, and never keeps a process alive by itself.
 * @module
 */
import { timerDelay } from '@mcpkit/core/internal';
import { type ConnectionRegistry, KEEP_ALIVE } from './delivery/sse.js';
import type { SessionFront } from './sessions/front.js';

/**
 * The housekeeping timer of one handler. Made by the Streamable HTTP handler; not meant to be
 * used by applications.
 *
 * @example
 * ```ts
 * declare const connections: ConnectionRegistry;
 * const housekeeping = new Housekeeping(4_000, 4_000, connections, undefined);
 * housekeeping.wake(); // an SSE stream opened: keep it alive
 * housekeeping.stop(); // the handler closes
 * ```
 */
export class Housekeeping {
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    /** How often it ticks (ms; `Infinity`: never). */
    private readonly interval: number,
    /** Idle time (ms) after which a connection gets a keep-alive at the next tick (`Infinity`: none). */
    private readonly keepAliveAfter: number,
    private readonly connections: ConnectionRegistry,
    /** The sessions that expire; `undefined` in stateless mode. */
    private readonly front: SessionFront | undefined,
  ) {}

  /** Makes sure the timer runs: a stream opened or a session began. */
  wake(): void {
    if (this.timer !== undefined || this.interval === Number.POSITIVE_INFINITY) return;
    // A keep-alive of weeks must not become a 1 ms tick (see `timerDelay`).
    this.timer = setInterval(this.tick, timerDelay(this.interval));
    // Housekeeping alone must not keep a process alive (Node and Bun have unref).
    (this.timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Made once per handler: keep-alive for idle connections, expiry for idle sessions. */
  private readonly tick = (): void => {
    const now = Date.now();
    const keepAliveAfter = this.keepAliveAfter;
    if (keepAliveAfter !== Number.POSITIVE_INFINITY) {
      for (const connection of this.connections) {
        if (now - connection.lastWrite >= keepAliveAfter) connection.write(KEEP_ALIVE);
      }
    }
    this.front?.sweep(now);
    if ((this.front?.size ?? 0) === 0 && this.connections.size === 0) this.stop();
  };
}
