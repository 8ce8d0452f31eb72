/**
 * The transport behind one Streamable HTTP session (or one stateless request).
 *
 * A session has many HTTP exchanges in flight: each POST that carries requests is an *exchange*
 * whose answer is a JSON body or an SSE stream, and a GET may hold the *standalone* stream. The
 * engine tags every outgoing message with the request it belongs to (`relatedRequestId`; a
 * response carries its own id), and this transport routes it: onto that request's exchange, or
 * onto the standalone stream when it belongs to no request.
 *
 * Every SSE stream is a *logical* stream with an id. Its events pass through one ordered queue
 * per stream, are recorded in the event store when there is one, and are written to whichever
 * connection currently carries the stream: the POST response, or a GET that resumed it with
 * `Last-Event-ID`. A stream outlives its connections, so a call whose connection dropped (or was
 * closed on purpose for SSE polling) keeps running and its remaining messages reach the client
 * when it resumes, exactly once.
 * @module
 */
import {
  CapabilityError,
  ErrorCode,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type MessageExtra,
  type MessageSink,
  type RequestId,
  type SendOptions,
  type Transport,
} from '@mcpkit/core';
import { type ClassifiedBody, errorResponse, toError } from '@mcpkit/core/internal';
import type { ServerSession } from '../../session.js';
import type { ServerSessionState, SessionStateHolder } from '../../sessionState.js';
import { deliverBody } from '../body.js';
import type { EventStore, OrphanedStream } from './eventStore.js';
import type { AbortSignalLike } from '../rawHttp.js';
import type { ClusterSupport, RerunFilter } from '../sessions/rerun.js';
import { emptyReply, jsonReply, Refuse, type Reply, sseReply } from '../responses.js';
import {
  type ConnectionRegistry,
  messageEvent,
  primingEvent,
  SseConnection,
  type SseConnectionOwner,
} from './sse.js';

/** Handler-wide settings and services that session transports share. */
export interface HttpRuntime {
  readonly eventStore: EventStore | undefined;
  /** The `retry:` value (ms) sent with priming events. */
  readonly retryInterval: number;
  /** Bytes a client may leave unread on one SSE connection before it is cut off. */
  readonly maxBufferedBytes: number;
  readonly connections: ConnectionRegistry;
  /** Makes sure the handler's single housekeeping timer runs. */
  wake(): void;
  report(error: Error): void;
  /** A new session answered `initialize` successfully: it becomes reachable by its id. */
  sessionReady(transport: HttpSessionTransport): void;
  /** A session transport closed. */
  sessionEnded(transport: HttpSessionTransport): void;
  /** A request of the session was answered (its state may have changed). Only with a session store. */
  readonly answered?: (transport: HttpSessionTransport) => void;
}

/** How an exchange answers. */
export interface ExchangeOptions {
  /** Answer with JSON when the response is the first message for the request. */
  readonly preferJson: boolean;
  /** This exchange carries the `initialize` that creates the session. */
  readonly opensSession: boolean;
  /**
   * The HTTP request, whose signal tells that the client left while a JSON answer is undecided.
   * Read only then: an SSE answer learns it from its body being cancelled, and reading a web
   * `Request`'s signal has a cost on some runtimes (Deno prints a legacy-abort notice).
   */
  readonly request: { readonly signal: AbortSignalLike } | undefined;
  /** The HTTP status of a JSON answer (2026-07-28 gives some errors 400 or 404); default 200. */
  readonly statusOf?: (message: JsonRpcMessage | JsonRpcMessage[]) => number;
}

/** The first revision with priming events and SSE polling (SEP-1699). */
const POLLING_REVISION = '2025-11-25';
/** Notifications kept for a session with no open GET stream (oldest dropped first). */
const MAX_BACKLOG = 64;
/** Ended streams a session keeps resumable (and remembers, to delete their events when it ends). */
const MAX_ENDED_STREAMS = 64;
const CANCELLED = 'notifications/cancelled';
/** Requests to the client remembered per session when answers are routed between nodes. */
const MAX_AWAITING = 256;
const STATELESS_REQUEST =
  'A stateless Streamable HTTP server cannot send requests to the client (sampling, elicitation, roots, ping): its answer would reach no session';

/** One POST that carried requests, until every one of them is answered. */
class Exchange {
  remaining: number;
  stream: LogicalStream | undefined;
  settled = false;
  /** The request, kept to claim its stream for fail-over (cluster only). */
  request: JsonRpcRequest | undefined;
  readonly response: Promise<Reply>;
  private resolve!: (response: Reply) => void;
  private abortListener: (() => void) | undefined;
  private signal: AbortSignalLike | undefined;

  constructor(
    readonly ids: readonly RequestId[],
    readonly options: ExchangeOptions,
  ) {
    this.remaining = ids.length;
    this.response = new Promise<Reply>((resolve) => {
      this.resolve = resolve;
    });
  }

  /** Listens for the client leaving while the answer is undecided (JSON may still come). */
  watch(onAbort: () => void): void {
    const signal = this.options.request?.signal;
    if (!signal) return;
    if (signal.aborted) {
      queueMicrotask(onAbort);
      return;
    }
    this.signal = signal;
    this.abortListener = onAbort;
    signal.addEventListener('abort', onAbort, { once: true });
  }

  settle(response: Reply): void {
    this.unwatch();
    if (this.settled) return;
    this.settled = true;
    this.resolve(response);
  }

  unwatch(): void {
    if (this.abortListener) this.signal!.removeEventListener('abort', this.abortListener);
    this.abortListener = undefined;
    this.signal = undefined;
  }
}

const END = { kind: 'end' } as const;

/** Work queued on a stream, done strictly in order (the event store may answer asynchronously). */
type StreamOp =
  /** Serialized message, or `''` for a priming event. */
  | string
  | typeof END
  | { readonly kind: 'detach'; readonly retry: number | undefined }
  | { readonly kind: 'resume'; readonly connection: SseConnection; readonly lastEventId: string };

/** An SSE stream as the client sees it: one id space, possibly carried by several connections. */
class LogicalStream implements SseConnectionOwner {
  connection: SseConnection | undefined;
  readonly ops: StreamOp[] = [];
  busy = false;
  /** False once the stream has ended (its exchange was answered, or the session closed). */
  live = true;
  /** A GET is replaying this stream; a second one must wait its turn. */
  resuming = false;
  /** An event with an id was produced: the client holds a position it can resume from. */
  hasIds = false;
  /** Standalone stream only: events produced while no GET was open. */
  backlog: string[] | undefined;
  /** A call run again after its node died: drops what the first run already stored. */
  rerun: RerunFilter | undefined;
  /** Shared standalone stream: this node holds it in the store (the session's one GET). */
  held = false;

  constructor(
    private readonly transport: HttpSessionTransport,
    readonly id: string,
    readonly exchange: Exchange | undefined,
  ) {}

  connectionLost(connection: SseConnection): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.transport.streamDisconnected(this);
  }
}

/**
 * The server-side transport of one HTTP session. Created by the Streamable HTTP handler; not meant
 * to be constructed by applications.
 */
export class HttpSessionTransport implements Transport, SessionStateHolder {
  readonly networkTransport = 'tcp';
  /** The `ServerSession` serving this transport (set by the handler right after connecting). */
  session: ServerSession | undefined;
  /** When the client last sent anything (ms since epoch); idle sessions expire. */
  lastActivity = Date.now();
  /** The principal (see `principalOf`) whose token created the session, to bind it to them. */
  principal: string | undefined;
  /** When the session began (ms since epoch). */
  readonly createdAt = Date.now();
  /** The client sent `notifications/initialized`; until then the session expires early. */
  handshakeDone = false;
  /** The key this session counts under in a per-client quota, when one is enforced. */
  clientKey: string | undefined;
  /**
   * Closing ends this process's copy only: the session lives on in a shared session store, so its
   * events in the shared event store stay for the node that serves it next.
   */
  localOnly = false;
  /** Makes this copy's stream ids unique when other nodes serve the same session (restored copies). */
  private streamTag = '';
  /**
   * Ids of this copy's requests to the client still unanswered, kept only when answers are routed
   * between nodes (`trackRequests`), so a node knows which answers are its own.
   */
  private awaiting: Set<RequestId> | undefined;
  /** Keep {@link awaiting}: set by the handler when a session store routes answers. */
  trackRequests = false;
  /**
   * Several nodes serve this session through a shared event store that can be followed: the
   * standalone stream is one Redis-like stream all of them write, and the node holding the GET
   * follows it (so a notification sent on any node reaches the client's GET on any node).
   */
  clustered = false;
  /** What only a clustered copy uses (fail-over, the one GET across nodes), brought by the store's code. */
  cluster: ClusterSupport | undefined;
  /** Streams that ended but whose events the store still holds, deleted with the session. */
  private endedStreams: string[] | undefined;
  private sink: MessageSink | undefined;
  private version: string | undefined;
  private readonly exchanges = new Map<RequestId, Exchange>();
  /** Streams still open (their exchange unanswered, or the standalone stream), by stream id. */
  private readonly streams = new Map<string, LogicalStream>();
  private standaloneStream: LogicalStream | undefined;
  private nextStream = 1;
  private isClosed = false;
  /** Prefix of every stream id of this session: ownership of a `Last-Event-ID` is a prefix test. */
  private prefix: string | undefined;

  constructor(
    private readonly runtime: HttpRuntime,
    readonly sessionId: string | undefined,
    /** One request, no session: close as soon as it is answered. */
    private readonly stateless: boolean,
  ) {}

  /** Stream ids only leave the process as event ids, which need a store: a counter suffices without. */
  private streamId(sequence: number): string {
    return this.runtime.eventStore ? `${this.streamPrefix}${this.streamTag}${sequence}` : String(sequence);
  }

  /** Made on first use: a stateless request without an event store never needs one. */
  private get streamPrefix(): string {
    if (this.prefix === undefined) this.prefix = `${randomHex(8)}-`;
    return this.prefix;
  }

  start(sink: MessageSink): void {
    this.sink = sink;
  }

  sessionStatePart(): Pick<ServerSessionState, 'eventIdPrefix' | 'principal'> {
    const part: { eventIdPrefix?: string; principal?: string } = {};
    if (this.prefix !== undefined) part.eventIdPrefix = this.prefix;
    if (this.principal !== undefined) part.principal = this.principal;
    return part;
  }

  /** Fixes the event-id prefix now, so the record saved for other nodes carries it. */
  ensurePrefix(): void {
    void this.streamPrefix;
  }

  restoreSessionState(state: ServerSessionState): void {
    if (state.eventIdPrefix !== undefined) this.prefix = state.eventIdPrefix;
    // The node that began the session numbers its streams 0, 1, 2…; another copy must not reuse them.
    this.streamTag = `${randomHex(4)}.`;
    if (state.principal !== undefined) this.principal = state.principal;
  }

  setProtocolVersion(version: string): void {
    this.version = version;
  }

  /** The revision negotiated on this session, once `initialize` was answered. */
  get protocolVersion(): string | undefined {
    return this.version;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * True while a client is connected: a GET stream is open, or a POST still waits for its answer.
   * A call whose client left (and could resume but has not) does not count, so a session whose
   * client vanished still expires, and its handlers are cancelled then rather than run forever.
   */
  get busy(): boolean {
    if (this.standaloneStream?.connection) return true;
    for (const exchange of this.exchanges.values()) {
      if (!exchange.stream || exchange.stream.connection) return true;
    }
    return false;
  }

  /** No stream open and nothing in flight: the session can be evicted without cutting anyone off. */
  get idle(): boolean {
    return (
      this.exchanges.size === 0 && !this.standaloneStream?.connection && !this.standaloneStream?.resuming
    );
  }

  // ---------------------------------------------------------------- inbound (from the handler)

  /** True when a request with this id is still being answered on this session. */
  hasExchange(id: RequestId): boolean {
    return this.exchanges.has(id);
  }

  /**
   * Starts answering a POST that carries the requests `ids`. Register before delivering: a
   * handler may answer synchronously. The promise settles with the HTTP response to return.
   */
  openExchange(ids: readonly RequestId[], options: ExchangeOptions): Promise<Reply> {
    const exchange = new Exchange(ids, options);
    for (const id of ids) this.exchanges.set(id, exchange);
    // A JSON answer is the only one with no body to be cancelled while it is being decided. An
    // initialize in SSE mode opens its stream as soon as it is answered (at once), and a handshake
    // its client abandoned ends with the handshake timeout. The signal is read only for an answer
    // still undecided once delivery is done: one answered at once never touches it (reading it
    // makes Deno print its legacy-abort notice), and an abort cannot fire before a later task.
    if (options.preferJson) {
      queueMicrotask(() => {
        if (!exchange.settled) exchange.watch(() => this.abandon(exchange));
      });
    } else if (!options.opensSession) this.openSse(exchange, undefined);
    return exchange.response;
  }

  /** Hands a parsed body (one message or a batch) to the session's connection. */
  deliver(body: ClassifiedBody, extra: MessageExtra): void {
    if (this.cluster) this.keepRequest(body);
    if (this.sink?.size) {
      const bytes = (extra as { bodyBytes?: number }).bodyBytes;
      if (bytes !== undefined) this.sink.size('in', bytes);
    }
    deliverBody(this.sink, body, extra);
  }

  /**
   * The client cancelled requests (`notifications/cancelled`, already delivered). The engine sends
   * no response for a cancelled request, so their exchanges end here without one.
   */
  clientCancelled(ids: readonly RequestId[]): void {
    for (const id of ids) {
      const exchange = this.exchanges.get(id);
      if (!exchange || exchange.options.opensSession) continue;
      this.exchanges.delete(id);
      if (--exchange.remaining <= 0) this.finish(exchange, emptyReply(204));
    }
  }

  /**
   * Cluster fail-over: a request whose stream the store can lease is recorded with it, so that
   * another node can run it again if this one dies before answering.
   */
  private keepRequest(body: ClassifiedBody): void {
    if (!this.runtime.eventStore?.claimStream) return;
    const request = this.cluster!.claimable(body);
    const exchange = request && this.exchanges.get(request.id);
    if (!exchange || exchange.options.opensSession || exchange.request) return;
    exchange.request = request;
    if (exchange.stream) this.claim(exchange.stream, request);
  }

  private claim(stream: LogicalStream, request: JsonRpcRequest): void {
    try {
      this.settle(this.runtime.eventStore!.claimStream!(stream.id, JSON.stringify(request)));
    } catch (error) {
      this.runtime.report(toError(error));
    }
  }

  /**
   * Runs again, here, the call of a stream whose node died (the store leased it to this node):
   * its new messages go to the same stream, minus what the first run stored already. It runs as
   * the client that resumed (`extra`: its verified caller, bound to the session like the first).
   */
  private rerun(orphan: OrphanedStream, extra: MessageExtra): boolean {
    const body = this.cluster?.parse(orphan.request);
    const request = body && this.cluster!.claimable(body);
    if (!body || !request || this.isClosed || this.exchanges.has(request.id)) return false;
    const id = request.id;
    const exchange = new Exchange([id], { preferJson: false, opensSession: false, request: undefined });
    const stream = new LogicalStream(this, orphan.streamId, exchange);
    stream.hasIds = true;
    const filter = this.cluster!.rerunFilter(id, orphan.earlier);
    stream.rerun = filter;
    if (filter.answered) {
      this.end(stream); // it died after answering: the stream only lacked its end
      return true;
    }
    exchange.request = request; // claimed already, by the store's take-over
    exchange.stream = stream;
    this.exchanges.set(id, exchange);
    this.streams.set(stream.id, stream);
    this.deliver(body, extra);
    return true;
  }

  /** This copy holds the session's GET stream for the whole cluster (it delivers broadcasts). */
  get holdsGet(): boolean {
    return this.standaloneStream?.held === true && this.standaloneStream.connection !== undefined;
  }

  /** Opens the standalone GET stream. `undefined` when one is already open (the caller answers 409). */
  openStandalone(): Reply | undefined | Promise<Reply | undefined> {
    const stream = this.standalone();
    if (stream.connection || stream.resuming) return undefined;
    if (this.sharesStandalone()) return this.openShared(stream, undefined);
    const connection = this.attachNewConnection(stream);
    const backlog = stream.backlog;
    stream.backlog = undefined;
    if (backlog) for (const text of backlog) connection.write(text);
    if (this.primes()) this.enqueue(stream, '');
    return sseReply(connection.body);
  }

  /**
   * Resumes the stream that `lastEventId` belongs to: replays what followed it, then carries the
   * stream's live events if it is still open. Unknown ids, and ids of other sessions, get 400.
   * `extra` (the GET's caller and headers) is what a call run again here after its node died sees.
   */
  async resume(lastEventId: string, extra: MessageExtra = RERUN): Promise<Reply> {
    const store = this.runtime.eventStore;
    if (!store) return Refuse.unknownEventId();
    const streamId = await store.streamIdOf(lastEventId);
    if (streamId === undefined || !streamId.startsWith(this.streamPrefix) || this.isClosed) {
      return Refuse.unknownEventId();
    }
    const stream = this.streams.get(streamId);
    if (stream === this.standaloneStream && stream && (stream.connection || stream.resuming)) {
      return Refuse.conflict(ONE_GET);
    }
    // The shared standalone stream is read from the store, whichever node wrote it.
    if (this.sharesStandalone() && streamId === this.standalone().id) {
      return (await this.openShared(this.standalone(), lastEventId)) ?? Refuse.conflict(ONE_GET);
    }
    const connection = new SseConnection(this.runtime.connections, this.runtime.maxBufferedBytes);
    this.runtime.wake();
    if (stream) {
      stream.resuming = true;
      stream.backlog = undefined; // the store replays those events
      this.enqueue(stream, { kind: 'resume', connection, lastEventId });
    } else {
      void this.replayEnded(store, connection, lastEventId, extra);
    }
    return sseReply(connection.body);
  }

  /**
   * SSE polling (SEP-1699): ends the HTTP response carrying request `id` while the request keeps
   * running; the client resumes with GET + `Last-Event-ID` and gets the rest. Only possible when
   * events are stored and the client understands priming events (2025-11-25 and later).
   */
  closeRequestStream(id: RequestId, retry?: number): boolean {
    const exchange = this.exchanges.get(id);
    if (!exchange || this.isClosed || !this.primes()) return false;
    if (!exchange.stream) this.openSse(exchange, undefined);
    this.enqueue(exchange.stream!, { kind: 'detach', retry });
    return true;
  }

  // ---------------------------------------------------------------- outbound (from the engine)

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void {
    if (this.isClosed) throw new Error('The HTTP session is closed');
    // The client POSTs its answer with no session to route it by, so it could never arrive: fail
    // the request now instead of letting it wait for its timeout.
    if (this.stateless && isRequest(message)) throw new CapabilityError(STATELESS_REQUEST);
    if (this.trackRequests && !Array.isArray(message) && 'method' in message && 'id' in message)
      this.await(message.id);
    const responseId = responseIdOf(message, this.exchanges);
    const target = responseId ?? (isResponse(message) ? undefined : options?.relatedRequestId);
    const exchange = target === undefined ? undefined : this.exchanges.get(target);
    const json = this.serialize(message, responseId);
    if (json === undefined) return;
    if (!exchange) {
      // A response nobody waits for (its request was cancelled) is dropped; the GET stream must
      // not carry responses. Everything else belongs to no request: the standalone stream.
      if (!isResponse(message)) this.enqueue(this.standalone(), json);
      return;
    }
    if (responseId !== undefined) this.answer(exchange, message, json);
    else {
      if (!exchange.stream) this.openSse(exchange, undefined);
      this.enqueue(exchange.stream!, json);
    }
  }

  /**
   * Whether `value` (a body of responses only) answers requests this copy sent, all of them; when
   * it does, they are no longer awaited. False sends them to the node that waits for them.
   */
  claimAnswers(value: unknown): boolean {
    if (!this.awaiting) return false;
    const items: unknown[] = Array.isArray(value) ? value : [value];
    const ids: RequestId[] = [];
    for (const item of items) {
      const id = (item as { id?: unknown }).id;
      if ((typeof id !== 'string' && typeof id !== 'number') || !this.awaiting.has(id)) return false;
      ids.push(id);
    }
    for (const id of ids) this.awaiting.delete(id);
    return true;
  }

  private await(id: RequestId): void {
    this.awaiting ??= new Set();
    this.awaiting.add(id);
    // Answers that never come (timeouts, cancellations) must not pile up.
    if (this.awaiting.size > MAX_AWAITING) this.awaiting.delete(this.awaiting.values().next().value!);
  }

  /** Ends every exchange and stream, and tells the engine. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const exchange of this.exchanges.values()) {
      if (!exchange.settled) exchange.settle(Refuse.unknownSession());
      exchange.unwatch();
    }
    this.exchanges.clear();
    if (this.standaloneStream) this.releaseShared(this.standaloneStream);
    const store = this.localOnly ? undefined : this.runtime.eventStore;
    for (const stream of this.streams.values()) {
      stream.live = false;
      // Queued resumes would otherwise leave their GETs hanging.
      for (const op of stream.ops.splice(0))
        if (typeof op === 'object' && op.kind === 'resume') op.connection.close();
      stream.connection?.close();
      stream.connection = undefined;
      if (store?.deleteStream) this.forget(store, stream.id);
      // A copy closing alone leaves the stream to the others, but gives up its claim on it.
      else if (this.localOnly && stream.exchange?.request)
        this.settle(this.runtime.eventStore?.endStream?.(stream.id));
    }
    this.streams.clear();
    if (store?.deleteStream && this.endedStreams) for (const id of this.endedStreams) this.forget(store, id);
    this.endedStreams = undefined;
    this.runtime.sessionEnded(this);
    this.sink?.closed();
  }

  // ---------------------------------------------------------------- internals

  private serialize(
    message: JsonRpcMessage | JsonRpcMessage[],
    responseId: RequestId | undefined,
  ): string | undefined {
    try {
      const text = JSON.stringify(message);
      if (this.sink?.size) this.sink.size('out', utf8Length(text));
      return text;
    } catch (error) {
      // A result that cannot be serialized (a cycle, a BigInt) must still answer its request.
      this.runtime.report(toError(error));
      if (responseId === undefined) return undefined;
      return JSON.stringify(errorResponse(responseId, ErrorCode.InternalError, 'Internal error'));
    }
  }

  private answer(exchange: Exchange, message: JsonRpcMessage | JsonRpcMessage[], json: string): void {
    if (Array.isArray(message)) {
      // A batch is answered all at once.
      for (const id of exchange.ids) if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
      exchange.remaining = 0;
    } else {
      this.exchanges.delete((message as { id: RequestId }).id);
      exchange.remaining--;
    }
    this.runtime.answered?.(this);
    if (!exchange.stream) {
      const sessionHeader = exchange.options.opensSession ? this.initialized(message) : undefined;
      if (exchange.remaining <= 0 && exchange.options.preferJson) {
        this.finish(exchange, jsonReply(json, sessionHeader, exchange.options.statusOf?.(message)));
        return;
      }
      this.openSse(exchange, sessionHeader);
    }
    this.enqueue(exchange.stream!, json);
    if (exchange.remaining <= 0) this.finish(exchange, undefined);
  }

  /** The session's `initialize` was answered: register the session, or drop it if that failed. */
  private initialized(message: JsonRpcMessage | JsonRpcMessage[]): string | undefined {
    if (!Array.isArray(message) && !('error' in message)) {
      this.runtime.sessionReady(this);
      return this.sessionId;
    }
    queueMicrotask(() => void this.closeSession());
    return undefined;
  }

  /** Ends an exchange: its stream ends after what is queued, or `response` answers the POST. */
  private finish(exchange: Exchange, response: Reply | undefined): void {
    exchange.remaining = 0;
    exchange.unwatch();
    if (exchange.stream) this.enqueue(exchange.stream, END);
    else if (response) exchange.settle(response);
    if (this.stateless) queueMicrotask(() => void this.closeSession());
  }

  /** The client went away before its requests were answered, and cannot resume: stop them. */
  private abandon(exchange: Exchange): void {
    if (this.isClosed || exchange.remaining <= 0) return;
    if (this.stateless || exchange.options.opensSession) {
      // Nothing else uses this transport: a session nobody will ever learn the id of is dropped.
      exchange.settle(Refuse.invalid('the client disconnected'));
      void this.closeSession();
      return;
    }
    const pending = exchange.ids.filter((id) => this.exchanges.get(id) === exchange);
    // Cancel before forgetting the ids, so anything the handlers send while stopping still finds
    // its exchange instead of spilling onto the standalone stream.
    for (const requestId of pending) {
      const params = { requestId, reason: 'The client disconnected and cannot resume' };
      this.sink?.message({ jsonrpc: '2.0', method: CANCELLED, params });
    }
    for (const id of pending) if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
    this.finish(exchange, Refuse.invalid('the client disconnected'));
  }

  /** @internal A stream lost its connection (the client went away). */
  streamDisconnected(stream: LogicalStream): void {
    this.releaseShared(stream);
    if (this.isClosed || !stream.live || !stream.exchange) return; // the standalone stream waits
    if (this.runtime.eventStore && stream.hasIds) return; // the client can resume
    this.abandon(stream.exchange);
  }

  private openSse(exchange: Exchange, sessionHeader: string | undefined): void {
    const stream = new LogicalStream(this, this.streamId(this.nextStream++), exchange);
    this.streams.set(stream.id, stream);
    exchange.stream = stream;
    if (exchange.request !== undefined) this.claim(stream, exchange.request);
    const connection = this.attachNewConnection(stream);
    exchange.settle(sseReply(connection.body, sessionHeader));
    if (this.primes()) this.enqueue(stream, '');
  }

  private attachNewConnection(stream: LogicalStream): SseConnection {
    const connection = new SseConnection(this.runtime.connections, this.runtime.maxBufferedBytes);
    connection.owner = stream;
    stream.connection = connection;
    this.runtime.wake();
    return connection;
  }

  /** The standalone stream is shared between the nodes serving this session (see {@link clustered}). */
  private sharesStandalone(): boolean {
    return this.clustered && this.runtime.eventStore?.followEventsAfter !== undefined;
  }

  /**
   * Shared standalone stream: holds it in the store first, so a session has one GET stream across
   * all nodes (`undefined` when another node holds it: 409), then follows it.
   */
  private async openShared(
    stream: LogicalStream,
    lastEventId: string | undefined,
  ): Promise<Reply | undefined> {
    const store = this.runtime.eventStore!;
    if (store.holdStream) {
      stream.resuming = true; // this node's own second GET waits for the answer, and is refused
      try {
        if (!(await this.cluster!.guarded(() => store.holdStream!(stream.id)))) return undefined;
      } finally {
        stream.resuming = false;
      }
      stream.held = true;
    }
    const connection = this.attachNewConnection(stream);
    void this.followStandalone(stream, connection, lastEventId);
    return sseReply(connection.body);
  }

  /** Marks the position a new GET starts at (or resumes after `lastEventId`), then follows the store. */
  private async followStandalone(
    stream: LogicalStream,
    connection: SseConnection,
    lastEventId: string | undefined,
  ): Promise<void> {
    const store = this.runtime.eventStore!;
    try {
      let start = lastEventId;
      if (start === undefined) {
        start = await store.storeEvent(stream.id, '');
        if (this.primes()) connection.write(primingEvent(start, this.runtime.retryInterval));
      }
      stream.hasIds = true;
      await store.followEventsAfter!(
        start,
        (id, data) => {
          connection.write(messageEvent(data, id));
        },
        () => connection.closed || !stream.live,
      );
    } catch (error) {
      this.runtime.report(toError(error));
    } finally {
      connection.close();
      // Ended here (not by the client leaving, which released it already): let the stream go.
      if (stream.connection === connection) {
        stream.connection = undefined;
        this.releaseShared(stream);
      }
    }
  }

  private releaseShared(stream: LogicalStream): void {
    if (!stream.held) return;
    stream.held = false;
    try {
      this.settle(this.runtime.eventStore!.releaseStream?.(stream.id));
    } catch (error) {
      this.runtime.report(toError(error));
    }
  }

  private standalone(): LogicalStream {
    if (!this.standaloneStream) {
      // Shared: one id for every node's copy (the restored copies' tag left out).
      const id = this.sharesStandalone() ? `${this.streamPrefix}0` : this.streamId(0);
      this.standaloneStream = new LogicalStream(this, id, undefined);
      this.streams.set(this.standaloneStream.id, this.standaloneStream);
    }
    return this.standaloneStream;
  }

  /** Priming events (and so SSE polling) need an event store and a 2025-11-25+ client. */
  private primes(): boolean {
    return (
      this.runtime.eventStore !== undefined && this.version !== undefined && this.version >= POLLING_REVISION
    );
  }

  private enqueue(stream: LogicalStream, op: StreamOp): void {
    // Nothing more is said on an ended stream, but a resume queued behind its end still replays.
    if (!stream.live && (typeof op === 'string' || op === END)) return;
    stream.ops.push(op);
    if (!stream.busy) this.pump(stream);
  }

  /** Runs a stream's queued work in order; an asynchronous step resumes the pump when it settles. */
  private pump(stream: LogicalStream): void {
    stream.busy = true;
    while (stream.ops.length > 0) {
      const pending = this.runSafely(stream, stream.ops.shift()!);
      if (pending) {
        pending.then(
          () => this.pump(stream),
          (error: unknown) => {
            this.runtime.report(toError(error));
            this.pump(stream);
          },
        );
        return;
      }
    }
    stream.busy = false;
  }

  private runSafely(stream: LogicalStream, op: StreamOp): Promise<void> | undefined {
    try {
      return this.run(stream, op) ?? undefined;
    } catch (error) {
      // One failed step (a throwing store) must not stall the stream.
      this.runtime.report(toError(error));
      return undefined;
    }
  }

  private run(stream: LogicalStream, op: StreamOp): Promise<void> | void {
    if (typeof op === 'string') return this.emit(stream, op);
    switch (op.kind) {
      case 'end':
        this.end(stream);
        return;
      case 'detach':
        this.detach(stream, op.retry);
        return;
      case 'resume':
        return this.replayInto(stream, op.connection, op.lastEventId);
    }
  }

  private emit(stream: LogicalStream, data: string): Promise<void> | void {
    if (stream.rerun?.repeats(data)) return;
    const store = this.runtime.eventStore;
    if (!store) {
      this.write(stream, undefined, data);
      return;
    }
    const id = store.storeEvent(stream.id, data);
    if (typeof id === 'string') {
      this.write(stream, id, data);
      return;
    }
    return id.then(
      (stored) => this.write(stream, stored, data),
      (error: unknown) => {
        // The store is down: the client still gets the message, without a position to resume at.
        this.runtime.report(toError(error));
        this.write(stream, undefined, data);
      },
    );
  }

  private write(stream: LogicalStream, id: string | undefined, data: string): void {
    if (id !== undefined) stream.hasIds = true;
    if (data === '') {
      if (id !== undefined) stream.connection?.write(primingEvent(id, this.runtime.retryInterval));
      return;
    }
    // The shared standalone stream reaches the client through the node that follows it.
    if (stream === this.standaloneStream && this.sharesStandalone()) return;
    const text = messageEvent(data, id);
    if (stream.connection?.write(text)) return;
    if (stream === this.standaloneStream) {
      if (!stream.backlog) stream.backlog = [];
      if (stream.backlog.push(text) > MAX_BACKLOG) stream.backlog.shift();
    }
  }

  private end(stream: LogicalStream): void {
    stream.live = false;
    this.streams.delete(stream.id);
    stream.connection?.close();
    stream.connection = undefined;
    const store = this.runtime.eventStore;
    if (stream.hasIds && store?.endStream) this.settle(store.endStream(stream.id));
    if (stream.hasIds && store?.deleteStream && !this.stateless) this.rememberEnded(stream.id);
  }

  /**
   * An ended stream stays resumable until the session ends, then its events go. A long session
   * remembers its newest streams only: past that, the oldest is deleted at once.
   */
  private rememberEnded(streamId: string): void {
    this.endedStreams ??= [];
    if (this.endedStreams.push(streamId) > MAX_ENDED_STREAMS)
      this.forget(this.runtime.eventStore!, this.endedStreams.shift()!);
  }

  private detach(stream: LogicalStream, retry: number | undefined): void {
    const connection = stream.connection;
    if (!connection) return;
    if (retry !== undefined) connection.write(`retry: ${Math.max(0, Math.floor(retry))}\n\n`);
    stream.connection = undefined;
    connection.close();
  }

  private replayInto(
    stream: LogicalStream,
    connection: SseConnection,
    lastEventId: string,
  ): Promise<void> | void {
    const attach = (): void => {
      stream.resuming = false;
      if (connection.closed) return; // the client left during the replay
      if (!stream.live) {
        connection.close();
        return;
      }
      // The newest connection wins; an older one still open would only see duplicates.
      const previous = stream.connection;
      if (previous && previous !== connection) previous.close();
      connection.owner = stream;
      stream.connection = connection;
    };
    const replayed = this.runtime.eventStore!.replayEventsAfter(lastEventId, (id, data) => {
      connection.write(messageEvent(data, id));
    });
    if (isPromise(replayed))
      return replayed.then(attach, (error: unknown) => {
        attach();
        throw error;
      });
    attach();
  }

  /** Replays a stream that has already ended, then ends the GET. */
  private async replayEnded(
    store: EventStore,
    connection: SseConnection,
    lastEventId: string,
    extra: MessageExtra,
  ): Promise<void> {
    const send = (id: string, data: string): void => {
      connection.write(messageEvent(data, id));
    };
    try {
      // A shared store may hold a stream another node is still writing: follow it to its end,
      // running its call here if that node died (fail-over).
      const takeOver =
        this.cluster && store.claimStream ? (orphan: OrphanedStream) => this.rerun(orphan, extra) : undefined;
      if (store.followEventsAfter)
        await store.followEventsAfter(lastEventId, send, () => connection.closed, takeOver);
      else await store.replayEventsAfter(lastEventId, send);
    } catch (error) {
      this.runtime.report(toError(error));
    } finally {
      connection.close();
    }
  }

  private forget(store: EventStore, streamId: string): void {
    try {
      this.settle(store.deleteStream!(streamId));
    } catch (error) {
      this.runtime.report(toError(error));
    }
  }

  /** Reports the failure of a store call nobody waits for. */
  private settle(pending: void | Promise<void>): void {
    if (pending) pending.catch((error: unknown) => this.runtime.report(toError(error)));
  }

  /** Closes through the session when there is one, so the engine and server see it end. */
  private async closeSession(): Promise<void> {
    try {
      if (this.session) await this.session.close();
      else await this.close();
    } catch (error) {
      this.runtime.report(toError(error));
    }
  }
}

const ONE_GET = 'the session already has an open GET stream';

/** The extra of a resume that brings no HTTP request along (a call run again sees no caller). */
const RERUN: MessageExtra = {};

/** A request (or a batch holding one): it has a method and an id. */
function isRequest(message: JsonRpcMessage | JsonRpcMessage[]): boolean {
  const items = Array.isArray(message) ? message : [message];
  return items.some((item) => 'method' in item && 'id' in item);
}

function isResponse(message: JsonRpcMessage | JsonRpcMessage[]): boolean {
  return Array.isArray(message) || !('method' in message);
}

/** The request a response (or batch of responses) answers, preferring ids with an open exchange. */
function responseIdOf(
  message: JsonRpcMessage | JsonRpcMessage[],
  exchanges: Map<RequestId, Exchange>,
): RequestId | undefined {
  if (!Array.isArray(message)) return 'method' in message ? undefined : message.id;
  for (const item of message) {
    const id = (item as { id?: RequestId }).id;
    if (id !== undefined && !('method' in item) && exchanges.has(id)) return id;
  }
  return undefined;
}

function isPromise(value: unknown): value is Promise<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  let hex = '';
  for (const byte of buffer) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** The UTF-8 size of `text` (for an observer of message sizes; web APIs only). */
function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
