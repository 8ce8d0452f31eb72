/**
 * An mcpkit {@link Observer} that records OpenTelemetry spans and metrics per the MCP semantic
 * conventions, and carries trace context across the wire in `params._meta`.
 *
 * Only `@opentelemetry/api` is imported: without an SDK registered everything is a no-op, and
 * the package runs wherever the API does (Node, Bun, Deno, Workers, browsers).
 * @module
 */
import {
  type ObservedOutcome,
  type ObservedRequest,
  type ObservedSession,
  type Observer,
  observedErrorType,
} from '@mcpkit/core';
import {
  type Attributes,
  type Context,
  context,
  createNoopMeter,
  type Histogram,
  isSpanContextValid,
  type Link,
  type MeterProvider,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { Attr, DURATION_BUCKETS, Metric } from './conventions.js';

/** Options of {@link createOtelObserver}. */
export interface OtelObserverOptions {
  /** Default: the global tracer provider (`trace.setGlobalTracerProvider`, an SDK's `register()`). */
  tracerProvider?: TracerProvider;
  /** Default: the global meter provider. */
  meterProvider?: MeterProvider;
  /**
   * Record tool arguments and results on `tools/call` spans (`gen_ai.tool.call.arguments`,
   * `gen_ai.tool.call.result`). They may hold personal data: off unless you opt in.
   */
  recordToolPayloads?: boolean;
  /** Name resource spans `{method} {uri}` (high cardinality; the conventions make it opt-in). */
  resourceUriInSpanName?: boolean;
}

interface SpanState {
  readonly span: Span;
  readonly context: Context;
}

const NAME = '@mcpkit/otel';

/** Reads `_meta` entries as a propagation carrier (string values only). */
const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** Writes propagation fields into the outgoing request's `_meta`. */
const metaSetter: TextMapSetter<ObservedRequest> = {
  set: (carrier, key, value) => carrier.setMeta(key, value),
};

/**
 * Creates the observer. Pass it as the `observer` option of a server or client (both sides).
 *
 * @example
 * ```ts
 * import { createOtelObserver } from '@mcpkit/otel';
 * const server = new McpServer({ name: 'svc', version: '1.0.0' }, { observer: createOtelObserver() });
 * const client = new McpClient({ name: 'host', version: '1.0.0' }, { observer: createOtelObserver() });
 * ```
 */
export function createOtelObserver(options: OtelObserverOptions = {}): Observer {
  return new OtelObserver(options);
}

class OtelObserver implements Observer {
  private readonly tracer: Tracer;
  private readonly clientOperation: Histogram;
  private readonly serverOperation: Histogram;
  private readonly clientSession: Histogram;
  private readonly serverSession: Histogram;
  private readonly recordsMetrics: boolean;

  constructor(private readonly options: OtelObserverOptions) {
    this.tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(NAME);
    const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(NAME);
    // The metrics API has no proxy: a no-op meter now stays one, so skip building attributes.
    this.recordsMetrics = meter.constructor !== createNoopMeter().constructor;
    const histogram = (name: string, description: string): Histogram =>
      meter.createHistogram(name, {
        unit: 's',
        description,
        advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
      });
    this.clientOperation = histogram(
      Metric.clientOperation,
      'The duration of an MCP request as observed by its sender, until the response arrives.',
    );
    this.serverOperation = histogram(
      Metric.serverOperation,
      'The duration of an MCP request as observed by its receiver, until the response is sent.',
    );
    this.clientSession = histogram(Metric.clientSession, 'The duration of an MCP session on the client.');
    this.serverSession = histogram(Metric.serverSession, 'The duration of an MCP session on the server.');
  }

  requestStarted(request: ObservedRequest): void {
    const attributes = this.startAttributes(request);
    const name = this.spanName(request);
    const ambient = context.active();
    if (request.role === 'client') {
      const span = this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, ambient);
      // Without an SDK (or with no trace to continue) there is nothing to carry or end.
      if (!span.isRecording() && !isSpanContextValid(span.spanContext())) return;
      const active = trace.setSpan(ambient, span);
      propagation.inject(active, request, metaSetter);
      request.state = { span, context: active } satisfies SpanState;
      return;
    }
    // The peer's context in `_meta` is the parent; the ambient one (an HTTP server span) is only
    // linked, since one MCP request may span several HTTP requests and one HTTP request many.
    const meta = request.params?._meta as Record<string, unknown> | undefined;
    let parent = ambient;
    let links: Link[] | undefined;
    if (meta !== undefined && typeof meta === 'object' && meta !== null && 'traceparent' in meta) {
      parent = propagation.extract(ambient, meta, metaGetter);
      const outer = trace.getSpanContext(ambient);
      if (outer && parent !== ambient) links = [{ context: outer }];
    }
    const span = this.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes, links }, parent);
    if (!span.isRecording() && !isSpanContextValid(span.spanContext())) return;
    request.state = { span, context: trace.setSpan(parent, span) } satisfies SpanState;
  }

  runHandler<T>(request: ObservedRequest, handler: () => T): T {
    const state = request.state as SpanState | undefined;
    return state ? context.with(state.context, handler) : handler();
  }

  requestFinished(request: ObservedRequest, outcome: ObservedOutcome): void {
    const state = request.state as SpanState | undefined;
    const errorType = observedErrorType(request.method, outcome);
    if (state) this.endSpan(state.span, request, outcome, errorType);
    if (!this.recordsMetrics) return;
    const attributes = metricAttributes(request);
    if (errorType !== undefined) attributes[Attr.errorType] = errorType;
    if (outcome.errorCode !== undefined) attributes[Attr.statusCode] = String(outcome.errorCode);
    const histogram = request.role === 'client' ? this.clientOperation : this.serverOperation;
    histogram.record(outcome.durationMs / 1000, attributes);
  }

  sessionClosed(session: ObservedSession, durationMs: number): void {
    const attributes: Attributes = {};
    if (session.protocolVersion) attributes[Attr.protocolVersion] = session.protocolVersion;
    if (session.transport) attributes[Attr.networkTransport] = session.transport;
    const histogram = session.role === 'client' ? this.clientSession : this.serverSession;
    histogram.record(durationMs / 1000, attributes);
  }

  private spanName(request: ObservedRequest): string {
    const method = request.method;
    if (method === 'tools/call' || method === 'prompts/get') {
      const target = request.target;
      return target ? `${method} ${target}` : method;
    }
    if (this.options.resourceUriInSpanName && method.startsWith('resources/')) {
      const target = request.target;
      return target ? `${method} ${target}` : method;
    }
    return method;
  }

  private startAttributes(request: ObservedRequest): Attributes {
    const attributes = metricAttributes(request);
    attributes[Attr.requestId] = String(request.id);
    const session = request.session;
    if (session?.id) attributes[Attr.sessionId] = session.id;
    if (request.method.startsWith('resources/')) {
      const uri = request.target;
      if (uri) attributes[Attr.resourceUri] = uri;
    }
    if (this.options.recordToolPayloads && request.method === 'tools/call') {
      const args = request.params?.arguments;
      if (args !== undefined) attributes[Attr.toolArguments] = safeJson(args);
    }
    return attributes;
  }

  private endSpan(
    span: Span,
    request: ObservedRequest,
    outcome: ObservedOutcome,
    errorType: string | undefined,
  ): void {
    if (errorType !== undefined) {
      span.setAttribute(Attr.errorType, errorType);
      if (outcome.errorCode !== undefined) span.setAttribute(Attr.statusCode, String(outcome.errorCode));
      span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorMessage ?? errorType });
    }
    if (this.options.recordToolPayloads && request.method === 'tools/call' && outcome.result) {
      span.setAttribute(Attr.toolResult, safeJson(outcome.result.content));
    }
    span.end();
  }
}

/** The low-cardinality attributes shared by spans and the operation histograms. */
function metricAttributes(request: ObservedRequest): Attributes {
  const attributes: Attributes = { [Attr.methodName]: request.method };
  const session = request.session;
  const version = session?.protocolVersion;
  if (version) attributes[Attr.protocolVersion] = version;
  if (session?.transport) attributes[Attr.networkTransport] = session.transport;
  if (request.method === 'tools/call') {
    attributes[Attr.operationName] = 'execute_tool';
    const tool = request.target;
    if (tool) attributes[Attr.toolName] = tool;
  } else if (request.method === 'prompts/get') {
    const prompt = request.target;
    if (prompt) attributes[Attr.promptName] = prompt;
  }
  return attributes;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[unserializable]';
  }
}
