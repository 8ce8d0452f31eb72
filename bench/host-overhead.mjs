/**
 * The host's routing overhead per call, in memory (goal H17 of docs/host.md: at most 50 µs p50):
 * `tools/call` one at a time on the echo server, from a plain client, through `McpHost.callTool`,
 * and through the gateway (client → gateway server → host → upstream), every hop in memory.
 * Prints p50 and p99 latency and CPU per call of each, and the overhead over the plain client.
 *
 *   node bench/host-overhead.mjs
 *
 * Uses the built packages (`npm run build`).
 * @module
 */
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair } from '@mcpkit/core';
import { McpHost } from '@mcpkit/host';
import { createGateway } from '@mcpkit/host/gateway';
import { CLIENT_INFO, TOOL_NAME } from './lib/echo.mjs';
import { createMcpkitEchoServer } from './servers/mcpkit-echo.mjs';

const CALLS = Number(process.env.CALLS ?? 20_000);
const upstream = createMcpkitEchoServer();

/** A connector that serves every entry from the in-memory echo server. */
const inMemory = () => {
  const [client, server] = createInMemoryPair();
  upstream.connect(server);
  return client;
};
const entry = {
  kind: 'stdio',
  name: 'echo',
  command: 'unused',
  args: [],
  env: {},
  disabled: false,
  autoApprove: [],
};
const hostOptions = { servers: [entry], connector: inMemory, policy: { echo: { trusted: true } } };

async function clientOf(server) {
  const [clientSide, serverSide] = createInMemoryPair();
  server.connect(serverSide);
  const client = new McpClient({ ...CLIENT_INFO }, { protocolEra: '2025' });
  await client.connect(clientSide);
  return client;
}

async function measure(call) {
  for (let i = 0; i < CALLS / 4; i++) await call(); // warm-up
  const times = new Float64Array(CALLS);
  const cpu = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    const result = await call();
    times[i] = performance.now() - started;
    if (result.isError) throw new Error(JSON.stringify(result));
  }
  const used = process.cpuUsage(cpu);
  times.sort();
  const us = (ms) => ms * 1000;
  return {
    p50: us(times[Math.floor(CALLS / 2)]),
    p99: us(times[Math.floor(CALLS * 0.99)]),
    cpu: (used.user + used.system) / CALLS,
  };
}

const direct = await clientOf(upstream);
const host = new McpHost(hostOptions);
await host.tools();
const gateway = createGateway({ host: hostOptions, upstreams: 'shared' });
const viaGateway = await clientOf(gateway.server);

const args = { text: 'hello bench' };
const runs = [
  ['direct', () => direct.callTool(TOOL_NAME, args)],
  ['host', () => host.callTool(TOOL_NAME, args)],
  ['gateway', () => viaGateway.callTool(TOOL_NAME, args)],
];
for (const [, call] of runs) await measure(call); // a first pass so that the order favours none
const rows = [];
for (const [name, call] of runs) rows.push([name, await measure(call)]);
const base = rows[0][1];
for (const [name, { p50, p99, cpu }] of rows) {
  const over =
    name === 'direct'
      ? ''
      : ` overhead p50 ${(p50 - base.p50).toFixed(1)} µs, CPU ${(cpu - base.cpu).toFixed(1)} µs`;
  console.log(
    `${name.padEnd(8)} p50 ${p50.toFixed(1)} µs p99 ${p99.toFixed(1)} µs CPU ${cpu.toFixed(1)} µs/call${over}`,
  );
}
await Promise.all([direct.close(), viaGateway.close(), host.close(), gateway.close()]);
