/**
 * The JSON-RPC 2.0 engine that clients and servers both use.
 *
 * A connection owns one transport. It checks every incoming envelope, matches responses to
 * requests, runs timeouts, carries cancellation and progress both ways, and never throws at the
 * transport: every problem becomes a spec-correct error response or a report to `onError`.
 * What the methods mean is the handler's business (see the MCP session layers).
 *
 * This file is the receiving side; the sending side (pending requests, timeouts, progress
 * routing) is its base class in `outgoing.ts`.
 * @module
 */
import { ObservedRequest } from '../observer.js';
import { isPromiseLike, resultObject, toError } from '../shared.js';
import type { MessageExtra, Transport } from '../transport/transport.js';
import type { ConnectionHandler, ConnectionOptions } from './connectionOptions.js';
import { CancelledByPeer, McpError } from './errors.js';
import {
  type BatchCollector,
  IncomingRequest,
  type OutgoingRequestOptions,
  onBehalfOf,
  type ProgressUpdate,
  progressParamsOf,
} from './incomingRequest.js';
import { JsonTooDeepError } from './jsonDepth.js';
import { renewalDue } from './mapRenewal.js';
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
import { elapsed, observeNotification } from './observing.js';
import { ConnectionSender } from './outgoing.js';
import { ConnectionSink } from './sink.js';

const CANCELLED = 'notifications/cancelled';
const PROGRESS = 'notifications/progress';
/** The default `uncancellableMethods`, shared: read-only, so one set serves every connection. */
const INITIALIZE_ONLY: ReadonlySet<string> = new Set(['initialize']);

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
export class Connection extends ConnectionSender {
  // Not `implements IncomingRequestOwner`: its methods are internal, and stripInternal would leave
  // the published class failing its own implements clause. Passing `this` as the owner checks it.

  // Renewed now and then (see renewalDue): its churn would otherwise promote every request.
  #incoming = new Map<RequestId, IncomingRequest>();
  #incomingDeletions = 0;
  readonly #uncancellable: ReadonlySet<string>;
  /** What the transport talks to; kept off the public surface of the connection. */
  readonly #sink = new ConnectionSink(this);

  constructor(transport: Transport, handler: ConnectionHandler, options: ConnectionOptions = {}) {
    super(transport, handler, options);
    const uncancellable = options.uncancellableMethods;
    this.#uncancellable = uncancellable ? new Set(uncancellable) : INITIALIZE_ONLY;
    const sizes = options.observer?.messageSize;
    // Transports check for this member once per message: present only when someone listens.
    if (sizes) {
      const observer = options.observer!;
      this.#sink.size = (direction, bytes) => sizes.call(observer, direction, bytes, options.observedSession);
    }
  }

  /** Starts the transport; messages flow from here on. */
  start(): void | Promise<void> {
    return this.transport.start(this.#sink);
  }

  /** How many of the peer's requests are being handled. */
  get inFlightCount(): number {
    return this.#incoming.size;
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

  // ---------------------------------------------------------------- incoming

  /** @internal */
  receive(value: unknown, extra?: MessageExtra): void {
    if (this.isClosed) return;
    if (Array.isArray(value)) {
      this.#batch(classifyBody(value).kinds, extra);
      return;
    }
    this.#dispatch(classifyMessage(value), extra, undefined);
  }

  /** A body its transport classified already (see `classifyBody`): routed without a second look. */
  /** @internal */
  receiveClassified(body: ClassifiedBody, extra?: MessageExtra): void {
    if (this.isClosed) return;
    if (body.batch) {
      this.#batch(body.kinds, extra);
      return;
    }
    this.#dispatch(body.kinds[0]!, extra, undefined);
  }

  /** @internal */
  receiveGarbage(error: Error): void {
    this.report(error);
    const reason = error instanceof JsonTooDeepError ? error.message : 'the message is not valid JSON';
    this.#reply(errorResponse(undefined, ErrorCode.ParseError, `Parse error: ${reason}`));
  }

  #dispatch(kind: MessageKind, extra: MessageExtra | undefined, batch: BatchCollector | undefined): void {
    try {
      this.#route(kind, extra, batch);
    } catch (error) {
      // Nothing the peer sends may throw out of here: that would abort a batch or the transport.
      this.report(toError(error));
    }
  }

  #route(kind: MessageKind, extra: MessageExtra | undefined, batch: BatchCollector | undefined): void {
    switch (kind.kind) {
      case 'request':
        this.#handleRequest(kind.message, extra, batch);
        return;
      case 'notification':
        if (!this.seesNotifications) this.#handleNotification(kind.message, extra);
        else
          observeNotification('server', kind.message, this.options, () =>
            this.#handleNotification(kind.message, extra),
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
        this.#reply(
          errorResponse(kind.id, ErrorCode.InvalidRequest, `Invalid Request: ${kind.reason}`),
          batch,
        );
    }
  }

  #batch(kinds: readonly MessageKind[], extra: MessageExtra | undefined): void {
    if (!this.options.acceptBatches?.() || kinds.length === 0) {
      const reason =
        kinds.length === 0 ? 'an empty batch' : 'JSON-RPC batches are not supported by this revision';
      this.#reply(errorResponse(undefined, ErrorCode.InvalidRequest, `Invalid Request: ${reason}`));
      return;
    }
    // Count members first so a member answered synchronously cannot flush the batch early.
    const collector: BatchCollector = { responses: [], pending: 1 };
    for (const kind of kinds) this.#dispatch(kind, extra, collector);
    collector.pending--;
    this.#flushBatch(collector);
  }

  #flushBatch(collector: BatchCollector): void {
    if (collector.pending === 0 && collector.responses.length > 0) {
      this.transmit(collector.responses as JsonRpcMessage[], undefined);
    }
  }

  #handleRequest(message: JsonRpcRequest, extra: MessageExtra | undefined, batch?: BatchCollector): void {
    if (this.#incoming.has(message.id)) {
      const reason = `Invalid Request: id ${JSON.stringify(message.id)} is already in use by a request in flight`;
      this.#reply(errorResponse(message.id, ErrorCode.InvalidRequest, reason), batch);
      return;
    }
    if (this.#overIncomingLimit(message, batch)) return;
    const request = new IncomingRequest(this, message.id, message.method, message.params, extra);
    if (batch) {
      request.batch = batch;
      batch.pending++;
    }
    this.#incoming.set(message.id, request);
    let result: unknown;
    try {
      result = this.observer ? this.#runObserved(request) : this.handler.onRequest(request);
    } catch (error) {
      this.#fail(request, error);
      return;
    }
    if (isPromiseLike(result)) {
      result.then(
        (value) => this.#respond(request, value),
        (error: unknown) => this.#fail(request, error),
      );
    } else {
      this.#respond(request, result);
    }
  }

  /** Refuses `message` when the peer already has `maxIncomingRequests` requests in flight. */
  #overIncomingLimit(message: JsonRpcRequest, batch: BatchCollector | undefined): boolean {
    const limit = this.options.maxIncomingRequests;
    if (limit === undefined || this.#incoming.size < limit) return false;
    const reason = `Too many requests in flight: ${limit} are being handled already (maxIncomingRequests); try again later`;
    this.#reply(errorResponse(message.id, ErrorCode.InternalError, reason), batch);
    return true;
  }

  #respond(request: IncomingRequest, result: unknown): void {
    if (!this.#finish(request)) return;
    const body = resultObject(result);
    this.#reply({ jsonrpc: '2.0', id: request.id, result: body }, request.batch, request.id);
    const observed = request.observed;
    if (observed)
      this.observeEnd(observed, { durationMs: elapsed(observed), result: body as Record<string, unknown> });
  }

  #fail(request: IncomingRequest, error: unknown): void {
    if (!this.#finish(request)) return;
    const response = this.#errorFor(request.id, error);
    this.#reply(response, request.batch, request.id);
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
  #finish(request: IncomingRequest): boolean {
    if (request.done) return false;
    request.done = true;
    const incoming = this.#incoming;
    incoming.delete(request.id);
    if (renewalDue(++this.#incomingDeletions, incoming.size)) {
      this.#incomingDeletions = 0;
      this.#incoming = new Map(incoming);
    }
    if (request.cancelled || this.isClosed) {
      const observed = request.observed;
      if (observed) {
        const failure = request.cancelled && !this.isClosed ? 'cancelled' : 'closed';
        this.observeEnd(observed, { durationMs: elapsed(observed), failure });
      }
      if (request.batch) {
        request.batch.pending--;
        this.#flushBatch(request.batch);
      }
      return false;
    }
    return true;
  }

  #errorFor(id: RequestId, error: unknown): JsonRpcErrorResponse {
    if (error instanceof McpError) return { jsonrpc: '2.0', id, error: error.toJSON() };
    // Anything else is a bug or an internal failure: log it here, tell the peer nothing of it.
    this.report(toError(error));
    return errorResponse(id, ErrorCode.InternalError, 'Internal error');
  }

  #reply(response: JsonRpcResponse, batch?: BatchCollector, relatedRequestId?: RequestId): void {
    if (batch) {
      batch.responses.push(response);
      if (relatedRequestId !== undefined) batch.pending--;
      this.#flushBatch(batch);
      return;
    }
    if (this.isClosed) return;
    this.transmit(response, relatedRequestId === undefined ? undefined : { relatedRequestId });
  }

  #handleNotification(message: JsonRpcNotification, extra: MessageExtra | undefined): void {
    const params = message.params;
    if (message.method === CANCELLED) {
      this.#handleCancelled(params);
    } else if (message.method === PROGRESS && this.handleProgress(params)) {
      return;
    }
    try {
      this.handler.onNotification(message.method, params, extra);
    } catch (error) {
      this.report(toError(error));
    }
  }

  #handleCancelled(params: Record<string, unknown> | undefined): void {
    const id = params?.requestId;
    if (id === undefined || (typeof id !== 'string' && typeof id !== 'number')) return;
    const request = this.#incoming.get(id);
    if (!request || this.#uncancellable.has(request.method)) return;
    const reason = typeof params?.reason === 'string' ? params.reason : 'Cancelled by the peer';
    request.cancel(new CancelledByPeer(reason));
  }

  /** Runs the handler of a received request under the observer (and inside its context). */
  #runObserved(request: IncomingRequest): unknown {
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
    // Called as a method: an options object may keep its callbacks on a prototype.
    const options = this.options;
    const encoded = options.encodeNotification ? options.encodeNotification(PROGRESS, params) : params;
    if (encoded === undefined) return;
    return this.notify(PROGRESS, encoded, { relatedRequestId: request.id });
  }

  // ---------------------------------------------------------------- lifecycle

  /** @internal */
  handleClosed(error: Error | undefined): void {
    if (this.isClosed) return;
    const failure = this.closeSending(error, this.#incoming.size > 0);
    if (failure) {
      for (const request of this.#incoming.values()) request.cancel(failure);
      this.#incoming.clear();
    }
    try {
      this.handler.onClose?.(error);
    } catch (hookError) {
      this.report(toError(hookError));
    }
  }
}
