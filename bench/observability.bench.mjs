#!/usr/bin/env node
/**
 * What observability costs per call, measured in CPU time rather than throughput, so the answer
 * survives a busy machine: an McpClient calls the benchmark's echo server over the in-memory pair,
 * 16 calls in flight, in one process per mode (none, otel-nosdk, sdk-only, sdk-active, context-only, otel-nowith, otel, prometheus, both; see
 * lib/observe.mjs),
 * the modes interleaved round after round. Reports the median CPU µs per call of each mode and its
 * cost against none. Uses the built packages (`npm run build` first).
 *
 *   node bench/observability.bench.mjs [--rounds 3] [--calls 20000] [--modes none,otel] [--baseline <checkout>]
 *   node --import ./conformance/register-ts.mjs bench/observability.bench.mjs …   (from the sources)
 *
 * `--baseline` adds a row `baseline`: the same measurement in another built checkout (one without
 * the observer seam, say), to check that `none` is within noise of it. Copy this file into that
 * checkout's bench/ first.
 * @module
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ALL_MODES = [
  'none',
  'otel-nosdk',
  'sdk-only',
  'sdk-active',
  'context-only',
  'otel-nowith',
  'otel',
  'prometheus',
  'both',
];
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    calls: { type: 'string', default: '20000' },
    baseline: { type: 'string' },
    child: { type: 'string' },
    modes: { type: 'string' },
  },
});
const MODES = values.modes ? values.modes.split(',') : ALL_MODES;

if (values.child !== undefined) {
  await measure(Number(values.calls));
} else {
  const script = fileURLToPath(import.meta.url);
  const modes = values.baseline ? ['baseline', ...MODES] : MODES;
  const samples = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const mode of modes) {
      const env = {
        ...process.env,
        MCPKIT_BENCH_OBSERVE: MODES.includes(mode) && mode !== 'none' ? mode : '',
      };
      const file = mode === 'baseline' ? path.join(values.baseline, 'bench', path.basename(script)) : script;
      // execArgv carries a loader such as conformance/register-ts.mjs (run from the sources).
      const run = spawnSync(
        process.execPath,
        [...process.execArgv, file, '--child', mode, '--calls', values.calls],
        {
          env,
          encoding: 'utf8',
        },
      );
      if (run.status !== 0) throw new Error(`${mode} failed: ${run.stderr}`);
      samples[mode].push(JSON.parse(run.stdout).cpuUsPerCall);
    }
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const base = median(samples.none);
  console.log('mode        CPU µs/call (median)  vs none   samples');
  for (const mode of modes) {
    const value = median(samples[mode]);
    const change = Math.round(((value - base) / base) * 100);
    const cost = mode === 'none' ? '' : `${change >= 0 ? '+' : ''}${change}%`;
    console.log(
      `${mode.padEnd(12)}${value.toFixed(1).padStart(20)}  ${cost.padStart(7)}   ${samples[mode].map((s) => s.toFixed(1)).join(', ')}`,
    );
  }
}

async function measure(calls) {
  const { McpClient } = await import('@mcpkit/client');
  const { createInMemoryPair } = await import('@mcpkit/core');
  const { createMcpkitEchoServer } = await import('./servers/mcpkit-echo.mjs');
  const { CLIENT_INFO, TOOL_NAME } = await import('./lib/echo.mjs');
  const [clientSide, serverSide] = createInMemoryPair();
  createMcpkitEchoServer().connect(serverSide);
  const client = new McpClient({ ...CLIENT_INFO }, { protocolEra: '2025' });
  await client.connect(clientSide);
  const lanes = 16;
  const run = (count) =>
    Promise.all(
      Array.from({ length: lanes }, async () => {
        for (let i = 0; i < count / lanes; i++) await client.callTool(TOOL_NAME, { text: 'hello' });
      }),
    );
  await run(Math.min(calls, 4000)); // warm-up: JIT, caches, first histogram series
  const before = process.cpuUsage();
  await run(calls);
  const used = process.cpuUsage(before);
  process.stdout.write(JSON.stringify({ cpuUsPerCall: (used.user + used.system) / calls }));
  process.exit(0);
}
