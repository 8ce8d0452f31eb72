/**
 * The options of {@link McpServer}.
 * @module
 */
import type { JsonSchemaValidator } from '@mcpkit/core';
import type { ServerOptions } from './handlers.js';
import type { PromptSupport } from './prompts/promptsFeature.js';
import type { ResourceSupport } from './resources/resourcesFeature.js';
import type { TaskManager } from './tasks/taskManager.js';

/**
 * Options of `McpServer`: those of `Server`, plus the following.
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
  /**
   * Resource support: pass `resourceSupport` (from `@mcpkit/server`) to register resources and
   * resource templates. Without it `server.resource()` throws, and the server's bundle leaves the
   * resource code out.
   */
  resources?: ResourceSupport;
  /**
   * Prompt support: pass `promptSupport` (from `@mcpkit/server`) to register prompts. Without it
   * `server.prompt()` throws, and the server's bundle leaves the prompt code out. Completion
   * (`completion/complete`) comes with prompt or resource support.
   */
  prompts?: PromptSupport;
  /** Most resource URIs one session may subscribe to. Default 1000. */
  maxSubscriptionsPerSession?: number;
  /**
   * Run task-augmented tool calls as tasks (2025-11-25, experimental) with this engine: declares
   * the `tasks` capability and answers `tasks/*`. Default off: `task` is ignored. A separate
   * import keeps the engine out of servers without tasks:
   * `import { TaskManager } from '@mcpkit/server/tasks'`, then `{ tasks: new TaskManager({ pollInterval: 2_000 }) }`.
   */
  tasks?: TaskManager;
}
