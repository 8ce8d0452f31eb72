/**
 * The cost of the middleware pipeline and of the rate-limit guard (issue 21: at most 5% with three
 * pass-through middlewares), mcpkit only, side by side: no middleware, three pass-through
 * middlewares, and the rate limiter on (a limit no load reaches, so every request pays the bucket
 * bookkeeping and none is refused; over HTTP its gate runs too). On stdio at 16 calls in flight and
 * on stateful Streamable HTTP (JSON responses, 50 connections), as issue 21 asks, and in memory (one
 * process, 16 in flight), where the CPU per call has the least noise to hide a small cost in. Each round runs every variant in a
 * fresh server process, in an order rotated by the round, so drift hits the variants alike.
 * @module
 */
import { rotate } from '../lib/stats.mjs';
import { measureThroughput } from './calls.mjs';
import { measureHttp } from './http.mjs';

/** The variants, as `MCPKIT_BENCH_MIDDLEWARE` of bench/servers/mcpkit-echo.mjs names them. */
const VARIANTS = [
  { id: 'none', label: 'no middleware' },
  { id: 'mw3', label: 'three pass-through middlewares' },
  { id: 'ratelimit', label: 'rate limiter on' },
];

/**
 * @param {{ id: string, title: string, rowLabel: string, unit: string, extra: object,
 *   measureOne: (impl: any, ctx: any, row: any) => Promise<{ samples: object, stderr?: string, notes?: string[] }> }} spec
 */
function variantGroup(spec) {
  let calls = 0;
  return {
    id: spec.id,
    title: spec.title,
    rows: VARIANTS.map((variant) => ({
      id: `${spec.id}-${variant.id}`,
      label: `${spec.rowLabel}, ${variant.label}`,
      unit: spec.unit,
      better: 'higher',
      variant: variant.id,
      ...spec.extra,
    })),
    rounds: (profile) => (spec.id.includes('http') ? profile.rounds.http : profile.rounds.calls),
    participates: (impl) =>
      impl.id === 'mcpkit' &&
      Boolean(impl.files.inmemoryDriver && impl.files.stdioServer && impl.files.httpServer),
    async measure(impl, ctx, rows) {
      const samples = {};
      const notes = [];
      let stderr = '';
      for (const row of rotate(rows, calls++)) {
        const result = await spec.measureOne(impl, ctx, row);
        Object.assign(samples, result.samples);
        notes.push(...(result.notes ?? []));
        stderr += result.stderr ?? '';
      }
      return { samples, stderr, notes };
    },
  };
}

/**
 * A group of tools/call throughput at 16 in flight, in memory or over stdio.
 * @param {'inmemory' | 'stdio'} transport
 */
function callVariants(transport) {
  const id = `mw-${transport}`;
  const name = transport === 'inmemory' ? 'in-memory' : 'stdio';
  return variantGroup({
    id,
    title: `Middleware cost: ${name} tools/call, 16 in flight (mcpkit)`,
    rowLabel: `${name} 16 in flight`,
    unit: 'calls/s',
    extra: { concurrency: 16 },
    measureOne: (impl, ctx, row) => {
      const nodeArgs = ctx.nodeArgs(id, impl.id);
      const env = { MCPKIT_BENCH_MIDDLEWARE: row.variant };
      // In memory the server runs in the worker (env of the worker); over stdio in its child.
      const stdio = {
        command: process.execPath,
        args: [...nodeArgs, impl.files.stdioServer],
        cwd: ctx.paths.bench,
        env,
      };
      return measureThroughput(ctx, {
        driver: transport === 'inmemory' ? impl.files.inmemoryDriver : impl.files.stdioDriver,
        connect: transport === 'inmemory' ? {} : stdio,
        rows: [row],
        nodeArgs,
        env: transport === 'inmemory' ? env : undefined,
      });
    },
  });
}

export const middlewareInMemoryGroup = callVariants('inmemory');
export const middlewareStdioGroup = callVariants('stdio');

export const middlewareHttpGroup = variantGroup({
  id: 'mw-http',
  title: 'Middleware cost: Streamable HTTP, stateful, JSON responses, 50 connections (mcpkit)',
  rowLabel: 'HTTP json 50 connections',
  unit: 'req/s',
  extra: { connections: 50 },
  measureOne: (impl, ctx, row) =>
    measureHttp(impl, ctx, {
      mode: 'json',
      rows: [row],
      id: 'mw-http',
      env: { MCPKIT_BENCH_MIDDLEWARE: row.variant },
    }),
});
