/**
 * The high-level client: a typed method for every server feature, answers to the server's
 * sampling, elicitation and roots requests, list caches kept fresh by `list_changed`, and
 * validation of structured tool output.
 * @module
 */
import {
  type CallToolRequestParams,
  type CallToolResult,
  type CompiledValidator,
  type CompleteRequestParams,
  type CompleteResult,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  ErrorCode,
  type GetPromptResult,
  type InitializeResult,
  type JsonSchemaValidator,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  LocalError,
  type LoggingLevel,
  type LoggingMessageNotificationParams,
  McpError,
  type OutgoingRequestOptions,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Root,
  type Tool,
  type Transport,
} from '@mcpkit/core';
import { formatIssues, rejectUnknownOptions, toError } from '@mcpkit/core/internal';
import { defaultValidator } from '@mcpkit/schema';
import { CLIENT_OPTION_KEYS, Client, type ClientOptions, type ClientRequestHandler } from './client.js';
import type { ClientRequestContext } from './context.js';
import { applyElicitationDefaults } from './elicitationDefaults.js';
import { ListenStream } from './era/listen.js';
import { DEFAULT_MAX_PAGES, PaginationError } from './limits.js';
import type { ConnectOptions, TransportFactory } from './reconnect.js';
import { SessionSetup } from './sessionSetup.js';
import { type ClientTaskMethod, type ClientTaskOptions, ClientTaskReceiver } from './taskReceiver.js';

/**
 * The context a client-side handler gets.
 * @deprecated Use {@link ClientRequestContext}, the same type under the name that mirrors the
 *   server's `RequestContext`.
 */
export type ServerRequestContext = ClientRequestContext;

/** Answers `sampling/createMessage`: run the model, return its message. */
export type SamplingHandler = (
  params: CreateMessageRequestParams,
  context: ClientRequestContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/** Answers a form-mode `elicitation/create`: ask the user, return accept/decline/cancel. */
export type FormElicitationHandler = (
  params: ElicitRequestFormParams,
  context: ClientRequestContext,
) => ElicitResult | Promise<ElicitResult>;

/** Answers a URL-mode `elicitation/create`: offer the URL to the user, report their choice. */
export type UrlElicitationHandler = (
  params: ElicitRequestURLParams,
  context: ClientRequestContext,
) => ElicitResult | Promise<ElicitResult>;

/** The roots this client exposes, or a function that lists them when asked. */
export type RootsSource = readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);

/** Options of {@link McpClient}. */
export interface McpClientOptions extends ClientOptions {
  /** Answers sampling requests; implies the `sampling` capability. */
  sampling?: SamplingHandler;
  /** Declare `sampling.tools` (the handler understands `tools`/`toolChoice`). Default false. */
  samplingTools?: boolean;
  /** Declare `sampling.context` (the handler honours `includeContext`). Default false. */
  samplingContext?: boolean;
  /** Answers elicitation requests; each mode given implies its capability. */
  elicitation?: { form?: FormElicitationHandler; url?: UrlElicitationHandler };
  /** Answers `roots/list`; implies `roots: { listChanged: true }`. */
  roots?: RootsSource;
  /** Validates `structuredContent` against tools' `outputSchema`. Default: `@mcpkit/schema`'s. */
  validator?: JsonSchemaValidator;
  /** Check structured tool output against the tool's `outputSchema`. Default true. */
  validateStructuredContent?: boolean;
  /**
   * Run sampling and elicitation as tasks when the server asks (2025-11-25, experimental):
   * declares `tasks.requests.*` for the handlers given and answers `tasks/*` (see
   * {@link ClientTaskReceiver}). A handler running as a task gets a `ClientTaskContext`, whose
   * signal fires on `tasks/cancel`, TTL expiry and close. Default off: a `task` param is ignored.
   */
  tasks?: boolean | ClientTaskOptions;
  /**
   * The most pages `tools()`, `resources()`, `resourceTemplates()` and `prompts()` follow before
   * failing with a {@link PaginationError}; a repeated cursor fails at once. Default
   * {@link DEFAULT_MAX_PAGES} (64).
   */
  maxPages?: number;
}

/** Every key of {@link McpClientOptions}: the constructor refuses others, as `Client` does. */
const MCP_CLIENT_OPTION_KEYS: Readonly<Record<keyof McpClientOptions, true>> = {
  ...CLIENT_OPTION_KEYS,
  sampling: true,
  samplingTools: true,
  samplingContext: true,
  elicitation: true,
  roots: true,
  validator: true,
  validateStructuredContent: true,
  tasks: true,
  maxPages: true,
};

/** `HeaderMismatch` (2026-07-28): the HTTP headers did not match the body. */
const HEADER_MISMATCH = -32020;

/** A kind of list the server can announce changes to. */
export type ListKind = 'tools' | 'resources' | 'prompts';

/**
 * A high-level MCP client.
 *
 * @example
 * ```ts
 * const client = new McpClient({ name: 'my-host', version: '1.0.0' }, {
 *   sampling: async (params) => ({ role: 'assistant', content: { type: 'text', text: 'Hi!' }, model: 'my-model' }),
 * });
 * await client.connect(transport);
 * const result = await client.callTool('echo', { text: 'hello' });
 * ```
 */
export class McpClient extends Client {
  private rootsSource: RootsSource | undefined;
  /** Cached lists; under 2026-07-28 each expires after the `ttlMs` its first page gave. */
  private readonly caches = new Map<ListKind, { list: Promise<unknown[]>; expires: number }>();
  /** 2026-07-28: the `subscriptions/listen` stream, opened when something is listened for. */
  private listen: ListenStream | undefined;
  /** 2026-07-28: the resources subscribed to, carried by the listen stream's filter. */
  private readonly listenedResources = new Set<string>();
  private readonly outputValidators = new Map<string, CompiledValidator | null>();
  private readonly listChangedListeners = new Map<ListKind, Set<() => void>>();
  private readonly taskMethods: ClientTaskMethod[] = [];
  /** Subscriptions and log level, set up again in a session the transport had to replace. */
  private readonly setup = new SessionSetup();
  private recoveredListeners: Set<() => void> | undefined;
  /** Runs sampling and elicitation as tasks, when the `tasks` option is set. */
  readonly taskReceiver: ClientTaskReceiver | undefined;

  constructor(
    info: ConstructorParameters<typeof Client>[0],
    readonly mcpOptions: McpClientOptions = {},
  ) {
    super(info, mcpOptions);
    if (new.target === McpClient) rejectUnknownOptions(mcpOptions, MCP_CLIENT_OPTION_KEYS, 'McpClient');
    const tasks = mcpOptions.tasks;
    this.taskReceiver = tasks ? new ClientTaskReceiver(tasks === true ? {} : tasks) : undefined;
    this.installSampling(mcpOptions);
    this.installElicitation(mcpOptions.elicitation);
    if (mcpOptions.roots !== undefined) this.installRoots(mcpOptions.roots);
    this.installTaskReceiver();
    this.watchListChanges();
  }

  // ---------------------------------------------------------------- tools

  /**
   * Lists one page of tools.
   *
   * @example
   * ```ts
   * const { tools, nextCursor } = await client.listTools();
   * ```
   */
  listTools(cursor?: string, options?: OutgoingRequestOptions): Promise<ListToolsResult> {
    return this.request<ListToolsResult>('tools/list', cursor === undefined ? {} : { cursor }, options);
  }

  /**
   * Every tool, following pagination; cached until the server says the list changed.
   *
   * @example
   * ```ts
   * for (const tool of await client.tools()) console.log(tool.name);
   * ```
   */
  tools(): Promise<Tool[]> {
    return this.cached('tools', () => this.collectPages<Tool>('tools/list', 'tools'));
  }

  /**
   * Calls a tool. When the tool declares an `outputSchema`, its `structuredContent` is checked: a
   * structured result lists the tools once (then cached until `list_changed`) to learn the schema; a
   * result with no `structuredContent` is checked only against a list the client already holds, so
   * calling a plain tool never sends a `tools/list` of its own.
   *
   * @throws {McpError} `-32602` for an unknown tool; a structured-output mismatch also throws.
   * @example
   * ```ts
   * const result = await client.callTool('add', { a: 1, b: 2 });
   * if (!result.isError) console.log(result.structuredContent);
   * ```
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options?: OutgoingRequestOptions & { meta?: Record<string, unknown> },
  ): Promise<CallToolResult> {
    const params: CallToolRequestParams = { name, arguments: args };
    if (options?.meta) params._meta = options.meta;
    const sent = this.request<CallToolResult>('tools/call', params, options);
    // The retry is for 2026-07-28 only: a 2025 session makes no handler (a closure, a promise) per call.
    const result = await (this.era === '2025'
      ? sent
      : sent.catch((error: unknown) => this.retryCall(error, params, options)));
    if (this.mcpOptions.validateStructuredContent !== false && !result.isError) {
      // Known tools are checked without another await: most calls go to a tool seen before. A result
      // without structuredContent lists the tools only if they were listed already: otherwise every
      // first call to a plain tool would send a `tools/list` the caller never asked for (and that a
      // sending-side limit would count). A tool that declares an outputSchema and returns nothing
      // structured is still caught once the list is known.
      const known = this.outputValidators.get(name);
      const validate =
        known !== undefined
          ? known
          : result.structuredContent === undefined && !this.caches.has('tools')
            ? null
            : await this.outputValidator(name);
      if (validate) checkStructuredContent(name, result, validate);
    }
    return result;
  }

  /**
   * 2026-07-28 over HTTP: the tool's `x-mcp-header` annotations were not known (or changed). The
   * spec's way out: list the tools again (the transport learns them), retry once.
   */
  private async retryCall(
    error: unknown,
    params: CallToolRequestParams,
    options: OutgoingRequestOptions | undefined,
  ): Promise<CallToolResult> {
    if (!(error instanceof McpError) || error.code !== HEADER_MISMATCH || this.era !== '2026') throw error;
    this.caches.delete('tools');
    this.outputValidators.clear();
    await this.tools();
    return this.request<CallToolResult>('tools/call', params, options);
  }

  // ---------------------------------------------------------------- resources

  /**
   * Lists one page of resources.
   *
   * @example
   * ```ts
   * const { resources } = await client.listResources();
   * ```
   */
  listResources(cursor?: string, options?: OutgoingRequestOptions): Promise<ListResourcesResult> {
    return this.request<ListResourcesResult>(
      'resources/list',
      cursor === undefined ? {} : { cursor },
      options,
    );
  }

  /**
   * Every resource, following pagination; cached until the server says the list changed.
   *
   * @example
   * ```ts
   * const resources = await client.resources();
   * ```
   */
  resources(): Promise<Resource[]> {
    return this.cached('resources', () => this.collectPages<Resource>('resources/list', 'resources'));
  }

  /**
   * Lists one page of resource templates.
   *
   * @example
   * ```ts
   * const { resourceTemplates } = await client.listResourceTemplates();
   * ```
   */
  listResourceTemplates(
    cursor?: string,
    options?: OutgoingRequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.request<ListResourceTemplatesResult>(
      'resources/templates/list',
      cursor === undefined ? {} : { cursor },
      options,
    );
  }

  /**
   * Every resource template, following pagination.
   *
   * @example
   * ```ts
   * const templates = await client.resourceTemplates();
   * ```
   */
  resourceTemplates(): Promise<ResourceTemplate[]> {
    return this.collectPages<ResourceTemplate>('resources/templates/list', 'resourceTemplates').then(
      (pages) => pages.items,
    );
  }

  /**
   * Reads a resource.
   *
   * @throws {McpError} `-32002` when the server has no such resource.
   * @example
   * ```ts
   * const { contents } = await client.readResource('file:///README.md');
   * ```
   */
  readResource(uri: string, options?: OutgoingRequestOptions): Promise<ReadResourceResult> {
    return this.request<ReadResourceResult>('resources/read', { uri }, options);
  }

  /**
   * Subscribes to updates of a resource; see {@link onResourceUpdated}.
   *
   * @example
   * ```ts
   * await client.subscribeResource('test://watched-resource');
   * ```
   */
  async subscribeResource(uri: string, options?: OutgoingRequestOptions): Promise<void> {
    if (this.era === '2026') {
      // 2026-07-28: resources/subscribe is gone; the listen stream's filter names the resource.
      this.listenedResources.add(uri);
      this.refreshListen();
      return;
    }
    await this.request('resources/subscribe', { uri }, options);
    this.setup.subscribed(uri);
  }

  /**
   * Ends a subscription.
   *
   * @example
   * ```ts
   * await client.unsubscribeResource('test://watched-resource');
   * ```
   */
  async unsubscribeResource(uri: string, options?: OutgoingRequestOptions): Promise<void> {
    if (this.era === '2026') {
      this.listenedResources.delete(uri);
      this.refreshListen();
      return;
    }
    this.setup.unsubscribed(uri);
    await this.request('resources/unsubscribe', { uri }, options);
  }

  /**
   * Calls `listener` with the URI of each `notifications/resources/updated`.
   *
   * @example
   * ```ts
   * client.onResourceUpdated((uri) => console.log('changed:', uri));
   * ```
   */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    return this.onNotification('notifications/resources/updated', (params) => {
      if (typeof params.uri === 'string') listener(params.uri);
    });
  }

  // ---------------------------------------------------------------- prompts

  /**
   * Lists one page of prompts.
   *
   * @example
   * ```ts
   * const { prompts } = await client.listPrompts();
   * ```
   */
  listPrompts(cursor?: string, options?: OutgoingRequestOptions): Promise<ListPromptsResult> {
    return this.request<ListPromptsResult>('prompts/list', cursor === undefined ? {} : { cursor }, options);
  }

  /**
   * Every prompt, following pagination; cached until the server says the list changed.
   *
   * @example
   * ```ts
   * const prompts = await client.prompts();
   * ```
   */
  prompts(): Promise<Prompt[]> {
    return this.cached('prompts', () => this.collectPages<Prompt>('prompts/list', 'prompts'));
  }

  /**
   * Gets a prompt with its arguments filled in.
   *
   * @example
   * ```ts
   * const { messages } = await client.getPrompt('greet', { name: 'Ada' });
   * ```
   */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: OutgoingRequestOptions,
  ): Promise<GetPromptResult> {
    return this.request<GetPromptResult>(
      'prompts/get',
      args === undefined ? { name } : { name, arguments: args },
      options,
    );
  }

  // ---------------------------------------------------------------- completion and logging

  /**
   * Asks for completions of a prompt argument or a template variable.
   *
   * @example
   * ```ts
   * const { completion } = await client.complete({
   *   ref: { type: 'ref/prompt', name: 'greet' },
   *   argument: { name: 'name', value: 'A' },
   * });
   * ```
   */
  complete(params: CompleteRequestParams, options?: OutgoingRequestOptions): Promise<CompleteResult> {
    return this.request<CompleteResult>('completion/complete', params, options);
  }

  /**
   * Sets the minimum level of log messages the server sends to this client.
   *
   * @example
   * ```ts
   * await client.setLoggingLevel('warning');
   * ```
   */
  async setLoggingLevel(level: LoggingLevel, options?: OutgoingRequestOptions): Promise<void> {
    // 2026-07-28 has no logging/setLevel: the level travels in every later request's `_meta`.
    if (this.setModernLogLevel(level)) return;
    await this.request('logging/setLevel', { level }, options);
    this.setup.leveled(level);
  }

  /**
   * Calls `listener` with each `notifications/message` from the server.
   *
   * @example
   * ```ts
   * client.onLog((log) => console.error(`[${log.level}]`, log.data));
   * ```
   */
  onLog(listener: (message: LoggingMessageNotificationParams) => void): () => void {
    return this.onNotification('notifications/message', (params) =>
      listener(params as LoggingMessageNotificationParams),
    );
  }

  /**
   * Calls `listener` when the server says a list changed (after the cache is cleared).
   *
   * @example
   * ```ts
   * declare function render(tools: Tool[]): void;
   * client.onListChanged('tools', async () => render(await client.tools()));
   * ```
   */
  onListChanged(kind: ListKind, listener: () => void): () => void {
    let listeners = this.listChangedListeners.get(kind);
    if (!listeners) {
      listeners = new Set();
      this.listChangedListeners.set(kind, listeners);
    }
    listeners.add(listener);
    this.refreshListen();
    return () => {
      listeners.delete(listener);
      this.refreshListen();
    };
  }

  /**
   * Calls `listener` when the server reports a URL-mode elicitation complete.
   *
   * @example
   * ```ts
   * declare function closeBrowserPrompt(elicitationId: string): void;
   * client.onElicitationComplete((id) => closeBrowserPrompt(id));
   * ```
   */
  onElicitationComplete(listener: (elicitationId: string) => void): () => void {
    return this.onNotification('notifications/elicitation/complete', (params) => {
      if (typeof params.elicitationId === 'string') listener(params.elicitationId);
    });
  }

  // ---------------------------------------------------------------- roots

  /**
   * Replaces the roots and tells the server (`notifications/roots/list_changed`).
   *
   * @example
   * ```ts
   * await client.setRoots([{ uri: 'file:///home/me/project', name: 'project' }]);
   * ```
   */
  async setRoots(roots: RootsSource): Promise<void> {
    if (this.rootsSource === undefined) throw new Error('Pass `roots` to the constructor to serve roots');
    this.rootsSource = roots;
    if (this.connected) await this.notify('notifications/roots/list_changed');
  }

  // ---------------------------------------------------------------- session recovery

  /**
   * Connects as {@link Client.connect} does, and listens for the transport replacing a session
   * the server forgot (restart, failover): the client then subscribes again to every resource it
   * was subscribed to and sets its log level again, before the request that found the session
   * gone is retried.
   *
   * @example
   * ```ts
   * await client.connect(new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp'));
   * ```
   */
  override async connect(
    transport: Transport | TransportFactory,
    options?: ConnectOptions,
  ): Promise<InitializeResult> {
    // A factory comes back here with each transport it makes.
    if (typeof transport === 'function') return super.connect(transport, options);
    transport.onSessionRecovered = () => this.sessionRecovered();
    const result = await super.connect(transport, options);
    // Listeners registered before connecting: under 2026-07-28 they need the listen stream.
    this.refreshListen();
    return result;
  }

  /** Closes the listen stream (2026-07-28), then the connection. */
  override close(): Promise<void> {
    this.listen?.close();
    return super.close();
  }

  /**
   * 2026-07-28: keeps the `subscriptions/listen` stream carrying exactly what is wanted: the list
   * kinds someone listens to and the subscribed resources. Nothing under 2025 (the session's GET
   * stream and resources/subscribe carry those).
   */
  private refreshListen(): void {
    if (this.era !== '2026' || !this.connected) return;
    const wants = (kind: ListKind) => (this.listChangedListeners.get(kind)?.size ?? 0) > 0;
    this.listen ??= new ListenStream(
      (filter, signal) =>
        this.request(
          'subscriptions/listen',
          { notifications: filter },
          { signal, timeout: Number.POSITIVE_INFINITY, maxTotalTimeout: Number.POSITIVE_INFINITY },
        ),
      (error) => this.reportError(error),
    );
    this.listen.update({
      toolsListChanged: wants('tools'),
      promptsListChanged: wants('prompts'),
      resourcesListChanged: wants('resources'),
      resourceSubscriptions: [...this.listenedResources],
    });
  }

  /**
   * Calls `listener` after the transport replaced a session the server forgot and this client set
   * up its subscriptions and log level again; returns an unsubscribe function.
   *
   * @example
   * ```ts
   * client.onSessionRecovered(() => console.error('the server restarted; subscriptions renewed'));
   * ```
   */
  onSessionRecovered(listener: () => void): () => void {
    if (!this.recoveredListeners) this.recoveredListeners = new Set();
    const listeners = this.recoveredListeners;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** @internal A new session replaced the old one (transport recovery or reconnection). */
  async sessionRecovered(): Promise<void> {
    // The new session may serve other lists: what was cached came from the old one.
    this.caches.clear();
    this.outputValidators.clear();
    const failures = await this.setup.reapply({
      subscribe: (uri) => this.request('resources/subscribe', { uri }),
      setLevel: (level) => this.request('logging/setLevel', { level }),
    });
    for (const failure of failures) this.reportError(failure);
    for (const listener of this.recoveredListeners ?? []) {
      try {
        listener();
      } catch (error) {
        this.reportError(toError(error));
      }
    }
  }

  // ---------------------------------------------------------------- internals

  private installSampling(options: McpClientOptions): void {
    const handler = options.sampling;
    if (!handler) return;
    const sampling: Record<string, unknown> = {};
    if (options.samplingTools) sampling.tools = {};
    if (options.samplingContext) sampling.context = {};
    this.implyCapabilities({ sampling });
    this.setRequestHandler<string>(
      'sampling/createMessage',
      this.taskable('sampling/createMessage', (params, request) =>
        handler(params as CreateMessageRequestParams, request),
      ),
    );
  }

  private installElicitation(handlers: McpClientOptions['elicitation']): void {
    if (!handlers || (!handlers.form && !handlers.url)) return;
    const elicitation: Record<string, unknown> = {};
    if (handlers.form) elicitation.form = {};
    if (handlers.url) elicitation.url = {};
    this.implyCapabilities({ elicitation });
    const answer: ClientRequestHandler = async (params, request) => {
      if (params.mode === 'url') {
        if (!handlers.url)
          throw new McpError(ErrorCode.InvalidParams, 'This client does not support URL-mode elicitation');
        return handlers.url(params as ElicitRequestURLParams, request);
      }
      if (!handlers.form)
        throw new McpError(ErrorCode.InvalidParams, 'This client does not support form-mode elicitation');
      const form = params as ElicitRequestFormParams;
      const result = await handlers.form(form, request);
      return applyElicitationDefaults(form.requestedSchema, result);
    };
    this.setRequestHandler<string>('elicitation/create', this.taskable('elicitation/create', answer));
  }

  /** The handler of `method`, run as a task when the server asks and the `tasks` option is set. */
  private taskable(method: ClientTaskMethod, handler: ClientRequestHandler): ClientRequestHandler {
    if (!this.taskReceiver) return handler;
    this.taskMethods.push(method);
    return this.taskReceiver.taskable(method, handler);
  }

  private installTaskReceiver(): void {
    const receiver = this.taskReceiver;
    if (!receiver || this.taskMethods.length === 0) return;
    this.implyCapabilities(receiver.capabilitiesFor(this.taskMethods));
    receiver.install(this, (error) => this.reportError(error));
  }

  private installRoots(roots: RootsSource): void {
    this.rootsSource = roots;
    this.implyCapabilities({ roots: { listChanged: true } });
    this.setRequestHandler('roots/list', async () => {
      const source = this.rootsSource;
      const list = typeof source === 'function' ? await source() : (source ?? []);
      return { roots: [...list] };
    });
  }

  private watchListChanges(): void {
    for (const kind of ['tools', 'resources', 'prompts'] as const) {
      this.onNotification(`notifications/${kind}/list_changed`, () => {
        this.caches.delete(kind);
        if (kind === 'tools') this.outputValidators.clear();
        for (const listener of this.listChangedListeners.get(kind) ?? []) listener();
      });
    }
  }

  private cached<T>(kind: ListKind, load: () => Promise<{ items: T[]; ttlMs?: number }>): Promise<T[]> {
    const found = this.caches.get(kind);
    if (found && found.expires > Date.now()) return found.list as Promise<T[]>;
    const loading = load();
    const entry = {
      list: loading.then((pages) => pages.items as unknown[]),
      expires: Number.POSITIVE_INFINITY,
    };
    this.caches.set(kind, entry);
    loading.then(
      (pages) => {
        // 2026-07-28 caching hint (ttlMs): the list is fresh for that long, no longer.
        if (this.era === '2026' && pages.ttlMs !== undefined) entry.expires = Date.now() + pages.ttlMs;
      },
      // A failed load must not poison the cache.
      () => {
        if (this.caches.get(kind) === entry) this.caches.delete(kind);
      },
    );
    return entry.list as Promise<T[]>;
  }

  /** Every page of a list, and the first page's `ttlMs` (2026-07-28), when it gave one. */
  private async collectPages<T>(method: string, key: string): Promise<{ items: T[]; ttlMs?: number }> {
    const items: T[] = [];
    let ttlMs: number | undefined;
    const maxPages = this.mcpOptions.maxPages ?? DEFAULT_MAX_PAGES;
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      if (cursor !== undefined) checkCursor(method, cursor, seen, maxPages);
      const page: Record<string, unknown> = await this.request(
        method,
        cursor === undefined ? {} : { cursor },
      );
      const list = page[key];
      if (Array.isArray(list)) items.push(...(list as T[]));
      if (ttlMs === undefined && typeof page.ttlMs === 'number' && page.ttlMs >= 0) ttlMs = page.ttlMs;
      cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
    } while (cursor !== undefined);
    return ttlMs === undefined ? { items } : { items, ttlMs };
  }

  /** Compiles (once per tool list) the validator of a tool's `outputSchema`; `null` without one. */
  private async outputValidator(name: string): Promise<CompiledValidator | null> {
    if (!this.serverCapabilities?.tools) return null;
    let validate = this.outputValidators.get(name);
    if (validate !== undefined) return validate;
    const tool = (await this.tools()).find((candidate) => candidate.name === name);
    const schema = tool?.outputSchema;
    validate = schema ? (this.mcpOptions.validator ?? defaultValidator()).compile(schema) : null;
    this.outputValidators.set(name, validate);
    return validate;
  }
}

/** Refuses to follow a cursor the server sent before, or one page past `maxPages`. */
function checkCursor(method: string, cursor: string, seen: Set<string>, maxPages: number): void {
  const shown = JSON.stringify(cursor.length > 100 ? `${cursor.slice(0, 100)}…` : cursor);
  if (seen.has(cursor)) {
    throw new PaginationError(
      method,
      cursor,
      `${method}: the server sent the cursor ${shown} a second time; stopped to avoid an endless loop`,
    );
  }
  if (seen.size + 1 >= maxPages) {
    throw new PaginationError(
      method,
      cursor,
      `${method}: the server still had more after ${maxPages} pages (next cursor ${shown}); stopped at the maxPages limit`,
    );
  }
  seen.add(cursor);
}

/**
 * Throws a {@link LocalError} (this client's own check, not an error from the server) when a tool
 * with an `outputSchema` returned no or non-matching `structuredContent`.
 */
function checkStructuredContent(name: string, result: CallToolResult, validate: CompiledValidator): void {
  if (result.structuredContent === undefined) {
    throw new LocalError(`Tool "${name}" declares an outputSchema but returned no structuredContent`);
  }
  const verdict = validate(result.structuredContent);
  if (!verdict.valid) {
    const issues = formatIssues(verdict.issues, 'inline');
    throw new LocalError(
      `Tool "${name}" returned structuredContent that does not match its outputSchema: ${issues}`,
    );
  }
}
