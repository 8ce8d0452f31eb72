/**
 * Tasks as the 2026-07-28 extension `io.modelcontextprotocol/tasks` has them (SEP-2663): the
 * server decides which calls run as tasks (a `task` param is ignored), a request must declare the
 * extension, a task without auth is bound to no one (its unguessable id is the capability: the
 * revision has no session), questions wait in `tasks/get` answers, and a tool's `isError` result
 * completes its task. The `TaskManager` plugs this into the server's per-request era.
 * @module
 */
import { type CreateTaskResult, TASKS_EXTENSION, type Tool } from '@mcpkit/core';
import { createTaskResult, declaresTasksExtension, tasksExtensionRequired } from '@mcpkit/core/internal';
import type { RequestContext } from '../kernel/context.js';
import { extensionCancelTask, extensionGetTask, requireTasksExtension } from './extension.js';
import { BEARER_REQUESTOR } from './requestors.js';
import type { TaskEra } from './taskEra.js';
import { TaskInputs } from './taskInputs.js';

function wantsTask(tool: Tool, _params: Record<string, unknown>, context: RequestContext): boolean {
  const support = tool.execution?.taskSupport ?? 'forbidden';
  if (support === 'forbidden') return false;
  if (declaresTasksExtension(context.scope.clientCapabilities)) return true;
  if (support === 'optional') return false;
  throw tasksExtensionRequired(
    `Tool "${tool.name}" runs only as a task: declare the client capability extensions["${TASKS_EXTENSION}"]`,
  );
}

/**
 * The tasks extension's behaviour, plugged into the 2026-07-28 era by `TaskManager.install`.
 *
 * @example
 * ```ts
 * declare const server: Server;
 * server.era.plug(TASKS_PART, EXTENSION_TASKS);
 * ```
 */
export const EXTENSION_TASKS: TaskEra = {
  getTask: extensionGetTask,
  cancelTask: extensionCancelTask,
  // SEP-2663: servers MUST ignore a `task` param; the server decides instead (wantsTask).
  requested: () => undefined,
  wantsTask,
  // The task's metadata is the server's defaults: an empty record means "run as a task".
  toolTask: (tool, params, context) => (wantsTask(tool, params, context) ? {} : undefined),
  // SEP-2663: never a task to a request that did not declare the extension.
  beforeRun: requireTasksExtension,
  // No session to bind to: each request may arrive on a connection of its own.
  unboundRequestor: () => BEARER_REQUESTOR,
  createdBy: (context) => context.requestId,
  questions: (setInputRequired) => new TaskInputs(setInputRequired),
  // SEP-2663: `failed` is for JSON-RPC errors only; an isError result completes the task.
  toolFailure: undefined,
  // The extension's flat CreateTaskResult (resultType "task").
  created: (task) => createTaskResult(task) as CreateTaskResult,
};
