/**
 * The high-level server: tools, resources, resource templates, prompts, completion and logging on
 * top of the low-level {@link Server}.
 *
 * One `McpServer` is one definition shared by every session: registries live here, sessions hold
 * only their own small state (log level, subscriptions). Registering, updating, enabling,
 * disabling or removing anything at runtime is seen by every session at once and announced with
 * one debounced `list_changed` per kind.
 *
 * Capabilities follow what is registered when a session initializes: `tools`, `resources`
 * (`subscribe` and `listChanged`), `prompts` and `completions` appear once a tool, a resource or
 * template, a prompt, or a completer exists; `logging` is always declared. A server that registers
 * its first item of a kind only after clients connect declares that kind up front with the
 * `capabilities` option (e.g. `{ tools: { listChanged: true } }`); its handlers are then installed
 * at construction. A `list_changed` goes only to sessions that were told the kind has `listChanged`.
 * @module
 */
import {
  type CallToolRequestParams,
  type CallToolResult,
  type CompleteResult,
  ErrorCode,
  type GetPromptResult,
  type Implementation,
  type JsonSchemaValidator,
  type ListPromptsResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  LOGGING_LEVELS,
  type LoggingLevel,
  McpError,
  type ReadResourceResult,
  type ServerCapabilities,
  UrlElicitationRequiredError,
  type ValidationResult,
} from '@mcpkit/core';
import { defaultValidator } from '@mcpkit/schema';
import { type Completer, type CompletionValues, toCompleteResult } from './completion/complete.js';
import type { RequestContext } from './context.js';
import {
  type ItemList,
  LIST_CHANGED_NOTIFICATION,
  ListChangedNotifier,
  type ListedItem,
  type ListKind,
} from './listChanged.js';
import { PagedCollection } from './pagination.js';
import {
  type PromptArguments,
  type PromptArgumentsInput,
  type PromptConfig,
  type PromptHandler,
  RegisteredPrompt,
  toGetPromptResult,
} from './prompts/prompt.js';
import { listResources } from './resources/listing.js';
import { toReadResourceResult } from './resources/readResult.js';
import {
  RegisteredResource,
  RegisteredResourceTemplate,
  type ResourceConfig,
  type ResourceReader,
  type ResourceTemplateConfig,
  type TemplateReader,
  type TemplateVariableName,
  type TemplateVariables,
} from './resources/resource.js';
import { uriProblem } from './resources/uri.js';
import { Server, type ServerOptions } from './server.js';
import type { ServerSession } from './session.js';
import { TaskManager, type TaskManagerOptions } from './tasks/taskManager.js';
import { prepareObjectSchema, type SchemaInput } from './tools/schemas.js';
import {
  type EmptyArguments,
  RegisteredTool,
  type ToolArguments,
  type ToolConfig,
  type ToolContext,
  type ToolHandler,
  type ToolReturn,
  type ToolState,
} from './tools/tool.js';
import {
  invalidArgumentsResult,
  isCallToolResult,
  isPlainObject,
  structuredResult,
  ToolError,
  thrownErrorText,
  toCallToolResult,
  toolErrorResult,
} from './tools/toolResult.js';

/**
 * Options of {@link McpServer}: those of {@link Server}, plus the following.
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'demo', version: '1.0.0' }, { pageSize: 50, maskToolErrors: false });
 * ```
 */
export interface McpServerOptions extends ServerOptions {
  /** Items per page of `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`. Default 100. */
  pageSize?: number;
  /** Validates JSON Schemas (tool arguments and results). Default: `defaultValidator()` from `@mcpkit/schema`. */
  validator?: JsonSchemaValidator;
  /** How long changes are collected into one `list_changed` notification, in ms. Default 10. */
  listChangedDebounceMs?: number;
  /**
   * Hide the messages of unexpected errors a tool handler throws. Default true: a thrown
   * `ToolError` (written for the model) or `McpError` keeps its message; any other error becomes
   * "Tool "x" failed with an internal error." and reaches `onError` in full, so paths, hosts and
   * secrets in a dependency's message never reach the model. Set `false` during development to
   * send raw messages (never a stack trace).
   */
  maskToolErrors?: boolean;
  /** Most resource URIs one session may subscribe to. Default 1000. */
  maxSubscriptionsPerSession?: number;
  /**
   * Run task-augmented tool calls as tasks (2025-11-25, experimental): declares the `tasks`
   * capability and answers `tasks/*` (see {@link TaskManager}). Default off: `task` is ignored.
   */
  tasks?: boolean | TaskManagerOptions;
}

const DEFAULT_PAGE_SIZE = 100;
const DEFAULT_DEBOUNCE_MS = 10;
const DEFAULT_MAX_SUBSCRIPTIONS = 1000;
const EMPTY_INPUT_SCHEMA = { type: 'object', additionalProperties: false } as const;

type FeatureKind = ListKind | 'completions';

function invalidParams(message: string, data?: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Checks a map of string values (prompt arguments, completion context). */
function stringRecord(value: unknown, what: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw invalidParams(`${what} must be an object of strings`);
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw invalidParams(`${what}: "${key}" must be a string`);
  }
  return value as Record<string, string>;
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw invalidParams(`${what} must be a string`);
  return value;
}

function resourceNotFound(uri: string): McpError {
  return new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
}

/**
 * A high-level MCP server: register tools, resources, resource templates and prompts; connect
 * any number of transports.
 *
 * @example
 * ```ts
 * import { McpServer } from '@mcpkit/server';
 * import { z } from 'zod';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * server.tool('echo', { description: 'Echoes text', inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
 * server.resource('test://hello', { mimeType: 'text/plain' }, () => 'Hello!');
 * server.prompt('greet', { arguments: [{ name: 'name', required: true }] }, ({ name }) => `Say hello to ${name}`);
 * server.connect(transport);
 * ```
 */
export class McpServer extends Server {
  /** Items per list page. */
  readonly pageSize: number;
  /** The JSON Schema validator tool schemas are compiled with. */
  readonly validator: JsonSchemaValidator;
  private readonly tools = new PagedCollection<RegisteredTool>('t');
  private readonly resources = new PagedCollection<RegisteredResource>('r');
  private readonly templates = new PagedCollection<RegisteredResourceTemplate>('u');
  private readonly prompts = new PagedCollection<RegisteredPrompt>('p');
  private readonly toolList: ItemList;
  private readonly resourceList: ItemList;
  private readonly templateList: ItemList;
  private readonly promptList: ItemList;
  private readonly toolContext: ToolContext;
  private readonly notifier: ListChangedNotifier;
  private readonly installed = new Set<FeatureKind>();
  /** The capabilities each session was given, to announce only the lists it was told can change. */
  private readonly told = new WeakMap<ServerSession, ServerCapabilities>();
  private readonly maskToolErrors: boolean;
  private readonly maxSubscriptions: number;
  private firstToolsPage: ListToolsResult | undefined;
  /** The task engine, when the `tasks` option is set. */
  readonly tasks: TaskManager | undefined;

  constructor(info: Implementation, options: McpServerOptions = {}) {
    super(info, options);
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isSafeInteger(this.pageSize) || this.pageSize < 1) {
      throw new RangeError(`pageSize must be a positive integer (got ${options.pageSize})`);
    }
    this.validator = options.validator ?? defaultValidator();
    this.maskToolErrors = options.maskToolErrors ?? true;
    this.maxSubscriptions = options.maxSubscriptionsPerSession ?? DEFAULT_MAX_SUBSCRIPTIONS;
    this.notifier = new ListChangedNotifier(options.listChangedDebounceMs ?? DEFAULT_DEBOUNCE_MS, (kinds) =>
      this.announce(kinds),
    );
    this.toolContext = {
      validator: this.validator,
      emptyInput: prepareObjectSchema(EMPTY_INPUT_SCHEMA, 'input', this.validator, 'The empty input schema'),
    };
    this.toolList = { kind: 'tool', items: this.tools, changed: () => this.changed('tools') };
    this.resourceList = { kind: 'resource', items: this.resources, changed: () => this.changed('resources') };
    this.templateList = {
      kind: 'resource template',
      items: this.templates,
      changed: (item) => this.changed('resources', item),
    };
    this.promptList = {
      kind: 'prompt',
      items: this.prompts,
      changed: (item) => this.changed('prompts', item),
    };
    this.implyCapabilities({ logging: {} });
    this.tasks = options.tasks ? new TaskManager(options.tasks === true ? {} : options.tasks) : undefined;
    if (this.tasks) {
      this.implyCapabilities(this.tasks.capabilities);
      this.tasks.install(this);
    }
    this.setRequestHandler('logging/setLevel', (params, ctx) => this.setLogLevel(params, ctx));
    this.onSessionInitialized((session) => this.told.set(session, this.capabilities));
    const declared = options.capabilities;
    if (declared?.tools) this.install('tools');
    if (declared?.resources) this.install('resources');
    if (declared?.prompts) this.install('prompts');
    if (declared?.completions) this.install('completions');
  }

  // ------------------------------------------------------------------------------ registration

  /**
   * Registers a tool. Argument and output types follow the schemas; schemas are converted and
   * compiled here, once.
   *
   * @throws {TypeError} for an invalid name (1–128 of `A-Z a-z 0-9 _ - .`), a name already
   *   registered, a schema whose root is not an object or whose `$schema` dialect is unsupported,
   *   unsafe icons, or malformed metadata.
   * @example
   * ```ts
   * const add = server.tool(
   *   'add',
   *   {
   *     description: 'Adds two numbers',
   *     inputSchema: z.object({ a: z.number(), b: z.number() }),
   *     outputSchema: z.object({ sum: z.number() }),
   *   },
   *   ({ a, b }) => ({ sum: a + b }),
   * );
   * server.tool('ping', () => 'pong');
   * ```
   */
  tool<
    const In extends SchemaInput | undefined = undefined,
    const Out extends SchemaInput | undefined = undefined,
  >(
    name: string,
    config: ToolConfig<In, Out>,
    handler: ToolHandler<ToolArguments<In>, ToolReturn<Out>>,
  ): RegisteredTool;
  tool(name: string, handler: ToolHandler<EmptyArguments>): RegisteredTool;
  tool(
    name: string,
    configOrHandler: ToolConfig | ToolHandler<any>,
    handler?: ToolHandler<any, any>,
  ): RegisteredTool {
    const [config, run] =
      typeof configOrHandler === 'function' ? [{}, configOrHandler] : [configOrHandler, handler];
    if (this.tools.get(name)) throw new TypeError(`A tool named "${name}" is already registered`);
    const tool = new RegisteredTool(this.toolList, this.toolContext, name, config, run as ToolHandler<any>);
    this.install('tools');
    this.tools.add(tool);
    this.changed('tools');
    return tool;
  }

  /**
   * Registers a static resource. The reader returns a string (text), bytes (a base64 blob),
   * contents objects, or a full `ReadResourceResult`.
   *
   * @throws {TypeError} for a URI that is not absolute, one already registered, or bad metadata.
   * @example
   * ```ts
   * server.resource('test://static-text', { name: 'static-text', mimeType: 'text/plain' }, () => 'Hello');
   * server.resource('test://logo', { mimeType: 'image/png' }, () => pngBytes);
   * ```
   */
  resource(uri: string, config: ResourceConfig, read: ResourceReader): RegisteredResource;
  resource(uri: string, read: ResourceReader): RegisteredResource;
  resource(
    uri: string,
    configOrRead: ResourceConfig | ResourceReader,
    read?: ResourceReader,
  ): RegisteredResource {
    const [config, reader] = typeof configOrRead === 'function' ? [{}, configOrRead] : [configOrRead, read];
    if (this.resources.get(uri)) throw new TypeError(`A resource with URI "${uri}" is already registered`);
    const resource = new RegisteredResource(this.resourceList, uri, config, reader as ResourceReader);
    this.install('resources');
    this.resources.add(resource);
    this.changed('resources');
    return resource;
  }

  /**
   * Registers a resource template (RFC 6570). A read whose URI no static resource has is matched
   * against templates in registration order; the first match reads it.
   *
   * @throws {TypeError} for a malformed template, one already registered, a completer for an
   *   unknown variable, or bad metadata.
   * @example
   * ```ts
   * server.resourceTemplate(
   *   'test://template/{id}/data',
   *   { name: 'template', mimeType: 'application/json', complete: { id: (value) => ['1', '2'].filter((id) => id.startsWith(value)) } },
   *   (uri, { id }) => JSON.stringify({ id }),
   * );
   * ```
   */
  resourceTemplate<const T extends string>(
    uriTemplate: T,
    config: ResourceTemplateConfig<TemplateVariableName<T>>,
    read: TemplateReader<TemplateVariables<T>>,
  ): RegisteredResourceTemplate {
    if (this.templates.get(uriTemplate)) {
      throw new TypeError(`A resource template "${uriTemplate}" is already registered`);
    }
    const template = new RegisteredResourceTemplate(
      this.templateList,
      uriTemplate,
      config as ResourceTemplateConfig,
      read as TemplateReader<any>,
    );
    this.install('resources');
    this.templates.add(template);
    this.changed('resources', template);
    return template;
  }

  /**
   * Registers a prompt. Arguments are a `PromptArgument` list or an object schema; required ones
   * are checked before the handler runs.
   *
   * @throws {TypeError} for an empty or duplicate name, bad arguments, a completer for an unknown
   *   argument, or bad metadata.
   * @example
   * ```ts
   * server.prompt(
   *   'review',
   *   { description: 'Code review', arguments: [{ name: 'code', required: true }], complete: { code: () => [] } },
   *   ({ code }) => `Please review:\n${code}`,
   * );
   * ```
   */
  prompt<const A extends PromptArgumentsInput | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<PromptArguments<A>>,
  ): RegisteredPrompt;
  prompt(name: string, handler: PromptHandler<Record<string, never>>): RegisteredPrompt;
  prompt(
    name: string,
    configOrHandler: PromptConfig | PromptHandler<any>,
    handler?: PromptHandler<any>,
  ): RegisteredPrompt {
    const [config, run] =
      typeof configOrHandler === 'function' ? [{}, configOrHandler] : [configOrHandler, handler];
    if (this.prompts.get(name)) throw new TypeError(`A prompt named "${name}" is already registered`);
    const prompt = new RegisteredPrompt(
      this.promptList,
      this.validator,
      name,
      config,
      run as PromptHandler<any>,
    );
    this.install('prompts');
    this.prompts.add(prompt);
    this.changed('prompts', prompt);
    return prompt;
  }

  // ------------------------------------------------------------------------------ notifications

  /**
   * Tells every session subscribed to `uri` that the resource changed
   * (`notifications/resources/updated`). Sessions that did not subscribe hear nothing.
   *
   * @example
   * ```ts
   * watcher.on('change', () => server.notifyResourceUpdated('file:///var/log/app.log'));
   * ```
   */
  notifyResourceUpdated(uri: string): void {
    this.broadcast(
      'notifications/resources/updated',
      { uri },
      (session) => session.subscriptions?.has(uri) === true,
    );
  }

  /**
   * Sends a log message to every session whose `logging/setLevel` lets `level` through. Never log
   * credentials or personal data: clients may show logs to users.
   *
   * @example
   * ```ts
   * server.log('warning', { disk: '95% full' }, 'storage');
   * ```
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const params: Record<string, unknown> = logger === undefined ? { level, data } : { level, data, logger };
    this.broadcast('notifications/message', params, (session) => session.wantsLog(level));
  }

  /**
   * Closes every session; pending `list_changed` notifications are dropped.
   *
   * @example
   * ```ts
   * process.on('SIGTERM', () => server.close());
   * ```
   */
  override async close(): Promise<void> {
    this.notifier.cancel();
    await super.close();
    await this.tasks?.close();
  }

  // ------------------------------------------------------------------------------ tools/call

  /**
   * Runs a task-augmented `tools/call` (one whose params carry `task`). With the `tasks` option,
   * the {@link TaskManager} creates a task, answers with `CreateTaskResult` and calls
   * {@link executeTool} in the background. Without it the server declares no task support, so, as
   * the specification requires of such a server, `task` is ignored and the call answered normally.
   *
   * @example
   * ```ts
   * class AuditedServer extends McpServer {
   *   protected override runToolAsTask(tool: RegisteredTool, args: Record<string, unknown>, ctx: RequestContext, params: CallToolRequestParams) {
   *     audit(ctx, tool.name);
   *     return super.runToolAsTask(tool, args, ctx, params);
   *   }
   * }
   * ```
   */
  protected runToolAsTask(
    tool: RegisteredTool,
    args: Record<string, unknown>,
    ctx: RequestContext,
    params: CallToolRequestParams,
  ): unknown {
    if (!this.tasks) return this.executeTool(tool, args, ctx);
    const immediate = tool.state.config.modelImmediateResponse;
    return this.tasks.runToolCall(
      tool.definition,
      params,
      ctx,
      (taskCtx) => this.executeTool(tool, args, taskCtx),
      {
        ...(immediate === undefined ? {} : { modelImmediateResponse: immediate }),
      },
    );
  }

  /**
   * Validates the arguments, runs the handler and builds the result. Every failure of the tool
   * itself (invalid arguments, a thrown error, output that breaks `outputSchema`) is an
   * `isError: true` result the model can read; only `UrlElicitationRequiredError` is answered as a
   * JSON-RPC error, as the specification requires.
   *
   * The result is a plain value when the validator and the handler answer synchronously, so a
   * synchronous tool costs no promise and no microtask; otherwise a promise of it.
   *
   * @example
   * ```ts
   * const result = await this.executeTool(tool, { text: 'hi' }, ctx);
   * ```
   */
  protected executeTool(
    tool: RegisteredTool,
    args: Record<string, unknown>,
    ctx: RequestContext,
  ): CallToolResult | Promise<CallToolResult> {
    const state = tool.state;
    const pending = state.input.validate(args);
    if (isPromiseLike(pending)) {
      return Promise.resolve(pending).then((checked) => this.runToolHandler(state, checked, ctx));
    }
    return this.runToolHandler(state, pending, ctx);
  }

  private runToolHandler(
    state: ToolState,
    checked: ValidationResult,
    ctx: RequestContext,
  ): CallToolResult | Promise<CallToolResult> {
    if (!checked.valid) return invalidArgumentsResult(state.definition.name, checked.issues);
    let returned: unknown;
    try {
      returned = state.handler(checked.value, ctx);
    } catch (error) {
      return this.failedToolResult(state, error, ctx);
    }
    if (!isPromiseLike(returned)) return this.finishToolResult(state, returned, ctx);
    return Promise.resolve(returned).then(
      (value) => this.finishToolResult(state, value, ctx),
      (error: unknown) => this.failedToolResult(state, error, ctx),
    );
  }

  /** What the handler returned, as a `CallToolResult`; a failure to build one is the tool's error. */
  private finishToolResult(
    state: ToolState,
    returned: unknown,
    ctx: RequestContext,
  ): CallToolResult | Promise<CallToolResult> {
    try {
      if (!state.output) return toCallToolResult(returned);
      return this.structuredToolResult(state, returned, ctx).then(undefined, (error: unknown) =>
        this.failedToolResult(state, error, ctx),
      );
    } catch (error) {
      return this.failedToolResult(state, error, ctx);
    }
  }

  /** A thrown error becomes an `isError` result, except one the specification answers as an error. */
  private failedToolResult(state: ToolState, error: unknown, ctx: RequestContext): CallToolResult {
    if (error instanceof UrlElicitationRequiredError) throw error;
    return this.thrownToolResult(state.definition.name, error, ctx);
  }

  private callTool(params: Record<string, unknown>, ctx: RequestContext): unknown {
    const name = requireString(params.name, 'tools/call: "name"');
    const tool = this.tools.find(name);
    if (!tool) throw invalidParams(`Unknown tool: "${name}"`);
    const args = params.arguments ?? {};
    if (!isRecord(args)) throw invalidParams('tools/call: "arguments" must be an object');
    if (params.task !== undefined)
      return this.runToolAsTask(tool, args, ctx, params as CallToolRequestParams);
    if (tool.state.definition.execution?.taskSupport === 'required') {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool "${name}" can only be called as a task: add "task" to the tools/call params`,
      );
    }
    return this.executeTool(tool, args, ctx);
  }

  /** Checks structured output against `outputSchema`; a mismatch is the server's bug, reported. */
  private async structuredToolResult(
    state: ToolState,
    returned: unknown,
    ctx: RequestContext,
  ): Promise<CallToolResult> {
    const name = state.definition.name;
    const output = state.output!;
    const result = isCallToolResult(returned) ? returned : undefined;
    if (result?.isError) return result;
    const structured = result ? result.structuredContent : isPlainObject(returned) ? returned : undefined;
    if (structured === undefined) {
      return this.toolBug(
        ctx,
        `Tool "${name}" declares an outputSchema but returned no structured content.`,
        `Return an object matching the outputSchema of tool "${name}" (or a result with structuredContent)`,
      );
    }
    const pending = output.validate(structured);
    const checked = isPromiseLike(pending) ? await pending : pending;
    if (!checked.valid) {
      const issues = checked.issues
        .map((issue) => `- ${issue.path || '(root)'}: ${issue.message}`)
        .join('\n');
      return this.toolBug(
        ctx,
        `Tool "${name}" returned structured content that does not match its outputSchema:\n${issues}`,
        `Tool "${name}" returned structured content that does not match its outputSchema`,
      );
    }
    const value = checked.value as Record<string, unknown>;
    if (!result) return structuredResult(value);
    return value === structured ? result : { ...result, structuredContent: value };
  }

  private toolBug(ctx: RequestContext, message: string, report: string): CallToolResult {
    this.reportError(new Error(report), ctx.session);
    return toolErrorResult(message);
  }

  private thrownToolResult(name: string, error: unknown, ctx: RequestContext): CallToolResult {
    if (!(error instanceof ToolError) && !ctx.request.cancelled) {
      this.reportError(error instanceof Error ? error : new Error(String(error)), ctx.session);
    }
    return toolErrorResult(thrownErrorText(name, error, this.maskToolErrors));
  }

  private listTools(params: Record<string, unknown>): ListToolsResult {
    const cursor = params.cursor;
    if (cursor === undefined && this.firstToolsPage) return this.firstToolsPage;
    const page = this.tools.page(cursor, this.pageSize);
    const result: ListToolsResult = { tools: page.items.map((tool) => tool.definition) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    if (cursor === undefined) this.firstToolsPage = result;
    return result;
  }

  // ------------------------------------------------------------------------------ resources

  private listResourceTemplates(params: Record<string, unknown>): ListResourceTemplatesResult {
    const page = this.templates.page(params.cursor, this.pageSize);
    const result: ListResourceTemplatesResult = {
      resourceTemplates: page.items.map((template) => template.definition),
    };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  private async readResource(
    params: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<ReadResourceResult> {
    const uri = this.requestedUri(params, 'resources/read');
    const resource = this.resources.find(uri);
    if (resource) {
      const state = resource.state;
      return toReadResourceResult(await state.read(uri, ctx), uri, state.definition.mimeType);
    }
    for (const template of this.templates.list()) {
      const state = template.state;
      const variables = state.template.match(uri);
      if (variables)
        return toReadResourceResult(await state.read(uri, variables, ctx), uri, state.definition.mimeType);
    }
    throw resourceNotFound(uri);
  }

  private requestedUri(params: Record<string, unknown>, method: string): string {
    const uri = requireString(params.uri, `${method}: "uri"`);
    const problem = uriProblem(uri);
    if (problem) throw invalidParams(`${method}: "uri" ${problem}`, { uri });
    return uri;
  }

  private isKnownResource(uri: string): boolean {
    if (this.resources.find(uri)) return true;
    return this.templates.list().some((template) => template.state.template.match(uri) !== undefined);
  }

  private subscribe(params: Record<string, unknown>, ctx: RequestContext): Record<string, never> {
    const uri = this.requestedUri(params, 'resources/subscribe');
    if (!this.isKnownResource(uri)) throw resourceNotFound(uri);
    const session = ctx.session;
    if (!session.subscriptions) session.subscriptions = new Set();
    if (!session.subscriptions.has(uri) && session.subscriptions.size >= this.maxSubscriptions) {
      throw invalidParams(
        `This session already has ${this.maxSubscriptions} subscriptions: unsubscribe from some first`,
      );
    }
    session.subscriptions.add(uri);
    return {};
  }

  private unsubscribe(params: Record<string, unknown>, ctx: RequestContext): Record<string, never> {
    const uri = requireString(params.uri, 'resources/unsubscribe: "uri"');
    ctx.session.subscriptions?.delete(uri);
    return {};
  }

  // ------------------------------------------------------------------------------ prompts

  private listPrompts(params: Record<string, unknown>): ListPromptsResult {
    const page = this.prompts.page(params.cursor, this.pageSize);
    const result: ListPromptsResult = { prompts: page.items.map((prompt) => prompt.definition) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  private async getPrompt(params: Record<string, unknown>, ctx: RequestContext): Promise<GetPromptResult> {
    const name = requireString(params.name, 'prompts/get: "name"');
    const prompt = this.prompts.find(name);
    if (!prompt) throw invalidParams(`Unknown prompt: "${name}"`);
    const state = prompt.state;
    const args = stringRecord(params.arguments, 'prompts/get: "arguments"');
    const missing = state.arguments.filter(
      (argument) => argument.required && !Object.hasOwn(args, argument.name),
    );
    if (missing.length > 0) {
      const names = missing.map((argument) => `"${argument.name}"`).join(', ');
      throw invalidParams(
        `Prompt "${name}" is missing required argument${missing.length > 1 ? 's' : ''} ${names}`,
      );
    }
    let value: unknown = args;
    if (state.schema) {
      const pending = state.schema.validate(args);
      const checked = isPromiseLike(pending) ? await pending : pending;
      if (!checked.valid) {
        const issues = checked.issues
          .map((issue) => `- ${issue.path || '(root)'}: ${issue.message}`)
          .join('\n');
        throw invalidParams(`Invalid arguments for prompt "${name}":\n${issues}`);
      }
      value = checked.value;
    }
    return toGetPromptResult(await state.handler(value, ctx), state.definition.description);
  }

  // ------------------------------------------------------------------------------ completion

  private async complete(params: Record<string, unknown>, ctx: RequestContext): Promise<CompleteResult> {
    const ref = params.ref;
    const argument = params.argument;
    if (!isRecord(ref) || !isRecord(argument)) {
      throw invalidParams('completion/complete needs "ref" and "argument" objects');
    }
    const argumentName = requireString(argument.name, 'completion/complete: "argument.name"');
    const value = requireString(argument.value, 'completion/complete: "argument.value"');
    const context = isRecord(params.context) ? params.context : undefined;
    const resolved = stringRecord(context?.arguments, 'completion/complete: "context.arguments"');
    const completer = this.completerFor(ref, argumentName);
    if (!completer) return toCompleteResult([]);
    const returned: CompletionValues = await completer(value, { arguments: resolved }, ctx);
    return toCompleteResult(returned);
  }

  private completerFor(ref: Record<string, unknown>, argumentName: string): Completer | undefined {
    let completers: Readonly<Record<string, Completer | undefined>>;
    if (ref.type === 'ref/prompt') {
      const name = requireString(ref.name, 'completion/complete: "ref.name"');
      const prompt = this.prompts.find(name);
      if (!prompt) throw invalidParams(`Unknown prompt: "${name}"`);
      completers = prompt.state.complete;
    } else if (ref.type === 'ref/resource') {
      const uri = requireString(ref.uri, 'completion/complete: "ref.uri"');
      const template = this.templates.find(uri);
      if (!template) {
        if (this.resources.find(uri)) return undefined;
        throw invalidParams(`Unknown resource template: "${uri}"`);
      }
      completers = template.state.complete;
    } else {
      throw invalidParams('completion/complete: "ref.type" must be "ref/prompt" or "ref/resource"');
    }
    return Object.hasOwn(completers, argumentName) ? completers[argumentName] : undefined;
  }

  // ------------------------------------------------------------------------------ logging

  private setLogLevel(params: Record<string, unknown>, ctx: RequestContext): Record<string, never> {
    const level = params.level;
    if (typeof level !== 'string' || !(LOGGING_LEVELS as readonly string[]).includes(level)) {
      throw invalidParams(`logging/setLevel: "level" must be one of ${LOGGING_LEVELS.join(', ')}`);
    }
    ctx.session.logLevel = level as LoggingLevel;
    return {};
  }

  // ------------------------------------------------------------------------------ plumbing

  /** Declares a feature and installs its method handlers, once. */
  private install(kind: FeatureKind): void {
    if (this.installed.has(kind)) return;
    this.installed.add(kind);
    switch (kind) {
      case 'tools':
        this.implyCapabilities({ tools: { listChanged: true } });
        this.setRequestHandler('tools/list', (params) => this.listTools(params));
        this.setRequestHandler('tools/call', (params, ctx) => this.callTool(params, ctx));
        return;
      case 'resources':
        this.implyCapabilities({ resources: { subscribe: true, listChanged: true } });
        this.setRequestHandler('resources/list', (params, ctx) =>
          listResources(this.resources, this.templates, params.cursor, this.pageSize, ctx),
        );
        this.setRequestHandler('resources/templates/list', (params) => this.listResourceTemplates(params));
        this.setRequestHandler('resources/read', (params, ctx) => this.readResource(params, ctx));
        this.setRequestHandler('resources/subscribe', (params, ctx) => this.subscribe(params, ctx));
        this.setRequestHandler('resources/unsubscribe', (params, ctx) => this.unsubscribe(params, ctx));
        return;
      case 'prompts':
        this.implyCapabilities({ prompts: { listChanged: true } });
        this.setRequestHandler('prompts/list', (params) => this.listPrompts(params));
        this.setRequestHandler('prompts/get', (params, ctx) => this.getPrompt(params, ctx));
        return;
      case 'completions':
        this.implyCapabilities({ completions: {} });
        this.setRequestHandler('completion/complete', (params, ctx) => this.complete(params, ctx));
        return;
    }
  }

  /** A list changed: drop caches, note completers, and announce it (debounced) if anyone listens. */
  private changed(kind: ListKind, item?: ListedItem<unknown>): void {
    if (kind === 'tools') this.firstToolsPage = undefined;
    const completers = (item?.state as { complete?: object } | undefined)?.complete;
    if (completers && Object.keys(completers).length > 0) this.install('completions');
    if (this.sessions.size > 0) this.notifier.changed(kind);
  }

  private announce(kinds: readonly ListKind[]): void {
    for (const kind of kinds) {
      this.broadcast(LIST_CHANGED_NOTIFICATION[kind], undefined, (session) => {
        const told = this.told.get(session)?.[kind] as { listChanged?: boolean } | undefined;
        return told?.listChanged === true;
      });
    }
  }
}
