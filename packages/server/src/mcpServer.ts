/**
 * The high-level server: a facade over the feature modules (`tools/`, `resources/`, `prompts/`,
 * `completion/`, `logging/`), each of which owns its registry and handlers, on the low-level
 * {@link Server}. One `McpServer` is one definition shared by every session; changes at runtime
 * reach every session at once, announced with one debounced `list_changed` per kind. Capabilities
 * follow what is registered (`logging` always); declare a kind registered only after clients
 * connect with the `capabilities` option. See docs/architecture.md for the feature modules.
 * @module
 */
import {
  type CallToolRequestParams,
  type CallToolResult,
  type Implementation,
  type JsonSchemaValidator,
  type LoggingLevel,
  Method,
} from '@mcpkit/core';
import { defaultValidator } from '@mcpkit/schema';
import {
  checkedPageSize,
  checkedTasks,
  createFeatureSet,
  type FeatureSet,
  installDeclared,
  OWNED_METHODS,
  requirePrompts,
  requireResources,
} from './featureSet.js';
import type { RequestContext } from './kernel/context.js';
import type { ListedItem, ListKind } from './listChanged.js';
import type { McpServerOptions } from './mcpServerOptions.js';
import type {
  PromptArguments,
  PromptArgumentsInput,
  PromptConfig,
  PromptHandler,
  RegisteredPrompt,
} from './prompts/prompt.js';
import type {
  RegisteredResource,
  RegisteredResourceTemplate,
  ResourceConfig,
  ResourceReader,
  ResourceTemplateConfig,
  TemplateReader,
  TemplateVariableName,
  TemplateVariables,
} from './resources/resource.js';
import { Server } from './server.js';
import type { TaskManager } from './tasks/taskManager.js';
import type { SchemaInput } from './tools/schemas.js';
import type {
  EmptyArguments,
  RegisteredTool,
  ToolArguments,
  ToolConfig,
  ToolHandler,
  ToolReturn,
} from './tools/tool.js';

export type { McpServerOptions } from './mcpServerOptions.js';

/**
 * A high-level MCP server: register tools, resources, templates and prompts; connect any transports.
 *
 * @example
 * ```ts
 * import { McpServer, promptSupport, resourceSupport } from '@mcpkit/server';
 * import { z } from 'zod';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' }, { resources: resourceSupport, prompts: promptSupport });
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
  /** The task engine, when the `tasks` option is set. */
  readonly tasks: TaskManager | undefined;
  readonly #features: FeatureSet;

  constructor(info: Implementation, options: McpServerOptions = {}) {
    super(info, options);
    this.pageSize = checkedPageSize(options.pageSize);
    this.validator = options.validator ?? defaultValidator();
    this.reserveMethods(OWNED_METHODS.methods, OWNED_METHODS.owner);
    this.placesMiddleware([Method.ToolsCall]); // tools/call runs it after argument validation
    const overridden = this.executeTool !== McpServer.prototype.executeTool;
    const hooks = {
      runAsTask: this.runToolAsTask.bind(this),
      // The task engine decides (both eras); without one, only a 2025 `task` param makes a task.
      wantsTask: (tool: RegisteredTool, params: Record<string, unknown>, ctx: RequestContext) =>
        this.tasks ? this.tasks.wantsTask(tool.definition, params, ctx) : params.task !== undefined,
      execute: overridden ? this.executeTool.bind(this) : undefined,
    };
    this.#features = createFeatureSet(this, options, hooks, new.target === McpServer);
    this.#features.logging.install();
    this.tasks = checkedTasks(options.tasks);
    if (this.tasks) this.implyCapabilities(this.tasks.capabilities);
    this.tasks?.install(this);
    installDeclared(this.#features, options.capabilities);
  }

  /**
   * Registers a tool. Argument and output types follow the schemas; schemas are converted and
   * compiled here, once.
   *
   * @throws {TypeError} for an invalid name (1–128 of `A-Z a-z 0-9 _ - .`), a name already
   *   registered, a schema whose root is not an object or whose `$schema` dialect is unsupported,
   *   unsafe icons, or malformed metadata.
   * @example
   * ```ts
   * const sum = z.object({ sum: z.number() });
   * server.tool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: sum }, ({ a, b }) => ({ sum: a + b }));
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
  tool(name: string, configOrHandler: ToolConfig | ToolHandler<any>, handler?: ToolHandler<any, any>) {
    const tools = this.#features.tools;
    if (typeof configOrHandler === 'function') return tools.register(name, {}, configOrHandler);
    return tools.register(name, configOrHandler, handler as ToolHandler<any>);
  }

  /**
   * Registers a static resource. The reader returns a string (text), bytes (a base64 blob),
   * contents objects, or a full `ReadResourceResult`. Needs the `resources` option.
   *
   * @throws {TypeError} without the `resources` option, for a URI that is not absolute, one
   *   already registered, or bad metadata.
   * @example
   * ```ts
   * server.resource('test://static-text', { name: 'static-text', mimeType: 'text/plain' }, () => 'Hello');
   * server.resource('test://logo', { mimeType: 'image/png' }, () => pngBytes);
   * ```
   */
  resource(uri: string, config: ResourceConfig, read: ResourceReader): RegisteredResource;
  resource(uri: string, read: ResourceReader): RegisteredResource;
  resource(uri: string, configOrRead: ResourceConfig | ResourceReader, read?: ResourceReader) {
    const resources = requireResources(this.#features, 'server.resource()');
    if (typeof configOrRead === 'function') return resources.register(uri, {}, configOrRead);
    return resources.register(uri, configOrRead, read as ResourceReader);
  }

  /**
   * Registers a resource template (RFC 6570). A read whose URI no static resource has is matched
   * against templates in registration order; the first match reads it. Needs the `resources`
   * option.
   *
   * @throws {TypeError} without the `resources` option, for a malformed template, one already registered, a completer for an
   *   unknown variable, or bad metadata.
   * @example
   * ```ts
   * const complete = { id: (value: string) => ['1', '2'].filter((id) => id.startsWith(value)) };
   * server.resourceTemplate('test://template/{id}/data', { name: 'template', complete }, (_uri, { id }) => JSON.stringify({ id }));
   * ```
   */
  resourceTemplate<const T extends string>(
    uriTemplate: T,
    config: ResourceTemplateConfig<TemplateVariableName<T>>,
    read: TemplateReader<TemplateVariables<T>>,
  ): RegisteredResourceTemplate {
    const resources = requireResources(this.#features, 'server.resourceTemplate()');
    return resources.registerTemplate(uriTemplate, config, read);
  }

  /**
   * Registers a prompt. Arguments are a `PromptArgument` list or an object schema; required ones
   * are checked before the handler runs. Needs the `prompts` option.
   *
   * @throws {TypeError} without the `prompts` option, for an empty or duplicate name, bad arguments, a completer for an unknown
   *   argument, or bad metadata.
   * @example
   * ```ts
   * server.prompt('review', { arguments: [{ name: 'code', required: true }] }, ({ code }) => `Please review:\n${code}`);
   * ```
   */
  prompt<const A extends PromptArgumentsInput | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<PromptArguments<A>>,
  ): RegisteredPrompt;
  prompt(name: string, handler: PromptHandler<Record<string, never>>): RegisteredPrompt;
  prompt(name: string, configOrHandler: PromptConfig | PromptHandler<any>, handler?: PromptHandler<any>) {
    const prompts = requirePrompts(this.#features, 'server.prompt()');
    if (typeof configOrHandler === 'function') return prompts.register(name, {}, configOrHandler);
    return prompts.register(name, configOrHandler, handler as PromptHandler<any>);
  }

  /**
   * Tells every session subscribed to `uri` that the resource changed
   * (`notifications/resources/updated`). Sessions that did not subscribe hear nothing.
   *
   * @example
   * ```ts
   * server.notifyResourceUpdated('file:///var/log/app.log'); // e.g. from fs.watch
   * ```
   */
  notifyResourceUpdated(uri: string): void {
    this.#features.resources?.notifyUpdated(uri);
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
    this.#features.logging.log(level, data, logger);
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
    this.#features.announcer.cancel();
    await super.close();
    await this.tasks?.close();
  }

  /** @internal A list changed: completers it brings install completion; sessions hear of it. */
  changed(kind: ListKind, item?: ListedItem): void {
    const completers = (item?.state as { complete?: object } | undefined)?.complete;
    if (completers && Object.keys(completers).length > 0) this.#features.completion?.install();
    this.#features.announcer.changed(kind);
  }

  /**
   * Runs a `tools/call` as a task: the {@link TaskManager} answers with the created task and calls
   * {@link executeTool} in the background. Without the `tasks` option (no task support declared),
   * the call is answered normally, as the specification requires.
   *
   * @example
   * ```ts
   * declare function audit(ctx: RequestContext, tool: string): void;
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
    const run = (taskCtx: RequestContext) => this.executeTool(tool, args, taskCtx);
    const runOptions = immediate === undefined ? {} : { modelImmediateResponse: immediate };
    return this.tasks.runToolCall(tool.definition, params, ctx, run, runOptions);
  }

  /**
   * Validates the arguments, runs the handler and builds the result (see `ToolsFeature`): a plain
   * value when the validator and the handler answer synchronously, otherwise a promise of it.
   *
   * @example
   * ```ts
   * class LoggedServer extends McpServer {
   *   protected override executeTool(tool: RegisteredTool, args: Record<string, unknown>, ctx: RequestContext) {
   *     console.error('running', tool.name);
   *     return super.executeTool(tool, args, ctx);
   *   }
   * }
   * ```
   */
  protected executeTool(
    tool: RegisteredTool,
    args: Record<string, unknown>,
    ctx: RequestContext,
  ): CallToolResult | Promise<CallToolResult> {
    return this.#features.tools.execute(tool, args, ctx);
  }
}
