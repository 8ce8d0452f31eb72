/**
 * CPU per `tools/call` in each process of the gateway's stdio row: the client (this process), the
 * gateway and its upstream, at 16 calls in flight. CPU per call is far steadier than calls/s on a
 * shared machine, and the rate on 2 cores is bounded by the three summed.
 *
 *   node bench/gateway-cpu.mjs            # through the gateway
 *   DIRECT=1 node bench/gateway-cpu.mjs   # the same upstream called directly
 *   UPSTREAMS=perSession node bench/gateway-cpu.mjs   # the gateway's default upstreams (see
 *     servers/gateway-stdio.mjs); with ERA=2026, a pool of upstream processes, summed
 *   ASKABLE=1 ...                         # the client declares elicitation: under 2026 a
 *     per-session gateway then gives each request a pool host to itself
 *
 * Prints one line of µs per call: client, gateway (0 when direct), upstream, and their sum; and
 * the rate (calls/s, which swings with the machine's load far more than CPU per call does).
 * SCHED=1 adds a line from each process's main thread (/proc/<pid>/task/<pid>/schedstat), µs per
 * call: on a CPU (`run`), runnable but waiting for one (`wait`: the machine is short of CPU), and
 * neither (`idle`: waiting for a peer's message; the wall time per call minus the two).
 * Uses the built packages (`npm run build`). Linux only (reads /proc).
 * @module
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@mcpkit/client';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { CLIENT_INFO, echoCallsInFlight } from './lib/echo.mjs';
import { processCpuUs } from './lib/procStat.mjs';

const CALLS = Number(process.env.CALLS ?? 40_000);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 16);
const direct = process.env.DIRECT === '1';
const server = fileURLToPath(
  new URL(direct ? './servers/mcpkit-stdio.mjs' : './servers/gateway-stdio.mjs', import.meta.url),
);

// CPU_PROF=<dir>: a V8 profile of the process behind the client (the gateway, or the direct server).
const profile = process.env.CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] : [];
if (process.env.NODE_ARGS) profile.push(...process.env.NODE_ARGS.split(' '));
const transport = new StdioClientTransport({
  command: process.execPath,
  // The gateway's upstreams by argument: the transport passes the child only a few variables.
  args: [...profile, server, ...(!direct && process.env.UPSTREAMS === 'perSession' ? ['perSession'] : [])],
  stderr: 'inherit',
});
// An upstream's question could reach an ASKABLE client (the echo tool never asks one).
const elicitation = process.env.ASKABLE ? { elicitation: { form: async () => ({ action: 'decline' }) } } : {};
const client = new McpClient({ ...CLIENT_INFO }, { protocolEra: process.env.ERA ?? '2025', ...elicitation });
await client.connect(transport);

/** The gateway's children (its upstream processes: one when shared, a pool's under 2026), from /proc. */
function childrenOf(pid) {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return children === '' ? [] : children.split(/\s+/).map(Number);
}

/** CPU µs of the upstream processes: the direct server, or every child of the gateway. */
function upstreamCpu() {
  const cpu = new Map();
  for (const pid of direct ? [transport.pid] : childrenOf(transport.pid))
    cpu.set(pid, processCpuUs(pid) ?? 0);
  return cpu;
}

const run = (calls) => echoCallsInFlight(client, calls, IN_FLIGHT);

/** Main-thread nanoseconds on a CPU and runnable-waiting, or undefined without /proc. */
function schedOf(pid) {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { run, wait };
  } catch {
    return undefined;
  }
}
const schedPids = () => [process.pid, transport.pid, ...(direct ? [] : childrenOf(transport.pid))];

await run(CALLS / 4); // warm-up: JIT, and the gateway's catalogue
const gatewayPid = direct ? undefined : transport.pid;
// PERF_OUT=<file>: `perf record` (on-CPU samples only, unlike a V8 profile on a busy machine) of
// the process behind the client while it is measured; run it with NODE_ARGS=--perf-basic-prof.
const perf = process.env.PERF_OUT
  ? spawn(
      'perf',
      ['record', '-e', 'cpu-clock', '-g', '-o', process.env.PERF_OUT, '-p', String(transport.pid)],
      {
        stdio: 'ignore',
      },
    )
  : undefined;
if (perf) await new Promise((resolve) => setTimeout(resolve, 500));
const sched = process.env.SCHED ? schedPids().map((pid) => [pid, schedOf(pid)]) : undefined;
const before = [process.cpuUsage(), processCpuUs(gatewayPid) ?? 0, upstreamCpu()];
const started = performance.now();
await run(CALLS);
const wallUs = (performance.now() - started) * 1000;
const rate = CALLS / (wallUs / 1e6);
const schedLine = sched?.map(([pid, was]) => {
  const now = schedOf(pid);
  if (!was || !now) return 'n/a';
  const [run, wait] = [now.run - was.run, now.wait - was.wait].map((ns) => ns / 1000 / CALLS);
  return `run ${run.toFixed(1)} wait ${wait.toFixed(1)} idle ${(wallUs / CALLS - run - wait).toFixed(1)}`;
});
const self = process.cpuUsage(before[0]);
if (perf) {
  perf.kill('SIGINT');
  await new Promise((resolve) => perf.on('exit', resolve));
}
const perCall = [
  self.user + self.system,
  (processCpuUs(gatewayPid) ?? 0) - before[1],
  // An upstream started during the run counts from 0; one gone meanwhile is not counted.
  [...upstreamCpu()].reduce((sum, [pid, us]) => sum + us - (before[2].get(pid) ?? 0), 0),
].map((us) => us / CALLS);
const sum = perCall.reduce((a, b) => a + b, 0);
console.log(
  `${direct ? 'direct ' : 'gateway'} µs/call upstreams ${before[2].size} client ${perCall[0].toFixed(1)} gateway ${perCall[1].toFixed(1)} upstream ${perCall[2].toFixed(1)} sum ${sum.toFixed(1)} calls/s ${Math.round(rate)}`,
);
if (schedLine)
  console.log(
    `main threads µs/call: ${schedLine.map((line, i) => `${['client', direct ? 'server' : 'gateway', 'upstream'][i] ?? 'upstream'} ${line}`).join(' | ')}`,
  );
await client.close();
