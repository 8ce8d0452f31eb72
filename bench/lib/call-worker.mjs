/**
 * Worker process for the in-memory and stdio scenarios. It loads one implementation's driver, connects,
 * and keeps N calls in flight for a fixed time per row. Running each measurement in a fresh process keeps
 * one implementation's heap and JIT state from leaking into another's numbers.
 *
 * Task (via IPC), one of:
 *   { kind: 'throughput', driver, connect, rows: [{ id, concurrency }], warmupMs, durationMs }
 *     → { ok: true, results: { [rowId]: { value: calls/s, calls, p50Us, p99Us, cpuUsPerCall } } }
 *   { kind: 'first-call', driver, connect }
 *     → { ok: true, results: { value: ms from connect() to the first echo result } }
 * or { ok: false, error } on failure.
 * @module
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { isEchoOf, PROBE_TEXT } from './echo.mjs';
import { latencyQuantiles } from './stats.mjs';

/** Latencies kept per row: enough for stable p50/p99, small enough to cost nothing to keep. */
const LATENCY_SAMPLE_SIZE = 1 << 16;

/**
 * A uniform random sample of a run's call latencies (reservoir sampling) in a fixed typed array. Keeping
 * every latency instead meant growing a JS array to millions of entries during the measurement, whose
 * reallocation and GC work cost the fastest implementations more than their own calls (measured:
 * in-memory with 16 in flight went from 0.64 to 1.95 µs of CPU per call, and below the 1-in-flight rate).
 */
class LatencySample {
  /** @param {number} size */
  constructor(size) {
    this.slots = new Float64Array(size);
    this.seen = 0;
  }

  /** @param {number} value */
  add(value) {
    const index = this.seen++;
    if (index < this.slots.length) {
      this.slots[index] = value;
      return;
    }
    const slot = Math.floor(Math.random() * (index + 1));
    if (slot < this.slots.length) this.slots[slot] = value;
  }

  /** The sampled latencies (a view on the sample's storage). */
  values() {
    return this.slots.subarray(0, Math.min(this.seen, this.slots.length));
  }
}

/**
 * Keeps `concurrency` echo calls in flight until `durationMs` has passed. The deadline is checked
 * between calls rather than by a timer because an in-memory transport may never yield to the timer phase.
 * @param {{ call(text: string): Promise<unknown>, serverCpuUs?: () => number | undefined }} session
 * @param {number} concurrency
 * @param {number} durationMs
 * @param {boolean} record whether to keep per-call latencies
 */
async function keepInFlight(session, concurrency, durationMs, record) {
  const latencies = new LatencySample(LATENCY_SAMPLE_SIZE);
  let calls = 0;
  let wrong = 0;
  const cpuBefore = process.cpuUsage();
  const serverBefore = session.serverCpuUs?.();
  const started = performance.now();
  const deadline = started + durationMs;
  const loop = async () => {
    while (performance.now() < deadline) {
      const before = performance.now();
      const result = await session.call(PROBE_TEXT);
      if (record) latencies.add(performance.now() - before);
      if (!isEchoOf(result, PROBE_TEXT)) wrong++;
      calls++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  if (wrong > 0) throw new Error(`${wrong} of ${calls} calls did not return the echoed text`);
  const [p50, p99] = latencyQuantiles(latencies.values(), [0.5, 0.99]);
  // CPU time of this process per call: client and server for in-memory, the client side for stdio. It is
  // far less sensitive than calls/s to other work competing for the machine.
  const cpuUsPerCall = (cpu.user + cpu.system) / calls;
  const result = {
    value: calls / (elapsedMs / 1000),
    calls,
    p50Us: p50 * 1000,
    p99Us: p99 * 1000,
    cpuUsPerCall,
  };
  // The stdio server's own CPU per call, where the driver can read it (10 ms ticks: coarse, fine over a run).
  const serverAfter = session.serverCpuUs?.();
  if (serverBefore !== undefined && serverAfter !== undefined) {
    return { ...result, serverCpuUsPerCall: (serverAfter - serverBefore) / calls };
  }
  return result;
}

/** Cold start: the time from starting to connect (which spawns the server) to the first tool result. */
async function firstCall(driver, task) {
  const started = performance.now();
  const session = await driver.connect(task.connect ?? {});
  const result = await session.call(PROBE_TEXT);
  const value = performance.now() - started;
  await session.close();
  if (!isEchoOf(result, PROBE_TEXT)) throw new Error(`first call did not return the echoed text`);
  return { value };
}

async function runTask(task) {
  const driver = await import(pathToFileURL(task.driver).href);
  if (typeof driver.connect !== 'function') throw new Error(`${task.driver} does not export connect()`);
  if (task.kind === 'first-call') return firstCall(driver, task);
  const session = await driver.connect(task.connect ?? {});
  const first = await session.call(PROBE_TEXT);
  if (!isEchoOf(first, PROBE_TEXT)) {
    throw new Error(`first call did not return the echoed text: ${JSON.stringify(first).slice(0, 300)}`);
  }
  const results = {};
  for (const row of task.rows) {
    if (task.warmupMs > 0) await keepInFlight(session, row.concurrency, task.warmupMs, false);
    results[row.id] = await keepInFlight(session, row.concurrency, task.durationMs, true);
  }
  await session.close();
  return results;
}

process.once('message', (task) => {
  runTask(task).then(
    (results) => process.send?.({ ok: true, results }, () => process.disconnect()),
    (error) => process.send?.({ ok: false, error: String(error?.stack ?? error) }, () => process.exit(1)),
  );
});
