/**
 * The MCP client: the handshake, typed requests to the server, and answers to the server's own
 * requests (sampling, elicitation, roots).
 * @module
 */
import {
  CapabilityError,
  type ClientCapabilities,
  type ClientRequestMap,
  type ClientRequestMethod,
  Connection,
  ConnectionClosedError,
  composeMiddleware,
  ErrorCode,
  type ExtensionMethod,
  type Implementation,
  type IncomingRequest,
  type InitializeResult,
  isSupportedProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  McpError,
  Method,
  type MethodArgsOf,
  type MethodHandlerOf,
  Notification,
  type Observer,
  type OutgoingRequestOptions,
  type ProtocolVersion,
  type ServerCapabilities,
  type ServerNotificationMap,
  type ServerNotificationMethod,
  type ServerRequestMap,
  type ServerRequestMethod,
  SessionObservation,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  UnsupportedProtocolVersionError,
} from '@mcpkit/core';
import {
  codecFor,
  encodeOutgoingNotification,
  encodeOutgoingRequest,
  mergeCapabilities,
  missingServerCapability,
  NOT_IN_REVISION,
  type RevisionCodec,
  rejectUnknownOptions,
  revisionHas,
  toError,
} from '@mcpkit/core/internal';
import { ClientRequestContext } from './context.js';
import { DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT, DEFAULT_MAX_INCOMING_REQUESTS } from './limits.js';
import { type ClientMiddleware, ClientMiddlewareContext } from './middleware/context.js';

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
 * The arguments of a typed request: params may be left out when the method allows it.
 *
 * @example
 * ```ts
 * const args: RequestArgs<'tools/list'> = [];
 * ```
 */
export type RequestArgs<M extends ClientRequestMethod> = MethodArgsOf<
  ClientRequestMap[M]['params'],
  OutgoingRequestOptions
>;

/** Options of {@link Client}. */
export interface ClientOptions {
  /** Capabilities to declare beyond those implied by the handlers given. */
  capabilities?: ClientCapabilities;
  /** Revisions this client accepts, newest first; the first is requested. Default: all. */
  protocolVersions?: readonly ProtocolVersion[];
  /** Default timeout of requests in ms. Default 60 000 (progress extends it). */
  requestTimeout?: number;
  /**
   * Hard limit of requests in ms, whatever progress arrives. Default 10 minutes
   * ({@link DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT}).
   */
  maxTotalTimeout?: number;
  /**
   * How many of the server's requests are handled at once; past it they are refused with an
   * error. Default {@link DEFAULT_MAX_INCOMING_REQUESTS} (64).
   */
  maxIncomingRequests?: number;
  /**
   * Receives problems no caller can be told about. Default: none; the library never writes to
   * the console, so pass a hook to see them.
   */
  onError?: (error: Error) => void;
  /**
   * Sees every request the client sends and receives, and the session's lifetime (tracing with
   * trace context in `_meta`: `@mcpkit/otel`). Default: none, at no cost.
   */
  observer?: Observer;
}

/**
 * Every key of {@link ClientOptions}: the constructor refuses others (a typo would otherwise be
 * ignored in silence).
 *
 * @example
 * ```ts
 * Object.hasOwn(CLIENT_OPTION_KEYS, 'requestTimeout'); // true
 * ```
 */
export const CLIENT_OPTION_KEYS: Readonly<Record<keyof ClientOptions, true>> = {
  capabilities: true,
  protocolVersions: true,
  requestTimeout: true,
  maxTotalTimeout: true,
  onError: true,
  maxIncomingRequests: true,
  observer: true,
};

type ClientState = 'new' | 'initializing' | 'ready' | 'closed';

/**
 * A low-level MCP client. Connect it to a transport, then send requests.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'my-host', version: '1.0.0' });
 * await client.connect(transport);
 * const tools = await client.request('tools/list', {});
 * ```
 */
export class Client {
  private connectionInstance: Connection | undefined;
  private state: ClientState = 'new';
  private codec: RevisionCodec = codecFor(LATEST_PROTOCOL_VERSION);
  private initializeResult: InitializeResult | undefined;
  private readonly requestHandlers = new Map<string, ClientRequestHandler>();
  private readonly notificationHandlers = new Map<string, Set<ClientNotificationHandler>>();
  private implied: ClientCapabilities = {};
  private closeListeners: Array<(error?: Error) => void> = [];
  private observation: SessionObservation | undefined;
  private readonly middlewares: ClientMiddleware[] = [];
  /** The composed middleware chain; `undefined` while none is installed (the plain path). */
  private pipeline: ((ctx: ClientMiddlewareContext) => Promise<unknown>) | undefined;
  readonly protocolVersions: readonly ProtocolVersion[];
  /**
   * @internal While a reconnection runs (see `connectReconnecting`): requests made meanwhile wait
   * for it instead of failing. Read only when the client is not ready: no cost otherwise.
   */
  reconnecting: Promise<unknown> | undefined;
  /** @internal True once `close()` was called: a reconnecting client then stays closed. */
  closeRequested = false;

  constructor(
    readonly info: Implementation,
    readonly options: ClientOptions = {},
  ) {
    // A subclass with options of its own checks them all itself.
    if (new.target === Client) rejectUnknownOptions(options, CLIENT_OPTION_KEYS, 'Client');
    this.protocolVersions = options.protocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
  }

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

  /** The negotiated revision, once connected. */
  get protocolVersion(): ProtocolVersion | undefined {
    return this.initializeResult ? this.codec.version : undefined;
  }

  /** True once the handshake completed and until the connection closes. */
  get connected(): boolean {
    return this.state === 'ready';
  }

  /**
   * Connects over `transport` and performs the handshake: `initialize`, a version check, then
   * `notifications/initialized`.
   *
   * @throws {UnsupportedProtocolVersionError} when the server answers with a revision this
   *   client does not speak; the connection is closed.
   * @example
   * ```ts
   * const result = await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
   * console.log(result.serverInfo.name);
   * ```
   */
  async connect(transport: Transport, options: OutgoingRequestOptions = {}): Promise<InitializeResult> {
    if (this.state !== 'new') throw new Error('A client connects once; create a new Client to reconnect');
    this.state = 'initializing';
    const observer = this.options.observer;
    if (observer) this.observation = new SessionObservation('client', transport, () => this.protocolVersion);
    const connection = new Connection(
      transport,
      {
        onRequest: (request) => this.handleRequest(request),
        onNotification: (method, params) => this.handleNotification(method, params),
        onClose: (error) => this.handleClose(error),
      },
      {
        requestTimeout: this.options.requestTimeout,
        maxTotalTimeout: this.options.maxTotalTimeout ?? DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT,
        maxIncomingRequests: this.options.maxIncomingRequests ?? DEFAULT_MAX_INCOMING_REQUESTS,
        onError: (error) => this.reportError(error),
        acceptBatches: () => this.codec.acceptsBatches,
        // Progress the engine sends for the server's requests must fit the negotiated revision.
        encodeNotification: (method, params) => encodeOutgoingNotification(this.codec, method, params),
        observer,
        observedSession: this.observation,
      },
    );
    this.connectionInstance = connection;
    await connection.start();
    // Encode with the codec of the version we propose, so an older server never sees fields
    // (icons, task capabilities...) its revision lacks.
    const proposed = this.protocolVersions[0] ?? LATEST_PROTOCOL_VERSION;
    const params = codecFor(proposed).encodeParams(Method.Initialize, {
      protocolVersion: proposed,
      capabilities: this.capabilities,
      clientInfo: this.info,
    });
    const result = await connection.request<InitializeResult>(
      Method.Initialize,
      params === NOT_IN_REVISION ? undefined : params,
      { resetTimeoutOnProgress: false, ...options },
    );
    const version = result?.protocolVersion;
    if (!isSupportedProtocolVersion(version) || !this.protocolVersions.includes(version)) {
      await connection.close().catch(() => {});
      throw new UnsupportedProtocolVersionError(version, this.protocolVersions);
    }
    this.codec = codecFor(version);
    this.initializeResult = result;
    transport.setProtocolVersion?.(version);
    this.state = 'ready';
    if (this.observation) this.observation.open(observer!);
    await connection.notify(Notification.Initialized);
    return result;
  }

  /**
   * Sends a request after checking the server declared the capability for it.
   *
   * A method of the specification has typed params and result; any other name (an extension)
   * is untyped, its result type given as a type argument.
   *
   * @throws {CapabilityError} locally, before sending, when the server lacks the capability.
   * @example
   * ```ts
   * const { tools } = await client.request('tools/list');
   * const hits = await client.request<{ hits: string[] }>('com.example/search', { q: 'mcp' });
   * ```
   */
  request<M extends ClientRequestMethod>(
    method: M,
    ...args: RequestArgs<M>
  ): Promise<ClientRequestMap[M]['result']>;
  request<R = Record<string, unknown>, M extends string = string>(
    method: ExtensionMethod<M, ClientRequestMethod>,
    params?: Record<string, unknown>,
    options?: OutgoingRequestOptions,
  ): Promise<R>;
  request<R>(method: string, params?: Record<string, unknown>, options?: OutgoingRequestOptions): Promise<R> {
    if (this.state !== 'ready' && method !== Method.Ping) {
      const reconnecting = this.reconnecting;
      if (reconnecting) return reconnecting.then(() => this.request<R>(method as never, params, options));
      return Promise.reject(
        this.state === 'closed'
          ? new ConnectionClosedError('The client is closed')
          : new CapabilityError(`Cannot send "${method}" before the client has connected`),
      );
    }
    if (this.pipeline) {
      const ctx = new ClientMiddlewareContext(
        'send',
        method,
        params,
        false,
        this.protocolVersion,
        undefined,
        options,
      );
      return this.pipeline(ctx) as Promise<R>;
    }
    return this.sendRequest<R>(method, params, options);
  }

  private sendRequest<R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
  ): Promise<R> {
    try {
      const encoded = encodeOutgoingRequest(
        this.codec,
        method,
        params,
        this.missingCapability(method, params),
      );
      return this.connection.request<R>(method, encoded, options);
    } catch (error) {
      return Promise.reject(error);
    }
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
    if (ctx.isNotification) return this.runListeners(ctx.method, ctx.params);
    return this.answer(ctx.method, ctx.params, ctx.request!);
  }

  /**
   * Sends a notification. Notifications the negotiated revision lacks are dropped.
   *
   * @example
   * ```ts
   * await client.notify('notifications/roots/list_changed');
   * ```
   */
  notify(method: string, params?: Record<string, unknown>): void | Promise<void> {
    if (this.pipeline) {
      const ctx = new ClientMiddlewareContext('send', method, params, true, this.protocolVersion);
      return this.pipeline(ctx).then(() => undefined);
    }
    return this.sendNotification(method, params);
  }

  private sendNotification(
    method: string,
    params: Record<string, unknown> | undefined,
  ): void | Promise<void> {
    const encoded = this.codec.encodeParams(method, params);
    if (encoded === NOT_IN_REVISION) return;
    return this.connection.notify(method, encoded);
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
    if (method === Method.Ping) {
      throw new TypeError('"ping" is answered by the client itself and cannot be overridden');
    }
    this.requestHandlers.set(method, handler as ClientRequestHandler);
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
    let handlers = this.notificationHandlers.get(method);
    if (!handlers) {
      handlers = new Set();
      this.notificationHandlers.set(method, handlers);
    }
    const listener = handler as ClientNotificationHandler;
    handlers.add(listener);
    return () => handlers.delete(listener);
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

  /**
   * Pings the server.
   *
   * @example
   * ```ts
   * await client.ping();
   * ```
   */
  async ping(options?: OutgoingRequestOptions): Promise<void> {
    await this.request(Method.Ping, undefined, { resetTimeoutOnProgress: false, ...options });
  }

  /** Closes the connection. Pending requests fail with a clear error. */
  async close(): Promise<void> {
    this.closeRequested = true;
    await this.connectionInstance?.close();
  }

  /**
   * @internal Makes a client whose connection closed, or whose `connect` failed, ready to connect
   * again: the step `connectReconnecting` takes before each new transport.
   */
  async reopen(): Promise<void> {
    const connection = this.connectionInstance;
    if (connection && !connection.closed) await connection.close().catch(() => undefined);
    this.state = 'new';
    this.connectionInstance = undefined;
    this.initializeResult = undefined;
    this.observation = undefined;
    this.codec = codecFor(LATEST_PROTOCOL_VERSION);
  }

  private missingCapability(method: string, params: Record<string, unknown> | undefined): string | undefined {
    // 2024-11-05 has completion/complete but no capability to announce it, so nothing to check.
    if (method === Method.CompletionComplete && !revisionHas(this.codec.version, 'completionsCapability')) {
      return undefined;
    }
    return missingServerCapability(method, params, this.serverCapabilities);
  }

  private handleRequest(request: IncomingRequest): unknown {
    const method = request.method;
    if (method !== Method.Ping && !this.requestHandlers.has(method)) {
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

  private answer(method: string, params: Record<string, unknown>, request: IncomingRequest): unknown {
    if (method === Method.Ping) return {};
    return this.requestHandlers.get(method)!(params, new ClientRequestContext(this, request));
  }

  private handleNotification(method: string, params: Record<string, unknown> | undefined): void {
    if (this.pipeline) {
      const ctx = new ClientMiddlewareContext('receive', method, params, true, this.protocolVersion);
      this.pipeline(ctx).catch((error: unknown) => this.reportError(toError(error)));
      return;
    }
    this.runListeners(method, params ?? {});
  }

  private runListeners(method: string, params: Record<string, unknown>): void {
    const handlers = this.notificationHandlers.get(method);
    if (!handlers) return;
    for (const handler of handlers) {
      try {
        handler(params);
      } catch (error) {
        this.reportError(toError(error));
      }
    }
  }

  private handleClose(error?: Error): void {
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
      this.options.onError?.(error);
    } catch {
      // A logging hook that throws must not take the client down.
    }
  }
}
