/**
 * An mcpkit {@link Observer} that records OpenTelemetry spans and metrics per the MCP semantic
 * conventions, and carries trace context across the wire in `params._meta`.
 *
 * Only `@opentelemetry/api` is imported: without an SDK registered everything is a no-op, and
 * the package runs wherever the API does (Node, Bun, Deno, Workers, browsers).
 * @module
 */
import {
  type ObservedMessage,
  type ObservedNotification,
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
  ProxyTracerProvider,
  propagation,
  type Span,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { type AttributeSet, AttributeSets } from './attributeSets.js';
import { Attr, DURATION_BUCKETS, Metric } from './conventions.js';
import { contextWithSpan } from './spanContext.js';

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

/** What a message carries from its start to its end (`message.state`). */
interface SpanState {
  readonly span: Span | undefined;
  readonly context: Context | undefined;
  readonly set: AttributeSet;
}

const NAME = '@mcpkit/otel';
/** The API's no-op provider: what the global proxy delegates to until an SDK registers. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/** Reads `_meta` entries as a propagation carrier (string values only). */
const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** Writes propagation fields into the outgoing message's `_meta`. */
const metaSetter: TextMapSetter<ObservedMessage> = {
  set: (carrier, key, value) => carrier.setMeta(key, value),
};

/**
 * Creates the observer. Pass it as the `observer` option of a server or client (both sides).
 * Requests and notifications both get spans (a notification's span has no `jsonrpc.request.id`)
 * and carry trace context in `_meta`; the operation histograms count both.
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
  /** The global proxy provider, when spans go through it: tracing is off until it has an SDK. */
  private readonly proxy: ProxyTracerProvider | undefined;
  private readonly clientOperation: Histogram;
  private readonly serverOperation: Histogram;
  private readonly clientSession: Histogram;
  private readonly serverSession: Histogram;
  private readonly recordsMetrics: boolean;
  private readonly sets: AttributeSets;

  constructor(private readonly options: OtelObserverOptions) {
    const provider = options.tracerProvider ?? trace.getTracerProvider();
    this.proxy = provider instanceof ProxyTracerProvider ? provider : undefined;
    this.tracer = provider.getTracer(NAME);
    this.sets = new AttributeSets(options.resourceUriInSpanName === true);
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
      'The duration of an MCP request or notification as observed by its sender.',
    );
    this.serverOperation = histogram(
      Metric.serverOperation,
      'The duration of an MCP request or notification as observed by its receiver.',
    );
    this.clientSession = histogram(Metric.clientSession, 'The duration of an MCP session on the client.');
    this.serverSession = histogram(Metric.serverSession, 'The duration of an MCP session on the server.');
  }

  requestStarted(request: ObservedRequest): void {
    this.start(request, request.id);
  }

  notificationStarted(notification: ObservedNotification): void {
    this.start(notification, undefined);
  }

  runHandler<T>(message: ObservedMessage, handler: () => T): T {
    const active = (message.state as SpanState | undefined)?.context;
    return active ? context.with(active, handler) : handler();
  }

  requestFinished(request: ObservedRequest, outcome: ObservedOutcome): void {
    const state = request.state as SpanState | undefined;
    if (!state) return;
    const errorType = observedErrorType(request.method, outcome);
    if (state.span) this.endSpan(state.span, request, outcome, errorType);
    if (!this.recordsMetrics) return;
    const set = state.set;
    const attributes =
      errorType === undefined ? set.metricAttributes : set.failed(errorType, outcome.errorCode);
    const histogram = request.role === 'client' ? this.clientOperation : this.serverOperation;
    // Passing the context spares the SDK a lookup of the active one (when tracing made one).
    histogram.record(outcome.durationMs / 1000, attributes, state.context);
  }

  notificationFinished(notification: ObservedNotification, durationMs: number): void {
    const state = notification.state as SpanState | undefined;
    if (!state) return;
    state.span?.end();
    if (!this.recordsMetrics) return;
    const histogram = notification.role === 'client' ? this.clientOperation : this.serverOperation;
    histogram.record(durationMs / 1000, state.set.metricAttributes, state.context);
  }

  sessionClosed(session: ObservedSession, durationMs: number): void {
    if (!this.recordsMetrics) return;
    const attributes: Attributes = {};
    if (session.protocolVersion) attributes[Attr.protocolVersion] = session.protocolVersion;
    if (session.transport) attributes[Attr.networkTransport] = session.transport;
    const histogram = session.role === 'client' ? this.clientSession : this.serverSession;
    histogram.record(durationMs / 1000, attributes);
  }

  /** False while the global provider has no SDK behind it: then no span is worth starting. */
  private tracing(): boolean {
    return this.proxy === undefined || this.proxy.getDelegate() !== NOOP_TRACER_PROVIDER;
  }

  /**
   * Starts a message's span (when tracing) and remembers its attribute set (when recording
   * metrics). With neither, nothing is built and `state` stays undefined.
   */
  private start(message: ObservedMessage, id: ObservedRequest['id'] | undefined): void {
    const tracing = this.tracing();
    if (!tracing && !this.recordsMetrics) return;
    const target = message.target;
    const set = this.sets.of(message, target);
    let span: Span | undefined;
    let active: Context | undefined;
    if (tracing) {
      const ambient = context.active();
      const parent = message.role === 'client' ? ambient : peerContext(ambient, message);
      span = this.startSpan(message, id, target, set, parent, ambient);
      if (span) active = contextWithSpan(parent, span);
      if (active && message.role === 'client') propagation.inject(active, message, metaSetter);
    }
    message.state = { span, context: active, set } satisfies SpanState;
  }

  /** The span, or `undefined` when it neither records nor continues a trace. */
  private startSpan(
    message: ObservedMessage,
    id: ObservedRequest['id'] | undefined,
    target: string | undefined,
    set: AttributeSet,
    parent: Context,
    ambient: Context,
  ): Span | undefined {
    const client = message.role === 'client';
    // The ambient context (an HTTP server span) is only linked to a server span whose parent came
    // in `_meta`: one MCP request may span several HTTP requests and one HTTP request many.
    let links: Link[] | undefined;
    if (parent !== ambient) {
      const outer = trace.getSpanContext(ambient);
      if (outer) links = [{ context: outer }];
    }
    const shared = client ? set.clientSpan : set.serverSpan;
    const options = links ? { ...shared, links } : shared;
    const span = this.tracer.startSpan(set.spanName, options, parent);
    if (!span.isRecording()) return isSpanContextValid(span.spanContext()) ? span : undefined;
    if (id !== undefined) span.setAttribute(Attr.requestId, String(id));
    const sessionId = message.session?.id;
    if (sessionId) span.setAttribute(Attr.sessionId, sessionId);
    if (target && message.method.startsWith('resources/')) span.setAttribute(Attr.resourceUri, target);
    if (this.options.recordToolPayloads && message.method === 'tools/call') {
      const args = message.params?.arguments;
      if (args !== undefined) span.setAttribute(Attr.toolArguments, safeJson(args));
    }
    return span;
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

/** A received message's parent: the peer's context from `_meta`, else the ambient one. */
function peerContext(ambient: Context, message: ObservedMessage): Context {
  const meta = message.params?._meta;
  if (typeof meta !== 'object' || meta === null || !('traceparent' in meta)) return ambient;
  return propagation.extract(ambient, meta as Record<string, unknown>, metaGetter);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[unserializable]';
  }
}
