// Measures the host goals of issue 14 that are times, not behaviours (docs/host.md rows H9 and H17;
// tests assert no times, so these are measured here):
//   H9  a `tools/list_changed` from an upstream reaches each of 20 downstream gateway sessions
//       within 100 ms at p95;
//   H17 host routing overhead at most 50 µs p50 per call in memory (host.callTool against the
//       same upstream's client called directly), and 20 stdio upstreams start at once in 3 s.
// Run from the sources: node --import ./conformance/register-ts.mjs bench/host-costs.mjs
// (the stdio upstreams are bench/servers/mcpkit-stdio.mjs on the built packages: npm run build).
import { fileURLToPath } from 'node:url';
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair } from '@mcpkit/core';
import { McpHost } from '@mcpkit/host';
import { createGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { createMcpkitEchoServer } from './servers/mcpkit-echo.mjs';

const SESSIONS = 20;
const CHANGES = 50;
const CALLS = 5_000;
const UPSTREAMS = 20;

const entry = (name, args = []) => ({
  kind: 'stdio',
  name,
  command: process.execPath,
  args,
  env: {},
  disabled: false,
  autoApprove: [],
});

/** A connector that serves every entry from one in-memory McpServer (each host its own session). */
function inMemoryConnector(server) {
  return () => {
    const [client, end] = createInMemoryPair();
    server.connect(end);
    return client;
  };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (value) => `${value.toFixed(2)} ms`;
const us = (value) => `${(value * 1000).toFixed(1)} µs`;

async function listChangedLatency() {
  const upstream = createMcpkitEchoServer();
  const gateway = createGateway({
    host: {
      servers: [entry('up')],
      connector: inMemoryConnector(upstream),
      policy: { up: { trusted: true } },
    },
  });
  const arrivals = [];
  const clients = [];
  for (let i = 0; i < SESSIONS; i++) {
    const [clientEnd, serverEnd] = createInMemoryPair();
    gateway.connect(serverEnd);
    const client = new McpClient({ name: `s${i}`, version: '1' }, { protocolEra: '2025' });
    await client.connect(clientEnd);
    client.onNotification('notifications/tools/list_changed', () => arrivals.push(performance.now()));
    await client.tools(); // the session's first request starts its host and upstream session
    clients.push(client);
  }
  const latencies = [];
  for (let change = 0; change < CHANGES; change++) {
    arrivals.length = 0;
    const start = performance.now();
    upstream.tool(`extra_${change}`, { description: 'added' }, () => 'ok');
    while (arrivals.length < SESSIONS) await new Promise((resolve) => setTimeout(resolve, 1));
    for (const at of arrivals) latencies.push(at - start);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(clients.map((client) => client.close()));
  await gateway.close();
  return latencies;
}

async function routingOverhead() {
  const upstream = createMcpkitEchoServer();
  const host = new McpHost({
    servers: [entry('up')],
    connector: inMemoryConnector(upstream),
    policy: { up: { trusted: true } },
  });
  const client = await host.client('up');
  await host.tools();
  const time = async (call) => {
    const durations = [];
    for (let i = 0; i < CALLS; i++) {
      const start = performance.now();
      await call();
      durations.push(performance.now() - start);
    }
    return durations;
  };
  const args = { text: 'x' };
  // Warm both paths, then alternate rounds so drift hits both alike.
  await time(() => client.callTool('echo', args));
  await time(() => host.callTool('echo', args));
  const direct = [];
  const routed = [];
  for (let round = 0; round < 3; round++) {
    direct.push(...(await time(() => client.callTool('echo', args))));
    routed.push(...(await time(() => host.callTool('echo', args))));
  }
  await host.close();
  return { direct: percentile(direct, 50), routed: percentile(routed, 50) };
}

async function stdioStart() {
  const server = fileURLToPath(new URL('./servers/mcpkit-stdio.mjs', import.meta.url));
  const servers = Array.from({ length: UPSTREAMS }, (_, i) => entry(`s${i}`, [server]));
  const host = new McpHost({ servers, connector: nodeConnector(), eager: true });
  const start = performance.now();
  await host.start();
  const elapsed = performance.now() - start;
  const ready = host.status().filter((s) => s.state === 'ready').length;
  await host.close();
  return { elapsed, ready };
}

const latencies = await listChangedLatency();
console.log(
  `H9  list_changed to ${SESSIONS} sessions, ${CHANGES} changes: p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, max ${ms(Math.max(...latencies))} (target p95 <= 100 ms)`,
);
const { direct, routed } = await routingOverhead();
console.log(
  `H17 routing, in memory, p50 of ${3 * CALLS} calls: direct ${us(direct)}, through the host ${us(routed)}, overhead ${us(routed - direct)} (target <= 50 µs)`,
);
for (let run = 1; run <= 3; run++) {
  const { elapsed, ready } = await stdioStart();
  console.log(
    `H17 ${UPSTREAMS} stdio upstreams started at once, run ${run}: ${ready} ready in ${ms(elapsed)} (target <= 3000 ms)`,
  );
}
