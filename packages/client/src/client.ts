/**
 * The MCP client: the handshake, typed requests to the server, and answers to the server's own
 * requests (sampling, elicitation, roots). One class, composed of parts that each hold one
 * concept: the negotiated state (`session.ts`), the sending side (`sender.ts`), the receiving side
 * (`receiver.ts`), the handlers (`handlers.ts`), the connection and handshake (`connector.ts`),
 * reconnection (`reconnect.ts`).
 * @module
 */
import {
  type CancelSource,
  type ClientCapabilities,
  type ClientRequestMap,
  type ClientRequestMethod,
  type Connection,
  type ExtensionMethod,
  type Implementation,
  type IncomingRequest,
  type InitializeResult,
  type LoggingLevel,
  Method,
  type MethodArgsOf,
  type OutgoingRequestOptions,
  type ProtocolVersion,
  type RequestId,
  type ServerCapabilities,
  type ServerNotificationMethod,
  type ServerRequestMethod,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
} from '@mcpkit/core';
import { mergeCapabilities, rejectUnknownOptions } from '@mcpkit/core/internal';
import { CLIENT_OPTION_KEYS, type ClientOptions, type ClientProtocolVersion } from './clientOptions.js';
import { ClientConnector } from './connector.js';
import {
  type ClientMethodHandler,
  type ClientMethodNotificationHandler,
  type ClientNotificationHandler,
  ClientRequestContext,
  type ClientRequestHandler,
} from './context.js';
import { HandlerRegistry } from './handlers.js';
import { ClientMiddlewareChain } from './middleware/chain.js';
import type { ClientMiddleware } from './middleware/context.js';
import { ClientReceiver } from './receiver.js';
import { type ConnectOptions, connectOver, type TransportFactory, whenReconnected } from './reconnect.js';
import { ClientSender } from './sender.js';
import { ClientSession } from './session.js';

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
  readonly protocolVersions: readonly ProtocolVersion[];
  /**
   * @internal While a reconnection runs (see `connectReconnecting`): requests made meanwhile wait
   * for it instead of failing. Read only when the client is not ready: no cost otherwise.
   */
  reconnecting: Promise<unknown> | undefined;
  /** @internal True once `close()` was called: a reconnecting client then stays closed. */
  closeRequested = false;
  /** What was negotiated with the server; shared with the sender. */
  private readonly session = new ClientSession();
  private readonly handlers = new HandlerRegistry<ClientRequestHandler>((error) => this.reportError(error));
  /** Sends past the middleware chain: plain, or under 2026-07-28 with its rounds and tasks. */
  private readonly sender: ClientSender;
  /** Takes in what the server sends, and the problems no caller can be told about. */
  private readonly receiver: ClientReceiver;
  /** Connects, handshakes, and hears the connection end. */
  private readonly connector: ClientConnector;
  /** The middleware, entered only once one is installed. */
  private readonly chain: ClientMiddlewareChain;
  private implied: ClientCapabilities = {};

  constructor(
    readonly info: Implementation,
    readonly options: ClientOptions = {},
  ) {
    // A subclass with options of its own checks them all itself.
    if (new.target === Client) rejectUnknownOptions(options, CLIENT_OPTION_KEYS, 'Client');
    this.protocolVersions = options.protocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
    const handlers = this.handlers;
    // The sender answers the server's input requests the way the receiver does; both are made
    // here, once, so the closures below are per client, not per message.
    this.sender = new ClientSender(
      this.session,
      this,
      handlers,
      (request) => this.receiver.request(request),
      (error) => this.reportError(error),
    );
    const answer = (method: string, params: Record<string, unknown>, request: IncomingRequest) =>
      method === Method.Ping ? {} : handlers.get(method)(params, new ClientRequestContext(this, request));
    this.chain = new ClientMiddlewareChain(this.sender, handlers, answer);
    this.receiver = new ClientReceiver(this.session, options, handlers, this.chain, answer);
    this.connector = new ClientConnector(this.session, this, this.receiver, this.sender);
  }

  // ---------------------------------------------------------------- what was negotiated

  /** The capabilities this client declares. */
  get capabilities(): ClientCapabilities {
    return mergeCapabilities(this.implied, this.options.capabilities);
  }

  /** Adds capabilities implied by a handler (e.g. a sampling handler implies `sampling`). */
  protected implyCapabilities(capabilities: ClientCapabilities): void {
    if (this.session.phase !== 'new') throw new Error('Capabilities are fixed once the client has connected');
    this.implied = mergeCapabilities(this.implied, capabilities);
  }

  /** The connection, once connected. */
  get connection(): Connection {
    return this.session.live;
  }

  /** The server's `initialize` answer, once connected. */
  get serverResult(): InitializeResult | undefined {
    return this.session.result;
  }

  /** The server's name and version. */
  get serverInfo(): Implementation | undefined {
    return this.session.result?.serverInfo;
  }

  /** What the server declared it can do. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.session.result?.capabilities;
  }

  /** The server's usage instructions, if it gave any. */
  get instructions(): string | undefined {
    return this.session.result?.instructions;
  }

  /** The revision spoken, once connected: negotiated by `initialize`, or 2026-07-28 per request. */
  get protocolVersion(): ClientProtocolVersion | undefined {
    return this.session.protocolVersion;
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
    if (!this.session.result) return undefined;
    return this.session.modern ? '2026' : '2025';
  }

  /** True once the handshake completed and until the connection closes. */
  get connected(): boolean {
    return this.session.phase === 'ready';
  }

  // ---------------------------------------------------------------- connecting

  /**
   * Connects over `transport` and finds out what the server speaks. Unless `protocolEra` is
   * `'2025'`, it first sends `server/discover`: a modern server (2026-07-28) is then spoken to per
   * request, with no session; the result holds what `server/discover` said. Otherwise (or when the
   * probe finds a legacy server) it performs the handshake: `initialize`, a version check, then
   * `notifications/initialized`.
   *
   * Given a function that makes a transport instead, it connects over a fresh one; with
   * `reconnect`, again whenever the connection is lost (see {@link ConnectOptions.reconnect}):
   * calls in flight then fail with a `ConnectionClosedError` that says why, and calls made while
   * it reconnects wait for it (or fail with a `ReconnectFailedError` when it gives up).
   *
   * `options.timeout` bounds the whole handshake (the probe and `initialize`), the client's
   * `requestTimeout` by default. A login the server's 401 starts (the HTTP transport's
   * `authProvider`) is not counted against it nor against `eraProbeTimeout`; the transport's
   * `authorizationTimeout` bounds the login, and `options.signal` cancels it.
   *
   * @throws {UnsupportedProtocolVersionError} when the server answers with a revision this
   *   client does not speak; the connection is closed.
   * @throws {LocalError} under `protocolEra: '2026'` when the server is a legacy one.
   * @example
   * ```ts
   * const result = await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
   * console.log(result.serverInfo.name);
   * // A stdio server started again (with backoff) when it dies:
   * await client.connect(() => new StdioClientTransport({ command: 'node', args: ['server.js'] }), { reconnect: true });
   * ```
   */
  async connect(
    transport: Transport | TransportFactory,
    options: ConnectOptions = {},
  ): Promise<InitializeResult> {
    if (typeof transport === 'function') return connectOver(this, transport, options);
    if (options.reconnect) {
      throw new TypeError('connect: `reconnect` needs a function that makes a transport, not a transport');
    }
    return this.connector.connect(transport, options);
  }

  /** Closes the connection. Pending requests fail with a clear error. */
  async close(): Promise<void> {
    this.closeRequested = true;
    await this.session.connection?.close();
  }

  /**
   * @internal Makes a client whose connection closed, or whose `connect` failed, ready to connect
   * again: the step `connectReconnecting` takes before each new transport.
   */
  reopen(): Promise<void> {
    return this.connector.reopen();
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
    this.connector.onClose(listener);
  }

  // ---------------------------------------------------------------- sending

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
    if (this.session.phase !== 'ready' && method !== Method.Ping)
      return this.notReady<R>(method, params, options);
    if (this.chain.installed) return this.chain.send<R>(method, params, options, this.protocolVersion);
    return this.sender.request<R>(method, params, options);
  }

  /** A request made while not connected: it waits for a reconnection running, or fails. */
  private notReady<R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
  ): Promise<R> {
    const closed = this.session.phase === 'closed';
    return whenReconnected(this, closed, method, () => this.request<R>(method as never, params, options));
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
    if (this.chain.installed) return this.chain.notify(method, params, this.protocolVersion);
    return this.sender.notify(method, params);
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
    // 2026-07-28 has no ping; `server/discover`, which every modern server answers, stands in.
    const method = (this.session.modern ? 'server/discover' : Method.Ping) as typeof Method.Ping;
    await this.request(method, undefined, { resetTimeoutOnProgress: false, ...options });
  }

  /**
   * @internal Under 2026-07-28 (the tasks extension): follows task `taskId` to its end (polling,
   * answering its input requests with this client's handlers) and gives the original request's
   * result, or throws its error. Used by the task helpers (`getTaskResult`).
   */
  followExtensionTask(taskId: string, options?: OutgoingRequestOptions): Promise<unknown> {
    return this.sender.followTask(taskId, options);
  }

  /**
   * What our pending request `id` was made on behalf of (its `cancelledBy`), if it is pending.
   *
   * @example
   * ```ts
   * const source = client.cancelSourceOf(3);
   * ```
   */
  cancelSourceOf(id: RequestId): CancelSource | undefined {
    return this.session.connection?.cancelSourceOf(id);
  }

  /**
   * Under 2026-07-28, records the log level every later request carries in `_meta` and returns
   * true; in a session returns false (the caller sends `logging/setLevel`).
   */
  protected setModernLogLevel(level: LoggingLevel): boolean {
    if (!this.session.modern) return false;
    this.sender.envelope.logLevel = level;
    return true;
  }

  // ---------------------------------------------------------------- middleware

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
    this.chain.use(middleware);
    return this;
  }

  // ---------------------------------------------------------------- receiving

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

  /** Hands a problem no caller can be told about to the observer and `onError`. */
  protected reportError(error: Error): void {
    this.receiver.error(error);
  }
}
