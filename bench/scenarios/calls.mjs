/**
 * tools/call throughput with 1 and 16 calls in flight: in one process (in-memory transport pair) and
 * across a pipe to a separate server process (stdio). Each implementation's own client and server.
 * @module
 */
import { runWorker } from '../lib/proc.mjs';

/**
 * @param {{ id: string, title: string, rowLabel: string,
 *   participates: (impl: any) => boolean, connectOptions: (impl: any, ctx: any, nodeArgs: string[]) => object }} spec
 */
function callGroup(spec) {
  return {
    id: spec.id,
    title: spec.title,
    rows: [1, 16].map((concurrency) => ({
      id: `${spec.id}-${concurrency}`,
      label: `${spec.rowLabel}, ${concurrency} in flight`,
      unit: 'calls/s',
      better: 'higher',
      concurrency,
    })),
    rounds: (profile) => profile.rounds.calls,
    participates: spec.participates,
    async measure(impl, ctx, rows) {
      const nodeArgs = ctx.nodeArgs(spec.id, impl.id);
      return measureThroughput(ctx, {
        driver: spec.id === 'inmemory' ? impl.files.inmemoryDriver : impl.files.stdioDriver,
        connect: spec.connectOptions(impl, ctx, nodeArgs),
        rows,
        nodeArgs,
      });
    },
  };
}

/**
 * Runs one driver's throughput rows in a fresh call worker.
 * `minWarmupMs` lengthens the profile's warm-up for scenarios whose code takes longer to reach
 * optimized code.
 * @param {any} ctx
 * @param {{ driver: string, connect: object, rows: { id: string, concurrency: number }[], nodeArgs: string[], minWarmupMs?: number, env?: Record<string, string> }} spec
 */
export async function measureThroughput(ctx, { driver, connect, rows, nodeArgs, minWarmupMs = 0, env }) {
  const { durationMs } = ctx.profile.calls;
  const warmupMs = Math.max(ctx.profile.calls.warmupMs, minWarmupMs);
  const task = {
    kind: 'throughput',
    driver,
    connect,
    rows: rows.map((row) => ({ id: row.id, concurrency: row.concurrency })),
    warmupMs,
    durationMs,
  };
  const timeoutMs = 30_000 + rows.length * (warmupMs + durationMs) * 3;
  const { reply, stderr, notes } = await runWorker(ctx.paths.callWorker, task, {
    timeoutMs,
    cwd: ctx.paths.bench,
    execArgv: nodeArgs,
    env,
  });
  if (!reply.ok) throw Object.assign(new Error(reply.error), { stderr });
  return { samples: reply.results, stderr, notes };
}

export const inMemoryGroup = callGroup({
  id: 'inmemory',
  title: 'In-memory tools/call (client and server in one process)',
  rowLabel: 'in-memory tools/call',
  participates: (impl) => Boolean(impl.files.inmemoryDriver),
  connectOptions: () => ({}),
});

export const stdioGroup = callGroup({
  id: 'stdio',
  title: 'stdio tools/call (separate server process)',
  rowLabel: 'stdio tools/call',
  participates: (impl) => Boolean(impl.files.stdioDriver && impl.files.stdioServer),
  connectOptions: (impl, ctx, nodeArgs) => ({
    command: process.execPath,
    // The server profiles into the same directory as its client (file names carry the pid).
    args: [...nodeArgs, impl.files.stdioServer],
    cwd: ctx.paths.bench,
  }),
});
