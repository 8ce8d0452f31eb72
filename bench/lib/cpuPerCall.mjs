/**
 * The CPU (user + system) one call costs, in ns: `run(calls)` once to warm up, then measured.
 * `answered()` counts the calls the peer answered since `reset()`; all must be.
 *
 * @example
 * ```js
 * const ns = await cpuPerCall(run, 400_000, { reset: () => (count = 0), answered: () => count });
 * ```
 * @module
 */
export async function cpuPerCall(run, calls, counter) {
  await run(100_000);
  counter.reset();
  const before = process.cpuUsage();
  await run(calls);
  const cpu = process.cpuUsage(before);
  if (counter.answered() !== calls) throw new Error(`${counter.answered()} of ${calls} calls answered`);
  return Math.round(((cpu.user + cpu.system) / calls) * 1000);
}
