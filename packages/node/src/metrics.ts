/**
 * `@mcpkit/node/metrics`: Prometheus metrics for mcpkit servers and clients (needs the optional
 * peer `prom-client`), and a loopback `/metrics` listener.
 *
 * @example
 * ```ts
 * import { createPrometheusMetrics, serveMetrics } from '@mcpkit/node/metrics';
 * const prometheus = createPrometheusMetrics();
 * const server = new McpServer(info, { observer: prometheus.observer });
 * await serveMetrics(prometheus, { port: 9464 });
 * ```
 * @module
 */
export {
  createPrometheusMetrics,
  type PrometheusMetrics,
  type PrometheusMetricsOptions,
  type WatchedHandler,
} from './metrics/prometheus.js';
export { type MetricsListener, type ServeMetricsOptions, serveMetrics } from './metrics/serve.js';
