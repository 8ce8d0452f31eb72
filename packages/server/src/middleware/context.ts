/**
 * What a server middleware receives: the message, who sent it and over what, and a per-message
 * store. One small object per message, made only when a middleware is installed.
 * @module
 */
import type {
  AuthInfo,
  ClientRequestMap,
  ClientRequestMethod,
  MessageExtra,
  Middleware,
  MiddlewareContextBase,
  OutgoingRequestOptions,
  RequestId,
  Revision,
} from '@mcpkit/core';
import type { RequestContext } from '../kernel/context.js';
import type { RequestScope } from '../kernel/scope.js';
import type { ServerSession } from '../kernel/session.js';

/** Which way a message travels, seen from the server. */
export type ServerMessageDirection = 'receive' | 'send';

/** What a context of a message the server sends carries besides the message (not for application code). */
export interface OutgoingMessage {
  readonly notification: boolean;
  /** The request options (timeout, signal, progress) of a request; a middleware may replace them. */
  options?: OutgoingRequestOptions;
  /** The request a notification belongs to, when not sent through a `RequestContext`. */
  readonly relatedRequestId?: RequestId;
  /** True when the caller passed no params (so none are sent unless a middleware adds some). */
  readonly noParams?: boolean;
}

/**
 * The context of one message a server receives (`server.use`) or sends (`server.useSending`), as
 * its middleware sees it.
 *
 * @example
 * ```ts
 * server.use(async (ctx, next) => {
 *   ctx.store.set('started', Date.now());
 *   return next();
 * });
 * ```
 */
export class ServerMiddlewareContext implements MiddlewareContextBase {
  #storeMap: Map<unknown, unknown> | undefined;
  /** @internal The end of the chain, for a handler that places the chain itself. */
  end: ((ctx: ServerMiddlewareContext) => unknown) | undefined;

  readonly #extra: MessageExtra | undefined;
  constructor(
    readonly method: string,
    /** The params; assign a new object before `next()` to change what the handler receives. */
    public params: Record<string, unknown>,
    /** The session the message arrived on. */
    readonly session: ServerSession,
    /**
     * Received: the handler's context of the request (`undefined` for a notification). Sent: the
     * request on whose behalf the message goes out (`ctx.sample()`, `ctx.notify()`…), if any.
     */
    readonly request: RequestContext | undefined,
    extra?: MessageExtra,
    /** @internal Set for a message the server sends. */
    readonly outgoing?: OutgoingMessage,
  ) {
    this.#extra = extra;
  }

  /** `'receive'` for what a client sent, `'send'` for what the server sends (`server.useSending`). */
  get direction(): ServerMessageDirection {
    return this.outgoing ? 'send' : 'receive';
  }

  /** True for a notification. */
  get isNotification(): boolean {
    return this.outgoing ? this.outgoing.notification : this.request === undefined;
  }

  /** A request the server sends: its options (timeout, signal, progress); assign to replace them. */
  get options(): OutgoingRequestOptions | undefined {
    return this.outgoing?.options;
  }

  set options(options: OutgoingRequestOptions | undefined) {
    if (this.outgoing) this.outgoing.options = options;
  }

  /** The session id (Streamable HTTP, stateful); `undefined` on stdio, in-memory, stateless HTTP and 2026-07-28. */
  get sessionId(): string | undefined {
    return this.request?.eraPort !== undefined ? undefined : this.session.id;
  }

  /**
   * The request's protocol revision: the negotiated one (the latest before `initialize`
   * completes), or for a 2026-07-28 request the one its envelope names.
   */
  get protocolVersion(): Revision {
    return this.request?.eraPort !== undefined ? this.request.scope.revision : this.session.protocolVersion;
  }

  /** Who sent the message and under which revision (see `ctx.scope` of handlers); for requests only. */
  get scope(): RequestScope | undefined {
    return this.request?.scope;
  }

  /** The principal, as the authorization layer set it. */
  get authInfo(): AuthInfo | undefined {
    return this.request ? this.request.authInfo : this.#extra?.authInfo;
  }

  /** What the transport said about the message (HTTP request, address, principal). */
  get #transportExtra(): MessageExtra | undefined {
    return this.request ? this.request.request.extra : this.#extra;
  }

  /** The peer's address as the socket reports it (never from a header), over HTTP on Node. */
  get remoteAddress(): string | undefined {
    return this.#transportExtra?.remoteAddress;
  }

  /**
   * One HTTP request header by lower-case name, `null` when absent, `undefined` off HTTP. Cheaper
   * than {@link headers}, which builds a web `Request` on Node.
   */
  header(name: string): string | null | undefined {
    const extra = this.#transportExtra;
    if (!extra) return undefined;
    if (extra.header) return extra.header(name);
    return extra.httpRequest ? extra.httpRequest.headers.get(name) : undefined;
  }

  /** The HTTP request's headers, over HTTP. */
  get headers(): Headers | undefined {
    return this.#transportExtra?.httpRequest?.headers;
  }

  /**
   * Received: fires when the request is cancelled or its connection closes (`undefined` for a
   * notification). Sent: the signal of the request it is sent for, else the caller's own.
   */
  get signal(): AbortSignal | undefined {
    return this.request?.signal ?? this.outgoing?.options?.signal;
  }

  /** A per-message store for values passed to the middleware behind this one. */
  get store(): Map<unknown, unknown> {
    if (!this.#storeMap) this.#storeMap = new Map();
    return this.#storeMap;
  }
}

/**
 * A server middleware: sees every request and notification a session receives (`server.use`),
 * or sends (`server.useSending`).
 *
 * @example
 * ```ts
 * declare const audit: { write(entry: object): void };
 * const log: ServerMiddleware = async (ctx, next) => {
 *   try {
 *     return await next();
 *   } finally {
 *     audit.write({ method: ctx.method, session: ctx.sessionId });
 *   }
 * };
 * server.use(log);
 * ```
 */
export type ServerMiddleware = Middleware<ServerMiddlewareContext>;

/**
 * The context of one request of method `M`, with typed params.
 *
 * @example
 * ```ts
 * const read: ServerMethodMiddleware<'resources/read'> = (ctx, next) => {
 *   console.error(ctx.params.uri); // string
 *   return next();
 * };
 * ```
 */
export type ServerMethodContext<M extends ClientRequestMethod> = ServerMiddlewareContext & {
  params: NonNullable<ClientRequestMap[M]['params']> & Record<string, unknown>;
  readonly request: RequestContext;
};

/**
 * A middleware of one request method, with params and result typed by the method.
 *
 * @example
 * ```ts
 * const slowList: ServerMethodMiddleware<'tools/list'> = async (ctx, next) => {
 *   const result = await next();
 *   return { ...result, tools: result.tools.slice(0, 10) };
 * };
 * ```
 */
export type ServerMethodMiddleware<M extends ClientRequestMethod> = (
  ctx: ServerMethodContext<M>,
  next: () => Promise<ClientRequestMap[M]['result']>,
) => ClientRequestMap[M]['result'] | PromiseLike<ClientRequestMap[M]['result']>;

/** @internal Where `hideTools` leaves its predicate for `server.use` to register with routing. */
export const TOOL_VISIBILITY: unique symbol = Symbol('mcpkit.toolVisibility');
