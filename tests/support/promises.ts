import { McpError } from '@mcpkit/core';

/**
 * A promise the test resolves when it chooses: `await gate.opened` in a handler, `gate.open()` in
 * the test, to hold work at a known point.
 *
 * @example
 * ```ts
 * const release = gate();
 * server.tool('slow', async () => { await release.opened; return 'done'; });
 * release.open();
 * ```
 */
export function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * The error a promise rejects with: a wire error from the peer (`McpError`), or an error of the
 * class given. A promise that resolves, or rejects with anything else, fails the test.
 *
 * @example
 * ```ts
 * expect((await rejection(client.callTool('nope'))).code).toBe(-32602);
 * const refused = await rejection(sampleAsTask(session, params), CapabilityError);
 * ```
 */
export async function rejection(promise: Promise<unknown>): Promise<McpError>;
export async function rejection<E extends Error>(
  promise: Promise<unknown>,
  kind: abstract new (...args: any[]) => E,
): Promise<E>;
export async function rejection(
  promise: Promise<unknown>,
  kind: abstract new (...args: any[]) => Error = McpError,
): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof kind) return error;
    throw error;
  }
  throw new Error('expected the promise to reject');
}
