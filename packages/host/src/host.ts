/**
 * `McpHost`: many servers in one application. One client per server, restarted when it dies;
 * one namespaced catalogue; calls routed by name; policy, consent and audit at each boundary.
 * @module
 */
import type { McpClient } from '@mcpkit/client';
import { restartPolicy } from '@mcpkit/client';
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  OutgoingRequestOptions,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  Tool,
} from '@mcpkit/core';
import { appLinkIn, type HostAppLink, modelVisible } from './appLinks.js';
import type { HostEntry, Route } from './catalogue/catalogue.js';
import { ClientFactory } from './clientFactory.js';
import type { ServerEntry } from './config.js';
import { httpConnector } from './connection/connector.js';
import { type ServerState, type StateChange, Upstream } from './connection/upstream.js';
import { ServerUnavailableError } from './errors.js';
import { Listeners } from './events.js';
import { HostCatalogue } from './hostCatalogue.js';
import { LIST_KINDS, type ListChange, type McpHostOptions } from './hostOptions.js';
import { catalogueFor, clientFactoryOptions } from './hostSetup.js';
import { HostRoots } from './policy/roots.js';
import { serverName } from './policy/tools.js';
import type { ServerPolicy } from './policy/types.js';
import { Subscriptions } from './subscriptions.js';
import { callOn, type HostCallOptions } from './toolCall.js';

export type { ListChange, McpHostOptions } from './hostOptions.js';

/** How long a listing waits for a server that is starting, by default (see `startBudgetMs`). */
const DEFAULT_START_BUDGET_MS = 3000;

/**
 * An MCP host over any number of servers.
 *
 * @example
 * ```ts
 * import { McpHost } from '@mcpkit/host';
 * import { loadHostConfig, nodeConnector } from '@mcpkit/host/node';
 *
 * const host = new McpHost({ servers: await loadHostConfig('mcp.json'), connector: nodeConnector() });
 * const tools = await host.tools(); // every server's tools; `a__echo` and `b__echo` if both have `echo`
 * const result = await host.callTool(tools[0]!.name, {});
 * await host.close();
 * ```
 */
export class McpHost {
  private readonly upstreams = new Map<string, Upstream>();
  private readonly view: HostCatalogue;
  private readonly clients: ClientFactory;
  private readonly subscriptions = new Subscriptions();
  private readonly stateListeners = new Listeners<[StateChange]>();
  private readonly listListeners = new Listeners<[ListChange]>();
  private readonly logListeners = new Listeners<[string, LoggingMessageNotificationParams]>();
  private readonly completions = new Listeners<[string, string]>();
  /** The level asked of every server that logs (set by {@link setLogLevel}); none until then. */
  private logLevel: LoggingLevel | undefined;
  private closed = false;
  private readonly hostRoots: HostRoots;

  constructor(private readonly options: McpHostOptions) {
    this.hostRoots = new HostRoots(options.roots, (server) => this.options.policy?.[server]?.roots);
    this.view = new HostCatalogue({
      catalogue: catalogueFor(options),
      enabled: () => this.enabled(),
      closed: () => this.closed,
      policyOf: (server) => this.policyOf(server),
      apps: options.apps ?? false,
      startBudgetOf: (upstream) =>
        upstream.entry.startBudgetMs ?? options.startBudgetMs ?? DEFAULT_START_BUDGET_MS,
    });
    this.clients = new ClientFactory(clientFactoryOptions(options));
    const deps = {
      connector: options.connector ?? httpConnector(),
      restart: restartPolicy(options.restart),
      keepAlive: options.keepAlive ?? {},
      createClient: (entry: ServerEntry) => this.clients.create(entry, this.policyOf(entry.name)),
      attached: (server: string, client: McpClient) => this.attached(server, client),
      arrived: (server: string, client: McpClient) => this.arrived(server, client),
      stateChanged: (change: StateChange) => this.stateListeners.emit(change),
    };
    if (options.onStateChange) this.stateListeners.add(options.onStateChange);
    for (const entry of options.servers) this.upstreams.set(entry.name, new Upstream(entry, deps));
  }

  /** Starts every enabled server when `eager`; resolves once each is ready or has failed. */
  async start(): Promise<void> {
    if (!this.options.eager) return;
    await Promise.all(this.enabled().map((upstream) => upstream.ready().catch(() => undefined)));
  }

  /**
   * Each server's state, restarts and last error.
   *
   * @example
   * ```ts
   * for (const s of host.status()) console.log(s.server, s.state, s.restarts);
   * ```
   */
  status(): Array<{
    server: string;
    state: ServerState;
    restarts: number;
    lastError?: string;
    /** The last of a stdio server's stderr (a few KiB) when its last error was its exit. */
    stderr?: string;
  }> {
    return [...this.upstreams.values()].map((upstream) => {
      const stderr = stderrTailOf(upstream.lastError);
      return {
        server: upstream.name,
        state: upstream.entry.disabled ? 'stopped' : upstream.state,
        restarts: Math.max(0, upstream.restarts),
        ...(upstream.lastError ? { lastError: upstream.lastError.message } : {}),
        ...(stderr ? { stderr } : {}),
      };
    });
  }

  /** Calls `listener` on every state change of any server; returns the function that stops it. */
  onStateChange(listener: (change: StateChange) => void): () => void {
    return this.stateListeners.add(listener);
  }

  /** Calls `listener` when a server says a list changed; returns the function that stops it. */
  onListChanged(listener: (change: ListChange) => void): () => void {
    return this.listListeners.add(listener);
  }

  /**
   * Calls `listener` with every log message (`notifications/message`) any server sends; returns
   * the function that stops it.
   *
   * @example
   * ```ts
   * host.onLog((server, { level, data }) => console.error(`[${server}] ${level}`, data));
   * ```
   */
  onLog(listener: (server: string, message: LoggingMessageNotificationParams) => void): () => void {
    return this.logListeners.add(listener);
  }

  /**
   * Asks every server that logs (now, and each one started or restarted later) to send log
   * messages at `level` and above (`logging/setLevel`). A server that refuses keeps its own level.
   *
   * @example
   * ```ts
   * await host.setLogLevel('warning');
   * ```
   */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.logLevel = level;
    const running = this.enabled().filter((u) => u.state === 'ready' || u.state === 'degraded');
    await Promise.allSettled(running.map(async (upstream) => this.applyLogLevel(await upstream.ready())));
  }

  /**
   * Calls `listener` when a server reports a URL-mode elicitation complete
   * (`notifications/elicitation/complete`); returns the function that stops it.
   *
   * @example
   * ```ts
   * declare function closeSignInPrompt(server: string, elicitationId: string): void;
   * host.onElicitationComplete((server, elicitationId) => closeSignInPrompt(server, elicitationId));
   * ```
   */
  onElicitationComplete(listener: (server: string, elicitationId: string) => void): () => void {
    return this.completions.add(listener);
  }

  /**
   * The server that owns a catalogue tool or prompt name.
   *
   * @throws {McpError} `-32602` for a name the catalogue does not hold.
   * @example
   * ```ts
   * const server = await host.serverOf('tools', 'everything__echo'); // 'everything'
   * ```
   */
  async serverOf(kind: 'tools' | 'prompts', name: string): Promise<string> {
    return (await this.view.resolve(kind, name, kind === 'tools' ? 'tool' : 'prompt')).server;
  }

  /**
   * Where a catalogue tool or prompt name leads, if the catalogue holds it now: no listing, no
   * wait (a router's per-call lookup; {@link serverOf} lists again for a name it does not know).
   *
   * @example
   * ```ts
   * host.route('tools', 'everything__echo'); // { server: 'everything', original: 'echo' }
   * ```
   */
  route(kind: 'tools' | 'prompts', name: string): Route | undefined {
    return this.view.route(kind, name);
  }

  /** Every server's tools (policy applied), namespaced on collision. */
  tools(): Promise<HostEntry<Tool>[]> {
    return this.view.tools();
  }

  /** Every server's prompts, namespaced on collision. */
  prompts(): Promise<HostEntry<Prompt>[]> {
    return this.view.prompts();
  }

  /** Every server's resources; a URI two servers share is rewritten (reversibly). */
  resources(): Promise<HostEntry<Resource>[]> {
    return this.view.resources();
  }

  /**
   * The tools to give a model: {@link tools} without those only an MCP App view may call
   * (`_meta.ui.visibility` without `"model"`; listed only when the host declares `apps`).
   *
   * @example
   * ```ts
   * const forModel = await host.modelTools();
   * ```
   */
  async modelTools(): Promise<HostEntry<Tool>[]> {
    return modelVisible(await this.tools());
  }

  /**
   * The MCP App view the catalogue tool `name` opens: its server, its URI in the catalogue (read
   * it with {@link readResource}) and the tool's visibility; `undefined` without one.
   *
   * @example
   * ```ts
   * const link = await host.appLink('show_tally');
   * if (link) console.log(link.server, link.resourceUri);
   * ```
   */
  async appLink(name: string): Promise<HostAppLink | undefined> {
    return appLinkIn(await this.tools(), name, this.view.viewRoutesNow());
  }

  /** Every server's resource templates. */
  resourceTemplates(): Promise<HostEntry<ResourceTemplate>[]> {
    return this.view.resourceTemplates();
  }

  /**
   * Calls a tool by its catalogue name on the server that owns it. Progress, cancellation and
   * timeouts in `options` reach that server. A refused call resolves to an `isError` result. A
   * tool that requires tasks runs as a task, and the call resolves with its result; with
   * `onTaskStatus`, so does a tool that supports tasks, and each status it reports is passed on.
   *
   * @throws {McpError} `-32602` for a name the catalogue does not hold (a denied tool included).
   * @throws {ServerUnavailableError} the server is failed, or died while the call was in flight.
   */
  callTool(
    name: string,
    args: Record<string, unknown> = {},
    options?: HostCallOptions,
  ): Promise<CallToolResult> {
    // A name the catalogue holds is called without an await of its own (the per-call path).
    const route = this.view.route('tools', name);
    if (!route)
      return this.view.resolve('tools', name, 'tool').then((found) => this.callRoute(found, args, options));
    return this.callRoute(route, args, options);
  }

  private callRoute(
    route: Route,
    args: Record<string, unknown>,
    options: HostCallOptions | undefined,
  ): Promise<CallToolResult> {
    const original = serverName(this.options.policy?.[route.server], route.original); // renames only: no policyOf copy
    return this.onServer(route.server, 'tools/call', (client) => callOn(client, original, args, options));
  }

  /** Gets a prompt by its catalogue name from the server that owns it. */
  async getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: OutgoingRequestOptions,
  ): Promise<GetPromptResult> {
    const route = await this.view.resolve('prompts', name, 'prompt');
    return this.onServer(route.server, 'prompts/get', (client) =>
      client.getPrompt(route.original, args, options),
    );
  }

  /** Reads a resource: a listed URI, a rewritten one, or one matching a server's template. */
  async readResource(uri: string, options?: OutgoingRequestOptions): Promise<ReadResourceResult> {
    const route = await this.view.resolveUri(uri);
    return this.onServer(route.server, 'resources/read', (client) =>
      client.readResource(route.original, options),
    );
  }

  /** Completes a prompt or resource-template argument on the server that owns the reference. */
  async complete(params: CompleteRequestParams, options?: OutgoingRequestOptions): Promise<CompleteResult> {
    const ref = params.ref;
    const route =
      ref.type === 'ref/prompt'
        ? await this.view.resolve('prompts', ref.name, 'prompt')
        : await this.view.resolveUri(ref.uri);
    const upstreamRef =
      ref.type === 'ref/prompt' ? { ...ref, name: route.original } : { ...ref, uri: route.original };
    return this.onServer(route.server, 'completion/complete', (client) =>
      client.complete({ ...params, ref: upstreamRef }, options),
    );
  }

  /**
   * Subscribes to a resource on its server; `listener` gets each `notifications/resources/updated`
   * for it (as the catalogue URI). Kept across restarts. Returns the function that unsubscribes.
   */
  async subscribe(uri: string, listener: (uri: string) => void): Promise<() => Promise<void>> {
    const route = await this.view.resolveUri(uri);
    const first = this.subscriptions.add(route, uri, listener);
    if (first) {
      try {
        await this.onServer(route.server, 'resources/subscribe', (client) =>
          client.subscribeResource(route.original),
        );
      } catch (error) {
        this.subscriptions.remove(route, listener); // no upstream subscription, so no listener either
        throw error;
      }
    }
    return async () => {
      if (!this.subscriptions.remove(route, listener)) return;
      const upstream = this.upstream(route.server);
      if (upstream.state === 'ready' || upstream.state === 'degraded') {
        await (await upstream.ready()).unsubscribeResource(route.original);
      }
    };
  }

  /** Changes the roots one server may see; only that server is told (`roots/list_changed`). */
  async setRoots(server: string, roots: readonly Root[]): Promise<void> {
    const upstream = this.upstream(server);
    this.options.policy = { ...this.options.policy, [server]: { ...this.options.policy?.[server], roots } };
    if (upstream.state === 'ready' || upstream.state === 'degraded')
      await (await upstream.ready()).setRoots(this.hostRoots.source(server) ?? roots);
  }

  /**
   * Changes the host's own roots (see `roots` in the options); only the running servers whose
   * view changed are told (`roots/list_changed`).
   *
   * @example
   * ```ts
   * await host.setHostRoots([{ uri: 'file:///home/me/project', name: 'project' }]);
   * ```
   */
  async setHostRoots(roots: readonly Root[]): Promise<void> {
    const running = this.enabled().filter((u) => u.state === 'ready' || u.state === 'degraded');
    const changed = await this.hostRoots.replace(
      roots,
      running.map((upstream) => upstream.name),
    );
    await Promise.all(
      running
        .filter((upstream) => changed.has(upstream.name))
        .map(async (upstream) => {
          // A server started before the host had roots has no roots capability: nothing to tell.
          const client = await upstream.ready();
          await client.setRoots(this.hostRoots.source(upstream.name)!).catch(() => undefined);
        }),
    );
  }

  /** The connected client of one server (started if needed): for what the host does not route. */
  client(server: string): Promise<McpClient> {
    return this.upstream(server).ready();
  }

  /** Starts a `failed` server again (its circuit included). */
  retry(server: string): Promise<McpClient> {
    return this.upstream(server).retry();
  }

  /**
   * Restarts a server on purpose, for instance because its code changed: the running connection
   * is closed (stdio: the process ended in the spec's order) without counting as a crash, its
   * crash window and any `failed` state (an open circuit included) are cleared, and it starts again
   * at once. A server not started yet is started. Resolves with the new connection; rejects when
   * it does not start (see `restart.maxAttempts`). Listeners of {@link onListChanged} hear that
   * every list may have changed; calls made meanwhile wait for the new connection, and a call in
   * flight on the old one fails as `crashed`.
   *
   * @throws {ServerUnavailableError} an unknown or disabled server, a closed host, or a failed start.
   * @example
   * ```ts
   * declare const host: McpHost;
   * const started = Date.now();
   * await host.restart('dev'); // after its source changed
   * console.error(`restarted in ${Date.now() - started} ms`);
   * ```
   */
  restart(server: string): Promise<McpClient> {
    try {
      return this.upstream(server).restart();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Closes every server (stdio: stdin, then SIGTERM, then SIGKILL) and stops restarting them. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.upstreams.values()].map((upstream) => upstream.close()));
  }

  private enabled(): Upstream[] {
    return [...this.upstreams.values()].filter((upstream) => !upstream.entry.disabled);
  }

  private upstream(server: string): Upstream {
    const upstream = this.upstreams.get(server);
    if (!upstream) throw new ServerUnavailableError(server, 'stopped', `The host has no server "${server}"`);
    if (upstream.entry.disabled)
      throw new ServerUnavailableError(server, 'stopped', `Server "${server}" is disabled`);
    return upstream;
  }

  /** Runs `work` on a server's client; a failure because the server died says so. */
  private onServer<T>(server: string, method: string, work: (client: McpClient) => Promise<T>): Promise<T> {
    try {
      return this.upstream(server).run(method, work);
    } catch (error) {
      return Promise.reject(error); // a disabled or unknown server: a rejection, as for every call
    }
  }

  private policyOf(server: string): ServerPolicy {
    const policy = this.options.policy?.[server] ?? {};
    return this.hostRoots.active ? { ...policy, roots: this.hostRoots.source(server)! } : policy;
  }

  /** A (re)started server: route its notifications, renew its subscriptions, refresh listeners. */
  private async attached(server: string, client: McpClient): Promise<void> {
    for (const kind of LIST_KINDS) {
      client.onListChanged(kind, () => this.listChanged({ server, kind }));
    }
    client.onResourceUpdated((uri) => this.subscriptions.notify(server, uri));
    client.onLog((message) => this.logListeners.emit(server, message));
    client.onElicitationComplete((id) => this.completions.emit(server, id));
    await this.applyLogLevel(client);
    for (const uri of this.subscriptions.of(server)) await client.subscribeResource(uri);
  }

  /**
   * A server restarted, or arrived after a listing went without it: each list it offers changed
   * (a gateway sends `notifications/*\/list_changed` downstream).
   */
  private arrived(server: string, client: McpClient): void {
    const offers = client.serverCapabilities;
    for (const kind of LIST_KINDS) if (offers?.[kind]) this.listChanged({ server, kind });
  }

  private listChanged(change: ListChange): void {
    this.listListeners.emit(change);
  }

  /** Sends the host's log level to a server that declares logging; a refusal is the server's call. */
  private async applyLogLevel(client: McpClient): Promise<void> {
    if (this.logLevel === undefined || !client.serverCapabilities?.logging) return;
    await client.setLoggingLevel(this.logLevel).catch(() => undefined);
  }
}

/**
 * The stderr tail a stdio transport's exit error carries (`StdioServerProcessError.stderrTail`),
 * found on `error`'s causes by its shape: the host's core does not import the Node transport.
 */
function stderrTailOf(error: Error | undefined): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const tail = (current as { stderrTail?: unknown }).stderrTail;
    if (typeof tail === 'string' && tail.trim() !== '') return tail;
    current = current.cause;
  }
  return undefined;
}
