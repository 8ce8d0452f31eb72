/**
 * Prometheus metrics for mcpkit on Node, from the observer seam, with `prom-client`.
 *
 * `prom-client` is Node's de-facto Prometheus client and runs on Node 20, where the OpenTelemetry
 * Prometheus exporter's current line needs Node 22.15; it is an optional peer dependency, loaded
 * only by this module. Names follow the OpenTelemetry conventions as Prometheus renders them
 * (`mcp_server_operation_duration_seconds`...), plus mcpkit gauges and counters.
 * @module
 */
import type { ObservedOutcome, ObservedRequest, ObservedSession, Observer } from '@mcpkit/core';
import { MCP_DURATION_BUCKETS, observedErrorType } from '@mcpkit/core';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Options of {@link createPrometheusMetrics}. */
export interface PrometheusMetricsOptions {
  /** Where the metrics are registered. Default: a new registry of their own. */
  registry?: Registry;
}

/**
 * What {@link PrometheusMetrics.watch} reads of an HTTP handler: every mcpkit handler
 * (`createStreamableHttpHandler`, `createLegacySseHandler`) has both.
 *
 * @example
 * ```ts
 * const counts: WatchedHandler = { streamCount: 2, storedEvents: 40 };
 * ```
 */
export interface WatchedHandler {
  /** SSE responses open now. */
  readonly streamCount: number;
  /** Events its event store holds, when the store counts them. */
  readonly storedEvents?: number | undefined;
}

/** What {@link createPrometheusMetrics} returns. */
export interface PrometheusMetrics {
  /** Install as the `observer` option of a server or client (or combine it with others). */
  readonly observer: Observer;
  /**
   * Also reports `handler`'s open SSE streams (`mcpkit_server_sse_streams_open`) and its event
   * store's size (`mcpkit_server_event_store_events`, present once a watched store counts its
   * events), read when scraped, so nothing is paid per message. Several handlers add up. Returns a
   * function that stops watching.
   */
  watch(handler: WatchedHandler): () => void;
  /** The registry holding the metrics. */
  readonly registry: Registry;
  /** The metrics in the Prometheus text exposition format (0.0.4), for any framework's route. */
  text(): Promise<string>;
  /** The `Content-Type` of {@link text}. */
  readonly contentType: string;
}

const OPERATION_LABELS = [
  'mcp_method_name',
  'gen_ai_tool_name',
  'gen_ai_prompt_name',
  'error_type',
  'network_transport',
  'mcp_protocol_version',
] as const;
type OperationLabel = (typeof OPERATION_LABELS)[number];

const SIZE_BUCKETS = [64, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304];

/**
 * Creates the metrics and the observer that feeds them.
 *
 * @example
 * ```ts
 * const prometheus = createPrometheusMetrics();
 * const server = new McpServer(info, { observer: prometheus.observer });
 * app.get('/metrics', async (_req, res) => res.type(prometheus.contentType).send(await prometheus.text()));
 * ```
 */
export function createPrometheusMetrics(options: PrometheusMetricsOptions = {}): PrometheusMetrics {
  const registry = options.registry ?? new Registry();
  const observer = new PrometheusObserver(registry);
  return {
    observer,
    watch: watchedHandlerGauges(registry),
    registry,
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

class PrometheusObserver implements Observer {
  private readonly serverOperation: Histogram<OperationLabel>;
  private readonly clientOperation: Histogram<OperationLabel>;
  private readonly serverSession: Histogram<'mcp_protocol_version' | 'network_transport'>;
  private readonly clientSession: Histogram<'mcp_protocol_version' | 'network_transport'>;
  private readonly requests: Counter<'mcp_method_name' | 'outcome'>;
  private readonly inFlight: Gauge<'mcp_method_name'>;
  private readonly sessions: Gauge<'network_transport'>;
  private readonly sizes: Histogram<'direction'>;

  constructor(registry: Registry) {
    const registers = [registry];
    const buckets = [...MCP_DURATION_BUCKETS];
    const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
      new Histogram<L>({ name, help, labelNames, buckets, registers });
    this.serverOperation = histogram(
      'mcp_server_operation_duration_seconds',
      'MCP requests as their receiver saw them, until the response was sent.',
      OPERATION_LABELS,
    );
    this.clientOperation = histogram(
      'mcp_client_operation_duration_seconds',
      'MCP requests as their sender saw them, until the response arrived.',
      OPERATION_LABELS,
    );
    const sessionLabels = ['mcp_protocol_version', 'network_transport'] as const;
    this.serverSession = histogram(
      'mcp_server_session_duration_seconds',
      'MCP server sessions.',
      sessionLabels,
    );
    this.clientSession = histogram(
      'mcp_client_session_duration_seconds',
      'MCP client sessions.',
      sessionLabels,
    );
    this.requests = new Counter({
      name: 'mcpkit_server_requests_total',
      help: 'MCP requests answered, by method and outcome (ok, error, tool_error, cancelled, closed).',
      labelNames: ['mcp_method_name', 'outcome'],
      registers,
    });
    this.inFlight = new Gauge({
      name: 'mcpkit_server_requests_in_flight',
      help: 'MCP requests being handled.',
      labelNames: ['mcp_method_name'],
      registers,
    });
    this.sessions = new Gauge({
      name: 'mcpkit_server_sessions_open',
      help: 'Initialized MCP sessions not yet closed.',
      labelNames: ['network_transport'],
      registers,
    });
    this.sizes = new Histogram({
      name: 'mcpkit_message_size_bytes',
      help: 'Sizes of MCP messages on transports that report them (stdio, Streamable HTTP server).',
      labelNames: ['direction'],
      buckets: SIZE_BUCKETS,
      registers,
    });
  }

  requestStarted(request: ObservedRequest): void {
    if (request.role === 'server') this.inFlight.inc({ mcp_method_name: request.method });
  }

  requestFinished(request: ObservedRequest, outcome: ObservedOutcome): void {
    const labels = operationLabels(request);
    const error = observedErrorType(request.method, outcome);
    if (error !== undefined) labels.error_type = error;
    const seconds = outcome.durationMs / 1000;
    if (request.role === 'client') {
      this.clientOperation.observe(labels, seconds);
      return;
    }
    this.serverOperation.observe(labels, seconds);
    this.inFlight.dec({ mcp_method_name: request.method });
    const outcomeName =
      outcome.errorCode !== undefined ? 'error' : (outcome.failure ?? (error === undefined ? 'ok' : error));
    this.requests.inc({ mcp_method_name: request.method, outcome: outcomeName });
  }

  sessionOpened(session: ObservedSession): void {
    if (session.role === 'server') this.sessions.inc({ network_transport: session.transport ?? 'unknown' });
  }

  sessionClosed(session: ObservedSession, durationMs: number): void {
    const labels: Partial<Record<'mcp_protocol_version' | 'network_transport', string>> = {};
    if (session.protocolVersion) labels.mcp_protocol_version = session.protocolVersion;
    if (session.transport) labels.network_transport = session.transport;
    if (session.role === 'client') {
      this.clientSession.observe(labels, durationMs / 1000);
      return;
    }
    this.serverSession.observe(labels, durationMs / 1000);
    this.sessions.dec({ network_transport: session.transport ?? 'unknown' });
  }

  messageSize(direction: 'in' | 'out', bytes: number): void {
    this.sizes.observe({ direction }, bytes);
  }
}

function operationLabels(request: ObservedRequest): Partial<Record<OperationLabel, string>> {
  const labels: Partial<Record<OperationLabel, string>> = { mcp_method_name: request.method };
  const session = request.session;
  const version = request.protocolVersion;
  if (version) labels.mcp_protocol_version = version;
  if (session?.transport) labels.network_transport = session.transport;
  const target = request.target;
  if (target !== undefined && request.method === 'tools/call') labels.gen_ai_tool_name = target;
  else if (target !== undefined && request.method === 'prompts/get') labels.gen_ai_prompt_name = target;
  return labels;
}

const EVENTS_GAUGE = 'mcpkit_server_event_store_events';

/**
 * The gauges of watched HTTP handlers, summed over them when scraped. The event-store gauge is
 * registered only once a watched handler's store counts its events: absent, rather than a false 0,
 * for stores that do not (a shared one).
 */
function watchedHandlerGauges(registry: Registry): (handler: WatchedHandler) => () => void {
  const handlers = new Set<WatchedHandler>();
  new Gauge({
    name: 'mcpkit_server_sse_streams_open',
    help: 'SSE responses open (POST answers streamed as SSE, GET streams, legacy HTTP+SSE streams).',
    registers: [registry],
    collect() {
      let open = 0;
      for (const handler of handlers) open += handler.streamCount;
      this.set(open);
    },
  });
  const events = new Gauge({
    name: EVENTS_GAUGE,
    help: 'Events held for resumable SSE streams, by the event stores that count them.',
    registers: [],
    collect() {
      let held = 0;
      for (const handler of handlers) held += handler.storedEvents ?? 0;
      this.set(held);
    },
  });
  return (handler) => {
    handlers.add(handler);
    if (handler.storedEvents !== undefined && !registry.getSingleMetric(EVENTS_GAUGE)) {
      registry.registerMetric(events);
    }
    return () => handlers.delete(handler);
  };
}
