/**
 * `--metrics-port N` and `--log-json` of `mcpkit serve` and `mcpkit gateway`: Prometheus metrics
 * on their own loopback port (`@mcpkit/node/metrics` and `prom-client` load only when asked for),
 * and structured logs on stderr.
 * @module
 */
import { combineObservers, type Observer } from '@mcpkit/core';
import type { PrometheusMetrics } from '@mcpkit/node/metrics';
import type { CliIo } from './cliIo.js';
import { CliError, ExitCode } from './errors.js';
import { jsonLogObserver } from './jsonLog.js';

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

/**
 * The server's observer: the Prometheus one (`--metrics-port`) and the JSON log one
 * (`--log-json`), either, both, or none (`undefined`, at no cost).
 *
 * @example
 * ```ts
 * declare const io: CliIo;
 * const observer = cliObserver({ logJson: true }, undefined, io);
 * ```
 */
export function cliObserver(
  settings: { readonly logJson?: boolean },
  metrics: CliMetrics | undefined,
  io: CliIo,
): Observer | undefined {
  return combineObservers(metrics?.observer, settings.logJson ? jsonLogObserver(io.stderr) : undefined);
}
