/**
 * Client-side Streamable HTTP: tools/call throughput and client CPU per call, 1 and 16 in flight,
 * every client against the same framework-free server (servers/bare-http.mjs, JSON responses).
 * Columns: mcpkit on its Node default path (undici), the official v2 client
 * (`@modelcontextprotocol/client` 2.4.0, in the sdk column), and a bare client on undici's Pool.
 * @module
 */
import { startServer } from '../lib/proc.mjs';
import { measureThroughput } from './calls.mjs';

export const httpClientGroup = {
  id: 'httpclient',
  title: 'HTTP client tools/call (same bare server; sdk column = @modelcontextprotocol/client 2.4.0)',
  rows: [1, 16].map((concurrency) => ({
    id: `httpclient-${concurrency}`,
    label: `HTTP client tools/call, ${concurrency} in flight`,
    unit: 'calls/s',
    better: 'higher',
    concurrency,
  })),
  rounds: (profile) => profile.rounds.calls,
  participates: (impl) => Boolean(impl.files.httpClientDriver && impl.bareHttpServer),
  async measure(impl, ctx, rows) {
    const server = await startServer({
      script: impl.bareHttpServer,
      env: { BENCH_HTTP_MODE: 'json', BENCH_PORT: '0' },
      cwd: ctx.paths.bench,
      agent: ctx.paths.agent,
    });
    try {
      return await measureThroughput(ctx, {
        driver: impl.files.httpClientDriver,
        connect: { url: `http://127.0.0.1:${server.port}/mcp` },
        rows,
        nodeArgs: ctx.nodeArgs('httpclient', impl.id),
        // A 1-in-flight row run first after connecting measured the JIT, not the client: with
        // 300-500 ms of warm-up mcpkit's first second ran at 1.1k calls/s and 485 µs CPU per call,
        // its next seconds at 9-13k calls/s and 46-73 µs (bare undici: 3.8k → 22k calls/s).
        // Every client gets the same longer warm-up; smoke runs keep their short one.
        minWarmupMs: ctx.profile.assert ? 2000 : 0,
      });
    } finally {
      await server.stop();
    }
  },
};
