/**
 * One request the peer sent us, while its handler runs.
 * @module
 */
import type { ObservedRequest } from '../observer.js';
import type { MessageExtra } from '../transport/transport.js';
import type { RequestId } from './messages.js';

/** A progress update, as carried by `notifications/progress`. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** What an incoming request needs from the connection that owns it. */
export interface IncomingRequestOwner {
  notifyFor(request: IncomingRequest, method: string, params?: Record<string, unknown>): void | Promise<void>;
  requestFor<R>(
    request: IncomingRequest,
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
  ): Promise<R>;
  progressFor(request: IncomingRequest, update: ProgressUpdate): void | Promise<void>;
}

/** Options for a request this side sends. */
export interface OutgoingRequestOptions {
  /**
   * Milliseconds to wait for a response (or, by default, for the next progress). Time the
   * transport spends waiting on authorization before sending it (an HTTP login after a 401; see
   * `MessageSink.authorizing`) is not counted.
   */
  timeout?: number;
  /** A hard limit that progress cannot extend (authorization waits are not counted either). */
  maxTotalTimeout?: number;
  /** Progress notifications restart the timeout. Default `true`. */
  resetTimeoutOnProgress?: boolean;
  /** Receives the peer's progress for this request. */
  onProgress?: (update: ProgressUpdate) => void;
  /** Aborting it cancels the request (`notifications/cancelled` is sent). */
  signal?: AbortSignal;
  /**
   * Cancels the request when `source` is cancelled, like `signal` but without an `AbortSignal`:
   * a request made on behalf of an incoming one (a gateway forwarding a call) passes that request
   * here, and no `AbortController` is made per call. Only the engine sees it: a middleware's or
   * task helper's `signal` stays `undefined` unless `signal` is given too.
   */
  cancelledBy?: CancelSource;
  /** The incoming request this one is made on behalf of (routes it onto that request's stream). */
  relatedRequestId?: RequestId;
}

/**
 * Something whose cancellation cancels the requests made on its behalf (see
 * {@link OutgoingRequestOptions.cancelledBy}); an {@link IncomingRequest} is one.
 *
 * @example
 * ```ts
 * declare const source: CancelSource;
 * const stop = (reason: unknown) => console.log('cancelled', reason);
 * if (!source.stopped) source.addCancelListener(stop);
 * source.removeCancelListener(stop);
 * ```
 */
export interface CancelSource {
  /** True once cancelled: a request made on its behalf now fails at once. */
  readonly stopped: boolean;
  /** Why it was cancelled, once {@link stopped}. */
  readonly stopReason: unknown;
  /** Calls `listener` once, when the source is cancelled (not if it is already: check `stopped`). */
  addCancelListener(listener: (reason: unknown) => void): void;
  removeCancelListener(listener: (reason: unknown) => void): void;
}

/** One signal per source, made on first demand. */
const signals = new WeakMap<CancelSource, AbortSignal>();

/**
 * An `AbortSignal` that fires when `source` is cancelled (aborted already if it stopped): for the
 * consumers of a request's options that need a signal (a middleware reading `ctx.signal`, task
 * polling, input rounds), made only when one of them asks. The same signal for the same source.
 *
 * @example
 * ```ts
 * declare const options: OutgoingRequestOptions;
 * const signal = options.signal ?? (options.cancelledBy && signalOf(options.cancelledBy));
 * ```
 */
export function signalOf(source: CancelSource): AbortSignal {
  let signal = signals.get(source);
  if (!signal) {
    const controller = new AbortController();
    if (source.stopped) controller.abort(source.stopReason);
    else source.addCancelListener((reason) => controller.abort(reason));
    signal = controller.signal;
    signals.set(source, signal);
  }
  return signal;
}

/**
 * The signal a request with these options is cancelled by: `signal`, else one for `cancelledBy`
 * (see {@link signalOf}), else none.
 *
 * @example
 * ```ts
 * declare const options: OutgoingRequestOptions | undefined;
 * const signal = cancelSignalOf(options);
 * ```
 */
export function cancelSignalOf(options: OutgoingRequestOptions | undefined): AbortSignal | undefined {
  if (options?.signal) return options.signal;
  return options?.cancelledBy ? signalOf(options.cancelledBy) : undefined;
}

/** Batches (2025-03-26 only) answer with one array once every member has been answered. */
export interface BatchCollector {
  responses: unknown[];
  pending: number;
}

/**
 * An in-flight request from the peer.
 *
 * The `AbortSignal` is created only when a handler asks for it: most handlers finish without
 * looking, and an AbortController per message is measurable at high rates. It fires when the peer
 * cancels, when the connection closes, and when the server shuts down, so a handler never runs on
 * after its client has gone.
 *
 * @example
 * ```ts
 * declare function stopWork(): void;
 * const connection = new Connection(transport, {
 *   onRequest(request) {
 *     request.signal.addEventListener('abort', stopWork);
 *     request.sendProgress({ progress: 1, total: 2 });
 *     return { content: [] };
 *   },
 *   onNotification() {},
 * });
 * ```
 */
export class IncomingRequest implements CancelSource {
  #controller: AbortController | undefined;
  #abortReason: unknown;
  /**
   * Requests sent on this one's behalf with `cancelledBy`: usually none, or one (a gateway's
   * forwarded call), which takes the slot without an array; more go to the array.
   */
  #cancelListener: ((reason: unknown) => void) | undefined;
  #cancelListeners: Array<(reason: unknown) => void> | undefined;
  #lastProgress = Number.NEGATIVE_INFINITY;
  /** True once the request was cancelled or its connection closed. No response will be sent. */
  cancelled = false;
  /** True once {@link abort} fired the signal (a server-side deadline); a response is still sent. */
  aborted = false;
  /** True once a response was sent (or suppressed by cancellation). */
  done = false;
  /** @internal */
  batch: BatchCollector | undefined;
  /** @internal Set only when an observer is installed. */
  observed: ObservedRequest | undefined;

  readonly #owner: IncomingRequestOwner;
  constructor(
    owner: IncomingRequestOwner,
    readonly id: RequestId,
    readonly method: string,
    readonly params: Record<string, unknown> | undefined,
    readonly extra: MessageExtra | undefined,
  ) {
    this.#owner = owner;
  }

  /** Fires when the peer cancels, the connection closes, or the request otherwise must stop. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.cancelled || this.aborted) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  /** True once the signal fires (or would, had it been asked for): cancelled, closed or aborted. */
  get stopped(): boolean {
    return this.cancelled || this.aborted;
  }

  /** Why the request stopped, once {@link stopped}. */
  get stopReason(): unknown {
    return this.#abortReason;
  }

  /**
   * Calls `listener` when the signal fires, without creating the signal (see
   * {@link OutgoingRequestOptions.cancelledBy}). Not called if the request stopped already.
   */
  addCancelListener(listener: (reason: unknown) => void): void {
    if (this.#cancelListener === undefined) this.#cancelListener = listener;
    else if (this.#cancelListeners) this.#cancelListeners.push(listener);
    else this.#cancelListeners = [listener];
  }

  removeCancelListener(listener: (reason: unknown) => void): void {
    if (this.#cancelListener === listener) {
      this.#cancelListener = undefined;
      return;
    }
    const listeners = this.#cancelListeners;
    const at = listeners ? listeners.indexOf(listener) : -1;
    if (at < 0) return;
    if (listeners!.length === 1) this.#cancelListeners = undefined;
    else listeners!.splice(at, 1);
  }

  /** The `_meta` object of the request's params, if any. */
  get meta(): Record<string, unknown> | undefined {
    const meta = this.params?._meta;
    return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
  }

  /** The token the peer asked progress to be reported under, if it asked. */
  get progressToken(): string | number | undefined {
    const token = this.meta?.progressToken;
    return typeof token === 'string' || typeof token === 'number' ? token : undefined;
  }

  /**
   * Reports progress to the peer, if it asked for progress. Progress that does not increase, or
   * that arrives after the response, is not sent: the spec forbids both.
   */
  sendProgress(update: ProgressUpdate): void | Promise<void> {
    if (this.done || this.progressToken === undefined) return;
    if (!(update.progress > this.#lastProgress)) return;
    this.#lastProgress = update.progress;
    return this.#owner.progressFor(this, update);
  }

  /** Sends a notification that belongs to this request (HTTP carries it on this request's stream). */
  notify(method: string, params?: Record<string, unknown>): void | Promise<void> {
    return this.#owner.notifyFor(this, method, params);
  }

  /**
   * Sends a request to the peer on behalf of this one. It is cancelled when this request is.
   */
  request<R = Record<string, unknown>>(
    method: string,
    params?: Record<string, unknown>,
    options?: OutgoingRequestOptions,
  ): Promise<R> {
    return this.#owner.requestFor<R>(this, method, params, options);
  }

  /**
   * Fires the signal without cancelling the request: its handler should stop, and the response
   * (e.g. a deadline's timeout error) is still sent.
   *
   * @example
   * ```ts
   * declare const request: IncomingRequest;
   * request.abort(new McpError(-32001, 'Too slow'));
   * ```
   */
  abort(reason: unknown): void {
    if (this.cancelled || this.aborted) return;
    this.aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
    this.#stopListeners(reason);
  }

  /** @internal Marks the request cancelled and fires its signal. */
  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
    this.#stopListeners(reason);
  }

  #stopListeners(reason: unknown): void {
    const first = this.#cancelListener;
    const listeners = this.#cancelListeners;
    this.#cancelListener = undefined;
    this.#cancelListeners = undefined;
    first?.(reason);
    if (listeners) for (const listener of listeners) listener(reason);
  }
}

/**
 * The params of the `notifications/progress` that reports `update` for `request` (the peer's
 * progress token, then progress, total and message when given): what every owner of an incoming
 * request sends.
 *
 * @example
 * ```ts
 * declare const request: IncomingRequest;
 * progressParamsOf(request, { progress: 1, total: 2 }); // { progressToken: …, progress: 1, total: 2 }
 * ```
 */
export function progressParamsOf(request: IncomingRequest, update: ProgressUpdate): Record<string, unknown> {
  const params: Record<string, unknown> = { progressToken: request.progressToken, progress: update.progress };
  if (update.total !== undefined) params.total = update.total;
  if (update.message !== undefined) params.message = update.message;
  return params;
}

/**
 * The options of a request sent on behalf of `request`: cancelled with it (its signal unless the
 * caller gave one) and routed onto its stream.
 *
 * @example
 * ```ts
 * declare const request: IncomingRequest;
 * onBehalfOf(request, { timeout: 5_000 }).relatedRequestId === request.id; // true
 * ```
 */
export function onBehalfOf(
  request: IncomingRequest,
  options: OutgoingRequestOptions | undefined,
): OutgoingRequestOptions {
  return { ...options, signal: options?.signal ?? request.signal, relatedRequestId: request.id };
}
