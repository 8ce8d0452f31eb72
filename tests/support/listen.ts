import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Closes a Node HTTP server now: open (keep-alive, streaming) connections are dropped rather than
 * waited for.
 *
 * @example
 * ```ts
 * cleanups.push(() => closeServer(server));
 * ```
 */
export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Starts `server` on 127.0.0.1 at a free port.
 *
 * @example
 * ```ts
 * const { origin, close } = await listen(createServer(handler));
 * cleanups.push(close);
 * await fetch(`${origin}/mcp`);
 * ```
 */
export async function listen(server: Server): Promise<{ origin: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => closeServer(server) };
}
