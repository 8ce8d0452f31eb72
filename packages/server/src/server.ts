/**
 * The low-level server: one definition (identity, capabilities, a method table) that serves any
 * number of sessions. This is the composition root (docs/design/kernel.md): the one file that
 * imports the kernel and its plug-ins, the 2026-07-28 era (`modern/era.ts`) and the middleware
 * chains (`middleware/chains.ts`), and plugs them into the kernel's ports.
 *
 * Nothing here is per session. `connect()` wraps a transport in a small {@link ServerSession}
 * that points back at this definition, so a thousand sessions cost a thousand small objects, not
 * a thousand servers. The high-level {@link McpServer} registers its tool, resource and prompt
 * handlers into this same table.
 * @module
 */
import {
  type ClientRequestMethod,
  type ExtensionMethod,
  type Implementation,
  isModernProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  McpError,
  MODERN_PROTOCOL_VERSIONS,
  type ModernProtocolVersion,
  type ProtocolVersion,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
} from '@mcpkit/core';
import { mergeCapabilities, rejectUnknownOptions, unsupportedVersion } from '@mcpkit/core/internal';
import type { BroadcastScope } from './broadcastScope.js';
import type { ServerOptions } from './handlers.js';
import { SERVER_OPTION_KEYS } from './handlers.js';
import type { RequestContext } from './kernel/context.js';
import { ServerDispatcher } from './kernel/dispatcher.js';
import type { ContextEra, Era } from './kernel/ports.js';
import { ServerSession, type SessionConnectOptions } from './kernel/session.js';
import { MiddlewareChains } from './middleware/chains.js';
import type {
  ServerMethodMiddleware,
  ServerMiddleware,
  ServerMiddlewareContext,
} from './middleware/context.js';
import { ModernEra } from './modern/era.js';
import type { ListenHook } from './modern/listen.js';
import { checkRequestStateKeys } from './mrtr/keyRing.js';
import { resolveLimits } from './mrtr/limits.js';
import { InputRoundRunner } from './mrtr/runner.js';
import { RequestStateSealer } from './mrtr/sealedState.js';
import { type SessionInfo, type SessionListener, SessionRegistry } from './sessionRegistry.js';

export type { SessionInfo, SessionListener };

/**
 * A low-level MCP server. Register raw method handlers; connect transports.
 *
 * @example
 * ```ts
 * const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
 * server.setRequestHandler('tools/list', () => ({ tools: [] }));
 * server.connect(new StdioServerTransport());
 * ```
 */
export class Server extends ServerDispatcher {
  readonly info: Implementation;
  /** What 2026-07-28 results name as their server: {@link info}, or nothing (`serverInfoInResults: false`). */
  readonly resultServerInfo: Implementation | undefined;
  readonly options: ServerOptions;
  /** The `initialize` revisions this server negotiates, preferred first. */
  readonly protocolVersions: readonly ProtocolVersion[];
  /** The per-request revisions (2026-07-28) this server serves; empty when it serves none. */
  readonly modernVersions: readonly ModernProtocolVersion[];
  /** The sessions served, and who listens to their opening and closing. */
  readonly #sessions = new SessionRegistry(this);
  #roundRunner: InputRoundRunner | undefined;
  /** The 2026-07-28 era, plugged in: claims its requests, answers `server/discover` and `subscriptions/listen`. */
  readonly era: Era;
  /** The same era, with the listen registry broadcasts reach. */
  readonly #modern: ModernEra;
  /** @internal The port every 2026-07-28 request context is given: the era's own (`ModernEra.context`). */
  readonly eraContext: ContextEra;
  /** The middleware plug-in, made on the first `use`/`useSending`. */
  #chains: MiddlewareChains | undefined;
  /** Where a tool's input schema is found, for the `x-mcp-header` rules; set by the tools feature. */
  #toolSchemas: ((toolName: string) => unknown) | undefined;
  #implied: ServerCapabilities = {};
  #declared: ServerCapabilities | undefined;

  constructor(info: Implementation, options: ServerOptions = {}) {
    super();
    // A subclass with options of its own checks them all itself.
    if (new.target === Server) rejectUnknownOptions(options, SERVER_OPTION_KEYS, 'Server');
    this.info = info;
    this.options = options;
    this.resultServerInfo = options.serverInfoInResults === false ? undefined : info;
    const listed = options.protocolVersions;
    this.protocolVersions = listed
      ? listed.filter((version): version is ProtocolVersion => !isModernProtocolVersion(version))
      : SUPPORTED_PROTOCOL_VERSIONS;
    this.modernVersions = listed ? listed.filter(isModernProtocolVersion) : MODERN_PROTOCOL_VERSIONS;
    if (this.protocolVersions.length === 0)
      throw new TypeError('A server needs at least one protocol version that `initialize` negotiates');
    // Checked now, so a bad key or limit fails at startup rather than on the first retry.
    if (options.requestStateKeys !== undefined) checkRequestStateKeys(options.requestStateKeys);
    resolveLimits(options.requestStateLimits);
    this.#modern = new ModernEra(this);
    this.#modern.install(this);
    this.era = this.#modern;
    this.eraContext = this.#modern.context;
  }

  /**
   * @internal The `-32022` a per-request revision this server does not serve gets (listing every
   * revision it does), or `undefined` when it serves `revision`.
   */
  refusedRevision(revision: unknown): McpError | undefined {
    if ((this.modernVersions as readonly unknown[]).includes(revision)) return undefined;
    return unsupportedVersion(revision, [...this.modernVersions, ...this.protocolVersions]);
  }

  /** @internal The runner of 2026-07-28 input-required rounds, built on first use. */
  inputRoundRunner(): InputRoundRunner {
    if (!this.#roundRunner) {
      const { requestStateKeys, requestStateLimits } = this.options;
      this.#roundRunner = new InputRoundRunner(new RequestStateSealer(requestStateKeys, requestStateLimits));
    }
    return this.#roundRunner;
  }

  /** The capabilities announced to clients: the implied ones merged with the explicit ones. */
  get capabilities(): ServerCapabilities {
    if (!this.#declared) this.#declared = mergeCapabilities(this.#implied, this.options.capabilities);
    return this.#declared;
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
    this.#chains ??= new MiddlewareChains(this);
    this.receiving = this.#chains.install(first, second);
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
    this.#chains ??= new MiddlewareChains(this);
    this.sending = this.#chains.installSending(middleware);
    return this;
  }

  /** True when a receiving middleware is installed. */
  get hasMiddleware(): boolean {
    return this.receiving !== undefined;
  }

  /**
   * @internal Runs the receiving chain around `end` for a method whose handler places the chain
   * itself (`placesMiddleware`): `tools/call` runs it after routing and argument validation
   * and before output validation. Call it only when {@link hasMiddleware}. Returns the answer
   * itself when every layer passed a synchronous `end` through, else a promise of it.
   */
  runMiddleware(
    method: string,
    params: Record<string, unknown>,
    context: RequestContext,
    end: (ctx: ServerMiddlewareContext) => unknown,
  ): unknown {
    return this.#chains!.run(method, params, context, end);
  }

  /**
   * @internal True when a `hideTools` middleware hides tool `name` from the session of `context`:
   * routing then refuses the call like a call to an unknown tool.
   */
  hidesTool(name: string, params: Record<string, unknown>, context: RequestContext): boolean {
    return this.#chains?.hidesTool(name, params, context) ?? false;
  }

  /** @internal Names where tool input schemas are found (the tools feature calls it once). */
  provideToolHeaders(source: (toolName: string) => unknown): void {
    this.#toolSchemas = source;
  }

  /** @internal The input schema of tool `toolName`, for the 2026-07-28 HTTP header rules. */
  toolInputSchema(toolName: string): unknown {
    return this.#toolSchemas?.(toolName);
  }

  /** Adds capabilities implied by a feature (e.g. registering a tool implies `tools`). */
  protected override implyCapabilities(capabilities: ServerCapabilities): void {
    this.#implied = mergeCapabilities(this.#implied, capabilities);
    this.#declared = undefined;
  }

  /**
   * Serves one client over `transport`. Returns at once; the session initializes when the
   * client sends `initialize`, or, given `{ state }` (a record `session.snapshot()` made, here or
   * in another process), starts initialized from it with no handshake.
   *
   * @throws {TypeError} when `state` is not a valid session-state record.
   * @example
   * ```ts
   * declare const otherTransport: Transport;
   * declare const saved: string;
   * const session = server.connect(transport);
   * session.onClose(() => console.error('client left'));
   * const resumed = server.connect(otherTransport, { state: JSON.parse(saved) });
   * ```
   */
  connect(transport: Transport, options?: SessionConnectOptions): ServerSession {
    const session = new ServerSession(this, transport, options);
    this.#sessions.live.add(session);
    session.start();
    return session;
  }

  /** Every open session. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.#sessions.live;
  }

  /**
   * Calls `listener` when a session finishes initializing; returns an unsubscribe function.
   *
   * @example
   * ```ts
   * server.onSessionInitialized((s) => console.error(`${s.clientInfo?.name} connected`));
   * ```
   */
  onSessionInitialized(listener: SessionListener): () => void {
    return this.#sessions.onOpened(listener);
  }

  /**
   * Calls `hook` when a 2026-07-28 `subscriptions/listen` request opens on this server, with the
   * resource URIs it listens to; what `hook` returns runs when that request ends. Returns the
   * function that removes `hook`. (A gateway subscribes upstream here.)
   *
   * @example
   * ```ts
   * server.onListen((uris) => {
   *   for (const uri of uris) console.log('watching', uri);
   *   return () => console.log('done with', uris);
   * });
   * ```
   */
  onListen(hook: ListenHook): () => void {
    return this.#modern.listeners.watch(hook);
  }

  /**
   * Calls `listener` when a session closes; returns an unsubscribe function.
   *
   * @example
   * ```ts
   * declare const cache: Map<string, unknown>;
   * server.onSessionClosed((s) => {
   *   if (s.id) cache.delete(s.id);
   * });
   * ```
   */
  onSessionClosed(listener: SessionListener): () => void {
    return this.#sessions.onClosed(listener);
  }

  /** @internal */
  sessionInitialized(session: ServerSession): void {
    this.#sessions.opened(session);
  }

  /** @internal */
  sessionClosed(session: ServerSession): void {
    this.#sessions.closed(session);
  }

  /**
   * @internal Set by a clustered Streamable HTTP handler: takes the broadcasts every node can apply
   * (no `filter`, or a `scope`) to the sessions of every node, and says whether it took this one.
   */
  declare relay:
    | ((
        method: string,
        params: Record<string, unknown> | undefined,
        filter: unknown,
        scope: BroadcastScope | undefined,
      ) => boolean)
    | undefined;

  /**
   * Sends a notification to every initialized session that `filter` accepts (every one without a
   * filter), and to the 2026-07-28 `subscriptions/listen` streams that asked for it.
   *
   * The filter is either a {@link BroadcastScope} (data) or a function. In a cluster
   * (`@mcpkit/redis`) the rule is: **a broadcast with no filter or with a scope reaches the
   * sessions and listen streams of every node; a function filter stays on this node** (a function
   * cannot travel to another process). Given both, a function and a `scope` saying the same as data,
   * the scope is what travels and what every node applies.
   *
   * @example
   * ```ts
   * server.broadcast('notifications/tools/list_changed');
   * const uri = 'demo://clock';
   * server.broadcast('notifications/resources/updated', { uri }, { subscribedTo: uri });
   * // This node's sessions only: a function does not cross to another node.
   * server.broadcast('notifications/message', { level: 'info', data: 'hi' }, (s) => s.clientInfo?.name === 'ops');
   * ```
   */
  broadcast(
    method: string,
    params?: Record<string, unknown>,
    filter?: ((session: ServerSession) => boolean) | BroadcastScope,
    scope?: BroadcastScope,
  ): void {
    if (filter !== undefined && typeof filter !== 'function') {
      scope = filter;
      filter = undefined;
    }
    // Listen streams of this server hear it at once; the relay's other nodes publish to theirs.
    this.#modern.listeners.publish(method, params);
    if (this.relay?.(method, params, filter, scope)) return;
    this.#sessions.notifyAll(method, params, filter, scope);
  }

  /**
   * @internal A broadcast another node relayed: to the listen streams of this server (its sessions
   * are the relay's to reach, as only the node holding a session's GET stream sends to it).
   */
  publishRelayed(method: string, params: Record<string, unknown> | undefined): void {
    this.#modern.listeners.publish(method, params);
  }

  /** Closes every session. */
  async close(): Promise<void> {
    this.#modern.listeners.endAll();
    await Promise.allSettled([...this.#sessions.live].map((session) => session.close()));
  }

  /** @internal */
  override reportError(error: Error, session?: ServerSession): void {
    const { observer, onError } = this.options;
    try {
      // A log observer (createLogObserver) takes the place of the console.
      observer?.error?.(error, session?.observation);
      if (onError) onError(error, session);
      else if (!observer?.error) console.error(`[mcpkit] ${error.message}`);
    } catch {
      // A logging hook that throws must not take the server down.
    }
  }
}

/** @internal Exposed for tests of the negotiation table. */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = LATEST_PROTOCOL_VERSION;

export { McpError };

// `session.server` is the kernel's `SessionServer` port; this server is the one that fills it, so
// to a user of the package (`ctx.session.server.broadcast(…)`) it is a `Server`, as before the
// kernel existed. An augmentation, not an import: the kernel still imports nothing from here.
declare module './kernel/ports.js' {
  interface SessionServer extends Server {}
}
