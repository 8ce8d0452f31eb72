/**
 * Client-side CPU per `tools/call`, without a server, JSON or I/O: the client side of
 * `server-cpu.mjs`. The client sends its calls in bursts of 16 into a transport that answers each
 * one at once from a prepared result, one burst per event-loop turn. What is left is the client's
 * own work per call: sending through its layers, the engine's pending table, settling the answer.
 *
 *   for i in 1 2 3 4 5; do for v in plain mcp mw 2026; do MCPKIT_BENCH_CLIENT=$v node bench/client-cpu.mjs; done; done
 *
 * Variants: `plain` (`Client.request`), `mcp` (`McpClient.callTool`, output checking included),
 * `mw` (`Client.request` through one pass-through middleware), `2026` (`Client.request` to a
 * 2026-07-28 server: the envelope on every request). `MCPKIT_BENCH_CLIENT_MODULE` names another
 * build of `@mcpkit/client` (a before/after pair). Prints `<variant> <CPU ns per call>`. Uses the
 * built packages (`npm run build`).
 * @module
 */
import { cpuPerCall } from './lib/cpuPerCall.mjs';

const { Client, McpClient } = await import(process.env.MCPKIT_BENCH_CLIENT_MODULE ?? '@mcpkit/client');

const CALLS = Number(process.env.CALLS ?? 400_000);
const BURST = 16;
const VARIANT = process.env.MCPKIT_BENCH_CLIENT ?? 'plain';
const MODERN = VARIANT === '2026';

const SERVER_INFO = { name: 'cpu', version: '1' };
const CAPABILITIES = { tools: {} };
const RESULT = { content: [{ type: 'text', text: 'hi' }] };

let sink;
let answered = 0;
/** Answers one request the way a server would, from prepared results. */
function answer(message) {
  if (message.id === undefined) return;
  let result = RESULT;
  if (message.method === 'server/discover') {
    if (!MODERN) {
      sink.message({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      return;
    }
    result = { supportedVersions: ['2026-07-28'], capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
  } else if (message.method === 'initialize') {
    result = { protocolVersion: '2025-11-25', capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
  } else if (message.method === 'tools/list') {
    result = { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
  } else {
    answered++;
  }
  sink.message({
    jsonrpc: '2.0',
    id: message.id,
    result: MODERN ? { ...result, resultType: 'complete' } : result,
  });
}
const transport = {
  start(s) {
    sink = s;
  },
  send(message) {
    // Answered on the next microtask, as an in-memory peer would: never inside `send`.
    queueMicrotask(() => answer(message));
  },
  async close() {},
};

const client =
  VARIANT === 'mcp'
    ? new McpClient({ name: 'cpu', version: '1' }, { protocolEra: '2025' })
    : new Client({ name: 'cpu', version: '1' }, MODERN ? {} : { protocolEra: '2025' });
if (VARIANT === 'mw') client.use((_ctx, next) => next());
await client.connect(transport);
if (client.era !== (MODERN ? '2026' : '2025')) throw new Error(`spoke ${client.era}`);

const params = { name: 'echo', arguments: { text: 'hi' } };
const call =
  VARIANT === 'mcp'
    ? () => client.callTool('echo', params.arguments)
    : () => client.request('tools/call', params);

async function run(calls) {
  const burst = new Array(BURST);
  for (let i = 0; i < calls; i += BURST) {
    for (let j = 0; j < BURST; j++) burst[j] = call();
    await Promise.all(burst);
    await new Promise(setImmediate);
  }
}

const counter = { reset: () => (answered = 0), answered: () => answered };
console.log(VARIANT, await cpuPerCall(run, CALLS, counter));
await client.close();
