/**
 * Preloaded (`node --import`) into HTTP benchmark servers so the harness can read their memory and CPU time over the
 * IPC channel without each server script carrying an admin endpoint. Run the server with `--expose-gc`
 * to get post-GC numbers.
 * @module
 */

if (typeof process.send === 'function') {
  process.on('message', async (message) => {
    if (message?.type !== 'bench:memory') return;
    // `gc: false` asks for the footprint as it is (e.g. right after a load run).
    const collected = message.gc !== false && typeof globalThis.gc === 'function';
    if (collected) {
      // Two passes with a turn of the loop between them so finalizers and weak callbacks can run.
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
      globalThis.gc();
    }
    process.send?.({
      type: 'bench:memory',
      id: message.id,
      collected,
      memory: process.memoryUsage(),
      cpu: process.cpuUsage(),
    });
  });
  // The channel must not be what keeps a server alive.
  process.channel?.unref();
}

// Under --cpu-prof the profile is written at exit, which a default SIGTERM would skip.
if (process.env.BENCH_EXIT_ON_SIGTERM === '1') process.once('SIGTERM', () => process.exit(0));
