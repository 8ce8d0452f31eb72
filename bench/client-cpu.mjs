/**
 * Client-side CPU per `tools/call`, without a server, JSON or I/O: the client side of
 * `server-cpu.mjs`. The client sends its calls in bursts of 16 into a transport that answers each
 * one on the next microtask from a prepared result, one burst per event-loop turn. What is left is
 * the client's own work per call: sending through its layers, the engine's pending table,
 * settling the answer.
 *
 *   for i in 1 2 3 4 5; do for v in plain mcp mw 2026; do MCPKIT_BENCH_CLIENT=$v node bench/client-cpu.mjs; done; done
 *
 * Variants: `plain` (`Client.request`), `mcp` (`McpClient.callTool`, output checking included),
 * `mw` (`Client.request` through one pass-through middleware), `2026` (`Client.request` to a
 * 2026-07-28 server: the envelope on every request). Prints `<variant> <CPU ns per call>`.
 *
 * A before/after pair: `MCPKIT_BENCH_CLIENT_BEFORE=<path of another build's index.js>` loads both
 * builds in one process and alternates them in slices of `SLICE` calls (`ROUNDS` pairs, the order
 * swapped each round), so the load of a shared machine falls on both alike; prints both means and
 * the median of the per-round ratios (after / before). Uses the built packages (`npm run build`).
 * @module
 */
import { cpuPerCall } from './lib/cpuPerCall.mjs';

const CALLS = Number(process.env.CALLS ?? 400_000);
const BURST = 16;
const VARIANT = process.env.MCPKIT_BENCH_CLIENT ?? 'plain';
const MODERN = VARIANT === '2026';

const SERVER_INFO = { name: 'cpu', version: '1' };
const CAPABILITIES = { tools: {} };
const RESULT = { content: [{ type: 'text', text: 'hi' }] };
const DISCOVERED = { supportedVersions: ['2026-07-28'], capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
const INITIALIZED = { protocolVersion: '2025-11-25', capabilities: CAPABILITIES, serverInfo: SERVER_INFO };

let answered = 0;

/** A transport that answers each request the way a server would, from prepared results. */
function answeringTransport() {
  let sink;
  const answer = (message) => {
    if (message.id === undefined) return;
    let result = RESULT;
    if (message.method === 'server/discover') {
      if (!MODERN) {
        sink.message({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32601, message: 'Method not found' },
        });
        return;
      }
      result = DISCOVERED;
    } else if (message.method === 'initialize') {
      result = INITIALIZED;
    } else {
      answered++;
    }
    sink.message({
      jsonrpc: '2.0',
      id: message.id,
      result: MODERN ? { ...result, resultType: 'complete' } : result,
    });
  };
  return {
    start(s) {
      sink = s;
    },
    send(message) {
      // Answered on the next microtask, as an in-memory peer would: never inside `send`.
      queueMicrotask(() => answer(message));
    },
    async close() {},
  };
}

/** A connected client of build `mod` and the function that makes `calls` calls with it. */
async function runnerOf(mod) {
  const info = { name: 'cpu', version: '1' };
  const client =
    VARIANT === 'mcp'
      ? new mod.McpClient(info, { protocolEra: '2025' })
      : new mod.Client(info, MODERN ? {} : { protocolEra: '2025' });
  if (VARIANT === 'mw') client.use((_ctx, next) => next());
  await client.connect(answeringTransport());
  if (client.era !== (MODERN ? '2026' : '2025')) throw new Error(`spoke ${client.era}`);
  const params = { name: 'echo', arguments: { text: 'hi' } };
  const call =
    VARIANT === 'mcp'
      ? () => client.callTool('echo', params.arguments)
      : () => client.request('tools/call', params);
  const burst = new Array(BURST);
  const run = async (calls) => {
    for (let i = 0; i < calls; i += BURST) {
      for (let j = 0; j < BURST; j++) burst[j] = call();
      await Promise.all(burst);
      await new Promise(setImmediate);
    }
  };
  return { client, run };
}

/** CPU ns per call of `run` over `calls` calls. */
async function sliceCost(run, calls) {
  const before = process.cpuUsage();
  await run(calls);
  const cpu = process.cpuUsage(before);
  return ((cpu.user + cpu.system) / calls) * 1000;
}

const after = await runnerOf(await import(process.env.MCPKIT_BENCH_CLIENT_MODULE ?? '@mcpkit/client'));
const beforePath = process.env.MCPKIT_BENCH_CLIENT_BEFORE;
if (!beforePath) {
  const counter = { reset: () => (answered = 0), answered: () => answered };
  console.log(VARIANT, await cpuPerCall(after.run, CALLS, counter));
} else {
  const before = await runnerOf(await import(beforePath));
  const slice = Number(process.env.SLICE ?? 40_000);
  const rounds = Number(process.env.ROUNDS ?? 21);
  await before.run(60_000);
  await after.run(60_000);
  const ratios = [];
  let sumBefore = 0;
  let sumAfter = 0;
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0 ? before : after;
    const second = first === before ? after : before;
    const firstCost = await sliceCost(first.run, slice);
    const secondCost = await sliceCost(second.run, slice);
    const [b, a] = first === before ? [firstCost, secondCost] : [secondCost, firstCost];
    sumBefore += b;
    sumAfter += a;
    ratios.push(a / b);
  }
  ratios.sort((x, y) => x - y);
  const median = ratios[ratios.length >> 1];
  console.log(
    VARIANT,
    `before ${Math.round(sumBefore / rounds)}`,
    `after ${Math.round(sumAfter / rounds)}`,
    `median ratio ${median.toFixed(3)}`,
  );
  await before.client.close();
}
await after.client.close();
