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
  LocalError,
  type LoggingLevel,
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
  TASKS_EXTENSION,
  type Transport,
  UnsupportedProtocolVersionError,
} from '@mcpkit/core';
import {
  codecFor,
  DEFAULT_REQUEST_TIMEOUT,
  declaresTasksExtension,
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
import { DEFAULT_MAX_INPUT_ROUNDS, followInputRounds, inputHandlerFailed } from './era/inputRequests.js';
import {
  envelopeEntries,
  isInputRequired,
  type ModernVersion,
  modernCapabilities,
  type ProtocolEra,
  removedInModern,
  withEnvelope,
} from './era/modern.js';
import { probeServer } from './era/negotiate.js';
import {
  type ExtensionSender,
  followTask,
  isCreatedTask,
  TASK_HANDLING,
  withTasksExtension,
} from './era/tasks.js';

/** The methods of the tasks extension (2026-07-28). */
const EXTENSION_TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

import { DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT, DEFAULT_MAX_INCOMING_REQUESTS } from './limits.js';
import { type ClientMiddleware, ClientMiddlewareContext } from './middleware/context.js';
import { type ConnectOptions, connectReconnecting, type TransportFactory } from './reconnect.js';

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
  /**
   * `initialize` revisions this client accepts, newest first; the first is requested. Default:
   * all. Given without `protocolEra`, it also pins the era to `'2025'`: a client that lists the
   * revisions it accepts is not moved to 2026-07-28, which it did not list.
   */
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
  /**
   * Which era to speak: `'auto'` probes with `server/discover` and speaks 2026-07-28 with a
   * server that answers it, else falls back to `initialize` (2025-11-25 and older); `'2026'`
   * requires 2026-07-28; `'2025'` always uses `initialize`, without a probe (for 2025 session
   * behaviour: resumption, per-session log level, roots `list_changed`; docs/2026-07-28.md §11).
   * Default `'auto'`, or `'2025'` when `protocolVersions` is given.
   */
  protocolEra?: ProtocolEra;
  /**
   * How long the `'auto'` probe waits for an answer before taking the server for a legacy one
   * that ignores requests before `initialize`, in ms. Default 10 000.
   */
  eraProbeTimeout?: number;
  /**
   * The most `input_required` rounds (2026-07-28) one request follows before failing locally.
   * Default {@link DEFAULT_MAX_INPUT_ROUNDS} (8).
   */
  maxInputRounds?: number;
}

/** How long the `'auto'` era probe waits, in ms: long enough for a slow server's first answer. */
const DEFAULT_ERA_PROBE_TIMEOUT = 10_000;

/**
 * The revision a client speaks: an `initialize` revision or a per-request one (2026-07-28).
 *
 * @example
 * ```ts
 * const version: ClientProtocolVersion | undefined = client.protocolVersion;
 * ```
 */
export type ClientProtocolVersion = ProtocolVersion | ModernVersion;

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
  protocolEra: true,
  eraProbeTimeout: true,
  maxInputRounds: true,
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
  /** The per-request revision spoken, when the server is a modern one; `undefined` in a session. */
  private modern: ModernVersion | undefined;
  /** The log level sent in every modern request's `_meta` (2026-07-28 has no `logging/setLevel`). */
  private modernLogLevel: LoggingLevel | undefined;
  /** The envelope's `_meta` entries for the version and log level they were built for. */
  private envelopeEntries:
    | { version: ModernVersion; logLevel: LoggingLevel | undefined; meta: Readonly<Record<string, unknown>> }
    | undefined;
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
    if (era !== '2025') {
      const modern = await this.probe(connection, era, options);
      if (modern) return this.settle(transport, modern.result, modern.version);
    }
    return this.initialize(connection, transport, options);
  }

  /** `connect(factory, options)`: once over `factory()`, or with reconnection when asked. */
  private async connectOver(factory: TransportFactory, options: ConnectOptions): Promise<InitializeResult> {
    const { reconnect, ...handshake } = options;
    if (!reconnect) return this.connect(await factory(), handshake);
    await connectReconnecting(this, factory, reconnect === true ? {} : reconnect, handshake);
    return this.initializeResult!;
  }

  /**
   * Sends `server/discover` and says whether the server is a modern one (see `era/negotiate.ts`).
   * A legacy server under `protocolEra: '2026'`, or a modern one sharing no revision, closes the
   * connection with the error.
   */
  private async probe(
    connection: Connection,
    era: ProtocolEra,
    options: OutgoingRequestOptions,
  ): Promise<{ version: ModernVersion; result: InitializeResult } | undefined> {
    const timeout = era === 'auto' ? (this.options.eraProbeTimeout ?? DEFAULT_ERA_PROBE_TIMEOUT) : undefined;
    const sendOptions = { resetTimeoutOnProgress: false, ...options, ...(timeout ? { timeout } : {}) };
    try {
      const outcome = await probeServer((version) =>
        connection.request('server/discover', this.envelope(undefined, version), sendOptions),
      );
      if (outcome.era === 'modern') return outcome;
      if (era === 'auto') return undefined;
      const cause = outcome.cause instanceof Error ? outcome.cause.message : String(outcome.cause);
      throw new LocalError(
        `The server does not speak 2026-07-28, which protocolEra "2026" requires (server/discover: ${cause})`,
        outcome.cause,
      );
    } catch (error) {
      await connection.close().catch(() => {});
      throw error;
    }
  }

  /** The `initialize` handshake of the 2025 era. */
  private async initialize(
    connection: Connection,
    transport: Transport,
    options: OutgoingRequestOptions,
  ): Promise<InitializeResult> {
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
    this.settle(transport, result, version);
    await connection.notify(Notification.Initialized);
    return result;
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
   * `params` (with a retry's fields) under the 2026-07-28 envelope: version, capabilities, client
   * info, log level. The entries are built once and again only when the version or log level
   * changes (capabilities are fixed once connecting starts).
   */
  private envelope(
    params: Record<string, unknown> | undefined,
    version: ModernVersion,
    retry?: Record<string, unknown>,
  ) {
    let entries = this.envelopeEntries;
    if (entries?.version !== version || entries.logLevel !== this.modernLogLevel) {
      entries = {
        version,
        logLevel: this.modernLogLevel,
        meta: envelopeEntries({
          version,
          capabilities: withTasksExtension(modernCapabilities(this.capabilities)),
          clientInfo: this.info,
          logLevel: this.modernLogLevel,
        }),
      };
      this.envelopeEntries = entries;
    }
    return withEnvelope(params, entries.meta, retry);
  }

  /**
   * Under 2026-07-28, records the log level every later request carries in `_meta` and returns
   * true; in a session returns false (the caller sends `logging/setLevel`).
   */
  protected setModernLogLevel(level: LoggingLevel): boolean {
    if (!this.modern) return false;
    this.modernLogLevel = level;
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

  private sendRequest<R>(
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
        this.missingCapability(method, params),
      );
      if (this.modern) return this.sendModern<R>(this.modern, method, encoded, options);
      return this.connection.request<R>(method, encoded, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * A request under 2026-07-28: sent with the envelope, and followed through its `input_required`
   * rounds, each a new request.
   */
  private sendModern<R>(
    version: ModernVersion,
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
  ): Promise<R> {
    const first = this.connection.request(method, this.envelope(params, version), options);
    // Nearly every answer is complete: only input rounds and tasks build what following them needs.
    return first.then((result) =>
      isInputRequired(result) || (method === Method.ToolsCall && isCreatedTask(result))
        ? this.followModern(version, method, params, options, result)
        : result,
    ) as Promise<R>;
  }

  /** The rest of a 2026-07-28 request after its first answer: its input rounds, then its task. */
  private async followModern(
    version: ModernVersion,
    method: string,
    params: Record<string, unknown> | undefined,
    options: OutgoingRequestOptions | undefined,
    first: unknown,
  ): Promise<unknown> {
    const send = (retry: Record<string, unknown>) =>
      this.connection.request(method, this.envelope(params, version, retry), options);
    const answer = (request: IncomingRequest) => this.answerInput(request);
    const rounds = this.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    const timeoutMs = options?.timeout ?? this.options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    const bound = { method, timeoutMs };
    const result = await followInputRounds(first, send, answer, rounds, options, bound);
    // The tasks extension: the server may answer with a task, which this client follows to its end.
    const handling = options ? TASK_HANDLING.get(options) : undefined;
    if (method !== Method.ToolsCall || !isCreatedTask(result) || handling?.raw) return result;
    const request: ExtensionSender = (name, taskParams, taskOptions) =>
      this.connection.request(name, this.envelope(taskParams, version), taskOptions);
    return followTask(request, answer, result, options, bound, handling?.onStatus);
  }

  /**
   * Under 2026-07-28 the server decides that a call becomes a task, and its answer is the only
   * place the task id goes: a task in the answer to a call its caller gave up on (the answer and
   * the cancellation crossed, on stdio) is cancelled, as nobody else can (issue 16; servers that
   * heard the cancellation cancel it themselves, and acknowledge this one).
   */
  private cancelLateTask(result: Record<string, unknown>): void {
    const version = this.modern;
    if (!version || !isCreatedTask(result)) return;
    const params = this.envelope({ taskId: result.taskId }, version);
    this.connection
      .request('tasks/cancel', params)
      .catch((error: unknown) => this.reportError(toError(error)));
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
    const send: ExtensionSender = (name, taskParams, taskOptions) =>
      this.connection.request(name, this.envelope(taskParams, version), taskOptions);
    const answer = (request: IncomingRequest) => this.answerInput(request);
    const timeoutMs = options?.timeout ?? this.options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    const handling = options ? TASK_HANDLING.get(options) : undefined;
    return send('tasks/get', { taskId }, { signal: options?.signal, timeout: options?.timeout }).then(
      (task) =>
        followTask(
          send,
          answer,
          task as Record<string, unknown>,
          options,
          { method: 'tasks/get', timeoutMs },
          handling?.onStatus,
        ),
    );
  }

  /**
   * Runs this client's handler for one input request of an `input_required` result. A handler
   * that throws fails the call here: 2026-07-28 has no error form in `inputResponses` (under 2025
   * the error went back to the server), and the message says so rather than passing the
   * handler's error off as the server's answer.
   */
  private async answerInput(request: IncomingRequest): Promise<unknown> {
    if (!this.requestHandlers.has(request.method)) {
      throw new LocalError(
        `The server asked for "${request.method}" input, which this client has no handler for (and did not declare)`,
      );
    }
    try {
      return await this.handleRequest(request);
    } catch (error) {
      if (request.stopped) throw error; // the call was cancelled or timed out: its own error stands
      throw inputHandlerFailed(request.method, error);
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
    // 2026-07-28 keeps no client notification but cancellation (roots/list_changed is gone).
    if (this.modern && method.startsWith('notifications/') && method !== 'notifications/cancelled') return;
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
  }

  private missingCapability(method: string, params: Record<string, unknown> | undefined): string | undefined {
    // 2024-11-05 has completion/complete but no capability to announce it, so nothing to check.
    if (method === Method.CompletionComplete && !revisionHas(this.codec.version, 'completionsCapability')) {
      return undefined;
    }
    // Under 2026-07-28 tasks are an extension, which the server declares under `extensions`.
    if (this.modern && EXTENSION_TASK_METHODS.has(method)) {
      return declaresTasksExtension(this.serverCapabilities)
        ? undefined
        : `The server did not declare the tasks extension (${TASKS_EXTENSION}), which "${method}" needs`;
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
}

/** Refuses, locally, a method the per-request revision removed (with what replaced it). */
function refuseRemoved(version: ModernVersion, method: string): void {
  const removed = removedInModern(method);
  if (removed)
    throw new CapabilityError(`"${method}" does not exist in protocol revision ${version}: ${removed}`);
}
