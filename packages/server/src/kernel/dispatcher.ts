/**
 * The method table of a `Server` and its one dispatch point: request handlers, notification
 * listeners, and the two slots the middleware plug-in fills (the receiving chain, the sending
 * seam). `Server` (the composition root) extends it with what serves sessions; nothing here is
 * per session, and nothing here knows which plug-ins fill the slots.
 * @module
 */
import {
  type ClientNotificationMethod,
  type ClientRequestMethod,
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
import type { Receiving, Sending } from './ports.js';
import type { ServerSession } from './session.js';

/**
 * The method table and dispatch point `Server` is built on; use `Server`.
 *
 * @example
 * ```ts
 * // Every Server is one: its method table and middleware chains live here.
 * const server = new Server({ name: 'raw', version: '1.0.0' });
 * server.setRequestHandler('com.example/echo', (params) => params);
 * ```
 */
export abstract class ServerDispatcher {
  /** The method table. `initialize` and `ping` are the session's own, but pass the same dispatch. */
  readonly #requestHandlers = new Map<string, RequestHandler>([
    [Method.Initialize, (params, ctx) => ctx.session.acceptInitialize(params)],
    [Method.Ping, answerPing],
  ]);
  /** Methods {@link setRequestHandler} refuses, with who answers them. */
  readonly #reserved = new Map<string, string>([
    [Method.Initialize, 'the session itself'],
    [Method.Ping, 'the session itself'],
  ]);
  readonly #notificationHandlers = new Map<string, Set<NotificationHandler>>();
  /** Methods whose handler runs the receiving chain itself, at its own point. */
  readonly #wrapsItself = new Set<string>();
  /** @internal The receiving middleware's slot; `undefined` while none is installed (the plain path). */
  receiving: Receiving | undefined;
  /** @internal The sending seam; `undefined` while no sending middleware is installed (the plain path). */
  sending: Sending | undefined;

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

  /**
   * @internal Answers `method` with `handler` and reserves it, naming `owner` when
   * {@link setRequestHandler} refuses it (a plug-in installing what the server answers itself).
   */
  answerItself(method: string, handler: RequestHandler, owner: string): void {
    this.#requestHandlers.set(method, handler);
    this.#reserved.set(method, owner);
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
    if (this.receiving !== undefined && !this.#wrapsItself.has(method)) {
      return this.receiving.request(method, params, context);
    }
    return handler(params, context);
  }

  /**
   * Marks methods whose handler runs the middleware chain itself, at its own point, with
   * `runMiddleware`; {@link dispatch} then calls the handler directly.
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
    if (this.receiving !== undefined) {
      this.receiving.notification(method, params, session, extra);
      return;
    }
    this.runListeners(method, params, session);
  }

  /** @internal Runs a notification's listeners (the plain path, and the end of the receiving chain). */
  runListeners(method: string, params: Record<string, unknown>, session: ServerSession): void {
    const handlers = this.#notificationHandlers.get(method);
    if (!handlers) return;
    // Each listener in its own try, not through a helper that would take a closure per listener.
    for (const handler of handlers) {
      try {
        handler(params, session);
      } catch (error) {
        this.reportError(toError(error), session);
      }
    }
  }
}

function answerPing(): Record<string, never> {
  return {};
}
