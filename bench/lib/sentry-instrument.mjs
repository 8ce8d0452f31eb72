/**
 * Sentry set up the way its MCP users do (`node --import ./instrument.mjs server.mjs`, then
 * `Sentry.wrapMcpServerWithSentry(new McpServer(…))`), for the instrumented-official-server row of
 * bench/observe-cpu.mjs (`MODE=sentry`): every trace sampled (`tracesSampleRate: 1.0`) and no DSN,
 * so nothing leaves the machine. `@sentry/node` is not a dependency of this repository: the
 * harness installs it at a pinned version into bench/.tmp/peers and passes its entry in
 * `BENCH_SENTRY_ENTRY`. Counts the spans Sentry ends (to show tracing is on) and prints the count
 * on stderr at exit.
 * @module
 */
import { pathToFileURL } from 'node:url';

const entry = process.env.BENCH_SENTRY_ENTRY;
if (!entry) throw new Error('BENCH_SENTRY_ENTRY is not set');
const Sentry = await import(pathToFileURL(entry).href);
Sentry.init({ tracesSampleRate: 1.0 });
let spans = 0;
Sentry.getClient()?.on('spanEnd', () => {
  spans++;
});
globalThis.benchSentry = Sentry;
process.once('SIGTERM', () => {
  process.stderr.write(`sentry spans ended: ${spans}\n`);
  process.exit(0);
});
