/**
 * The HTTP client's CPU per `tools/call`, in process: mcpkit's Node client
 * (`@mcpkit/node/http-client`) and a bare undici `Pool` client, each making calls against the same
 * framework-free server (`servers/bare-http.mjs`, JSON answers, its own process) at 1 and 16 in
 * flight, in interleaved rounds. Only this process's CPU is counted, so the server and the rest of
 * the machine matter far less than in calls/s. `BASE=<dir>` adds a second mcpkit build to compare
 * with (A/B): a directory holding `node_modules/@mcpkit/{core,client,node}` (package.json + dist),
 * e.g. a copy of main's build.
 *
 *   node bench/http-client-cpu.mjs
 *   BASE=/tmp/main-build ROUNDS=7 CALLS=20000 node bench/http-client-cpu.mjs
 *
 * Prints µs of CPU per call of each client per round and the medians, and each client's median
 * against bare undici. Uses the built packages (`npm run build`).
 * @module
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLIENT_INFO, TOOL_NAME } from './lib/echo.mjs';
import { startServer } from './lib/proc.mjs';

const CALLS = Number(process.env.CALLS ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const bench = path.dirname(fileURLToPath(import.meta.url));

/** An mcpkit client from the build under `root` (this repository's when `root` is undefined). */
async function mcpkitClient(url, root) {
  const entry = (pkg, file) =>
    root === undefined
      ? pathToFileURL(path.join(bench, '..', 'packages', pkg, 'dist', file)).href
      : pathToFileURL(path.join(root, 'node_modules/@mcpkit', pkg, 'dist', file)).href;
  const { McpClient } = await import(entry('client', 'index.js'));
  const { StreamableHttpClientTransport } = await import(entry('node', 'httpClient.js'));
  const client = new McpClient({ ...CLIENT_INFO }, { protocolEra: '2025' });
  await client.connect(new StreamableHttpClientTransport(url));
  return { call: (text) => client.callTool(TOOL_NAME, { text }), close: () => client.close() };
}

async function bareClient(url) {
  const { connect } = await import('./drivers/bare-httpclient.mjs');
  return connect({ url });
}

/** CPU µs per call of `calls` echo calls, `inFlight` at a time. */
async function measured(session, calls, inFlight) {
  let next = 0;
  const worker = async () => {
    while (next++ < calls) {
      const result = await session.call('hello bench');
      if (result?.content?.[0]?.text !== 'hello bench')
        throw new Error(`bad answer ${JSON.stringify(result)}`);
    }
  };
  const before = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const used = process.cpuUsage(before);
  if (process.env.WALL)
    console.error(
      `${session.name ?? ''} ${inFlight} in flight: ${Math.round((calls * 1000) / (performance.now() - started))} calls/s`,
    );
  return (used.user + used.system) / calls;
}

const server = await startServer({
  script: path.join(bench, 'servers/bare-http.mjs'),
  env: { BENCH_HTTP_MODE: 'json', BENCH_PORT: '0' },
  cwd: bench,
  agent: path.join(bench, 'lib/agent.mjs'),
});
try {
  const url = `http://127.0.0.1:${server.port}/mcp`;
  const clients = { mcpkit: await mcpkitClient(url), bare: await bareClient(url) };
  if (process.env.BASE) clients.base = await mcpkitClient(url, path.resolve(process.env.BASE));
  for (const [name, client] of Object.entries(clients)) client.name = name;
  // ONLY=mcpkit: that client alone (for a profile of it).
  const names = process.env.ONLY ? process.env.ONLY.split(',') : Object.keys(clients);
  // Warm-up: compile every client's path before the first reading.
  for (const name of names)
    for (const inFlight of [1, 16]) await measured(clients[name], CALLS / 2, inFlight);
  const results = {};
  for (let round = 0; round < ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      for (const inFlight of [1, 16]) {
        const key = `${name}-${inFlight}`;
        results[key] ??= [];
        results[key].push(await measured(clients[name], CALLS, inFlight));
      }
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  for (const inFlight of [1, 16]) {
    const bare = results[`bare-${inFlight}`] ? median(results[`bare-${inFlight}`]) : Number.NaN;
    for (const name of names) {
      const values = results[`${name}-${inFlight}`];
      const shown = values.map((v) => v.toFixed(1)).join(' ');
      console.log(
        `${`${name} ${inFlight}`.padEnd(10)} µs/call median ${median(values).toFixed(1).padStart(6)}  bare/this ${(bare / median(values)).toFixed(2)}  rounds ${shown}`,
      );
    }
  }
  for (const client of Object.values(clients)) await client.close();
} finally {
  await server.stop();
}
