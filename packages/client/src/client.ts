/**
 * The MCP client: the handshake, typed requests to the server, and answers to the server's own
 * requests (sampling, elicitation, roots).
 * @module
 */
import {
  CapabilityError,
  type ClientCapabilities,
  Connection,
  codecFor,
  ErrorCode,
  type Implementation,
  type IncomingRequest,
  type InitializeResult,
  isSupportedProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  McpError,
  mergeCapabilities,
  missingServerCapability,
  NOT_IN_REVISION,
  type OutgoingRequestOptions,
  type ProtocolVersion,
  type RevisionCodec,
  revisionHas,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  UnsupportedProtocolVersionError,
} from '@mcpkit/core';
import { DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT, DEFAULT_MAX_INCOMING_REQUESTS } from './limits.js';

/** Answers one request the server sends. */
export type ClientRequestHandler = (params: Record<string, unknown>, request: IncomingRequest) => unknown;

/** Receives one notification the server sends. */
export type ClientNotificationHandler = (params: Record<string, unknown>) => void;

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
}

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
  readonly protocolVersions: readonly ProtocolVersion[];

  constructor(
    readonly info: Implementation,
    readonly options: ClientOptions = {},
  ) {
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
        encodeNotification: (method, params) => {
          const encoded = this.codec.encodeParams(method, params);
          return encoded === NOT_IN_REVISION ? undefined : encoded;
        },
      },
    );
    this.connectionInstance = connection;
    await connection.start();
    // Encode with the codec of the version we propose, so an older server never sees fields
    // (icons, task capabilities...) its revision lacks.
    const proposed = this.protocolVersions[0] ?? LATEST_PROTOCOL_VERSION;
    const params = codecFor(proposed).encodeParams('initialize', {
      protocolVersion: proposed,
      capabilities: this.capabilities,
      clientInfo: this.info,
    });
    const result = await connection.request<InitializeResult>(
      'initialize',
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
    await connection.notify('notifications/initialized');
    return result;
  }

  /**
   * Sends a request after checking the server declared the capability for it.
   *
   * @throws {CapabilityError} locally, before sending, when the server lacks the capability.
   * @example
   * ```ts
   * const { tools } = await client.request<ListToolsResult>('tools/list', {});
   * ```
   */
  request<R = Record<string, unknown>>(
    method: string,
    params?: Record<string, unknown>,
    options?: OutgoingRequestOptions,
  ): Promise<R> {
    if (this.state !== 'ready' && method !== 'ping') {
      return Promise.reject(
        this.state === 'closed'
          ? new McpError(ErrorCode.ConnectionClosed, 'The client is closed')
          : new CapabilityError(`Cannot send "${method}" before the client has connected`),
      );
    }
    const gap = this.missingCapability(method, params);
    if (gap) return Promise.reject(new CapabilityError(gap));
    const encoded = this.codec.encodeParams(method, params);
    if (encoded === NOT_IN_REVISION) {
      return Promise.reject(
        new CapabilityError(`"${method}" is not available in protocol revision ${this.codec.version}`),
      );
    }
    return this.connection.request<R>(method, encoded, options);
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
    const encoded = this.codec.encodeParams(method, params);
    if (encoded === NOT_IN_REVISION) return;
    return this.connection.notify(method, encoded);
  }

  /**
   * Sets the handler of a request method the server sends (e.g. `sampling/createMessage`).
   *
   * @example
   * ```ts
   * client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///work' }] }));
   * ```
   */
  setRequestHandler(method: string, handler: ClientRequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  /**
   * Adds a listener for a notification method the server sends; returns an unsubscribe function.
   *
   * @example
   * ```ts
   * client.onNotification('notifications/message', (params) => console.error(params.data));
   * ```
   */
  onNotification(method: string, handler: ClientNotificationHandler): () => void {
    let handlers = this.notificationHandlers.get(method);
    if (!handlers) {
      handlers = new Set();
      this.notificationHandlers.set(method, handlers);
    }
    handlers.add(handler);
    return () => handlers.delete(handler);
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
    await this.request('ping', undefined, { resetTimeoutOnProgress: false, ...options });
  }

  /** Closes the connection. Pending requests fail with a clear error. */
  async close(): Promise<void> {
    await this.connectionInstance?.close();
  }

  private missingCapability(method: string, params: Record<string, unknown> | undefined): string | undefined {
    // 2024-11-05 has completion/complete but no capability to announce it, so nothing to check.
    if (method === 'completion/complete' && !revisionHas(this.codec.version, 'completionsCapability')) {
      return undefined;
    }
    return missingServerCapability(method, params, this.serverCapabilities);
  }

  private handleRequest(request: IncomingRequest): unknown {
    if (request.method === 'ping') return {};
    const handler = this.requestHandlers.get(request.method);
    if (!handler) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    return handler(request.params ?? {}, request);
  }

  private handleNotification(method: string, params: Record<string, unknown> | undefined): void {
    const handlers = this.notificationHandlers.get(method);
    if (!handlers) return;
    for (const handler of handlers) {
      try {
        handler(params ?? {});
      } catch (error) {
        this.reportError(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  private handleClose(error?: Error): void {
    this.state = 'closed';
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener(error);
      } catch (hookError) {
        this.reportError(hookError instanceof Error ? hookError : new Error(String(hookError)));
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
