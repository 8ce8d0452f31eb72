/**
 * Server CPU per request of the http-json row (2025 session, JSON answers, autocannon) for one
 * observer mode, read from /proc (user + system of the server process only), with an optional
 * strace syscall count or CPU profile of the server. Built for issue 15: it separates what an
 * observer costs in process (bench/http-cpu.mjs) from what it costs behind node:http sockets.
 * Linux only; uses the built packages (`npm run build`). Run modes interleaved, take medians.
 *
 *   MODE=otel AMOUNT=20000 node bench/observe-cpu.mjs      # MODE: see bench/lib/observe.mjs ('' = off)
 *   MODE=otel STRACE=1 node bench/observe-cpu.mjs          # syscall counts in /tmp/strace-otel.txt
 *   MODE=otel PROF=/tmp/prof node bench/observe-cpu.mjs    # a .cpuprofile of the server
 *   MODE=otel NODE_FLAGS=--max-semi-space-size=32 node bench/observe-cpu.mjs  # flags for the server
 *   MODE=otel NODE_BIN=/tmp/node24/bin/node node bench/observe-cpu.mjs        # another Node for it
 *   MODE=otel GC=1 node bench/observe-cpu.mjs              # the server's GC per request (--trace-gc-nvp)
 *   MODE=sentry node bench/observe-cpu.mjs                 # the official SDK server under Sentry (below)
 *   MODE=sdk node bench/observe-cpu.mjs                    # the same SDK server uninstrumented
 *
 * `MODE=sentry` (issue 34) is the official SDK v1 server (servers/sdk-http.mjs, one McpServer per
 * session, JSON answers) instrumented as Sentry's MCP users do: `Sentry.init({ tracesSampleRate:
 * 1.0 })` preloaded with `--import` (no DSN: nothing is sent) and every McpServer passed through
 * `Sentry.wrapMcpServerWithSentry`. `@sentry/node` 11.12.0 is installed on first use into
 * bench/.tmp/peers (not a dependency of the repository). Compare it with `MODE=otel` (mcpkit with
 * `@mcpkit/otel` and an SDK tracer provider sampling everything, exporters that drop).
 *
 * Prints one JSON line: mode, req/s, requests, server CPU µs per request (process, main thread,
 * kernel), and with GC=1 the server's GC per request.
 * @module
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { echoCallRequest, PROBE_TEXT } from './lib/echo.mjs';
import { openSession } from './lib/mcp-http.mjs';
import { installPeers } from './lib/peers.mjs';

const mode = process.env.MODE ?? '';
const amount = Number(process.env.AMOUNT ?? 20_000);
const connections = Number(process.env.CONN ?? 50);
const strace = process.env.STRACE === '1';
const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const official = mode === 'sentry' || mode === 'sdk';
const env = {
  ...process.env,
  BENCH_HTTP_MODE: 'json',
  BENCH_PORT: '0',
  MCPKIT_BENCH_OBSERVE: official ? '' : mode,
};
const preload = [];
if (mode === 'sentry') {
  const log = (line) => process.stderr.write(`${line}\n`);
  const ctx = { paths: { tmp: here('./.tmp') }, options: {}, log };
  const peers = await installPeers(['@sentry/node@11.12.0'], ctx);
  env.BENCH_SENTRY_ENTRY = createRequire(path.join(peers.dir, 'package.json')).resolve('@sentry/node');
  preload.push('--import', here('./lib/sentry-instrument.mjs'));
}
// The agent exits on SIGTERM so that a CPU profile gets written.
const profile = process.env.PROF
  ? ['--import', here('./lib/agent.mjs'), '--cpu-prof', `--cpu-prof-dir=${process.env.PROF}`]
  : [];
if (profile.length > 0) env.BENCH_EXIT_ON_SIGTERM = '1';
const gc = process.env.GC === '1';
const flags = [
  ...(process.env.NODE_FLAGS ?? '').split(' ').filter(Boolean),
  ...(gc ? ['--trace-gc-nvp'] : []),
];
const node = [
  process.env.NODE_BIN ?? process.execPath,
  ...flags,
  ...profile,
  ...preload,
  here(official ? './servers/sdk-http.mjs' : './servers/mcpkit-http.mjs'),
];
const traced = [
  '-f',
  '-c',
  '-o',
  `/tmp/strace-${mode || 'off'}.txt`,
  '-e',
  'trace=writev,write,read,epoll_pwait',
];
// Its own process group, so that stopping it also stops the server under strace.
const child = strace
  ? spawn('strace', [...traced, ...node], { env, stdio: ['ignore', 'pipe', 'inherit'], detached: true })
  : spawn(node[0], node.slice(1), { env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
let text = ''; // the server's stdout: READY, and its --trace-gc lines
const port = await new Promise((resolve) => {
  child.stdout.on('data', (chunk) => {
    text += chunk;
    const match = /READY (\d+)/.exec(text);
    if (match) resolve(Number(match[1]));
  });
});
const url = `http://127.0.0.1:${port}/mcp`;
const { headers } = await openSession(url);
const [head, tail] = JSON.stringify(echoCallRequest('[<id>]', PROBE_TEXT)).split('"[<id>]"');
let nextId = 0;
const setupRequest = (request) => ({ ...request, body: `${head}${++nextId}${tail}` });
const options = { url, method: 'POST', headers, connections, requests: [{ setupRequest }] };
await autocannon({ ...options, amount: Math.min(5_000, amount) }); // warm-up

/**
 * CPU µs of the server so far (utime + stime, in 10 ms ticks): the whole process, and its main
 * thread alone (the rest is V8's GC helpers and libuv's pool), or the process's system time
 * alone (`systemOnly`); undefined under strace.
 */
function serverCpuUs(file = `/proc/${child.pid}/stat`, systemOnly = false) {
  if (strace) return undefined;
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return ((systemOnly ? 0 : Number(fields[11])) + Number(fields[12])) * 10_000;
}
const mainThread = `/proc/${child.pid}/task/${child.pid}/stat`;
const gcFrom = text.length;
const systemBefore = serverCpuUs(undefined, true);
const before = serverCpuUs();
const mainBefore = serverCpuUs(mainThread);
const result = await autocannon({ ...options, amount });
const after = serverCpuUs();
const systemAfter = serverCpuUs(undefined, true);
const mainAfter = serverCpuUs(mainThread);
const gcLog = text.slice(gcFrom);
const failures = result.non2xx + result.errors + result.timeouts;
const perRequest = (from, to) =>
  from === undefined ? null : Number(((to - from) / result.requests.total).toFixed(1));
const cpu = perRequest(before, after);
const mainCpu = perRequest(mainBefore, mainAfter);
console.log(
  JSON.stringify({
    mode: mode || 'off',
    node: process.env.NODE_BIN ? 'other' : process.version,
    flags: flags.join(' '),
    rps: Math.round(result.requests.average),
    requests: result.requests.total,
    failures,
    serverCpuUsPerRequest: cpu,
    mainThreadCpuUsPerRequest: mainCpu,
    // The kernel's share (socket syscalls): an observer makes none, so a rise here is indirect.
    systemCpuUsPerRequest: perRequest(systemBefore, systemAfter),
    ...(gc ? gcPerRequest(gcLog, result.requests.total) : {}),
  }),
);
/**
 * The server's GC per request, from --trace-gc-nvp lines (`pause=0.9 ... gc=s ... allocated=N
 * promoted=N new_space_survived=N ...`): scavenges and mark-compacts per 1,000 requests, pause
 * µs, and bytes allocated, surviving a scavenge and promoted to the old generation.
 */
function gcPerRequest(log, requests) {
  const sum = { scavenges: 0, markCompacts: 0, pauseMs: 0, allocated: 0, survived: 0, promoted: 0 };
  for (const line of log.split('\n')) {
    if (!line.includes(' gc=')) continue;
    const field = (name) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
    if (line.includes(' gc=s ')) sum.scavenges++;
    else sum.markCompacts++;
    sum.pauseMs += field('pause');
    sum.allocated += field('allocated');
    sum.survived += field('new_space_survived');
    sum.promoted += field('promoted');
  }
  const per = (value, scale) => Number(((value * scale) / requests).toFixed(2));
  return {
    scavengesPer1k: per(sum.scavenges, 1000),
    markCompactsPer1k: per(sum.markCompacts, 1000),
    gcPauseUsPerRequest: per(sum.pauseMs, 1000),
    allocatedBytesPerRequest: Math.round(sum.allocated / requests),
    survivedBytesPerRequest: Math.round(sum.survived / requests),
    promotedBytesPerRequest: Math.round(sum.promoted / requests),
  };
}

process.kill(-child.pid, 'SIGTERM');
await new Promise((resolve) => child.on('exit', resolve));
