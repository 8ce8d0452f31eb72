/**
 * What a client middleware receives: the message, its direction (sent to the server, or received
 * from it), and a per-message store. Made only when a middleware is installed.
 * @module
 */
import {
  cancelSignalOf,
  type IncomingRequest,
  type Middleware,
  type MiddlewareContextBase,
  type OutgoingRequestOptions,
} from '@mcpkit/core';
import type { ClientProtocolVersion } from '../clientOptions.js';

/** Which way a message travels, seen from the client. */
export type MessageDirection = 'send' | 'receive';

/**
 * The context of one message a client sends or receives, as its middleware sees it.
 *
 * @example
 * ```ts
 * client.use(async (ctx, next) => {
 *   if (ctx.direction === 'send' && !ctx.isNotification) ctx.store.set('sentAt', Date.now());
 *   return next();
 * });
 * ```
 */
export class ClientMiddlewareContext implements MiddlewareContextBase {
  private storeMap: Map<unknown, unknown> | undefined;
  private readonly sentParams: Record<string, unknown> | undefined;

  constructor(
    readonly direction: MessageDirection,
    readonly method: string,
    params: Record<string, unknown> | undefined,
    readonly isNotification: boolean,
    /** The negotiated revision (`undefined` before `initialize` completes). */
    readonly protocolVersion: ClientProtocolVersion | undefined,
    /** A request received from the server: the engine's view, with its signal. */
    readonly request?: IncomingRequest,
    /** A request sent to the server: its options (timeout, signal, progress); may be replaced. */
    public options?: OutgoingRequestOptions,
  ) {
    this.sentParams = params;
    this.params = params ?? {};
  }

  /** The params; assign a new object before `next()` to change what is sent or handled. */
  params: Record<string, unknown>;

  /** The params to send: `undefined` if there were none and no middleware added any. */
  get outgoingParams(): Record<string, unknown> | undefined {
    if (this.sentParams === undefined && Object.keys(this.params).length === 0) return undefined;
    return this.params;
  }

  /**
   * Fires when a received request is cancelled, or when the caller's signal (or `cancelledBy`) of
   * a sent one fires.
   */
  get signal(): AbortSignal | undefined {
    return this.request ? this.request.signal : cancelSignalOf(this.options);
  }

  /** A per-message store for values passed to the middleware behind this one. */
  get store(): Map<unknown, unknown> {
    if (!this.storeMap) this.storeMap = new Map();
    return this.storeMap;
  }
}

/**
 * A client middleware: sees every request and notification the client sends after `initialize`,
 * and every request and notification it receives.
 *
 * @example
 * ```ts
 * declare const metrics: { observe(method: string, ms: number): void };
 * const timing: ClientMiddleware = async (ctx, next) => {
 *   const started = performance.now();
 *   try {
 *     return await next();
 *   } finally {
 *     if (ctx.direction === 'send') metrics.observe(ctx.method, performance.now() - started);
 *   }
 * };
 * client.use(timing);
 * ```
 */
export type ClientMiddleware = Middleware<ClientMiddlewareContext>;
