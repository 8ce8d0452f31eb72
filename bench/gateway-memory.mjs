/**
 * The gateway's own CPU per `tools/call`, in memory: one process, no system calls, so what is left
 * is the JS each hop runs (and its garbage). A client calls the echo server directly, and the same
 * server through the gateway (in-memory downstream and upstream), at 16 calls in flight; rounds
 * alternate so drift hits both alike. The difference is the gateway's work per call: its server
 * session, routing, host, tool policy and upstream client.
 *
 *   node bench/gateway-memory.mjs                 # 5 rounds of 100,000 calls each way
 *   ROUNDS=3 CALLS=50000 node bench/gateway-memory.mjs
 *   node --cpu-prof --cpu-prof-interval=50 bench/gateway-memory.mjs   # a profile of both
 *
 * Prints µs of CPU per call (user + system) for each round and the medians. Uses the built
 * packages (`npm run build`).
 * @module
 */
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair } from '@mcpkit/core';
import { createGateway } from '@mcpkit/host/gateway';
import { CLIENT_INFO, echoCallsInFlight } from './lib/echo.mjs';
import { createMcpkitEchoServer } from './servers/mcpkit-echo.mjs';

const CALLS = Number(process.env.CALLS ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 16);
// ONLY=gateway or ONLY=direct: one path alone (for a profile of it).
const only = process.env.ONLY;

async function connected(server) {
  const [clientEnd, serverEnd] = createInMemoryPair();
  server.connect(serverEnd);
  const client = new McpClient({ ...CLIENT_INFO }, { protocolEra: '2025' });
  await client.connect(clientEnd);
  return client;
}

const upstream = createMcpkitEchoServer();
const gateway = createGateway({
  host: {
    servers: [
      { kind: 'stdio', name: 'echo', command: 'unused', args: [], env: {}, disabled: false, autoApprove: [] },
    ],
    connector: () => {
      const [client, end] = createInMemoryPair();
      upstream.connect(end);
      return client;
    },
    policy: { echo: { trusted: true } },
  },
  upstreams: 'shared',
});
const clients = { direct: await connected(upstream), gateway: await connected(gateway) };

const run = (client, calls) => echoCallsInFlight(client, calls, IN_FLIGHT);

/** CPU µs per call of `calls` calls. */
async function measured(client, calls) {
  const before = process.cpuUsage();
  await run(client, calls);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

const paths = only ? [only] : ['direct', 'gateway'];
for (const path of paths) await run(clients[path], CALLS / 4); // warm-up: JIT, the gateway's catalogue
const results = Object.fromEntries(paths.map((path) => [path, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? paths : [...paths].reverse();
  for (const path of order) results[path].push(await measured(clients[path], CALLS));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const path of paths) {
  console.log(
    `${path.padEnd(7)} µs/call median ${median(results[path]).toFixed(2)} rounds ${results[path].map((v) => v.toFixed(2)).join(' ')}`,
  );
}
await Promise.all(Object.values(clients).map((client) => client.close()));
await gateway.close();
