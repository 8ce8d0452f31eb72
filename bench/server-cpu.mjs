/**
 * Server-side CPU per `tools/call`, without a client, JSON or I/O: requests are handed to the
 * server's message sink in bursts of 16 (one burst per event-loop turn) and the answers dropped.
 * What is left is the server's own work per call, which is what a middleware adds to; on a shared
 * machine this resolves differences of 0.1 µs that the stdio rows cannot.
 *
 *   for i in 1 2 3 4 5; do for v in none mw3; do MCPKIT_BENCH_MIDDLEWARE=$v node bench/server-cpu.mjs; done; done
 *
 * Prints `<variant> <CPU ns per call>`. Uses the built packages (`npm run build`).
 * @module
 */
import { cpuPerCall } from './lib/cpuPerCall.mjs';
import { createMcpkitEchoServer } from './servers/mcpkit-echo.mjs';

const CALLS = Number(process.env.CALLS ?? 400_000);
const BURST = 16;

let sink;
let answered = 0;
const transport = {
  start(s) {
    sink = s;
  },
  send(message) {
    answered++;
    if (message.error || message.result?.isError) throw new Error(JSON.stringify(message));
  },
  async close() {},
};
createMcpkitEchoServer().connect(transport);
sink.message({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cpu', version: '1' } },
});
await new Promise(setImmediate);
sink.message({ jsonrpc: '2.0', method: 'notifications/initialized' });

let id = 1;
async function run(calls) {
  for (let i = 0; i < calls; i += BURST) {
    for (let j = 0; j < BURST; j++) {
      sink.message({
        jsonrpc: '2.0',
        id: id++,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'hi' } },
      });
    }
    await new Promise(setImmediate);
  }
}

const counter = { reset: () => (answered = 0), answered: () => answered };
console.log(process.env.MCPKIT_BENCH_MIDDLEWARE ?? 'none', await cpuPerCall(run, CALLS, counter));
