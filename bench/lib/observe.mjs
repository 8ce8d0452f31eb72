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
 *   by itself, its AsyncLocalStorage context manager registered but not yet entered.
 * - `sdk-active`: the same, with the context manager entered once, as any instrumentation does on
 *   its first span (an HTTP instrumentation on the first request): from then on Node 20's promise
 *   hooks run for every promise of the process. The difference to `otel` is what the adapter and
 *   the SDK's per-request calls cost.
 * - `context-only`: the SDK registered and an observer that only runs each handler inside a new
 *   context (`context.with`), no span, no metric: the context switch's share of `otel`.
 * - `otel-nowith`: `otel` without the adapter's `runHandler`: `otel` less the context switch.
 * - `otel-noals`: `otel` with no context manager registered (the API's no-op one), so no async
 *   hooks run: `otel` less the AsyncLocalStorage tax on every async resource of node:http.
 * - `empty`: an observer whose only hook does nothing: what the observed path costs by itself.
 * - `spin`: an observer that burns `MCPKIT_BENCH_SPIN_US` (default 10) µs of CPU per request and
 *   allocates nothing: the control for how much a slower server alone costs behind sockets.
 * - `alloc`, `alloc-noretain`: observers that build per request about the objects the SDK builds
 *   for a span and a histogram record, no SDK at all; `alloc` keeps ended ones until 512 have
 *   ended (the batch span processor's buffer), `alloc-noretain` keeps none (bench/lib/alloc-observer.mjs).
 * - `otel-bsp64`: `otel` with a small batch span processor (64 per batch, queue 256, 200 ms).
 * - `otel-simple`: `otel` with a `SimpleSpanProcessor`: each span handed to the (dropping)
 *   exporter as it ends, none buffered.
 * - `otel-traces`: `otel` with only a tracer provider (the histograms stay no-ops).
 * - `otel-metrics`: `otel` with only a meter provider (no spans, no context switch).
 * - `otel-ratio10`: `otel` sampling 10% of new traces (`ParentBasedSampler` over a
 *   `TraceIdRatioBasedSampler(0.1)`); unsampled spans are not recorded.
 * @module
 */
import { combineObservers } from '@mcpkit/core';
import { allocObserver } from './alloc-observer.mjs';

const mode = process.env.MCPKIT_BENCH_OBSERVE ?? '';

/** The observer for the benchmark's server, or `undefined`. */
export async function benchObserver() {
  if (mode === '') return undefined;
  if (mode === 'empty') return { requestStarted: () => {} };
  if (mode === 'otel-noals') return await otelObserver(false);
  if (mode === 'spin') return spinObserver(Number(process.env.MCPKIT_BENCH_SPIN_US ?? 10));
  if (mode === 'otel-nosdk') return (await import('@mcpkit/otel')).createOtelObserver();
  if (mode === 'sdk-only') return void (await registerOtelSdk());
  if (mode === 'sdk-active') return void (await activateContextManager());
  if (mode === 'context-only') return await contextOnlyObserver();
  if (mode === 'alloc' || mode === 'alloc-noretain') return allocObserver(mode === 'alloc');
  if (mode in SDK_VARIANTS) return await otelObserver(true, SDK_VARIANTS[mode]);
  if (mode === 'otel-nowith') return withoutRunHandler(await otelObserver());
  if (!['otel', 'prometheus', 'both'].includes(mode)) {
    throw new Error(
      `MCPKIT_BENCH_OBSERVE must be otel, otel-nosdk, otel-nowith, otel-noals, ${Object.keys(SDK_VARIANTS).join(', ')}, alloc, alloc-noretain, empty, spin, sdk-only, sdk-active, context-only, prometheus or both, got "${mode}"`,
    );
  }
  const otel = mode === 'prometheus' ? undefined : await otelObserver();
  const prometheus =
    mode === 'otel' ? undefined : (await import('@mcpkit/node/metrics')).createPrometheusMetrics();
  return combineObservers(otel, prometheus?.observer);
}

/** The SDK setups of the `otel-*` levers (see the module comment), as `registerOtelSdk` takes them. */
const SDK_VARIANTS = {
  'otel-bsp64': { spans: 'batch-small' },
  'otel-simple': { spans: 'simple' },
  'otel-traces': { metrics: false },
  'otel-metrics': { spans: 'none' },
  'otel-ratio10': { ratio: 0.1 },
};

async function otelObserver(asyncContext = true, setup = {}) {
  await registerOtelSdk(asyncContext, setup);
  const { createOtelObserver } = await import('@mcpkit/otel');
  return createOtelObserver();
}

/** `otel-nowith`: every hook of `otel` but `runHandler`, so handlers run in the ambient context. */
function withoutRunHandler(otel) {
  return {
    requestStarted: (request) => otel.requestStarted(request),
    requestFinished: (request, outcome) => otel.requestFinished(request, outcome),
    notificationStarted: (notification) => otel.notificationStarted(notification),
    notificationFinished: (notification, ms) => otel.notificationFinished(notification, ms),
    sessionClosed: (session, ms) => otel.sessionClosed(session, ms),
  };
}

/** `spin`: burns `us` of CPU in `requestStarted`, touching no memory (clock reads only). */
function spinObserver(us) {
  return {
    requestStarted: () => {
      const end = performance.now() + us / 1000;
      while (performance.now() < end);
    },
  };
}

/** `context-only`: an observer that only runs each handler inside a (span-less) context. */
async function contextOnlyObserver() {
  await registerOtelSdk();
  const { context, createContextKey } = await import('@opentelemetry/api');
  const key = createContextKey('bench');
  return { runHandler: (_message, handler) => context.with(context.active().setValue(key, true), handler) };
}

/** `sdk-active`: registers the SDK and enters its context manager once, as instrumentation would. */
async function activateContextManager() {
  await registerOtelSdk();
  const { context, createContextKey } = await import('@opentelemetry/api');
  context.with(context.active().setValue(createContextKey('bench'), true), () => undefined);
}

/**
 * Registers the OpenTelemetry SDK globally as an application would, exporting to exporters that
 * drop everything (see the module comment). Shared with bench/otel-floor.mjs. `spans`: 'batch'
 * (the SDK's defaults), 'batch-small', 'simple' or 'none' (no tracer provider); `metrics: false`
 * registers no meter provider; `ratio` samples that share of new traces.
 */
export async function registerOtelSdk(
  asyncContext = true,
  { spans = 'batch', metrics: meters = true, ratio = undefined } = {},
) {
  const { context, propagation, trace, metrics } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator, ExportResultCode } =
    await import('@opentelemetry/core');
  const {
    BasicTracerProvider,
    BatchSpanProcessor,
    ParentBasedSampler,
    SimpleSpanProcessor,
    TraceIdRatioBasedSampler,
  } = await import('@opentelemetry/sdk-trace-base');
  const { MeterProvider, PeriodicExportingMetricReader, AggregationTemporality } = await import(
    '@opentelemetry/sdk-metrics'
  );
  const drop = {
    export: (_items, done) => done({ code: ExportResultCode.SUCCESS }),
    shutdown: async () => {},
    forceFlush: async () => {},
    selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
  };
  // Without a context manager the API's no-op one stays: no async hooks run (`otel-noals`).
  if (asyncContext) context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  const processor = {
    batch: () => new BatchSpanProcessor(drop),
    'batch-small': () =>
      new BatchSpanProcessor(drop, { maxExportBatchSize: 64, maxQueueSize: 256, scheduledDelayMillis: 200 }),
    simple: () => new SimpleSpanProcessor(drop),
  }[spans];
  const sampler =
    ratio === undefined ? undefined : new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  if (processor)
    trace.setGlobalTracerProvider(new BasicTracerProvider({ sampler, spanProcessors: [processor()] }));
  if (!meters) return;
  metrics.setGlobalMeterProvider(
    new MeterProvider({
      readers: [new PeriodicExportingMetricReader({ exporter: drop, exportIntervalMillis: 10_000 })],
    }),
  );
}
