/**
 * How a long-running verb (`serve`, `gateway`) waits for its end.
 * @module
 */
import type { CliIo } from './run.js';

/**
 * Resolves on Ctrl-C or SIGTERM, or when `also` calls the function it is given (e.g. when the
 * stdio client closes the session).
 *
 * @example
 * ```ts
 * declare const io: CliIo;
 * declare const session: { onClose(listener: () => void): void };
 * await untilStopped(io, (stop) => session.onClose(stop));
 * ```
 */
export function untilStopped(io: CliIo, also?: (stop: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = io.onInterrupt(() => {
      stop();
      resolve();
    });
    also?.(() => {
      stop();
      resolve();
    });
  });
}
