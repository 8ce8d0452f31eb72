/**
 * A separate `node:http` listener that serves `/metrics` (Prometheus text format), bound to
 * loopback by default: metrics say who calls what, so they are not for the MCP port's public.
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PrometheusMetrics } from './prometheus.js';

/** Options of {@link serveMetrics}. */
export interface ServeMetricsOptions {
  /** The port; `0` picks a free one. */
  port: number;
  /** The address to bind. Default `127.0.0.1`. */
  host?: string;
}

/** A running metrics listener. */
export interface MetricsListener {
  /** The bound port (useful with `port: 0`). */
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Serves `metrics` at `GET /metrics` on its own port; every other path is 404.
 *
 * @example
 * ```ts
 * const prometheus = createPrometheusMetrics();
 * const listener = await serveMetrics(prometheus, { port: 9464 });
 * ```
 */
export async function serveMetrics(
  metrics: PrometheusMetrics,
  options: ServeMetricsOptions,
): Promise<MetricsListener> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
