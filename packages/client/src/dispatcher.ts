/**
 * What a {@link Client} knows of the server it talks to (the negotiated revision, the server's
 * `initialize` answer) and how it answers the server: the handlers of the server's requests and
 * notifications, the middleware chain, and the close listeners. {@link Client} extends it with
 * connecting and sending; nothing here is per message.
 * @module
 */
import {
  type ClientCapabilities,
  type Connection,
  composeMiddleware,
  ErrorCode,
  type ExtensionMethod,
  type Implementation,
  type IncomingRequest,
  type InitializeResult,
  LATEST_PROTOCOL_VERSION,
  McpError,
  Method,
  type OutgoingRequestOptions,
  type ServerCapabilities,
  type ServerNotificationMethod,
  type ServerRequestMethod,
  type SessionObservation,
} from '@mcpkit/core';
import { codecFor, mergeCapabilities, type RevisionCodec, toError } from '@mcpkit/core/internal';
import type { ClientOptions, ClientProtocolVersion } from './clientOptions.js';
import type { ModernVersion } from './era/modern.js';
import {
  type ClientMethodHandler,
  type ClientMethodNotificationHandler,
  type ClientNotificationHandler,
  type ClientRequestHandler,
  HandlerRegistry,
} from './handlers.js';
import { type ClientMiddleware, ClientMiddlewareContext } from './middleware/context.js';

type ClientState = 'new' | 'initializing' | 'ready' | 'closed';

/**
 * The negotiated state and the receiving side {@link Client} is built on; use {@link Client}.
 *
 * @example
 * ```ts
 * // Every Client is one: its handlers, middleware and what the server said live here.
 * const client = new Client({ name: 'my-host', version: '1.0.0' });
 * client.setRequestHandler('roots/list', () => ({ roots: [] }));
 * ```
 */
export abstract class ClientDispatcher {
  /** @internal */
  protected connectionInstance: Connection | undefined;
  /** @internal */
  protected state: ClientState = 'new';
  /** @internal */
  protected codec: RevisionCodec = codecFor(LATEST_PROTOCOL_VERSION);
  /** @internal */
  protected initializeResult: InitializeResult | undefined;
  /** @internal The per-request revision spoken, when the server is a modern one; `undefined` in a session. */
  protected modern: ModernVersion | undefined;
  /** @internal */
  protected readonly handlers = new HandlerRegistry((error) => this.reportError(error));
  private implied: ClientCapabilities = {};
  private closeListeners: Array<(error?: Error) => void> = [];
  /** @internal */
  protected observation: SessionObservation | undefined;
  private readonly middlewares: ClientMiddleware[] = [];
  /** @internal The composed middleware chain; `undefined` while none is installed (the plain path). */
  protected pipeline: ((ctx: ClientMiddlewareContext) => Promise<unknown>) | undefined;

  constructor(
    readonly info: Implementation,
    readonly options: ClientOptions,
  ) {}

  /** The capabilities this client declares. */
  get capabilities(): ClientCapabilities {
    return mergeCapabilities(this.implied, this.options.capabilities);
  }

  /** Adds capabilities implied by a handler (e.g. a sampling handler implies `sampling`). */
  protected implyCapabilities(capabilities: ClientCapabilities): void {
    if (this.state !== 'new') throw new Error('Capabilities are fixed once the client has connected');
    this.implied = mergeCapabilities(this.implied, capabilities);
  }

  /** The connection, once connected. */
  get connection(): Connection {
    if (!this.connectionInstance) throw new Error('The client is not connected');
    return this.connectionInstance;
  }

  /** The server's `initialize` answer, once connected. */
  get serverResult(): InitializeResult | undefined {
    return this.initializeResult;
  }

  /** The server's name and version. */
  get serverInfo(): Implementation | undefined {
    return this.initializeResult?.serverInfo;
  }

  /** What the server declared it can do. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.initializeResult?.capabilities;
  }

  /** The server's usage instructions, if it gave any. */
  get instructions(): string | undefined {
    return this.initializeResult?.instructions;
  }

  /** The revision spoken, once connected: negotiated by `initialize`, or 2026-07-28 per request. */
  get protocolVersion(): ClientProtocolVersion | undefined {
    if (!this.initializeResult) return undefined;
    return this.modern ?? this.codec.version;
  }

  /**
   * The era spoken, once connected: `'2026'` (per-request metadata, no session) or `'2025'`
   * (an `initialize` session, 2025-11-25 and older).
   *
   * @example
   * ```ts
   * await client.connect(transport);
   * if (client.era === '2025') console.error('a legacy server');
   * ```
   */
  get era(): '2026' | '2025' | undefined {
    if (!this.initializeResult) return undefined;
    return this.modern ? '2026' : '2025';
  }

  /** True once the handshake completed and until the connection closes. */
  get connected(): boolean {
    return this.state === 'ready';
  }

  /**
   * Adds a middleware around every request and notification the client sends after `initialize`
   * (`ctx.direction === 'send'`) and every one it receives (`'receive'`). The first added runs
   * first on the way in and last on the way out. The chain is composed here, once; a client
   * without middleware sends and answers exactly as before.
   *
   * @example
   * ```ts
   * client.use(async (ctx, next) => {
   *   if (ctx.direction === 'send' && ctx.method === 'tools/call') console.error('calling', ctx.params.name);
   *   return next();
   * });
   * ```
   */
  use(middleware: ClientMiddleware): this {
    if (typeof middleware !== 'function') throw new TypeError('client.use() needs a middleware function');
    this.middlewares.push(middleware);
    this.pipeline = composeMiddleware(this.middlewares.slice(), (ctx) => this.endOfChain(ctx));
    return this;
  }

  /** The end of the chain: send the message, or answer / deliver the received one. */
  private endOfChain(ctx: ClientMiddlewareContext): unknown {
    if (ctx.direction === 'send') {
      return ctx.isNotification
        ? this.sendNotification(ctx.method, ctx.outgoingParams)
        : this.sendRequest(ctx.method, ctx.outgoingParams, ctx.options);
    }
    if (ctx.isNotification) return this.handlers.runListeners(ctx.method, ctx.params);
    return this.answer(ctx.method, ctx.params, ctx.request!);
  }

  /**
   * Sets the handler of a request method the server sends (e.g. `sampling/createMessage`). A
   * method of the specification gets typed params and result; any other name is untyped.
   *
   * @example
   * ```ts
   * client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///work' }] }));
   * ```
   */
  setRequestHandler<M extends ServerRequestMethod>(method: M, handler: ClientMethodHandler<M>): void;
  setRequestHandler<M extends string>(
    method: ExtensionMethod<M, ServerRequestMethod>,
    handler: ClientRequestHandler,
  ): void;
  setRequestHandler(method: string, handler: ClientRequestHandler | ClientMethodHandler<any>): void {
    this.handlers.setRequestHandler(method, handler as ClientRequestHandler);
  }

  /**
   * Adds a listener for a notification method the server sends; returns an unsubscribe function.
   *
   * @example
   * ```ts
   * client.onNotification('notifications/message', (params) => console.error(params.data));
   * ```
   */
  onNotification<M extends ServerNotificationMethod>(
    method: M,
    handler: ClientMethodNotificationHandler<M>,
  ): () => void;
  onNotification<M extends string>(
    method: ExtensionMethod<M, ServerNotificationMethod>,
    handler: ClientNotificationHandler,
  ): () => void;
  onNotification(
    method: string,
    handler: ClientNotificationHandler | ClientMethodNotificationHandler<any>,
  ): () => void {
    return this.handlers.addListener(method, handler as ClientNotificationHandler);
  }

  /**
   * Calls `listener` when the connection closes.
   *
   * @example
   * ```ts
   * client.onClose((error) => console.error('disconnected', error?.message));
   * ```
   */
  onClose(listener: (error?: Error) => void): void {
    this.closeListeners.push(listener);
  }

  /** @internal */
  protected handleRequest(request: IncomingRequest): unknown {
    const method = request.method;
    if (method !== Method.Ping && !this.handlers.has(method)) {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    if (this.pipeline) {
      const ctx = new ClientMiddlewareContext(
        'receive',
        method,
        request.params,
        false,
        this.protocolVersion,
        request,
      );
      return this.pipeline(ctx);
    }
    return this.answer(method, request.params ?? {}, request);
  }

  /** @internal */
  protected handleNotification(method: string, params: Record<string, unknown> | undefined): void {
    if (this.pipeline) {
      const ctx = new ClientMiddlewareContext('receive', method, params, true, this.protocolVersion);
      this.pipeline(ctx).catch((error: unknown) => this.reportError(toError(error)));
      return;
    }
    this.handlers.runListeners(method, params ?? {});
  }

  /** @internal */
  protected handleClose(error?: Error): void {
    this.state = 'closed';
    if (this.observation) this.observation.close(this.options.observer!);
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener(error);
      } catch (hookError) {
        this.reportError(toError(hookError));
      }
    }
  }

  /** @internal */
  protected reportError(error: Error): void {
    try {
      this.options.observer?.error?.(error, this.observation);
    } catch {
      // An observer that throws must not take the client down.
    }
    try {
      this.options.onError?.(error);
    } catch {
      // A logging hook that throws must not take the client down.
    }
  }
  /** @internal Sends a request past the middleware chain. */
  protected abstract sendRequest<R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
  ): Promise<R>;

  /** @internal Sends a notification past the middleware chain. */
  protected abstract sendNotification(
    method: string,
    params: Record<string, unknown> | undefined,
  ): void | Promise<void>;

  /** @internal Answers a request of the server past the middleware chain. */
  protected abstract answer(
    method: string,
    params: Record<string, unknown>,
    request: IncomingRequest,
  ): unknown;
}
