/**
 * The part of a request context that the server's `RequestContext` and the client's
 * `ClientRequestContext` share: the getters that only read the engine's {@link IncomingRequest}.
 * @module
 */
import type { IncomingRequest } from './incomingRequest.js';
import type { RequestId } from './messages.js';

/**
 * What a handler's context on either side says of its request. The engine's request is held in a
 * private field: it stays out of the public types, and the subclasses keep their own reference.
 *
 * @example
 * ```ts
 * class Context extends BaseRequestContext {}
 * declare const request: IncomingRequest;
 * const ctx = new Context(request);
 * if (!ctx.signal.aborted) console.log(ctx.requestId, ctx.meta);
 * ```
 */
export class BaseRequestContext {
  readonly #incoming: IncomingRequest;

  constructor(incoming: IncomingRequest) {
    this.#incoming = incoming;
  }

  /** Fires when the peer cancels, the request is otherwise stopped, or the connection closes. */
  get signal(): AbortSignal {
    return this.#incoming.signal;
  }

  /** The JSON-RPC id of the request. */
  get requestId(): RequestId {
    return this.#incoming.id;
  }

  /** The request's `_meta`, if any. */
  get meta(): Record<string, unknown> | undefined {
    return this.#incoming.meta;
  }
}
