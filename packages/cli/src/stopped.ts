/**
 * How a long-running verb (`serve`, `gateway`) waits for its end.
 * @module
 */
import type { Transport } from '@mcpkit/core';
import { StdioServerTransport } from '@mcpkit/node/stdio';
import type { CliIo } from './cliIo.js';

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

/**
 * Serves one client on stdio (stdout carries nothing but protocol) until it closes stdin, or
 * Ctrl-C. Closing the server is left to the caller.
 *
 * @example
 * ```ts
 * declare const io: CliIo;
 * const server = createDemoServer({ log: () => {} });
 * await serveStdioUntilStopped(server, io);
 * await server.close();
 * ```
 */
export async function serveStdioUntilStopped(
  server: { connect(transport: Transport): { onClose(listener: () => void): void } },
  io: CliIo,
): Promise<void> {
  const session = server.connect(new StdioServerTransport());
  await untilStopped(io, (stop) => session.onClose(stop));
}
