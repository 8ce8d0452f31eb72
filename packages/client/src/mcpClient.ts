/**
 * The high-level client: a typed method for every server feature, answers to the server's
 * sampling, elicitation and roots requests, list caches kept fresh by `list_changed`, and
 * validation of structured tool output. A facade over {@link Client} (the one class it extends,
 * as public API: an `McpClient` is a `Client`): each method is here, its concept in a module of
 * its own (`listCatalogue`, `toolCalls`, `serverAnswers`, `listenInterest`, `sessionSetup`).
 * @module
 */
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  InitializeResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  OutgoingRequestOptions,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
  Transport,
} from '@mcpkit/core';
import { rejectUnknownOptions } from '@mcpkit/core/internal';
import { Client } from './client.js';
import { ListCatalogue } from './listCatalogue.js';
import { ListenInterest } from './listenInterest.js';
import {
  type ListKind,
  MCP_CLIENT_OPTION_KEYS,
  type McpClientOptions,
  type RootsSource,
} from './mcpClientOptions.js';
import type { ConnectOptions, TransportFactory } from './reconnect.js';
import { installAnswers, type ServedRoots } from './serverAnswers.js';
import { SessionSetup } from './sessionSetup.js';
import { ClientTaskReceiver } from './taskReceiver.js';
import { type CallToolOptions, ToolCalls } from './toolCalls.js';

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
  /** The served roots, when the `roots` option was given. */
  private readonly roots: ServedRoots | undefined;
  private readonly catalogue: ListCatalogue;
  private readonly toolCalls: ToolCalls;
  /** The `list_changed` listeners and (2026-07-28) the listen stream. */
  private readonly interest: ListenInterest;
  /** Subscriptions and log level, set up again in a session that replaced the old one. */
  private readonly setup: SessionSetup;
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
    const report = (error: Error) => this.reportError(error);
    this.catalogue = new ListCatalogue(this, mcpOptions);
    this.toolCalls = new ToolCalls(this, this.catalogue, mcpOptions);
    // What a list change (that list) or a new session (every list) makes stale.
    const forget = (kind?: ListKind) => {
      this.catalogue.forget(kind);
      if (kind === undefined || kind === 'tools') this.toolCalls.forget();
    };
    this.interest = new ListenInterest(this, report, forget);
    const modernLogLevel = (level: LoggingLevel) => this.setModernLogLevel(level);
    this.setup = new SessionSetup(this, this.interest, modernLogLevel, forget, report);
    const imply = (capabilities: ClientCapabilities) => this.implyCapabilities(capabilities);
    this.roots = installAnswers({ client: this, imply, report }, mcpOptions, this.taskReceiver);
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
    return this.catalogue.page<ListToolsResult>('tools/list', cursor, options);
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
    return this.catalogue.tools();
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
  callTool(
    name: string,
    args: Record<string, unknown> = {},
    options?: CallToolOptions,
  ): Promise<CallToolResult> {
    return this.toolCalls.call(name, args, options);
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
    return this.catalogue.page<ListResourcesResult>('resources/list', cursor, options);
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
    return this.catalogue.page<ListResourceTemplatesResult>('resources/templates/list', cursor, options);
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

  /**
   * Every resource, following pagination; cached until the server says the list changed.
   *
   * @example
   * ```ts
   * const resources = await client.resources();
   * ```
   */
  resources(): Promise<Resource[]> {
    return this.catalogue.resources();
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
    return this.catalogue.resourceTemplates();
  }

  /**
   * Subscribes to updates of a resource; see {@link onResourceUpdated}.
   *
   * @example
   * ```ts
   * await client.subscribeResource('test://watched-resource');
   * ```
   */
  subscribeResource(uri: string, options?: OutgoingRequestOptions): Promise<void> {
    return this.setup.subscribe(uri, options);
  }

  /**
   * Ends a subscription.
   *
   * @example
   * ```ts
   * await client.unsubscribeResource('test://watched-resource');
   * ```
   */
  unsubscribeResource(uri: string, options?: OutgoingRequestOptions): Promise<void> {
    return this.setup.unsubscribe(uri, options);
  }

  // ---------------------------------------------------------------- prompts and completion

  /**
   * Lists one page of prompts.
   *
   * @example
   * ```ts
   * const { prompts } = await client.listPrompts();
   * ```
   */
  listPrompts(cursor?: string, options?: OutgoingRequestOptions): Promise<ListPromptsResult> {
    return this.catalogue.page<ListPromptsResult>('prompts/list', cursor, options);
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
   * Every prompt, following pagination; cached until the server says the list changed.
   *
   * @example
   * ```ts
   * const prompts = await client.prompts();
   * ```
   */
  prompts(): Promise<Prompt[]> {
    return this.catalogue.prompts();
  }

  // ---------------------------------------------------------------- logging and list changes

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
   * Sets the minimum level of log messages the server sends to this client.
   *
   * @example
   * ```ts
   * await client.setLoggingLevel('warning');
   * ```
   */
  setLoggingLevel(level: LoggingLevel, options?: OutgoingRequestOptions): Promise<void> {
    // 2026-07-28 has no logging/setLevel: the level travels in every later request's `_meta`.
    return this.setup.setLevel(level, options);
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
    return this.interest.onListChanged(kind, listener);
  }

  // ---------------------------------------------------------------- roots and URL elicitation

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

  /**
   * Replaces the roots and tells the server (`notifications/roots/list_changed`).
   *
   * @example
   * ```ts
   * await client.setRoots([{ uri: 'file:///home/me/project', name: 'project' }]);
   * ```
   */
  async setRoots(roots: RootsSource): Promise<void> {
    if (this.roots === undefined) throw new Error('Pass `roots` to the constructor to serve roots');
    this.roots.source = roots;
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
    this.interest.refresh();
    return result;
  }

  /** Closes the listen stream (2026-07-28), then the connection. */
  override close(): Promise<void> {
    this.interest.close();
    return super.close();
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
    return this.setup.onRecovered(listener);
  }

  /** @internal A new session replaced the old one (transport recovery or reconnection). */
  sessionRecovered(): Promise<void> {
    return this.setup.recovered();
  }
}
