/**
 * OpenTelemetry from start to finish: register the SDK (tracer provider, meter provider, context
 * manager, W3C propagators), give the server and the client the mcpkit observer, make a call, and
 * flush. The spans and metrics are printed to the console; for a collector, swap the console
 * exporters for `OTLPTraceExporter` / `OTLPMetricExporter` from `@opentelemetry/exporter-*-otlp-http`.
 *
 *   npm install @opentelemetry/api @opentelemetry/context-async-hooks @opentelemetry/core \
 *     @opentelemetry/sdk-trace-base @opentelemetry/sdk-metrics
 *   node --import ./conformance/register-ts.mjs examples/otel.ts
 */
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair } from '@mcpkit/core';
import { createOtelObserver } from '@mcpkit/otel';
import { McpServer } from '@mcpkit/server';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  ConsoleMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, ConsoleSpanExporter } from '@opentelemetry/sdk-trace-base';

// 1. The SDK, registered once at start-up, before any server or client is made.
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new BatchSpanProcessor(new ConsoleSpanExporter())],
});
const meterProvider = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new ConsoleMetricExporter(),
      exportIntervalMillis: 60_000,
    }),
  ],
});
trace.setGlobalTracerProvider(tracerProvider);
metrics.setGlobalMeterProvider(meterProvider);
// The handler runs inside the server span only with a context manager.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
// Trace context crosses the wire in params._meta through the global propagator.
propagation.setGlobalPropagator(
  new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
);

// 2. The observer on each side: spans, the four MCP histograms, and _meta propagation.
const server = new McpServer({ name: 'traced', version: '1.0.0' }, { observer: createOtelObserver() });
server.tool(
  'echo',
  {
    description: 'Echoes its text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
  ({ text }) => String(text ?? ''),
);
const client = new McpClient({ name: 'host', version: '1.0.0' }, { observer: createOtelObserver() });

const [clientSide, serverSide] = createInMemoryPair();
server.connect(serverSide);
await client.connect(clientSide);
const result = await client.callTool('echo', { text: 'traced' });
console.error('result:', JSON.stringify(result.content));
await client.close();

// 3. Flush before exit, or the last batch is lost.
await tracerProvider.forceFlush();
await meterProvider.forceFlush();
await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
