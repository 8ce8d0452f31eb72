/**
 * One client's session with a server: the lifecycle (initialize, negotiation, capability checks)
 * and the little state that is truly per client.
 *
 * Per-session state is kept small on purpose (the negotiated revision, the client's declared
 * capabilities, a log level, subscriptions) so that thousands of idle HTTP sessions stay cheap.
 * `snapshot()` gathers it into one plain record on demand (see sessionState.ts) and
 * `Server.connect(transport, { state })` restores a session from one.
 * @module
 */
import {
  CapabilityError,
  type ClientCapabilities,
  Connection,
  ErrorCode,
  type ExtensionMethod,
  type Implementation,
  type IncomingRequest,
  type InitializeResult,
  LOGGING_LEVELS,
  type LoggingLevel,
  McpError,
  type MessageExtra,
  Method,
  type MethodArgsOf,
  methodExists,
  Notification,
  type OutgoingRequestOptions,
  type ProtocolVersion,
  type RequestId,
  type ServerCapabilities,
  type ServerRequestMap,
  type ServerRequestMethod,
  SessionObservation,
  type Transport,
} from '@mcpkit/core';
import {
  codecFor,
  encodeOutgoingRequest,
  isPromiseLike,
  missingClientCapability,
  NOT_IN_REVISION,
  negotiateProtocolVersion,
  type RevisionCodec,
  resultObject,
  toError,
} from '@mcpkit/core/internal';
import { RequestContext } from './context.js';
import type { Listed } from './liveList.js';
import { notInRevision } from './notInRevision.js';
import { sendNotification, sendRequest } from './outbound.js';
import type { SessionServer } from './ports.js';
import { SessionLink } from './sessionLink.js';
import {
  checkSessionState,
  composeSessionState,
  type ServerSessionState,
  type SessionStateHolder,
} from './sessionState.js';

/** Options of `Server.connect`. */
export interface SessionConnectOptions {
  /**
   * Serve without an `initialize` handshake (stateless HTTP). Requests are answered under this
   * revision, and the client is assumed to have declared no capabilities.
   */
  stateless?: { protocolVersion: ProtocolVersion };
  /**
   * Resume a session from a record {@link ServerSession.snapshot} made (perhaps in another
   * process): the session starts initialized, with no handshake, under the record's revision,
   * client, log level and subscriptions. The record is checked first.
   */
  state?: ServerSessionState;
}

type SessionPhase = 'new' | 'initializing' | 'ready' | 'closed';

/**
 * The arguments of a typed request to the client: params may be left out when the method allows it.
 *
 * @example
 * ```ts
 * const args: SessionRequestArgs<'roots/list'> = [];
 * ```
 */
export type SessionRequestArgs<M extends ServerRequestMethod> = MethodArgsOf<
  ServerRequestMap[M]['params'],
  OutgoingRequestOptions
>;

/**
 * A live session. Created by `Server.connect`; handlers see it as `ctx.session`.
 *
 * @example
 * ```ts
 * server.onSessionInitialized((session) => {
 *   console.error(session.clientInfo?.name, session.protocolVersion);
 * });
 * ```
 */
export class ServerSession implements Listed<ServerSession> {
  readonly connection: Connection;
  #phase: SessionPhase = 'new';
  #codec: RevisionCodec;
  #version: ProtocolVersion;
  #client: Implementation | undefined;
  #clientCaps: ClientCapabilities = {};
  /** The client's `initialize` params and what the server answered, kept for {@link snapshot}. */
  #initParams: Record<string, unknown> | undefined;
  #told: ServerCapabilities | undefined;
  #stableKey: string | undefined;
  #closeListeners: Array<() => void> | undefined;
  #userData: Map<string, unknown> | undefined;
  /** @internal What observers see of this session; made only when the server has an observer. */
  readonly observation: SessionObservation | undefined;
  /** The minimum level of log notifications this client wants; unset until it says. */
  logLevel: LoggingLevel | undefined;
  /** URIs this session subscribed to (created on first subscription). */
  subscriptions: Set<string> | undefined;
  /** @internal The server's list of open sessions (see liveList.ts). */
  listOwner: object | undefined = undefined;
  /** @internal */
  listPrev: ServerSession | undefined = undefined;
  /** @internal */
  listNext: ServerSession | undefined = undefined;

  constructor(
    readonly server: SessionServer,
    readonly transport: Transport,
    options: SessionConnectOptions = {},
  ) {
    this.#version = options.stateless?.protocolVersion ?? server.protocolVersions[0]!;
    this.#codec = codecFor(this.#version);
    if (options.stateless) this.#phase = 'ready';
    if (options.state) this.#restore(checkSessionState(options.state, server.protocolVersions));
    const observer = server.options.observer;
    if (observer) this.observation = new SessionObservation('server', transport, () => this.#version);
    const link = new SessionLink(this, observer, this.observation);
    this.connection = new Connection(transport, link, link);
  }

  /** @internal The codec of the revision in use (see {@link SessionLink}). */
  get codecInUse(): RevisionCodec {
    return this.#codec;
  }

  /** @internal */
  start(): void {
    const started = this.connection.start();
    if (started) started.catch((error: unknown) => this.server.reportError(toError(error), this));
  }

  /** The transport's session id (Streamable HTTP), if any. */
  get id(): string | undefined {
    return this.transport.sessionId;
  }

  /**
   * A stable key for bookkeeping about this session: its id, else one made on first use. It is
   * part of the session state, so a restored session keeps it.
   */
  get key(): string {
    if (this.#stableKey === undefined) this.#stableKey = this.transport.sessionId ?? crypto.randomUUID();
    return this.#stableKey;
  }

  /** The capabilities the server announced to this client, once the handshake is done. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#phase === 'ready' ? this.#told : undefined;
  }

  /**
   * The session's state as one plain, JSON-serializable record, built on demand; `undefined`
   * before the client initialized (there is nothing to resume). Restore it with
   * `server.connect(transport, { state })`.
   *
   * @example
   * ```ts
   * const saved = new Map<string, string>(); // Redis, a database, …
   * saved.set(session.key, JSON.stringify(session.snapshot()));
   * ```
   */
  snapshot(): ServerSessionState | undefined {
    if (!this.#initParams || !this.#client || !this.#told) return undefined;
    return composeSessionState(
      {
        v: 1,
        key: this.key,
        protocolVersion: this.#version,
        initializeParams: this.#initParams,
        clientCapabilities: this.#clientCaps,
        clientInfo: this.#client,
        serverCapabilities: this.#told,
      },
      this.logLevel,
      this.subscriptions,
      (this.transport as Partial<SessionStateHolder>).sessionStatePart?.(),
    );
  }

  #restore(state: ServerSessionState): void {
    this.#version = state.protocolVersion;
    this.#codec = codecFor(this.#version);
    this.transport.setProtocolVersion?.(this.#version);
    this.#initParams = state.initializeParams as Record<string, unknown>;
    this.#clientCaps = state.clientCapabilities;
    this.#client = state.clientInfo;
    this.#told = state.serverCapabilities;
    this.#stableKey = state.key;
    this.logLevel = state.logLevel;
    if (state.subscriptions?.length) this.subscriptions = new Set(state.subscriptions);
    (this.transport as Partial<SessionStateHolder>).restoreSessionState?.(state);
    this.#phase = 'ready';
  }

  /** The negotiated revision (before `initialize`: the server's preferred one). */
  get protocolVersion(): ProtocolVersion {
    return this.#version;
  }

  /** The client's name and version, once initialized. */
  get clientInfo(): Implementation | undefined {
    return this.#client;
  }

  /** What the client declared it can do. */
  get clientCapabilities(): ClientCapabilities {
    return this.#clientCaps;
  }

  /** True once `initialize` was answered. */
  get initialized(): boolean {
    return this.#phase === 'initializing' || this.#phase === 'ready';
  }

  /** True once the transport closed. */
  get closed(): boolean {
    return this.#phase === 'closed';
  }

  /**
   * A per-session key/value slot for application state (created on first use).
   *
   * @example
   * ```ts
   * ctx.session.data.set('cart', []);
   * ```
   */
  get data(): Map<string, unknown> {
    if (!this.#userData) this.#userData = new Map();
    return this.#userData;
  }

  /** Calls `listener` once when the session closes. */
  onClose(listener: () => void): void {
    if (this.#phase === 'closed') {
      listener();
      return;
    }
    if (!this.#closeListeners) this.#closeListeners = [];
    this.#closeListeners.push(listener);
  }

  /** True when a log message at `level` passes this session's `logging/setLevel` filter. */
  wantsLog(level: LoggingLevel): boolean {
    if (this.logLevel === undefined) return true;
    return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(this.logLevel);
  }

  // ---------------------------------------------------------------- outgoing

  /**
   * Sends a request to the client, after checking the client declared the capability for it
   * and that the negotiated revision has it.
   *
   * A method of the specification has typed params and result; any other name (an extension)
   * is untyped, its result type given as a type argument.
   *
   * @example
   * ```ts
   * const { roots } = await session.request('roots/list');
   * ```
   */
  request<M extends ServerRequestMethod>(
    method: M,
    ...args: SessionRequestArgs<M>
  ): Promise<ServerRequestMap[M]['result']>;
  request<R = Record<string, unknown>, M extends string = string>(
    method: ExtensionMethod<M, ServerRequestMethod>,
    params?: Record<string, unknown>,
    options?: OutgoingRequestOptions,
  ): Promise<R>;
  request<R>(method: string, params?: object, options?: OutgoingRequestOptions): Promise<R> {
    return sendRequest(
      this,
      method,
      params as Record<string, unknown> | undefined,
      options,
      undefined,
    ) as Promise<R>;
  }

  /** @internal Checks and encodes an outgoing request; throws {@link CapabilityError}. */
  prepareRequest(
    method: string,
    params: Record<string, unknown> | undefined,
  ): Record<string, unknown> | undefined {
    if (method !== Method.Ping && this.#phase !== 'ready') {
      throw new CapabilityError(`Cannot send "${method}" before the client has finished initializing`);
    }
    const gap = missingClientCapability(method, params, this.#clientCaps);
    return encodeOutgoingRequest(this.#codec, method, params, gap);
  }

  /**
   * Sends a notification to the client. Notifications the negotiated revision lacks are dropped.
   *
   * @example
   * ```ts
   * session.notify('notifications/resources/updated', { uri: 'file:///log.txt' });
   * ```
   */
  notify(
    method: string,
    params?: Record<string, unknown>,
    relatedRequestId?: string | number,
  ): void | Promise<void> {
    return sendNotification(this, method, params, undefined, relatedRequestId);
  }

  /**
   * Sends a log message if this session's level lets it through.
   *
   * @example
   * ```ts
   * session.log('warning', { disk: '95% full' }, 'storage');
   * ```
   */
  log(
    level: LoggingLevel,
    data: unknown,
    logger?: string,
    relatedRequestId?: string | number,
  ): void | Promise<void> {
    if (!this.wantsLog(level) || !this.server.capabilities.logging) return;
    const params: Record<string, unknown> = logger === undefined ? { level, data } : { level, data, logger };
    return this.notify(Notification.Message, params, relatedRequestId);
  }

  /**
   * Pings the client.
   *
   * @example
   * ```ts
   * await session.ping();
   * ```
   */
  async ping(options?: OutgoingRequestOptions): Promise<void> {
    await sendRequest(this, Method.Ping, undefined, { resetTimeoutOnProgress: false, ...options }, undefined);
  }

  /** @internal Encodes and sends a notification (the plain path, and the end of the sending chain). */
  notifyNow(
    method: string,
    params: Record<string, unknown> | undefined,
    relatedRequestId: RequestId | undefined,
  ): void | Promise<void> {
    const encoded = this.#codec.encodeParams(method, params);
    if (encoded === NOT_IN_REVISION || this.#phase === 'closed') return;
    return this.connection.notify(
      method,
      encoded,
      relatedRequestId === undefined ? undefined : { relatedRequestId },
    );
  }

  /** Closes the session's transport. */
  close(): Promise<void> {
    return this.connection.close();
  }

  // ---------------------------------------------------------------- incoming

  /** @internal */
  handleRequest(request: IncomingRequest): unknown {
    const method = request.method;
    // Each message by its own era (docs/2026-07-28.md §6): a request the per-request era claims
    // (one check) is its, whatever this connection negotiated; the rest is this session's.
    const era = this.server.era;
    if (era.claims(request)) return era.serve(this, request);
    if (!methodExists(method, 'c2s', this.#version)) throw notInRevision(method, this.#version);
    if (this.#phase === 'new' && method !== Method.Initialize && method !== Method.Ping) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The session is not initialized: send "initialize" before "${method}"`,
      );
    }
    const result = this.server.dispatch(method, request.params ?? {}, new RequestContext(this, request));
    if (isPromiseLike(result)) return result.then((value) => this.#encodeResult(method, value));
    return this.#encodeResult(method, result);
  }

  #encodeResult(method: string, result: unknown): Record<string, unknown> {
    return this.#codec.encodeResult(method, resultObject(result));
  }

  /** @internal Answers `initialize`: negotiates the revision and records the client. */
  acceptInitialize(params: Record<string, unknown> | undefined): InitializeResult {
    if (this.#phase !== 'new') {
      throw new McpError(ErrorCode.InvalidRequest, 'The session is already initialized');
    }
    const requested = params?.protocolVersion;
    if (typeof requested !== 'string') {
      throw new McpError(ErrorCode.InvalidParams, 'initialize: "protocolVersion" must be a string');
    }
    const capabilities = params?.capabilities;
    if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
      throw new McpError(ErrorCode.InvalidParams, 'initialize: "capabilities" must be an object');
    }
    const clientInfo = params?.clientInfo as Implementation | undefined;
    if (typeof clientInfo?.name !== 'string' || typeof clientInfo?.version !== 'string') {
      throw new McpError(
        ErrorCode.InvalidParams,
        'initialize: "clientInfo" needs a string "name" and "version"',
      );
    }
    this.#version = negotiateProtocolVersion(requested, this.server.protocolVersions);
    this.#codec = codecFor(this.#version);
    this.transport.setProtocolVersion?.(this.#version);
    this.#clientCaps = capabilities as ClientCapabilities;
    this.#client = clientInfo;
    this.#initParams = params as Record<string, unknown>;
    this.#phase = 'initializing';
    this.#told = this.server.capabilities;
    const result: InitializeResult = {
      protocolVersion: this.#version,
      capabilities: this.#told,
      serverInfo: this.server.info,
    };
    if (this.server.options.instructions !== undefined)
      result.instructions = this.server.options.instructions;
    return result;
  }

  /** @internal */
  handleNotification(
    method: string,
    params: Record<string, unknown> | undefined,
    extra?: MessageExtra,
  ): void {
    if (method === Notification.Initialized) {
      if (this.#phase !== 'initializing') return;
      this.#phase = 'ready';
      if (this.observation) this.observation.open(this.server.options.observer!);
      this.server.sessionInitialized(this);
      return;
    }
    this.server.notified(method, params ?? {}, this, extra);
  }

  /** @internal */
  handleClose(): void {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    if (this.observation) this.observation.close(this.server.options.observer!);
    const listeners = this.#closeListeners;
    this.#closeListeners = undefined;
    if (listeners) for (const listener of listeners) listener();
    this.server.sessionClosed(this);
  }
}
