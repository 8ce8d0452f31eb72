/**
 * The method table of a {@link Server} and the middleware around it: request handlers (the one
 * dispatch point), notification listeners, and the receiving and sending chains. {@link Server}
 * extends it with what serves sessions; nothing here is per session either.
 * @module
 */
import {
  type ClientNotificationMethod,
  type ClientRequestMethod,
  composeMiddleware,
  composeMiddlewareSync,
  ErrorCode,
  type ExtensionMethod,
  McpError,
  type MessageExtra,
  Method,
  type ServerCapabilities,
} from '@mcpkit/core';
import { addListener, toError } from '@mcpkit/core/internal';
import type { RequestContext } from './context.js';
import type {
  MethodHandler,
  MethodNotificationHandler,
  NotificationHandler,
  RequestHandler,
} from './handlers.js';
import {
  type ServerMethodMiddleware,
  type ServerMiddleware,
  ServerMiddlewareContext,
  TOOL_VISIBILITY,
} from './middleware/context.js';
import { onMethod } from './middleware/method.js';
import { deliver } from './middleware/sending.js';
import { discoverResult } from './modern/discover.js';
import { answerListen, ListenRegistry } from './modern/listen.js';
import type { ServerSession } from './session.js';

const DISCOVER = 'server/discover';
const LISTEN = 'subscriptions/listen';

type ToolVisibility = (name: string, ctx: ServerMiddlewareContext) => boolean;

/**
 * The method table and middleware chains {@link Server} is built on; use {@link Server}.
 *
 * @example
 * ```ts
 * // Every Server is one: its method table and middleware chains live here.
 * const server = new Server({ name: 'raw', version: '1.0.0' });
 * server.setRequestHandler('com.example/echo', (params) => params);
 * ```
 */
export abstract class ServerDispatcher {
  /**
   * @internal The open 2026-07-28 `subscriptions/listen` requests: broadcasts reach them with no
   * session. Shared with {@link Server}, which broadcasts and closes.
   */
  protected readonly listeners = new ListenRegistry();
  /** The method table. `initialize` and `ping` are the session's own, but pass the same dispatch. */
  readonly #requestHandlers = new Map<string, RequestHandler>([
    [Method.Initialize, (params, ctx) => ctx.session.acceptInitialize(params)],
    [Method.Ping, answerPing],
    [DISCOVER, (_params, ctx) => discoverResult(ctx.session.server)],
    [LISTEN, (params, ctx) => answerListen(this.listeners, params, ctx)],
  ]);
  /** Methods {@link setRequestHandler} refuses, with who answers them. */
  readonly #reserved = new Map<string, string>([
    [Method.Initialize, 'the session itself'],
    [Method.Ping, 'the session itself'],
    [DISCOVER, 'the server itself'],
    [LISTEN, 'the server itself'],
  ]);
  readonly #notificationHandlers = new Map<string, Set<NotificationHandler>>();
  readonly #middlewares: ServerMiddleware[] = [];
  /**
   * The composed middleware chain; `undefined` while none is installed (the plain path). It
   * answers without a promise when every layer passes a synchronous answer through.
   */
  #pipeline: ((ctx: ServerMiddlewareContext) => unknown) | undefined;
  /** Methods whose handler runs {@link pipeline} itself, at its own point. */
  readonly #wrapsItself = new Set<string>();
  readonly #sendingMiddlewares: ServerMiddleware[] = [];
  /** The predicates of `hideTools` middlewares, consulted when a `tools/call` is routed. */
  readonly #toolVisibility: ToolVisibility[] = [];
  /** @internal The composed sending chain; `undefined` while none is installed. */
  sendPipeline: ((ctx: ServerMiddlewareContext) => Promise<unknown>) | undefined;
  /** Where a tool's input schema is found, for the `x-mcp-header` rules; set by the tools feature. */
  #toolSchemas: ((toolName: string) => unknown) | undefined;

  /** Adds capabilities implied by a feature (e.g. registering a tool implies `tools`). */
  protected abstract implyCapabilities(capabilities: ServerCapabilities): void;

  /** @internal */
  abstract reportError(error: Error, session?: ServerSession): void;

  /**
   * Sets the handler of one request method; replaces an earlier handler of the same method. A
   * method of the specification gets typed params and result; any other name (an extension) is
   * untyped.
   *
   * @throws {TypeError} for a method the server answers itself: `initialize` and `ping`, and on an
   *   `McpServer` the methods its features own (`tools/*`, `resources/*`, `prompts/*`,
   *   `completion/complete`, `logging/setLevel`).
   * @example
   * ```ts
   * server.setRequestHandler('tools/call', async (params, ctx) => ({ content: [{ type: 'text', text: params.name }] }));
   * server.setRequestHandler('com.example/search', (params) => ({ hits: [] }));
   * ```
   */
  setRequestHandler<M extends ClientRequestMethod>(method: M, handler: MethodHandler<M>): void;
  setRequestHandler<M extends string>(
    method: ExtensionMethod<M, ClientRequestMethod>,
    handler: RequestHandler,
  ): void;
  setRequestHandler(method: string, handler: RequestHandler | MethodHandler<any>): void {
    const owner = this.#reserved.get(method);
    if (owner) throw new TypeError(`"${method}" is answered by ${owner} and cannot be overridden`);
    this.#requestHandlers.set(method, handler as RequestHandler);
  }

  /**
   * Installs a feature: declares `capabilities` and answers the `handlers`' methods, bypassing
   * the reservation check of {@link setRequestHandler} (the feature is the owner).
   *
   * @example
   * ```ts
   * declare const server: Server;
   * server.provide({ logging: {} }, { 'logging/setLevel': (params) => {
   *   console.error('log level', params?.level);
   *   return {};
   * } });
   * ```
   */
  provide(capabilities: ServerCapabilities, handlers: Readonly<Record<string, RequestHandler>>): void {
    this.implyCapabilities(capabilities);
    for (const [method, handler] of Object.entries(handlers)) this.#requestHandlers.set(method, handler);
  }

  /**
   * Reserves methods the server answers itself: {@link setRequestHandler} refuses them, naming
   * `owner` in its error.
   *
   * @example
   * ```ts
   * class ToolServer extends Server {
   *   constructor() {
   *     super({ name: 'tools', version: '1.0.0' });
   *     this.reserveMethods(['tools/list', 'tools/call'], 'ToolServer (register tools with server.tool())');
   *   }
   * }
   * ```
   */
  protected reserveMethods(methods: Iterable<string>, owner: string): void {
    for (const method of methods) this.#reserved.set(method, owner);
  }

  /** The handler of a method, if any. */
  requestHandler(method: string): RequestHandler | undefined {
    return this.#requestHandlers.get(method);
  }

  /**
   * The one dispatch point: every request any session answers (`initialize` and `ping`
   * included) passes here, method → handler, after the session's lifecycle checks and before the
   * result is encoded for the negotiated revision. A middleware pipeline wraps this call.
   *
   * @throws {McpError} `-32601` for a method without a handler; whatever the handler throws.
   * @example
   * ```ts
   * const result = server.dispatch('tools/list', {}, ctx);
   * ```
   */
  dispatch(method: string, params: Record<string, unknown>, context: RequestContext): unknown {
    const handler = this.#requestHandlers.get(method);
    if (!handler) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    if (this.#pipeline && !this.#wrapsItself.has(method)) {
      return this.#pipeline(new ServerMiddlewareContext(method, params, context.session, context));
    }
    return handler(params, context);
  }

  /**
   * @internal True when a `hideTools` middleware hides tool `name` from the session of `context`:
   * routing then refuses the call like a call to an unknown tool.
   */
  hidesTool(name: string, params: Record<string, unknown>, context: RequestContext): boolean {
    if (this.#toolVisibility.length === 0) return false;
    const ctx = new ServerMiddlewareContext(Method.ToolsCall, params, context.session, context);
    return this.#toolVisibility.some((visible) => !visible(name, ctx));
  }

  /** @internal Names where tool input schemas are found (the tools feature calls it once). */
  provideToolHeaders(source: (toolName: string) => unknown): void {
    this.#toolSchemas = source;
  }

  /** @internal The input schema of tool `toolName`, for the 2026-07-28 HTTP header rules. */
  toolInputSchema(toolName: string): unknown {
    return this.#toolSchemas?.(toolName);
  }

  /** True when a receiving middleware is installed. */
  get hasMiddleware(): boolean {
    return this.#pipeline !== undefined;
  }

  /**
   * @internal Runs the receiving chain around `end` for a method whose handler places the chain
   * itself ({@link placesMiddleware}): `tools/call` runs it after routing and argument validation
   * and before output validation. Call it only when {@link hasMiddleware}. Returns the answer
   * itself when every layer passed a synchronous `end` through, else a promise of it.
   */
  runMiddleware(
    method: string,
    params: Record<string, unknown>,
    context: RequestContext,
    end: (ctx: ServerMiddlewareContext) => unknown,
  ): unknown {
    const ctx = new ServerMiddlewareContext(method, params, context.session, context);
    ctx.end = end;
    return this.#pipeline!(ctx);
  }

  /**
   * Marks methods whose handler runs the middleware chain itself, at its own point, with
   * {@link runMiddleware}; {@link dispatch} then calls the handler directly.
   *
   * @example
   * ```ts
   * class ToolServer extends Server {
   *   constructor() {
   *     super({ name: 'tools', version: '1.0.0' });
   *     this.placesMiddleware(['tools/call']);
   *   }
   * }
   * ```
   */
  protected placesMiddleware(methods: Iterable<string>): void {
    for (const method of methods) this.#wrapsItself.add(method);
  }

  /**
   * Adds a middleware around every request and notification any session receives, or, with a
   * method name, around that method's requests only (typed by the method; an extension's name is
   * untyped). The first added runs first on the way in and last on the way out. It runs after
   * routing (an unknown method is refused before it) and the lifecycle gate, and before the result
   * is encoded for the peer's revision. The chain is composed here, once; a server without
   * middleware dispatches exactly as before.
   *
   * @example
   * ```ts
   * declare function audit(method: string, clientId: string | undefined, ms: number): void;
   * server.use(async (ctx, next) => {
   *   const started = Date.now();
   *   try {
   *     return await next();
   *   } finally {
   *     audit(ctx.method, ctx.authInfo?.clientId, Date.now() - started);
   *   }
   * });
   * server.use('tools/list', async (_ctx, next) => ({ ...(await next()), tools: [] }));
   * ```
   */
  use(middleware: ServerMiddleware): this;
  use<M extends ClientRequestMethod>(method: M, middleware: ServerMethodMiddleware<M>): this;
  use<M extends string>(method: ExtensionMethod<M, ClientRequestMethod>, middleware: ServerMiddleware): this;
  use(first: string | ServerMiddleware, second?: ServerMiddleware | ServerMethodMiddleware<any>): this {
    const given = typeof first === 'string' ? second : first;
    if (typeof given !== 'function') throw new TypeError('server.use() needs a middleware function');
    const middleware = typeof first === 'string' ? onMethod(first, given as ServerMiddleware) : first;
    const visibility = (middleware as { [TOOL_VISIBILITY]?: ToolVisibility })[TOOL_VISIBILITY];
    if (visibility) this.#toolVisibility.push(visibility);
    this.#middlewares.push(middleware);
    this.#pipeline = composeMiddlewareSync(this.#middlewares.slice(), (ctx) => this.#handle(ctx));
    return this;
  }

  /**
   * Adds a middleware around every request and notification any session sends to its client:
   * requests (`session.request()`, `ctx.sample()`, `ctx.elicit()`, `ctx.listRoots()`,
   * `session.ping()`…) and notifications (`session.notify()`, logs, progress, list changes,
   * broadcasts). Same shape as {@link use}, with `ctx.direction === 'send'`; `ctx.options` holds a
   * request's options. It runs before the capability check and the encoding for the client's
   * revision, so a changed `ctx.params` is checked and encoded like the caller's own. A server
   * without sending middleware sends exactly as before.
   *
   * @example
   * ```ts
   * server.useSending(async (ctx, next) => {
   *   if (ctx.method === 'sampling/createMessage') ctx.params = { ...ctx.params, maxTokens: Math.min(Number(ctx.params.maxTokens), 500) };
   *   return next();
   * });
   * ```
   */
  useSending(middleware: ServerMiddleware): this {
    if (typeof middleware !== 'function')
      throw new TypeError('server.useSending() needs a middleware function');
    this.#sendingMiddlewares.push(middleware);
    this.sendPipeline = composeMiddleware(this.#sendingMiddlewares.slice(), deliver);
    return this;
  }

  /** The end of the chain: the method's handler, or a notification's listeners. */
  #handle(ctx: ServerMiddlewareContext): unknown {
    if (ctx.end) return ctx.end(ctx);
    if (!ctx.request) {
      this.#runListeners(ctx.method, ctx.params, ctx.session);
      return undefined;
    }
    return this.#requestHandlers.get(ctx.method)!(ctx.params, ctx.request);
  }

  /**
   * Adds a listener for a notification method clients send; returns an unsubscribe function. A
   * method of the specification gets typed params; any other name is untyped. Listeners run in
   * the order they were added; one that throws is reported to `onError` and the others still run.
   *
   * @example
   * ```ts
   * declare function refresh(session: ServerSession): void;
   * const stop = server.onNotification('notifications/roots/list_changed', (_params, session) => refresh(session));
   * ```
   */
  onNotification<M extends ClientNotificationMethod>(
    method: M,
    handler: MethodNotificationHandler<M>,
  ): () => void;
  onNotification<M extends string>(
    method: ExtensionMethod<M, ClientNotificationMethod>,
    handler: NotificationHandler,
  ): () => void;
  onNotification(method: string, handler: NotificationHandler | MethodNotificationHandler<any>): () => void {
    return addListener(this.#notificationHandlers, method, handler as NotificationHandler);
  }

  /**
   * Replaces every listener of one notification method with `handler`.
   *
   * @deprecated Use {@link onNotification}, which adds a listener and returns its unsubscribe
   *   function, like the client's.
   * @example
   * ```ts
   * declare function refresh(session: ServerSession): void;
   * server.setNotificationHandler('notifications/roots/list_changed', (_params, session) => refresh(session));
   * ```
   */
  setNotificationHandler<M extends ClientNotificationMethod>(
    method: M,
    handler: MethodNotificationHandler<M>,
  ): void;
  setNotificationHandler<M extends string>(
    method: ExtensionMethod<M, ClientNotificationMethod>,
    handler: NotificationHandler,
  ): void;
  setNotificationHandler(
    method: string,
    handler: NotificationHandler | MethodNotificationHandler<any>,
  ): void {
    this.#notificationHandlers.set(method, new Set([handler as NotificationHandler]));
  }

  /** @internal Runs the listeners of a notification a session received. */
  notified(
    method: string,
    params: Record<string, unknown>,
    session: ServerSession,
    extra?: MessageExtra,
  ): void {
    if (this.#pipeline) {
      const ctx = new ServerMiddlewareContext(method, params, session, undefined, extra);
      Promise.resolve(this.#pipeline(ctx)).catch((error: unknown) =>
        this.reportError(toError(error), session),
      );
      return;
    }
    this.#runListeners(method, params, session);
  }

  #runListeners(method: string, params: Record<string, unknown>, session: ServerSession): void {
    const handlers = this.#notificationHandlers.get(method);
    if (!handlers) return;
    // Not through safely(): that would make a closure per listener per notification.
    for (const handler of handlers) {
      try {
        handler(params, session);
      } catch (error) {
        this.reportError(toError(error), session);
      }
    }
  }

  /** @internal Runs a listener; one that throws is reported, never thrown (also used by Server). */
  protected safely(fn: () => void, session: ServerSession): void {
    try {
      fn();
    } catch (error) {
      this.reportError(toError(error), session);
    }
  }
}

function answerPing(): Record<string, never> {
  return {};
}
