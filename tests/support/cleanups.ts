import { afterEach } from 'vitest';

/** Something a test started and must stop: a client, a server, a process, a temp dir. */
export type Cleanup = () => unknown;

/**
 * A list of cleanups that runs after each test of the calling file, last pushed first (a client
 * closes before the server it talks to), each awaited. A failing cleanup does not stop the others:
 * the test's own assertions have already run, and what is left is best-effort teardown.
 *
 * @example
 * ```ts
 * const cleanups = cleanupsAfterEach();
 * it('…', async () => {
 *   const client = new McpClient(INFO);
 *   cleanups.push(() => client.close());
 * });
 * ```
 */
export function cleanupsAfterEach(): Cleanup[] {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch {
        // Best effort: see above.
      }
    }
  });
  return cleanups;
}
