/**
 * Polls `check` until it holds; fails naming `what` after `timeoutMs`. Bounds are generous: the
 * machines tests run on are shared and slow.
 *
 * @example
 * ```ts
 * await eventually(() => updates.length === 1, 'the update');
 * ```
 */
export async function eventually(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
