/**
 * `@mcpkit/otel` with the real OpenTelemetry SDK (tracing with an in-memory exporter, metrics with
 * a collecting reader): mcpkit client → Streamable HTTP → mcpkit server is one trace, client span
 * to server span, with the MCP semantic conventions' attributes and histograms; the official SDK
 * client's `_meta` continues a trace too.
 */
import { McpClient, type McpClientOptions } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { createInMemoryPair } from '@mcpkit/core';
import { serve } from '@mcpkit/node/http';
import { createOtelObserver, DURATION_BUCKETS } from '@mcpkit/otel';
import { McpServer, promptSupport } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  context,
  createContextKey,
  createNoopMeter,
  ProxyTracerProvider,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  type HistogramMetricData,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/** A pull reader: `collect()` gathers what the meters recorded so far. */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const hostTracer = tracerProvider.getTracer('host-app');
const handlerTracer = tracerProvider.getTracer('tool-code');
const handlerKey = createContextKey('test handler value');
let reader: CollectingReader;
let meterProvider: MeterProvider;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
});
afterAll(() => {
  context.disable();
  propagation.disable();
});
beforeEach(() => {
  spans.reset();
  reader = new CollectingReader();
  meterProvider = new MeterProvider({ readers: [reader] });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const LEGACY = { protocolEra: '2025' } as const;

function observer() {
  return createOtelObserver({ tracerProvider, meterProvider });
}

function demoServer(): McpServer {
  const server = new McpServer(
    { name: 'traced', version: '1.0.0' },
    { observer: observer(), prompts: promptSupport },
  );
  server.tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args) =>
    String(args.text),
  );
  server.prompt('greeting', {}, () => ({ messages: [] }));
  server.tool('broken', () => ({ content: [{ type: 'text', text: 'no' }], isError: true }));
  // A tool that asks the client for its roots: the server's own request is a child of its span.
  server.tool('roots', async (_args, ctx) => {
    const { roots } = await ctx.listRoots();
    return roots.map((root) => root.uri).join(',');
  });
  // A tool that traces its own work after an await, and reads the caller's baggage: what a
  // handler sees of the context its request's span is active in.
  server.tool('traced-work', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    handlerTracer.startSpan('handler work').end();
    const derived = context.active().setValue(handlerKey, 'derived');
    const sameSpan = trace.getSpan(derived) === trace.getActiveSpan();
    const tenant = propagation.getActiveBaggage()?.getEntry('tenant')?.value;
    return `${tenant ?? 'no baggage'} ${sameSpan} ${derived.getValue(handlerKey)}`;
  });
  return server;
}

async function startServer() {
  const server = demoServer();
  const handler = createStreamableHttpHandler(server);
  const served = await serve(handler, { path: '/mcp' });
  cleanups.push(() => served.close());
  return { server, url: served.url };
}

/**
 * A host client with the observer, connected over Streamable HTTP and closed after the test. On
 * '2025' (LEGACY): the spans and metrics under test carry a session id, the session's own
 * notifications and requests to the client, and session histograms, which 2026-07-28 has not.
 */
async function connectHost(url: string, options: McpClientOptions = {}): Promise<McpClient> {
  const client = new McpClient(
    { name: 'host', version: '1.0.0' },
    { observer: observer(), ...LEGACY, ...options },
  );
  await client.connect(new StreamableHttpClientTransport(url));
  cleanups.push(() => client.close());
  return client;
}

const named = (name: string, kind: SpanKind): ReadableSpan => {
  const found = spans.getFinishedSpans().filter((span) => span.name === name && span.kind === kind);
  expect(found, `${name} (${SpanKind[kind]})`).toHaveLength(1);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

async function histogram(name: string): Promise<HistogramMetricData> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((m) => m.descriptor.name === name);
  expect(metric, name).toBeDefined();
  return metric as HistogramMetricData;
}

describe('@mcpkit/otel with the OpenTelemetry SDK', () => {
  it('makes one trace of a host span, the client span and the server span over HTTP', async () => {
    const { url } = await startServer();
    const client = await connectHost(url);

    await hostTracer.startActiveSpan('host turn', async (host) => {
      await client.callTool('echo', { text: 'hi' });
      host.end();
    });

    const host = named('host turn', SpanKind.INTERNAL);
    const clientSpan = named('tools/call echo', SpanKind.CLIENT);
    const serverSpan = named('tools/call echo', SpanKind.SERVER);
    const traceId = host.spanContext().traceId;
    expect(clientSpan.spanContext().traceId).toBe(traceId);
    expect(serverSpan.spanContext().traceId).toBe(traceId);
    expect(parentOf(clientSpan)).toBe(host.spanContext().spanId);
    expect(parentOf(serverSpan)).toBe(clientSpan.spanContext().spanId);

    const sessionId = client.connection.transport.sessionId;
    expect(sessionId).toMatch(/./);
    for (const span of [clientSpan, serverSpan]) {
      expect(span.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'echo',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': client.protocolVersion,
        'mcp.session.id': sessionId,
        'network.transport': 'tcp',
      });
      expect(span.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
      expect(span.attributes['error.type']).toBeUndefined();
      expect(span.attributes['gen_ai.tool.call.arguments']).toBeUndefined(); // not opted in
    }
    expect(serverSpan.attributes['jsonrpc.request.id']).toBe(clientSpan.attributes['jsonrpc.request.id']);
  });

  it('records error.type for JSON-RPC errors and tool errors, with an error status', async () => {
    const { url } = await startServer();
    const client = await connectHost(url);

    await client.callTool('broken', {});
    await expect(client.request('prompts/get', { name: 'nope' })).rejects.toThrow();

    for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
      const broken = named('tools/call broken', kind);
      expect(broken.attributes['error.type']).toBe('tool_error');
      expect(broken.status.code).toBe(SpanStatusCode.ERROR);
      const missing = named('prompts/get nope', kind);
      expect(missing.attributes['gen_ai.prompt.name']).toBe('nope');
      expect(missing.attributes['error.type']).toMatch(/^-32\d{3}$/);
      expect(missing.attributes['rpc.response.status_code']).toBe(missing.attributes['error.type']);
      expect(missing.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.any(String) });
    }
  });

  it("continues the trace into the server's own requests to the client (roots/list)", async () => {
    const { url } = await startServer();
    const client = await connectHost(url, { roots: [{ uri: 'file:///work' }] });

    expect(await client.callTool('roots', {})).toMatchObject({ content: [{ text: 'file:///work' }] });

    const serverCall = named('tools/call roots', SpanKind.SERVER);
    const serverAsks = named('roots/list', SpanKind.CLIENT);
    const clientAnswers = named('roots/list', SpanKind.SERVER);
    expect(parentOf(serverAsks)).toBe(serverCall.spanContext().spanId);
    expect(parentOf(clientAnswers)).toBe(serverAsks.spanContext().spanId);
    expect(clientAnswers.spanContext().traceId).toBe(serverCall.spanContext().traceId);
  });

  it("makes a handler's own spans children of the server span, across awaits, with the caller's baggage", async () => {
    const { url } = await startServer();
    const client = await connectHost(url);

    const baggage = propagation.createBaggage({ tenant: { value: 'acme' } });
    const result = await context.with(propagation.setBaggage(context.active(), baggage), () =>
      client.callTool('traced-work', {}),
    );

    expect(result).toMatchObject({ content: [{ text: 'acme true derived' }] });
    const serverCall = named('tools/call traced-work', SpanKind.SERVER);
    const work = named('handler work', SpanKind.INTERNAL);
    expect(parentOf(work)).toBe(serverCall.spanContext().spanId);
    expect(work.spanContext().traceId).toBe(serverCall.spanContext().traceId);
  });

  it('gives notifications spans too, trace context carried in _meta, with no jsonrpc.request.id', async () => {
    const { url } = await startServer();
    const client = await connectHost(url, { roots: [{ uri: 'file:///work' }] });

    const method = 'notifications/roots/list_changed';
    await hostTracer.startActiveSpan('host notifies', async (host) => {
      await client.notify(method);
      host.end();
    });
    await expect
      .poll(() =>
        spans.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER && span.name === method),
      )
      .toHaveLength(1);

    const host = named('host notifies', SpanKind.INTERNAL);
    const sent = named(method, SpanKind.CLIENT);
    const received = named(method, SpanKind.SERVER);
    expect(parentOf(sent)).toBe(host.spanContext().spanId);
    expect(parentOf(received)).toBe(sent.spanContext().spanId);
    expect(received.spanContext().traceId).toBe(host.spanContext().traceId);
    for (const span of [sent, received]) {
      expect(span.attributes).toMatchObject({ 'mcp.method.name': method, 'network.transport': 'tcp' });
      expect(span.attributes['jsonrpc.request.id']).toBeUndefined();
    }
    // The handshake's own notification is seen as well, on both sides.
    named('notifications/initialized', SpanKind.CLIENT);
    named('notifications/initialized', SpanKind.SERVER);
    const operations = await histogram('mcp.client.operation.duration');
    const notified = operations.dataPoints.filter((point) => point.attributes['mcp.method.name'] === method);
    expect(notified.map((point) => point.value.count)).toEqual([1]);
  });

  it('records the operation and session histograms with the advisory buckets', async () => {
    const { url } = await startServer();
    const client = new McpClient({ name: 'host', version: '1.0.0' }, { observer: observer(), ...LEGACY });
    await client.connect(new StreamableHttpClientTransport(url));
    for (let i = 0; i < 3; i++) await client.callTool('echo', { text: String(i) });
    await client.close();

    for (const name of ['mcp.client.operation.duration', 'mcp.server.operation.duration']) {
      const metric = await histogram(name);
      expect(metric.descriptor.unit).toBe('s');
      const calls = metric.dataPoints.filter((point) => point.attributes['mcp.method.name'] === 'tools/call');
      expect(calls).toHaveLength(1);
      expect(calls[0]!.attributes).toMatchObject({ 'gen_ai.tool.name': 'echo', 'network.transport': 'tcp' });
      expect(calls[0]!.value.count).toBe(3);
      expect(calls[0]!.value.buckets.boundaries).toEqual(DURATION_BUCKETS);
      // No per-session attribute on metrics: that would be unbounded cardinality.
      expect(calls[0]!.attributes['mcp.session.id']).toBeUndefined();
      // A span attribute the conventions do not list for the histograms (spans keep it).
      expect(calls[0]!.attributes['gen_ai.operation.name']).toBeUndefined();
    }
    const clientSession = await histogram('mcp.client.session.duration');
    expect(clientSession.dataPoints[0]!.value.count).toBe(1);
    expect(clientSession.dataPoints[0]!.value.buckets.boundaries).toEqual(DURATION_BUCKETS);
    // Closing the client deletes the HTTP session; the server session then ends too.
    await expect
      .poll(async () => (await histogram('mcp.server.session.duration')).dataPoints[0]?.value.count)
      .toBe(1);
  });

  it("continues a trace sent in the official SDK client's _meta (SDK 1.32 sends none itself)", async () => {
    const { url } = await startServer();
    const sdk = new SdkClient({ name: 'sdk-host', version: '1.0.0' });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
    cleanups.push(() => sdk.close());

    // Without help, the official client sends no trace context: the server span is a root.
    await sdk.callTool({ name: 'echo', arguments: { text: 'plain' } });
    expect(parentOf(named('tools/call echo', SpanKind.SERVER))).toBeUndefined();
    spans.reset();

    const host = hostTracer.startSpan('sdk host turn');
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(context.active(), host), carrier);
    expect(Object.keys(carrier)).toContain('traceparent');
    await sdk.callTool({ name: 'echo', arguments: { text: 'traced' }, _meta: carrier });
    host.end();

    const serverSpan = named('tools/call echo', SpanKind.SERVER);
    expect(serverSpan.spanContext().traceId).toBe(host.spanContext().traceId);
    expect(parentOf(serverSpan)).toBe(host.spanContext().spanId);
    expect(serverSpan.attributes['mcp.session.id']).toBe(sdk.transport?.sessionId);
  });

  it('never records the bearer token or headers of the transport', async () => {
    const { url } = await startServer();
    const token = 'tok_4f9a0c2e1b7d';
    const client = new McpClient({ name: 'host', version: '1.0.0' }, { observer: observer() });
    await client.connect(
      new StreamableHttpClientTransport(url, { headers: { Authorization: `Bearer ${token}` } }),
    );
    cleanups.push(() => client.close());
    await client.callTool('echo', { text: 'hi' });
    const exported = JSON.stringify(
      spans
        .getFinishedSpans()
        .map((span) => ({ name: span.name, attributes: span.attributes, links: span.links })),
    );
    expect(exported).toContain('tools/call echo'); // the spans are there...
    expect(exported).not.toContain(token); // ...and the token is not
    expect(exported.toLowerCase()).not.toContain('authorization');
  });

  it('records tool arguments and results only when asked to', async () => {
    const server = new McpServer(
      { name: 'payloads', version: '1.0.0' },
      { observer: createOtelObserver({ tracerProvider, meterProvider, recordToolPayloads: true }) },
    );
    server.tool(
      'echo',
      { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
      (args) => String(args.text),
    );
    const served = await serve(createStreamableHttpHandler(server), { path: '/mcp' });
    cleanups.push(() => served.close());
    const client = new McpClient({ name: 'host', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(served.url));
    cleanups.push(() => client.close());
    await client.callTool('echo', { text: 'secret-ish' });
    const span = named('tools/call echo', SpanKind.SERVER);
    expect(JSON.parse(String(span.attributes['gen_ai.tool.call.arguments']))).toEqual({ text: 'secret-ish' });
    expect(String(span.attributes['gen_ai.tool.call.result'])).toContain('secret-ish');
  });

  it('records metrics only, or traces only, when the other provider is a no-op', async () => {
    const call = async (options: Parameters<typeof createOtelObserver>[0]) => {
      const server = new McpServer(
        { name: 'half', version: '1.0.0' },
        { observer: createOtelObserver(options) },
      );
      server.tool('echo', () => 'hi');
      const [clientSide, serverSide] = createInMemoryPair();
      await server.connect(serverSide);
      const client = new McpClient({ name: 'host', version: '1.0.0' });
      await client.connect(clientSide);
      await client.callTool('echo', {});
      await client.close();
    };
    const operations = async () => {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .filter((m) => m.descriptor.name === 'mcp.server.operation.duration');
    };

    // A tracer provider with no SDK behind it: no span, the histogram still counts the call.
    await call({ tracerProvider: new ProxyTracerProvider(), meterProvider });
    expect(spans.getFinishedSpans()).toHaveLength(0);
    const [metric] = await operations();
    const calls = (metric as HistogramMetricData).dataPoints.filter(
      (point) => point.attributes['mcp.method.name'] === 'tools/call',
    );
    expect(calls.map((point) => point.value.count)).toEqual([1]);

    // A no-op meter: spans, and nothing more in the histogram.
    await call({ tracerProvider, meterProvider: { getMeter: () => createNoopMeter() } });
    named('tools/call echo', SpanKind.SERVER);
    const [after] = await operations();
    const still = (after as HistogramMetricData).dataPoints.filter(
      (point) => point.attributes['mcp.method.name'] === 'tools/call',
    );
    expect(still.map((point) => point.value.count)).toEqual([1]);
  });
});
