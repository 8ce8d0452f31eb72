/**
 * A client-side handler (sampling, elicitation, roots, an extension method): its signature, and
 * what it receives besides its params: the server's request with its signal, progress and
 * notifications, the client it arrived on, and the session's protocol version. It mirrors the
 * server's `RequestContext`.
 *
 * The one import circle left in this package, type-only and two files long: `ctx.client` is
 * typed `Client` (public API), and `Client`'s `setRequestHandler` takes the handlers typed here,
 * so the two public types name each other. The modules `client.ts` imports (its parts,
 * `reconnect.ts`) reach `Client` only through the narrow interfaces of `./ports.ts`; the modules
 * that take a `Client` (the task helpers, McpClient's parts) are not imported by `client.ts`.
 * @module
 */

import {
  BaseRequestContext,
  type CancelSource,
  type IncomingRequest,
  type MethodHandlerOf,
  type ProgressUpdate,
  type ServerNotificationMap,
  type ServerNotificationMethod,
  type ServerRequestMap,
  type ServerRequestMethod,
} from '@mcpkit/core';
import type { Client } from './client.js';
import type { ClientProtocolVersion } from './clientOptions.js';
import { callOfInputRequest } from './era/inputRequests.js';

/** Answers one request the server sends; `ctx` carries its signal, progress and notifications. */
export type ClientRequestHandler = (params: Record<string, unknown>, ctx: ClientRequestContext) => unknown;

/** Receives one notification the server sends. */
export type ClientNotificationHandler = (params: Record<string, unknown>) => void;

/**
 * Answers request method `M` sent by servers, with params and result typed by the method. Params
 * come off the wire unchecked: the type says what the specification promises.
 *
 * @example
 * ```ts
 * const roots: ClientMethodHandler<'roots/list'> = () => ({ roots: [{ uri: 'file:///work' }] });
 * ```
 */
export type ClientMethodHandler<M extends ServerRequestMethod> = MethodHandlerOf<
  ServerRequestMap[M],
  ClientRequestContext
>;

/**
 * Receives notification method `M` sent by servers, with params typed by the method.
 *
 * @example
 * ```ts
 * const onLog: ClientMethodNotificationHandler<'notifications/message'> = (params) => console.error(params.data);
 * ```
 */
export type ClientMethodNotificationHandler<M extends ServerNotificationMethod> = (
  params: NonNullable<ServerNotificationMap[M]>,
) => void;

/**
 * The context of one request the server sent. One small object per request; its methods live on
 * the prototype.
 *
 * @example
 * ```ts
 * client.setRequestHandler('sampling/createMessage', async (params, ctx) => {
 *   await ctx.progress(1, 2, 'thinking');
 *   if (ctx.signal.aborted) throw new Error('cancelled');
 *   return { role: 'assistant', content: { type: 'text', text: `${params.messages.length} messages` }, model: 'echo' };
 * });
 * ```
 */
export class ClientRequestContext extends BaseRequestContext {
  constructor(
    /** The client the request arrived on. */
    readonly client: Client,
    /** @internal The engine's view of the request. */
    readonly request: IncomingRequest,
  ) {
    super(request);
  }

  /** The method the server called, e.g. `sampling/createMessage`. */
  get method(): string {
    return this.request.method;
  }

  /**
   * What the request of ours that this one is about was made on behalf of (the `cancelledBy` it
   * was sent with): known when the transport tells which request's stream carried this one
   * (Streamable HTTP) and that request is still pending, and for an input request of a
   * 2026-07-28 round (the call that received the round); else `undefined`. A gateway finds the
   * downstream caller of a server's question by it.
   *
   * @example
   * ```ts
   * declare const ctx: ClientRequestContext;
   * const caller = ctx.onBehalfOf; // e.g. the downstream request a gateway forwarded
   * ```
   */
  get onBehalfOf(): CancelSource | undefined {
    const id = this.request.extra?.relatedRequestId;
    if (id === undefined) return callOfInputRequest(this.request);
    return this.client.cancelSourceOf(id);
  }

  /** The token the server asked progress to be reported under, if it asked. */
  get progressToken(): string | number | undefined {
    return this.request.progressToken;
  }

  /** The protocol revision negotiated with the server. */
  get protocolVersion(): ClientProtocolVersion | undefined {
    return this.client.protocolVersion;
  }

  /**
   * Reports progress, if the server asked for it. Values must increase; others are dropped.
   *
   * @example
   * ```ts
   * declare const ctx: ClientRequestContext;
   * await ctx.progress(3, 10, 'three of ten');
   * ```
   */
  progress(progress: number, total?: number, message?: string): Promise<void> {
    const update: ProgressUpdate = { progress };
    if (total !== undefined) update.total = total;
    if (message !== undefined) update.message = message;
    return this.sendProgress(update);
  }

  /**
   * Reports progress as an update object; {@link progress} with fields.
   *
   * @example
   * ```ts
   * declare const ctx: ClientRequestContext;
   * await ctx.sendProgress({ progress: 1, total: 2 });
   * ```
   */
  sendProgress(update: ProgressUpdate): Promise<void> {
    return Promise.resolve(this.request.sendProgress(update));
  }

  /**
   * Sends a notification that belongs to this request (HTTP carries it on this request's stream).
   *
   * @example
   * ```ts
   * declare const ctx: ClientRequestContext;
   * await ctx.notify('com.example/thinking', { step: 1 });
   * ```
   */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return Promise.resolve(this.request.notify(method, params));
  }
}
