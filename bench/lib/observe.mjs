/**
 * MCPKIT_BENCH_OBSERVE picks what observes the benchmarked mcpkit server, to measure what
 * observability costs (issue 15: at most 15% on, within noise off). Unset: no observer, the
 * published numbers.
 *
 * - `otel`: `@mcpkit/otel` with the real OpenTelemetry SDK registered as an application would
 *   (AsyncLocalStorage context, W3C propagators, a batch span processor and a periodic metric
 *   reader), exporting to exporters that drop everything: the cost of recording, not of shipping.
 * - `prometheus`: `@mcpkit/node/metrics` (prom-client), not scraped during the load.
 * - `both`: the two combined.
 * - `otel-nosdk`: `@mcpkit/otel` with no SDK registered (what a library user pays who has not
 *   turned OpenTelemetry on).
 * - `sdk-only`: the SDK of `otel` registered, and no observer: what the application's SDK costs
 *   by itself (its AsyncLocalStorage context manager slows every promise of the process).
 * @module
 */
import { combineObservers } from '@mcpkit/core';

const mode = process.env.MCPKIT_BENCH_OBSERVE ?? '';

/** The observer for the benchmark's server, or `undefined`. */
export async function benchObserver() {
  if (mode === '') return undefined;
  if (mode === 'otel-nosdk') return (await import('@mcpkit/otel')).createOtelObserver();
  if (mode === 'sdk-only') return void (await registerOtelSdk());
  if (!['otel', 'prometheus', 'both'].includes(mode)) {
    throw new Error(
      `MCPKIT_BENCH_OBSERVE must be otel, otel-nosdk, sdk-only, prometheus or both, got "${mode}"`,
    );
  }
  const otel = mode === 'prometheus' ? undefined : await otelObserver();
  const prometheus =
    mode === 'otel' ? undefined : (await import('@mcpkit/node/metrics')).createPrometheusMetrics();
  return combineObservers(otel, prometheus?.observer);
}

async function otelObserver() {
  await registerOtelSdk();
  const { createOtelObserver } = await import('@mcpkit/otel');
  return createOtelObserver();
}

/**
 * Registers the OpenTelemetry SDK globally as an application would, exporting to exporters that
 * drop everything (see the module comment). Shared with bench/otel-floor.mjs.
 */
export async function registerOtelSdk() {
  const { context, propagation, trace, metrics } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator, ExportResultCode } =
    await import('@opentelemetry/core');
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { MeterProvider, PeriodicExportingMetricReader, AggregationTemporality } = await import(
    '@opentelemetry/sdk-metrics'
  );
  const drop = {
    export: (_items, done) => done({ code: ExportResultCode.SUCCESS }),
    shutdown: async () => {},
    forceFlush: async () => {},
    selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
  };
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(drop)] }));
  metrics.setGlobalMeterProvider(
    new MeterProvider({
      readers: [new PeriodicExportingMetricReader({ exporter: drop, exportIntervalMillis: 10_000 })],
    }),
  );
}
