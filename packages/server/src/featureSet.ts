/**
 * The feature modules of one {@link McpServer}, built together: completion reads the prompt and
 * resource registries, and the tools feature hands task-augmented calls back to the server.
 * Resources, prompts and completion come only through the `resources` and `prompts` options, so a
 * tools-only server bundles none of them.
 * @module
 */
import { Method, type ServerCapabilities } from '@mcpkit/core';
import { rejectUnknownOptions } from '@mcpkit/core/internal';
import type { CompletionFeature } from './completion/completionFeature.js';
import type { FeatureHost } from './feature.js';
import { SERVER_OPTION_KEYS } from './handlers.js';
import { ListChangeAnnouncer } from './listChanged.js';
import { LoggingFeature } from './logging/loggingFeature.js';
import type { McpServerOptions } from './mcpServerOptions.js';
import type { PromptsFeature } from './prompts/promptsFeature.js';
import type { ResourcesFeature } from './resources/resourcesFeature.js';
import type { Server } from './server.js';
import type { TaskManager } from './tasks/taskManager.js';
import { ToolsFeature, type ToolsFeatureOptions } from './tools/toolsFeature.js';

/**
 * The methods an `McpServer`'s features answer, and who answers them: `setRequestHandler`
 * refuses them, so a raw handler cannot silently replace (or be replaced by) what the
 * registration methods serve.
 *
 * @example
 * ```ts
 * OWNED_METHODS.methods.includes('tools/call'); // true
 * ```
 */
export const OWNED_METHODS = {
  methods: [
    Method.ToolsList,
    Method.ToolsCall,
    Method.ResourcesList,
    Method.ResourcesTemplatesList,
    Method.ResourcesRead,
    Method.ResourcesSubscribe,
    Method.ResourcesUnsubscribe,
    Method.PromptsList,
    Method.PromptsGet,
    Method.CompletionComplete,
    Method.LoggingSetLevel,
  ],
  owner:
    'McpServer from what is registered (server.tool(), server.resource(), server.prompt()...); to answer it yourself, use the low-level Server',
} as const;

/**
 * One server's feature modules.
 *
 * @example
 * ```ts
 * const features: FeatureSet = createFeatureSet(server, {}, { wantsTask, runAsTask }, true);
 * ```
 */
export interface FeatureSet {
  readonly tools: ToolsFeature;
  /** Present with the `resources` option only. */
  readonly resources: ResourcesFeature | undefined;
  /** Present with the `prompts` option only. */
  readonly prompts: PromptsFeature | undefined;
  /** Present with the `prompts` or the `resources` option only. */
  readonly completion: CompletionFeature | undefined;
  readonly logging: LoggingFeature;
  /** Announces list changes to the sessions told they can change. */
  readonly announcer: ListChangeAnnouncer;
}

/**
 * Every key of `McpServerOptions`: `new McpServer()` refuses others.
 *
 * @example
 * ```ts
 * Object.hasOwn(MCP_SERVER_OPTION_KEYS, 'maskToolErrors'); // true
 * ```
 */
export const MCP_SERVER_OPTION_KEYS: Readonly<Record<keyof McpServerOptions, true>> = {
  ...SERVER_OPTION_KEYS,
  pageSize: true,
  validator: true,
  listChangedDebounceMs: true,
  maskToolErrors: true,
  maxSubscriptionsPerSession: true,
  resources: true,
  prompts: true,
  tasks: true,
};

/**
 * Builds the feature modules (none is installed yet), after checking the option keys unless a
 * subclass with options of its own does that.
 *
 * @throws {TypeError} for an unknown option key.
 *
 * @example
 * ```ts
 * const features = createFeatureSet(server, options, {
 *   wantsTask: (_tool, params) => params.task !== undefined,
 *   runAsTask: (tool, args, ctx) => features.tools.execute(tool, args, ctx),
 * }, true);
 * ```
 */
export function createFeatureSet(
  host: FeatureHost & Server,
  options: McpServerOptions,
  hooks: Omit<ToolsFeatureOptions, 'maskErrors'>,
  checkKeys: boolean,
): FeatureSet {
  if (checkKeys) rejectUnknownOptions(options, MCP_SERVER_OPTION_KEYS, 'McpServer');
  const tools = new ToolsFeature(host, { maskErrors: options.maskToolErrors ?? true, ...hooks });
  if (options.resources !== undefined && typeof options.resources !== 'function') {
    throw new TypeError(RESOURCES_NEEDED('the resources option'));
  }
  if (options.prompts !== undefined && typeof options.prompts !== 'function') {
    throw new TypeError(PROMPTS_NEEDED('the prompts option'));
  }
  const resources = options.resources?.(host, options.maxSubscriptionsPerSession ?? 1000);
  const prompts = options.prompts?.(host);
  // Completion comes through the supports, so a server with neither does not bundle it.
  const completion = (prompts ?? resources)?.createCompletion({
    prompts: prompts?.registry,
    resources: resources?.resources,
    templates: resources?.templates,
  });
  const announcer = new ListChangeAnnouncer(host, options.listChangedDebounceMs ?? 10);
  return { tools, resources, prompts, completion, logging: new LoggingFeature(host), announcer };
}

/**
 * Installs the features whose capability the server declares up front, so that items registered
 * after clients connect are announced.
 *
 * @example
 * ```ts
 * installDeclared(features, { tools: { listChanged: true } });
 * ```
 */
export function installDeclared(features: FeatureSet, declared: ServerCapabilities | undefined): void {
  if (declared?.tools) features.tools.install();
  if (declared?.resources) requireResources(features, 'the resources capability').install();
  if (declared?.prompts) requirePrompts(features, 'the prompts capability').install();
  if (declared?.completions) {
    if (!features.completion) throw new TypeError(COMPLETION_NEEDED);
    features.completion.install();
  }
}

/**
 * The `pageSize` option, checked: a positive integer, default 100.
 *
 * @example
 * ```ts
 * checkedPageSize(undefined); // 100
 * ```
 */
export function checkedPageSize(pageSize: number | undefined): number {
  const size = pageSize ?? 100;
  if (!Number.isSafeInteger(size) || size < 1) {
    throw new RangeError(`pageSize must be a positive integer (got ${pageSize})`);
  }
  return size;
}

const RESOURCES_NEEDED = (what: string) =>
  `McpServer: ${what} needs resource support: new McpServer(info, { resources: resourceSupport }), with resourceSupport from '@mcpkit/server'`;
const PROMPTS_NEEDED = (what: string) =>
  `McpServer: ${what} needs prompt support: new McpServer(info, { prompts: promptSupport }), with promptSupport from '@mcpkit/server'`;
const COMPLETION_NEEDED = `${PROMPTS_NEEDED('the completions capability')} (or resource support)`;

/**
 * The server's resource support, or a clear error naming what needed it.
 *
 * @throws {TypeError} when the server was built without the `resources` option.
 * @example
 * ```ts
 * requireResources(features, 'server.resource()').register(uri, {}, read);
 * ```
 */
export function requireResources(features: FeatureSet, what: string): ResourcesFeature {
  if (features.resources) return features.resources;
  throw new TypeError(RESOURCES_NEEDED(what));
}

/**
 * The server's prompt support, or a clear error naming what needed it.
 *
 * @throws {TypeError} when the server was built without the `prompts` option.
 * @example
 * ```ts
 * requirePrompts(features, 'server.prompt()').register('greet', {}, () => 'Hello');
 * ```
 */
export function requirePrompts(features: FeatureSet, what: string): PromptsFeature {
  if (features.prompts) return features.prompts;
  throw new TypeError(PROMPTS_NEEDED(what));
}

/**
 * The `tasks` option, checked: a `TaskManager` (from `@mcpkit/server/tasks`), so a server without
 * tasks never bundles the task engine. Checked by shape: an `instanceof` would import it.
 *
 * @throws {TypeError} for anything else (`tasks: true` included), naming the import.
 * @example
 * ```ts
 * checkedTasks(undefined); // undefined
 * ```
 */
export function checkedTasks(tasks: TaskManager | undefined): TaskManager | undefined {
  if (tasks === undefined || typeof (tasks as Partial<TaskManager>).install === 'function') return tasks;
  throw new TypeError(
    "McpServer: the tasks option takes a TaskManager: tasks: new TaskManager(options), from '@mcpkit/server/tasks'",
  );
}
