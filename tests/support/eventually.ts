/**
 * Polls `check` until it returns a truthy value, and returns that value; fails naming `what`
 * after `timeoutMs`. Bounds are generous: the machines tests run on are shared and slow, and a
 * condition that holds ends the wait at once.
 *
 * @example
 * ```ts
 * await eventually(() => updates.length === 1, 'the update');
 * const reply = await eventually(() => received.find((m) => m.id === 1), 'the reply');
 * ```
 */
export async function eventually<T>(
  check: () => T,
  what = 'the condition',
  timeoutMs = 15_000,
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value as Exclude<T, undefined | null | false>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
