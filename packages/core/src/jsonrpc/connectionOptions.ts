/**
 * What a `Connection` is built from: the handler of the peer's messages and the options.
 * @module
 */
import type { ObservedSession, Observer } from '../observer.js';
import type { MessageExtra } from '../transport/transport.js';
import type { IncomingRequest } from './incomingRequest.js';

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

/**
 * Options of `Connection`. Its callbacks are always called as methods of this object, so they may
 * live on a class's prototype (one object per connection instead of a closure per callback).
 */
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

/**
 * A request's timeout when neither the call nor the connection sets one (ms).
 *
 * @example
 * ```ts
 * const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT;
 * ```
 */
export const DEFAULT_TIMEOUT = 60_000;
/** A request's hard limit when neither the call nor the connection sets one (ms). */
export const DEFAULT_MAX_TOTAL_TIMEOUT = 60 * 60_000;
