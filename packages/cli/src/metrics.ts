/**
 * `--metrics-port N` of `mcpkit serve` and `mcpkit gateway`: Prometheus metrics on their own
 * loopback port. `@mcpkit/node/metrics` (and `prom-client`) load only when the flag is given.
 * @module
 */
import type { Observer } from '@mcpkit/core';
import type { PrometheusMetrics } from '@mcpkit/node/metrics';
import { CliError, ExitCode } from './errors.js';

/**
 * A running `/metrics` listener: the observer to install on the server, `watch` for its HTTP
 * handlers (open SSE streams, stored events), and `close`.
 *
 * @example
 * ```ts
 * declare const metrics: CliMetrics;
 * await metrics.close();
 * ```
 */
export interface CliMetrics {
  readonly observer: Observer;
  readonly watch: PrometheusMetrics['watch'];
  close(): Promise<void>;
}

/**
 * Serves Prometheus metrics at `http://127.0.0.1:<port>/metrics` and logs the URL (tests read it).
 *
 * @example
 * ```ts
 * const metrics = await startMetrics(0, (line) => process.stderr.write(`${line}\n`));
 * ```
 */
export async function startMetrics(port: number, log: (line: string) => void): Promise<CliMetrics> {
  const { createPrometheusMetrics, serveMetrics } = await import('@mcpkit/node/metrics');
  const prometheus = createPrometheusMetrics();
  const listener = await serveMetrics(prometheus, { port }).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(
      ExitCode.Connection,
      `Could not serve metrics on 127.0.0.1:${port}: ${error.code ?? error.message}`,
      'Pick another port: --metrics-port 9465 (or 0 for any free one)',
    );
  });
  log(`Prometheus metrics on http://127.0.0.1:${listener.port}/metrics`);
  return { observer: prometheus.observer, watch: prometheus.watch, close: () => listener.close() };
}
