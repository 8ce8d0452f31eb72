/**
 * The MCP client: the handshake, typed requests to the server, and answers to the server's own
 * requests (sampling, elicitation, roots).
 * @module
 */
import {
  CapabilityError,
  type ClientRequestMap,
  type ClientRequestMethod,
  Connection,
  ConnectionClosedError,
  type ExtensionMethod,
  type Implementation,
  type IncomingRequest,
  type InitializeResult,
  isSupportedProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  type LoggingLevel,
  Method,
  type MethodArgsOf,
  Notification,
  type OutgoingRequestOptions,
  type ProtocolVersion,
  RequestTimeoutError,
  SessionObservation,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
} from '@mcpkit/core';
import {
  codecFor,
  DEFAULT_REQUEST_TIMEOUT,
  encodeOutgoingNotification,
  encodeOutgoingRequest,
  NOT_IN_REVISION,
  rejectUnknownOptions,
} from '@mcpkit/core/internal';
import { CLIENT_OPTION_KEYS, type ClientOptions } from './clientOptions.js';
import { ClientRequestContext } from './context.js';
import { ClientDispatcher } from './dispatcher.js';
import { ClientEnvelope } from './era/clientEnvelope.js';
import type { ModernVersion } from './era/modern.js';
import { ModernRequests } from './era/requests.js';
import { probeEra, requestInitialize } from './handshake.js';
import { DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT, DEFAULT_MAX_INCOMING_REQUESTS } from './limits.js';
import { ClientMiddlewareContext } from './middleware/context.js';
import { missingCapability, refuseRemoved } from './outgoingChecks.js';
import { type ConnectOptions, connectReconnecting, type TransportFactory } from './reconnect.js';

// The option and handler types live with their concepts; re-exported from here, where they were.
export { CLIENT_OPTION_KEYS, type ClientOptions, type ClientProtocolVersion } from './clientOptions.js';
export type {
  ClientMethodHandler,
  ClientMethodNotificationHandler,
  ClientNotificationHandler,
  ClientRequestHandler,
} from './handlers.js';

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
export class Client extends ClientDispatcher {
  /** The 2026-07-28 envelope of this client's requests (and the log level it carries). */
  private readonly envelope = new ClientEnvelope(this);
  /** 2026-07-28 requests: their envelope, input rounds and tasks. */
  private readonly modernRequests = new ModernRequests(
    this,
    this.envelope,
    this.handlers,
    (request) => this.handleRequest(request),
    (error) => this.reportError(error),
  );
  readonly protocolVersions: readonly ProtocolVersion[];
  /**
   * @internal While a reconnection runs (see `connectReconnecting`): requests made meanwhile wait
   * for it instead of failing. Read only when the client is not ready: no cost otherwise.
   */
  reconnecting: Promise<unknown> | undefined;
  /** @internal True once `close()` was called: a reconnecting client then stays closed. */
  closeRequested = false;

  constructor(info: Implementation, options: ClientOptions = {}) {
    super(info, options);
    // A subclass with options of its own checks them all itself.
    if (new.target === Client) rejectUnknownOptions(options, CLIENT_OPTION_KEYS, 'Client');
    this.protocolVersions = options.protocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
  }

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
    if (typeof transport === 'function') return this.connectOver(transport, options);
    if (options.reconnect) {
      throw new TypeError('connect: `reconnect` needs a function that makes a transport, not a transport');
    }
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
        onLateResult: (result) => this.cancelLateTask(result),
      },
    );
    this.connectionInstance = connection;
    await connection.start();
    // 'auto' by default: 2026-07-28 where the server speaks it, `initialize` otherwise. Callers
    // relying on 2025 session behaviour pin '2025' (docs/2026-07-28.md §11). A caller that lists
    // the revisions it accepts (`protocolVersions`, all of them `initialize` ones) and names no era
    // gets those revisions only, never a 2026-07-28 it did not list.
    const era = this.options.protocolEra ?? (this.options.protocolVersions ? '2025' : 'auto');
    // One limit for the whole handshake (the probe, then `initialize`): a server that accepts the
    // connection and never answers costs `timeout`, not the probe's wait plus a full request's.
    const limit = options.timeout ?? this.options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    const deadline = Date.now() + limit;
    if (era !== '2025') {
      const discover = (version: ModernVersion) => this.envelope.wrap(undefined, version);
      const bounded = { ...options, timeout: limit };
      const modern = await probeEra(connection, era, this.options.eraProbeTimeout, bounded, discover);
      if (modern) return this.settle(transport, modern.result, modern.version);
    }
    const remaining = { ...options, timeout: Math.max(1, deadline - Date.now()) };
    const { result, version } = await requestInitialize(connection, this, remaining).catch(
      (error: unknown) => {
        // After a probe, `initialize` had what was left: the error names the handshake's whole limit.
        if (era !== '2025' && error instanceof RequestTimeoutError && error.reason === 'timeout')
          throw new RequestTimeoutError(Method.Initialize, limit, 'timeout');
        throw error;
      },
    );
    this.settle(transport, result, version);
    await connection.notify(Notification.Initialized);
    return result;
  }

  /** `connect(factory, options)`: once over `factory()`, or with reconnection when asked. */
  private async connectOver(factory: TransportFactory, options: ConnectOptions): Promise<InitializeResult> {
    const { reconnect, ...handshake } = options;
    if (!reconnect) return this.connect(await factory(), handshake);
    await connectReconnecting(this, factory, reconnect === true ? {} : reconnect, handshake);
    return this.initializeResult!;
  }

  /** Makes the client ready to speak `version`; a modern version is spoken per request. */
  private settle(
    transport: Transport,
    result: InitializeResult,
    version: ProtocolVersion | ModernVersion,
  ): InitializeResult {
    if (isSupportedProtocolVersion(version)) this.codec = codecFor(version);
    else this.modern = version;
    this.initializeResult = result;
    transport.setProtocolVersion?.(version);
    this.state = 'ready';
    const observer = this.options.observer;
    if (this.observation && observer) this.observation.open(observer);
    return result;
  }

  /**
   * Under 2026-07-28, records the log level every later request carries in `_meta` and returns
   * true; in a session returns false (the caller sends `logging/setLevel`).
   */
  protected setModernLogLevel(level: LoggingLevel): boolean {
    if (!this.modern) return false;
    this.envelope.logLevel = level;
    return true;
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

  /** @internal */
  protected sendRequest<R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
  ): Promise<R> {
    try {
      if (this.modern) refuseRemoved(this.modern, method);
      const encoded = encodeOutgoingRequest(
        this.codec,
        method,
        params,
        missingCapability(this.codec, this.modern !== undefined, this.serverCapabilities, method, params),
      );
      if (this.modern) return this.modernRequests.send<R>(this.modern, method, encoded, options);
      return this.connection.request<R>(method, encoded, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Under 2026-07-28 the server decides that a call becomes a task, and its answer is the only
   * place the task id goes: a task in the answer to a call its caller gave up on is cancelled
   * (issue 16; see `ModernRequests.cancelLateTask`).
   */
  private cancelLateTask(result: Record<string, unknown>): void {
    if (this.modern) this.modernRequests.cancelLateTask(this.modern, result);
  }

  /**
   * @internal Under 2026-07-28 (the tasks extension): follows task `taskId` to its end (polling,
   * answering its input requests with this client's handlers) and gives the original request's
   * result, or throws its error. Used by the task helpers (`getTaskResult`).
   */
  followExtensionTask(taskId: string, options?: OutgoingRequestOptions): Promise<unknown> {
    const version = this.modern;
    if (!version)
      return Promise.reject(new CapabilityError('Only a 2026-07-28 client follows extension tasks'));
    return this.modernRequests.followTask(version, taskId, options);
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

  /** @internal */
  protected sendNotification(
    method: string,
    params: Record<string, unknown> | undefined,
  ): void | Promise<void> {
    // 2026-07-28 keeps no client notification but cancellation (roots/list_changed is gone).
    if (this.modern && method.startsWith('notifications/') && method !== 'notifications/cancelled') return;
    const encoded = this.codec.encodeParams(method, params);
    if (encoded === NOT_IN_REVISION) return;
    return this.connection.notify(method, encoded);
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
    const method = (this.modern ? 'server/discover' : Method.Ping) as typeof Method.Ping;
    await this.request(method, undefined, { resetTimeoutOnProgress: false, ...options });
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
    // The next server may speak another era: the handshake decides it again.
    this.modern = undefined;
  }

  /** @internal */
  protected answer(method: string, params: Record<string, unknown>, request: IncomingRequest): unknown {
    if (method === Method.Ping) return {};
    return this.handlers.get(method)(params, new ClientRequestContext(this, request));
  }
}
