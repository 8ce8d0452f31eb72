/**
 * `@mcpkit/otel`: OpenTelemetry for mcpkit servers and clients, on `@opentelemetry/api` only.
 *
 * Spans named `{mcp.method.name} {target}` with the MCP semantic conventions' attributes, trace
 * context carried in `params._meta` (`traceparent`, `tracestate`, `baggage`), and the four
 * duration histograms with their advisory buckets. Register any OpenTelemetry SDK to export them;
 * without one, nothing is recorded.
 *
 * @example
 * ```ts
 * import { createOtelObserver } from '@mcpkit/otel';
 * const server = new McpServer({ name: 'svc', version: '1.0.0' }, { observer: createOtelObserver() });
 * ```
 * @module
 */
export { Attr, DURATION_BUCKETS, Metric, TOOL_ERROR } from './conventions.js';
export { createOtelObserver, type OtelObserverOptions } from './observer.js';
