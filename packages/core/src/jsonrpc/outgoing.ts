/**
 * The sending side of a {@link Connection}: the table of requests awaiting a response, their
 * timeouts, cancellation and progress, and how responses settle them. {@link Connection} extends
 * it with the receiving side; nothing here is per message beyond the pending entry itself.
 * @module
 */
import { type ObservedOutcome, ObservedRequest, type Observer } from '../observer.js';
import { toError } from '../shared.js';
import type { SendOptions, Transport } from '../transport/transport.js';
import type { AuthorizationPauses, PauseHost } from './authorizationPauses.js';
import {
  type ConnectionHandler,
  type ConnectionOptions,
  DEFAULT_MAX_TOTAL_TIMEOUT,
  DEFAULT_TIMEOUT,
} from './connectionOptions.js';
import { DeadlineTimer } from './deadlines.js';
import {
  ConnectionClosedError,
  InvalidResponseError,
  McpError,
  RequestCancelledError,
  RequestTimeoutError,
} from './errors.js';
import type { CancelSource, OutgoingRequestOptions, ProgressUpdate } from './incomingRequest.js';
import { renewalDue } from './mapRenewal.js';
import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from './messages.js';
import { observeNotification, outgoingOutcome, withMeta } from './observing.js';
import { withProgressToken } from './progressToken.js';

const CANCELLED = 'notifications/cancelled';

interface PendingRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly resolve: (result: any) => void;
  readonly reject: (error: Error) => void;
  readonly timeout: number;
  readonly maxTotalTimeout: number;
  /** Moves later by the time the request waited on authorization (see `authorizing`). */
  hardDeadline: number;
  /** `+Infinity` while the request waits on authorization: the sweep passes it by. */
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
 * The pauses a client installed on its connections (`installAuthorizationPauses`). Kept beside the
 * connection rather than in a field of it: a server's connections (one per request when stateless)
 * never carry them, and a field each would cost them all (measured: +3% CPU per stateless request).
 */
const pausesOf = new WeakMap<ConnectionSender, AuthorizationPauses>();

/** How many cancelled or timed-out ids we remember, so their late responses are dropped quietly. */
const FORGOTTEN_ID_MEMORY = 256;

/**
 * The sending half of {@link Connection}, which is the class to use.
 *
 * @example
 * ```ts
 * declare const connection: Connection;
 * const result = await connection.request('ping'); // sent and settled here
 * ```
 */
export abstract class ConnectionSender {
  #nextId = 1;
  // The three below are made on the first request sent: a server's idle session never sends one,
  // and thousands of idle sessions should cost little. `pending` is renewed now and then (see
  // renewalDue): its churn would otherwise promote every request.
  #pending: Map<RequestId, PendingRequest> | undefined;
  #pendingDeletions = 0;
  #forgotten: Set<RequestId> | undefined;
  #deadlines: DeadlineTimer | undefined;
  readonly #requestTimeout: number;
  readonly #maxTotalTimeout: number;
  #closedError: Error | undefined;
  /** @internal */
  protected isClosed = false;
  /** @internal */
  protected readonly observer: Observer | undefined;
  /** @internal Whether the observer listens to notifications (one check per notification). */
  protected readonly seesNotifications: boolean;

  constructor(
    readonly transport: Transport,
    /** @internal */
    protected readonly handler: ConnectionHandler,
    /** @internal */
    protected readonly options: ConnectionOptions,
  ) {
    this.#requestTimeout = options.requestTimeout ?? DEFAULT_TIMEOUT;
    this.#maxTotalTimeout = options.maxTotalTimeout ?? DEFAULT_MAX_TOTAL_TIMEOUT;
    const observer = options.observer;
    this.observer = observer;
    this.seesNotifications = !!(observer?.notificationStarted || observer?.notificationFinished);
  }

  /** True once the transport closed. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** How many of our requests await a response. */
  get pendingCount(): number {
    return this.#pending?.size ?? 0;
  }

  /**
   * @internal The transport's word that our requests `ids` wait on authorization (`waiting`), or
   * no longer: with pauses installed (a client's connection), their deadlines stop, then resume
   * with the time they had left, so a person logging in is not counted against a request's
   * `timeout` or `maxTotalTimeout`.
   */
  authorizing(ids: readonly RequestId[], waiting: boolean): void {
    pausesOf.get(this)?.authorizing(ids, waiting);
  }

  /** @internal Installs the pauses of `installAuthorizationPauses` (once, by a client). */
  usePauses(make: (host: PauseHost) => AuthorizationPauses): AuthorizationPauses {
    let pauses = pausesOf.get(this);
    if (!pauses) {
      pauses = make({
        pending: (id) => this.#pending?.get(id),
        schedule: (deadline) => this.#deadlines?.schedule(deadline),
      });
      pausesOf.set(this, pauses);
    }
    return pauses;
  }

  /**
   * The `cancelledBy` of our pending request `id`: what it was made on behalf of (a gateway's
   * downstream request), so a peer's request about it can be taken to whoever made it.
   *
   * @example
   * ```ts
   * declare const connection: Connection;
   * const source = connection.cancelSourceOf(7); // undefined once request 7 is answered
   * ```
   */
  cancelSourceOf(id: RequestId): CancelSource | undefined {
    return this.#pending?.get(id)?.source;
  }

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
    if (this.isClosed) return Promise.reject(this.#closedFailure());
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(new RequestCancelledError(method, signal.reason));
    const source = options.cancelledBy;
    if (source?.stopped) return Promise.reject(new RequestCancelledError(method, source.stopReason));

    const id = this.#nextId++;
    const resetOnProgress = options.resetTimeoutOnProgress ?? true;
    const wantsToken = resetOnProgress || options.onProgress !== undefined;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
    const withToken = wantsToken ? withProgressToken(params, id) : params;
    if (withToken !== undefined) message.params = withToken;
    const observed = this.observer ? this.#observeOutgoing(message) : undefined;

    return new Promise<R>((resolve, reject) => {
      const now = Date.now();
      const timeout = options.timeout ?? this.#requestTimeout;
      const maxTotalTimeout = options.maxTotalTimeout ?? this.#maxTotalTimeout;
      const hardDeadline = now + maxTotalTimeout;
      const onAbort = signal ? () => this.#cancelOutgoing(id, signal.reason) : undefined;
      const onCancel = source ? (reason: unknown) => this.#cancelOutgoing(id, reason) : undefined;
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
      this.#pending ??= new Map();
      this.#pending.set(id, entry);
      if (onAbort) signal!.addEventListener('abort', onAbort, { once: true });
      if (onCancel) source!.addCancelListener(onCancel);
      this.#deadlines ??= new DeadlineTimer((now) => this.#sweep(now));
      this.#deadlines.schedule(entry.deadline);
      this.transmit(message, sendOptions(options.relatedRequestId), entry);
    });
  }

  /** Sends a notification. The returned promise, if any, settles when the transport can take more. */
  notify(method: string, params?: Record<string, unknown>, options?: SendOptions): void | Promise<void> {
    if (this.isClosed) throw this.#closedFailure();
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    if (!this.seesNotifications) return this.transport.send(message, options);
    return observeNotification('client', message, this.options, () => this.transport.send(message, options));
  }

  /** @internal */
  protected transmit(
    message: JsonRpcMessage | JsonRpcMessage[],
    options: SendOptions | undefined,
    entry?: PendingRequest,
  ): void {
    try {
      const sent = this.transport.send(message, options);
      if (sent && entry)
        sent.then(undefined, (error: unknown) => this.#settle(entry, undefined, toError(error)));
      else if (sent) sent.then(undefined, (error: unknown) => this.report(toError(error)));
    } catch (error) {
      if (entry) this.#settle(entry, undefined, toError(error));
      else this.report(toError(error));
    }
  }

  #cancelOutgoing(id: RequestId, reason: unknown): void {
    const entry = this.#pending?.get(id);
    if (!entry) return;
    this.#settle(entry, undefined, new RequestCancelledError(entry.method, reason));
    this.#sendCancelled(id, typeof reason === 'string' ? reason : undefined);
  }

  #sendCancelled(id: RequestId, reason?: string): void {
    if (this.isClosed) return;
    const params: Record<string, unknown> =
      reason === undefined ? { requestId: id } : { requestId: id, reason };
    const message: JsonRpcNotification = { jsonrpc: '2.0', method: CANCELLED, params };
    if (!this.seesNotifications) this.transmit(message, undefined);
    else observeNotification('client', message, this.options, () => this.transmit(message, undefined));
  }

  /** Resolves or rejects a pending request exactly once, and forgets it. */
  #settle(entry: PendingRequest, result: unknown, error?: Error): void {
    const pending = this.#pending;
    if (pending?.get(entry.id) !== entry) return;
    pending.delete(entry.id);
    if (renewalDue(++this.#pendingDeletions, pending.size)) {
      this.#pendingDeletions = 0;
      this.#pending = new Map(pending);
    }
    if (entry.onAbort) entry.signal!.removeEventListener('abort', entry.onAbort);
    if (entry.onCancel) entry.source!.removeCancelListener(entry.onCancel);
    if (entry.observed) this.observeEnd(entry.observed, outgoingOutcome(entry.observed, result, error));
    if (error) {
      this.#remember(entry.id);
      entry.reject(error);
    } else {
      entry.resolve(result);
    }
  }

  #remember(id: RequestId): void {
    this.#forgotten ??= new Set();
    const forgotten = this.#forgotten;
    if (forgotten.size >= FORGOTTEN_ID_MEMORY) {
      const oldest = forgotten.values().next().value;
      if (oldest !== undefined) forgotten.delete(oldest);
    }
    forgotten.add(id);
  }

  /** Expires due requests; returns the next deadline. Called by the single deadline timer. */
  #sweep(now: number): number {
    let next = Number.POSITIVE_INFINITY;
    if (!this.#pending) return next;
    for (const entry of this.#pending.values()) {
      if (entry.deadline <= now) {
        const hard = entry.deadline >= entry.hardDeadline;
        const error = new RequestTimeoutError(
          entry.method,
          hard ? entry.maxTotalTimeout : entry.timeout,
          hard ? 'maxTotalTimeout' : 'timeout',
        );
        this.#settle(entry, undefined, error);
        this.#sendCancelled(entry.id, error.message);
      } else if (entry.deadline < next) {
        next = entry.deadline;
      }
    }
    return next;
  }

  #lateResult(result: Record<string, unknown>): void {
    try {
      this.options.onLateResult!(result);
    } catch (error) {
      this.report(toError(error));
    }
  }

  /** @internal Routes progress for our own requests. False when the token is not ours (a task's, maybe). */
  protected handleProgress(params: Record<string, unknown> | undefined): boolean {
    const token = params?.progressToken;
    if (typeof token !== 'string' && typeof token !== 'number') return false;
    const entry = this.#pending?.get(token);
    if (!entry) return false;
    const progress = params!.progress;
    if (typeof progress !== 'number' || !(progress > entry.lastProgress)) {
      this.report(
        new Error(`Rejected progress for "${entry.method}": progress must be a number that increases`),
      );
      return true;
    }
    entry.lastProgress = progress;
    // A request waiting on authorization keeps its deadline stopped (Infinity) until it resumes.
    if (entry.resetOnProgress && entry.deadline !== Number.POSITIVE_INFINITY) {
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

  /** @internal */
  protected handleResponse(message: JsonRpcResponse): void {
    const id = message.id;
    const entry = id === undefined ? undefined : this.#pending?.get(id);
    if (!entry) {
      if (id !== undefined && this.#forgotten?.delete(id)) {
        // Answered after we gave up: expected.
        if ('result' in message && this.options.onLateResult) this.#lateResult(message.result);
        return;
      }
      const error = 'error' in message ? `: ${message.error.message}` : '';
      this.report(new Error(`Dropped a response for unknown request id ${JSON.stringify(id)}${error}`));
      return;
    }
    if ('error' in message) this.#settle(entry, undefined, McpError.fromWire(message.error));
    else this.#settle(entry, message.result);
  }

  /**
   * @internal
   * A malformed response is never answered (its id is one of ours, so an answer would reach the
   * peer as a second response). It is reported, and the request it names, if pending, fails with
   * a local error instead of waiting for its timeout.
   */
  protected handleInvalidResponse(id: RequestId | undefined, reason: string): void {
    const entry = id === undefined ? undefined : this.#pending?.get(id);
    this.report(new Error(`Dropped an invalid response (id ${JSON.stringify(id)}): ${reason}`));
    if (entry) this.#settle(entry, undefined, new InvalidResponseError(entry.method, reason));
  }

  /** Observes a request about to be sent; an observer's `_meta` entries (trace context) join it. */
  #observeOutgoing(message: JsonRpcRequest): ObservedRequest {
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

  /** @internal */
  protected observeEnd(observed: ObservedRequest, outcome: ObservedOutcome): void {
    try {
      this.observer?.requestFinished?.(observed, outcome);
    } catch (error) {
      this.report(toError(error));
    }
  }

  /**
   * @internal Marks the connection closed and fails every pending request; returns the failure
   * it made, or `undefined` when nothing (of ours or, per `othersWaiting`, of the receiving side)
   * waits to be told: building an Error captures a stack, and stateless HTTP closes a connection
   * per request.
   */
  protected closeSending(
    error: Error | undefined,
    othersWaiting: boolean,
  ): ConnectionClosedError | undefined {
    this.isClosed = true;
    this.#closedError = error;
    this.#deadlines?.stop();
    const pending = this.#pending;
    if (!pending?.size && !othersWaiting) return undefined;
    const failure = this.#closedFailure();
    if (pending) for (const entry of [...pending.values()]) this.#settle(entry, undefined, failure);
    return failure;
  }

  #closedFailure(): ConnectionClosedError {
    const cause = this.#closedError;
    return cause
      ? new ConnectionClosedError(`The connection closed: ${cause.message}`, cause)
      : new ConnectionClosedError();
  }

  /** @internal */
  report(error: Error): void {
    try {
      this.options.onError?.(error);
    } catch {
      // An error hook that throws must not take the connection down with it.
    }
  }
}

function sendOptions(relatedRequestId: RequestId | undefined): SendOptions | undefined {
  return relatedRequestId === undefined ? undefined : { relatedRequestId };
}
