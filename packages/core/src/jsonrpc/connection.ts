/**
 * The JSON-RPC 2.0 engine that clients and servers both use.
 *
 * A connection owns one transport. It checks every incoming envelope, matches responses to
 * requests, runs timeouts, carries cancellation and progress both ways, and never throws at the
 * transport: every problem becomes a spec-correct error response or a report to `onError`.
 * What the methods mean is the handler's business (see the MCP session layers).
 * @module
 */
import { type ObservedOutcome, ObservedRequest, type ObservedSession, type Observer } from '../observer.js';
import { isPromiseLike, toError } from '../shared.js';
import type { MessageExtra, MessageSink, SendOptions, Transport } from '../transport/transport.js';
import { DeadlineTimer } from './deadlines.js';
import {
  ConnectionClosedError,
  InvalidResponseError,
  McpError,
  RequestCancelledError,
  RequestTimeoutError,
} from './errors.js';
import {
  type BatchCollector,
  type CancelSource,
  IncomingRequest,
  type OutgoingRequestOptions,
  onBehalfOf,
  type ProgressUpdate,
  progressParamsOf,
} from './incomingRequest.js';
import { JsonTooDeepError } from './jsonDepth.js';
import { MapRenewal } from './mapRenewal.js';
import {
  type ClassifiedBody,
  classifyBody,
  classifyMessage,
  ErrorCode,
  errorResponse,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type MessageKind,
  type RequestId,
} from './messages.js';
import { elapsed, observeNotification, outgoingOutcome, withMeta } from './observing.js';

const CANCELLED = 'notifications/cancelled';
const PROGRESS = 'notifications/progress';

/** What a connection calls when the peer sends something. */
export interface ConnectionHandler {
  /**
   * Answers one request. Return the result object (or a promise of it); throw an {@link McpError}
   * to answer with that error. Any other throw, a `LocalError` such as a timeout of a request the
   * handler made included, is answered as `-32603` with no details and reported to `onError`.
   */
  onRequest(request: IncomingRequest): unknown;
  /** Receives a notification. Cancellation and progress for our own requests are handled before. */
  onNotification(method: string, params: Record<string, unknown> | undefined, extra?: MessageExtra): void;
  /** The transport closed. */
  onClose?(error?: Error): void;
}

/** Options of {@link Connection}. */
export interface ConnectionOptions {
  /** Default timeout of outgoing requests in ms. Default 60 000. */
  requestTimeout?: number;
  /** Default hard limit of outgoing requests in ms, whatever progress arrives. Default 1 hour. */
  maxTotalTimeout?: number;
  /** Receives problems no caller can be told about (unknown response ids, bad notifications...). */
  onError?: (error: Error) => void;
  /** Whether an incoming JSON array is a batch to process. Only 2025-03-26 allows batches. */
  acceptBatches?: () => boolean;
  /**
   * How many of the peer's requests are handled at once; past it, a request is refused with a
   * `-32603` error that names this limit. Default: no limit (a client sets its own).
   */
  maxIncomingRequests?: number;
  /** Incoming methods the peer may not cancel. Default: `initialize`. */
  uncancellableMethods?: readonly string[];
  /**
   * Adapts the notifications the engine sends on its own (progress for an incoming request) to
   * the negotiated revision, as sessions and clients adapt the ones they send; `undefined` drops
   * the notification. Default: sent as built (2025-11-25 shape).
   */
  encodeNotification?: (
    method: string,
    params: Record<string, unknown>,
  ) => Record<string, unknown> | undefined;
  /** Sees every request sent and received, and message sizes (see {@link Observer}). */
  observer?: Observer | undefined;
  /** The session the observer is told requests belong to. */
  observedSession?: ObservedSession | undefined;
  /**
   * Hears a result that arrived for a request this side gave up on (cancelled, timed out). Its
   * caller never sees it, but it may name something the peer made for that request which only
   * it tells of (a 2026-07-28 task: the client cancels it). Default: dropped silently.
   */
  onLateResult?: (result: Record<string, unknown>) => void;
}

interface PendingRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly resolve: (result: any) => void;
  readonly reject: (error: Error) => void;
  readonly timeout: number;
  readonly maxTotalTimeout: number;
  readonly hardDeadline: number;
  deadline: number;
  readonly resetOnProgress: boolean;
  readonly onProgress: ((update: ProgressUpdate) => void) | undefined;
  lastProgress: number;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: (() => void) | undefined;
  /** `cancelledBy`, and the listener it was given. */
  readonly source: CancelSource | undefined;
  readonly onCancel: ((reason: unknown) => void) | undefined;
  /** Set only when an observer is installed. */
  readonly observed: ObservedRequest | undefined;
}

/**
 * A request's timeout when neither the call nor the connection sets one (ms).
 *
 * @example
 * ```ts
 * const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT;
 * ```
 */
export const DEFAULT_TIMEOUT = 60_000;
const DEFAULT_MAX_TOTAL_TIMEOUT = 60 * 60_000;
/** How many cancelled or timed-out ids we remember, so their late responses are dropped quietly. */
const FORGOTTEN_ID_MEMORY = 256;

/**
 * A JSON-RPC connection over one transport.
 *
 * @example
 * ```ts
 * const connection = new Connection(transport, {
 *   onRequest: (request) => (request.method === 'ping' ? {} : undefined),
 *   onNotification: () => {},
 * });
 * await connection.start();
 * const result = await connection.request('ping');
 * ```
 */
export class Connection {
  // Not `implements IncomingRequestOwner`: its methods are internal, and stripInternal would leave
  // the published class failing its own implements clause. Passing `this` as the owner checks it.
  private nextId = 1;
  // Renewed now and then (see MapRenewal): their churn would otherwise promote every request.
  private pending = new Map<RequestId, PendingRequest>();
  private incoming = new Map<RequestId, IncomingRequest>();
  private readonly pendingRenewal = new MapRenewal();
  private readonly incomingRenewal = new MapRenewal();
  private readonly forgotten = new Set<RequestId>();
  private readonly deadlines = new DeadlineTimer((now) => this.sweep(now));
  private readonly requestTimeout: number;
  private readonly maxTotalTimeout: number;
  private readonly uncancellable: ReadonlySet<string>;
  private closedError: Error | undefined;
  private isClosed = false;
  private readonly observer: Observer | undefined;
  /** Whether the observer listens to notifications (one check per notification). */
  private readonly seesNotifications: boolean;
  /** What the transport talks to; kept off the public surface of the connection. */
  private readonly sink: MessageSink = {
    message: (value, extra) => this.receive(value, extra),
    classified: (body, extra) => this.receiveClassified(body, extra),
    parseError: (error) => this.receiveGarbage(error),
    error: (error) => this.report(error),
    closed: (error) => this.handleClosed(error),
  };

  constructor(
    readonly transport: Transport,
    private readonly handler: ConnectionHandler,
    private readonly options: ConnectionOptions = {},
  ) {
    this.requestTimeout = options.requestTimeout ?? DEFAULT_TIMEOUT;
    this.maxTotalTimeout = options.maxTotalTimeout ?? DEFAULT_MAX_TOTAL_TIMEOUT;
    this.uncancellable = new Set(options.uncancellableMethods ?? ['initialize']);
    this.observer = options.observer;
    const observer = options.observer;
    this.seesNotifications = !!(observer?.notificationStarted || observer?.notificationFinished);
    const sizes = options.observer?.messageSize;
    // Transports check for this member once per message: present only when someone listens.
    if (sizes) {
      const observer = options.observer!;
      this.sink.size = (direction, bytes) => sizes.call(observer, direction, bytes, options.observedSession);
    }
  }

  /** Starts the transport; messages flow from here on. */
  start(): void | Promise<void> {
    return this.transport.start(this.sink);
  }

  /** True once the transport closed. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** How many of our requests await a response. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** How many of the peer's requests are being handled. */
  get inFlightCount(): number {
    return this.incoming.size;
  }

  /** Closes the transport. Pending requests fail with {@link ConnectionClosedError}. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    try {
      await this.transport.close();
    } finally {
      this.handleClosed(undefined);
    }
  }

  // ---------------------------------------------------------------- outgoing

  /**
   * Sends a request and resolves with its result.
   *
   * A `progressToken` is attached whenever the caller wants progress or wants progress to extend
   * the timeout (the default), so long operations that report progress do not time out.
   */
  request<R = Record<string, unknown>>(
    method: string,
    params?: Record<string, unknown>,
    options: OutgoingRequestOptions = {},
  ): Promise<R> {
    if (this.isClosed) return Promise.reject(this.closedFailure());
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(new RequestCancelledError(method, signal.reason));
    const source = options.cancelledBy;
    if (source?.stopped) return Promise.reject(new RequestCancelledError(method, source.stopReason));

    const id = this.nextId++;
    const resetOnProgress = options.resetTimeoutOnProgress ?? true;
    const wantsToken = resetOnProgress || options.onProgress !== undefined;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
    const withToken = wantsToken ? withProgressToken(params, id) : params;
    if (withToken !== undefined) message.params = withToken;
    const observed = this.observer ? this.observeOutgoing(message) : undefined;

    return new Promise<R>((resolve, reject) => {
      const now = Date.now();
      const timeout = options.timeout ?? this.requestTimeout;
      const maxTotalTimeout = options.maxTotalTimeout ?? this.maxTotalTimeout;
      const hardDeadline = now + maxTotalTimeout;
      const onAbort = signal ? () => this.cancelOutgoing(id, signal.reason) : undefined;
      const onCancel = source ? (reason: unknown) => this.cancelOutgoing(id, reason) : undefined;
      const entry: PendingRequest = {
        id,
        method,
        resolve,
        reject,
        timeout,
        maxTotalTimeout,
        hardDeadline,
        deadline: Math.min(now + timeout, hardDeadline),
        resetOnProgress,
        onProgress: options.onProgress,
        lastProgress: Number.NEGATIVE_INFINITY,
        signal,
        onAbort,
        source,
        onCancel,
        observed,
      };
      this.pending.set(id, entry);
      if (onAbort) signal!.addEventListener('abort', onAbort, { once: true });
      if (onCancel) source!.addCancelListener(onCancel);
      this.deadlines.schedule(entry.deadline);
      this.transmit(message, sendOptions(options.relatedRequestId), entry);
    });
  }

  /** Sends a notification. The returned promise, if any, settles when the transport can take more. */
  notify(method: string, params?: Record<string, unknown>, options?: SendOptions): void | Promise<void> {
    if (this.isClosed) throw this.closedFailure();
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    if (!this.seesNotifications) return this.transport.send(message, options);
    return observeNotification('client', message, this.options, () => this.transport.send(message, options));
  }

  private transmit(
    message: JsonRpcMessage | JsonRpcMessage[],
    options: SendOptions | undefined,
    entry?: PendingRequest,
  ): void {
    try {
      const sent = this.transport.send(message, options);
      if (sent && entry)
        sent.then(undefined, (error: unknown) => this.settle(entry, undefined, toError(error)));
      else if (sent) sent.then(undefined, (error: unknown) => this.report(toError(error)));
    } catch (error) {
      if (entry) this.settle(entry, undefined, toError(error));
      else this.report(toError(error));
    }
  }

  private cancelOutgoing(id: RequestId, reason: unknown): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.settle(entry, undefined, new RequestCancelledError(entry.method, reason));
    this.sendCancelled(id, typeof reason === 'string' ? reason : undefined);
  }

  private sendCancelled(id: RequestId, reason?: string): void {
    if (this.isClosed) return;
    const params: Record<string, unknown> =
      reason === undefined ? { requestId: id } : { requestId: id, reason };
    const message: JsonRpcNotification = { jsonrpc: '2.0', method: CANCELLED, params };
    if (!this.seesNotifications) this.transmit(message, undefined);
    else observeNotification('client', message, this.options, () => this.transmit(message, undefined));
  }

  /** Resolves or rejects a pending request exactly once, and forgets it. */
  private settle(entry: PendingRequest, result: unknown, error?: Error): void {
    if (this.pending.get(entry.id) !== entry) return;
    this.pending.delete(entry.id);
    this.pending = this.pendingRenewal.after(this.pending);
    if (entry.onAbort) entry.signal!.removeEventListener('abort', entry.onAbort);
    if (entry.onCancel) entry.source!.removeCancelListener(entry.onCancel);
    if (entry.observed) this.observeEnd(entry.observed, outgoingOutcome(entry.observed, result, error));
    if (error) {
      this.remember(entry.id);
      entry.reject(error);
    } else {
      entry.resolve(result);
    }
  }

  private remember(id: RequestId): void {
    if (this.forgotten.size >= FORGOTTEN_ID_MEMORY) {
      const oldest = this.forgotten.values().next().value;
      if (oldest !== undefined) this.forgotten.delete(oldest);
    }
    this.forgotten.add(id);
  }

  /** Expires due requests; returns the next deadline. Called by the single deadline timer. */
  private sweep(now: number): number {
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.pending.values()) {
      if (entry.deadline <= now) {
        const hard = entry.deadline >= entry.hardDeadline;
        const error = new RequestTimeoutError(
          entry.method,
          hard ? entry.maxTotalTimeout : entry.timeout,
          hard ? 'maxTotalTimeout' : 'timeout',
        );
        this.settle(entry, undefined, error);
        this.sendCancelled(entry.id, error.message);
      } else if (entry.deadline < next) {
        next = entry.deadline;
      }
    }
    return next;
  }

  // ---------------------------------------------------------------- incoming

  private receive(value: unknown, extra?: MessageExtra): void {
    if (this.isClosed) return;
    if (Array.isArray(value)) {
      this.batch(classifyBody(value).kinds, extra);
      return;
    }
    this.dispatch(classifyMessage(value), extra, undefined);
  }

  /** A body its transport classified already (see `classifyBody`): routed without a second look. */
  private receiveClassified(body: ClassifiedBody, extra?: MessageExtra): void {
    if (this.isClosed) return;
    if (body.batch) {
      this.batch(body.kinds, extra);
      return;
    }
    this.dispatch(body.kinds[0]!, extra, undefined);
  }

  private receiveGarbage(error: Error): void {
    this.report(error);
    const reason = error instanceof JsonTooDeepError ? error.message : 'the message is not valid JSON';
    this.reply(errorResponse(undefined, ErrorCode.ParseError, `Parse error: ${reason}`));
  }

  private dispatch(
    kind: MessageKind,
    extra: MessageExtra | undefined,
    batch: BatchCollector | undefined,
  ): void {
    try {
      this.route(kind, extra, batch);
    } catch (error) {
      // Nothing the peer sends may throw out of here: that would abort a batch or the transport.
      this.report(toError(error));
    }
  }

  private route(kind: MessageKind, extra: MessageExtra | undefined, batch: BatchCollector | undefined): void {
    switch (kind.kind) {
      case 'request':
        this.handleRequest(kind.message, extra, batch);
        return;
      case 'notification':
        if (!this.seesNotifications) this.handleNotification(kind.message, extra);
        else
          observeNotification('server', kind.message, this.options, () =>
            this.handleNotification(kind.message, extra),
          );
        return;
      case 'response':
        this.handleResponse(kind.message);
        return;
      case 'invalid-response':
        this.handleInvalidResponse(kind.id, kind.reason);
        return;
      case 'invalid':
        if (kind.isNotification) {
          this.report(new Error(`Ignored an invalid notification: ${kind.reason}`));
          return;
        }
        this.reply(
          errorResponse(kind.id, ErrorCode.InvalidRequest, `Invalid Request: ${kind.reason}`),
          batch,
        );
    }
  }

  private batch(kinds: readonly MessageKind[], extra: MessageExtra | undefined): void {
    if (!this.options.acceptBatches?.() || kinds.length === 0) {
      const reason =
        kinds.length === 0 ? 'an empty batch' : 'JSON-RPC batches are not supported by this revision';
      this.reply(errorResponse(undefined, ErrorCode.InvalidRequest, `Invalid Request: ${reason}`));
      return;
    }
    // Count members first so a member answered synchronously cannot flush the batch early.
    const collector: BatchCollector = { responses: [], pending: 1 };
    for (const kind of kinds) this.dispatch(kind, extra, collector);
    collector.pending--;
    this.flushBatch(collector);
  }

  private flushBatch(collector: BatchCollector): void {
    if (collector.pending === 0 && collector.responses.length > 0) {
      this.transmit(collector.responses as JsonRpcMessage[], undefined);
    }
  }

  private handleRequest(
    message: JsonRpcRequest,
    extra: MessageExtra | undefined,
    batch?: BatchCollector,
  ): void {
    if (this.incoming.has(message.id)) {
      const reason = `Invalid Request: id ${JSON.stringify(message.id)} is already in use by a request in flight`;
      this.reply(errorResponse(message.id, ErrorCode.InvalidRequest, reason), batch);
      return;
    }
    if (this.overIncomingLimit(message, batch)) return;
    const request = new IncomingRequest(this, message.id, message.method, message.params, extra);
    if (batch) {
      request.batch = batch;
      batch.pending++;
    }
    this.incoming.set(message.id, request);
    let result: unknown;
    try {
      result = this.observer ? this.runObserved(request) : this.handler.onRequest(request);
    } catch (error) {
      this.fail(request, error);
      return;
    }
    if (isPromiseLike(result)) {
      result.then(
        (value) => this.respond(request, value),
        (error: unknown) => this.fail(request, error),
      );
    } else {
      this.respond(request, result);
    }
  }

  /** Refuses `message` when the peer already has `maxIncomingRequests` requests in flight. */
  private overIncomingLimit(message: JsonRpcRequest, batch: BatchCollector | undefined): boolean {
    const limit = this.options.maxIncomingRequests;
    if (limit === undefined || this.incoming.size < limit) return false;
    const reason = `Too many requests in flight: ${limit} are being handled already (maxIncomingRequests); try again later`;
    this.reply(errorResponse(message.id, ErrorCode.InternalError, reason), batch);
    return true;
  }

  private respond(request: IncomingRequest, result: unknown): void {
    if (!this.finish(request)) return;
    const body = typeof result === 'object' && result !== null ? result : {};
    this.reply(
      { jsonrpc: '2.0', id: request.id, result: body as Record<string, unknown> },
      request.batch,
      request.id,
    );
    const observed = request.observed;
    if (observed)
      this.observeEnd(observed, { durationMs: elapsed(observed), result: body as Record<string, unknown> });
  }

  private fail(request: IncomingRequest, error: unknown): void {
    if (!this.finish(request)) return;
    const response = this.errorFor(request.id, error);
    this.reply(response, request.batch, request.id);
    const observed = request.observed;
    if (observed) {
      this.observeEnd(observed, {
        durationMs: elapsed(observed),
        errorCode: response.error.code,
        errorMessage: response.error.message,
      });
    }
  }

  /** Marks a request answered. False when no answer may be sent (cancelled or closed). */
  private finish(request: IncomingRequest): boolean {
    if (request.done) return false;
    request.done = true;
    this.incoming.delete(request.id);
    this.incoming = this.incomingRenewal.after(this.incoming);
    if (request.cancelled || this.isClosed) {
      const observed = request.observed;
      if (observed) {
        const failure = request.cancelled && !this.isClosed ? 'cancelled' : 'closed';
        this.observeEnd(observed, { durationMs: elapsed(observed), failure });
      }
      if (request.batch) {
        request.batch.pending--;
        this.flushBatch(request.batch);
      }
      return false;
    }
    return true;
  }

  private errorFor(id: RequestId, error: unknown): JsonRpcErrorResponse {
    if (error instanceof McpError) return { jsonrpc: '2.0', id, error: error.toJSON() };
    // Anything else is a bug or an internal failure: log it here, tell the peer nothing of it.
    this.report(toError(error));
    return errorResponse(id, ErrorCode.InternalError, 'Internal error');
  }

  private reply(response: JsonRpcResponse, batch?: BatchCollector, relatedRequestId?: RequestId): void {
    if (batch) {
      batch.responses.push(response);
      if (relatedRequestId !== undefined) batch.pending--;
      this.flushBatch(batch);
      return;
    }
    if (this.isClosed) return;
    this.transmit(response, relatedRequestId === undefined ? undefined : { relatedRequestId });
  }

  private handleNotification(message: JsonRpcNotification, extra: MessageExtra | undefined): void {
    const params = message.params;
    if (message.method === CANCELLED) {
      this.handleCancelled(params);
    } else if (message.method === PROGRESS && this.handleProgress(params)) {
      return;
    }
    try {
      this.handler.onNotification(message.method, params, extra);
    } catch (error) {
      this.report(toError(error));
    }
  }

  private handleCancelled(params: Record<string, unknown> | undefined): void {
    const id = params?.requestId;
    if (id === undefined || (typeof id !== 'string' && typeof id !== 'number')) return;
    const request = this.incoming.get(id);
    if (!request || this.uncancellable.has(request.method)) return;
    const reason = typeof params?.reason === 'string' ? params.reason : 'Cancelled by the peer';
    request.cancel(new CancelledByPeer(reason));
  }

  private lateResult(result: Record<string, unknown>): void {
    try {
      this.options.onLateResult!(result);
    } catch (error) {
      this.report(toError(error));
    }
  }

  /** Routes progress for our own requests. False when the token is not ours (a task's, maybe). */
  private handleProgress(params: Record<string, unknown> | undefined): boolean {
    const token = params?.progressToken;
    if (typeof token !== 'string' && typeof token !== 'number') return false;
    const entry = this.pending.get(token);
    if (!entry) return false;
    const progress = params!.progress;
    if (typeof progress !== 'number' || !(progress > entry.lastProgress)) {
      this.report(
        new Error(`Rejected progress for "${entry.method}": progress must be a number that increases`),
      );
      return true;
    }
    entry.lastProgress = progress;
    if (entry.resetOnProgress) {
      entry.deadline = Math.min(Date.now() + entry.timeout, entry.hardDeadline);
    }
    if (entry.onProgress) {
      const update: ProgressUpdate = { progress };
      if (typeof params!.total === 'number') update.total = params!.total;
      if (typeof params!.message === 'string') update.message = params!.message;
      try {
        entry.onProgress(update);
      } catch (error) {
        this.report(toError(error));
      }
    }
    return true;
  }

  private handleResponse(message: JsonRpcResponse): void {
    const id = message.id;
    const entry = id === undefined ? undefined : this.pending.get(id);
    if (!entry) {
      if (id !== undefined && this.forgotten.delete(id)) {
        // Answered after we gave up: expected.
        if ('result' in message && this.options.onLateResult) this.lateResult(message.result);
        return;
      }
      const error = 'error' in message ? `: ${message.error.message}` : '';
      this.report(new Error(`Dropped a response for unknown request id ${JSON.stringify(id)}${error}`));
      return;
    }
    if ('error' in message) this.settle(entry, undefined, McpError.fromWire(message.error));
    else this.settle(entry, message.result);
  }

  /**
   * A malformed response is never answered (its id is one of ours, so an answer would reach the
   * peer as a second response). It is reported, and the request it names, if pending, fails with
   * a local error instead of waiting for its timeout.
   */
  private handleInvalidResponse(id: RequestId | undefined, reason: string): void {
    const entry = id === undefined ? undefined : this.pending.get(id);
    this.report(new Error(`Dropped an invalid response (id ${JSON.stringify(id)}): ${reason}`));
    if (entry) this.settle(entry, undefined, new InvalidResponseError(entry.method, reason));
  }

  // ---------------------------------------------------------------- observer

  /** Observes a request about to be sent; an observer's `_meta` entries (trace context) join it. */
  private observeOutgoing(message: JsonRpcRequest): ObservedRequest {
    const observed = new ObservedRequest(
      'client',
      message.method,
      message.id,
      message.params,
      this.options.observedSession,
    );
    try {
      this.observer!.requestStarted?.(observed);
    } catch (error) {
      this.report(toError(error));
    }
    if (observed.meta) message.params = withMeta(message.params, observed.meta);
    return observed;
  }

  /** Runs the handler of a received request under the observer (and inside its context). */
  private runObserved(request: IncomingRequest): unknown {
    const observer = this.observer!;
    const observed = new ObservedRequest(
      'server',
      request.method,
      request.id,
      request.params,
      this.options.observedSession,
    );
    request.observed = observed;
    try {
      observer.requestStarted?.(observed);
    } catch (error) {
      this.report(toError(error));
    }
    if (!observer.runHandler) return this.handler.onRequest(request);
    return observer.runHandler(observed, () => this.handler.onRequest(request));
  }

  private observeEnd(observed: ObservedRequest, outcome: ObservedOutcome): void {
    try {
      this.observer?.requestFinished?.(observed, outcome);
    } catch (error) {
      this.report(toError(error));
    }
  }

  // ---------------------------------------------------------------- IncomingRequestOwner

  /** @internal */
  notifyFor(
    request: IncomingRequest,
    method: string,
    params?: Record<string, unknown>,
  ): void | Promise<void> {
    return this.notify(method, params, { relatedRequestId: request.id });
  }

  /** @internal */
  requestFor<R>(
    request: IncomingRequest,
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
  ): Promise<R> {
    return this.request<R>(method, params, onBehalfOf(request, options));
  }

  /** @internal */
  progressFor(request: IncomingRequest, update: ProgressUpdate): void | Promise<void> {
    const params = progressParamsOf(request, update);
    const encode = this.options.encodeNotification;
    const encoded = encode ? encode(PROGRESS, params) : params;
    if (encoded === undefined) return;
    return this.notify(PROGRESS, encoded, { relatedRequestId: request.id });
  }

  // ---------------------------------------------------------------- lifecycle

  private handleClosed(error: Error | undefined): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closedError = error;
    this.deadlines.stop();
    // Building an Error captures a stack; stateless HTTP closes a connection per request, so only
    // pay for it when something is waiting to be told.
    if (this.pending.size > 0 || this.incoming.size > 0) {
      const failure = this.closedFailure();
      for (const entry of [...this.pending.values()]) this.settle(entry, undefined, failure);
      for (const request of this.incoming.values()) request.cancel(failure);
      this.incoming.clear();
    }
    try {
      this.handler.onClose?.(error);
    } catch (hookError) {
      this.report(toError(hookError));
    }
  }

  private closedFailure(): ConnectionClosedError {
    const cause = this.closedError;
    return cause
      ? new ConnectionClosedError(`The connection closed: ${cause.message}`, cause)
      : new ConnectionClosedError();
  }

  private report(error: Error): void {
    try {
      this.options.onError?.(error);
    } catch {
      // An error hook that throws must not take the connection down with it.
    }
  }
}

/**
 * The reason a handler's signal fires when the peer sends `notifications/cancelled`.
 *
 * @example
 * ```ts
 * if (ctx.signal.reason instanceof CancelledByPeer) console.error('client cancelled:', ctx.signal.reason.message);
 * ```
 */
export class CancelledByPeer extends Error {
  override name = 'CancelledByPeer';
}

/**
 * A copy of `params` whose `_meta` carries `progressToken`; the caller's objects are left as they
 * were. This runs for nearly every request, so the copy is a plain own-key loop: V8 turns
 * `{ ...params, _meta }` into a slow map transition per call (≈10× slower here, measured).
 */
function withProgressToken(
  params: Record<string, unknown> | undefined,
  token: RequestId,
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  let meta: unknown;
  if (params !== undefined) {
    for (const key in params) {
      if (!Object.hasOwn(params, key)) continue;
      if (key === '_meta') {
        meta = params[key];
        copy._meta = undefined; // keeps the caller's key order on the wire
      } else if (key === '__proto__') defineOwn(copy, key, params[key]);
      else copy[key] = params[key];
    }
  }
  copy._meta =
    typeof meta === 'object' && meta !== null
      ? withToken(meta as Record<string, unknown>, token)
      : { progressToken: token };
  return copy;
}

/**
 * A copy of a caller's `_meta` with `progressToken` added, key by key: a spread is as slow here
 * for a 2026-07-28 envelope's long keys (about 7x, measured).
 */
function withToken(meta: Record<string, unknown>, token: RequestId): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key in meta) {
    if (!Object.hasOwn(meta, key)) continue;
    if (key === '__proto__') defineOwn(copy, key, meta[key]);
    else copy[key] = meta[key];
  }
  copy.progressToken = token;
  return copy;
}

/** Copies an own `__proto__` member as data, as a spread would, instead of setting the prototype. */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function sendOptions(relatedRequestId: RequestId | undefined): SendOptions | undefined {
  return relatedRequestId === undefined ? undefined : { relatedRequestId };
}
