/**
 * The methods of the tasks extension `io.modelcontextprotocol/tasks` (2026-07-28, SEP-2663):
 * `tasks/get` (the task with its outcome or open questions inlined), `tasks/update` (answers to
 * the open questions) and `tasks/cancel` (an acknowledgement). The tasks are the same the
 * {@link TaskManager} keeps for 2025-11-25, in the same store; only the wire differs. Each
 * request must declare the extension in its envelope (`-32021` otherwise).
 * @module
 */
import {
  isTerminalStatus,
  type Task,
  type TaskRequestor,
  type TaskStore,
  unknownTaskError,
} from '@mcpkit/core';
import {
  declaresTasksExtension,
  detailedTask,
  type TaskRunner,
  taskIdParam,
  tasksExtensionRequired,
} from '@mcpkit/core/internal';
import type { RequestContext } from '../kernel/context.js';
import { checkInputResponses } from '../mrtr/responses.js';
import type { TaskRun } from './taskContext.js';

/**
 * What the extension's handlers need of the task manager (the `TaskManager` itself).
 *
 * @example
 * ```ts
 * const host: ExtensionHost = taskManager;
 * ```
 */
export interface ExtensionHost {
  readonly store: TaskStore;
  readonly runner: TaskRunner<TaskRun & { requestor: TaskRequestor }>;
  requestorOf(context: RequestContext): Promise<TaskRequestor>;
}

/**
 * A handler of one of the extension's methods: the params of the request and its context in, the
 * result out.
 *
 * @example
 * ```ts
 * const ack: ExtensionTaskMethod = async () => ({}); // answers every call with an empty result
 * ```
 */
export type ExtensionTaskMethod = (
  host: ExtensionHost,
  params: Record<string, unknown>,
  context: RequestContext,
) => Promise<Record<string, unknown>>;

/**
 * Throws `-32021` unless the request declared the tasks extension.
 *
 * @example
 * ```ts
 * declare const ctx: RequestContext;
 * requireTasksExtension(ctx, 'tasks/get');
 * ```
 */
export function requireTasksExtension(context: RequestContext, method: string): void {
  if (!declaresTasksExtension(context.scope.clientCapabilities)) {
    throw tasksExtensionRequired(
      `${method} needs the client capability extensions["io.modelcontextprotocol/tasks"], which this request did not declare`,
    );
  }
}

/**
 * Answers `tasks/get` under the extension: a `DetailedTask`.
 *
 * @throws {McpError} `-32602` for an unknown, expired or foreign task; `-32021` without the extension.
 * @example
 * ```ts
 * server.setRequestHandler('tasks/get', (params, ctx) => extensionGetTask(host, params, ctx));
 * ```
 */
export const extensionGetTask: ExtensionTaskMethod = async (host, params, context) => {
  const { taskId, requestor, task } = await knownTask(host, 'tasks/get', params, context);
  const outcome = isTerminalStatus(task.status) ? await host.store.getResult(taskId, requestor) : undefined;
  return detailedTask(task, outcome, host.runner.get(taskId)?.inputs?.requests());
};

/**
 * Answers `tasks/update`: answers to open questions are taken, others ignored; an empty ack.
 *
 * @throws {McpError} `-32602` for an unknown task, `inputResponses` that is not an object, or an
 *   answer of the wrong shape; `-32021` without the extension.
 * @example
 * ```ts
 * server.setRequestHandler('tasks/update', (params, ctx) => extensionUpdateTask(host, params, ctx));
 * ```
 */
export const extensionUpdateTask: ExtensionTaskMethod = async (host, params, context) => {
  const { taskId, requestor } = await knownTask(host, 'tasks/update', params, context);
  // The codec lifts `inputResponses` out of every 2026-07-28 request (it is MRTR's retry field too).
  const responses = context.eraPort?.inputResponsesOf(context) ?? params.inputResponses;
  if (!checkInputResponses(responses)) return {};
  const run = host.runner.get(taskId);
  if (run?.requestor === requestor) run.inputs?.answer(responses);
  return {};
};

/**
 * Answers `tasks/cancel`: an empty ack, also for a task that is terminal already (cancellation is
 * a signal; its effect shows in the next `tasks/get`).
 *
 * @throws {McpError} `-32602` for an unknown task; `-32021` without the extension.
 * @example
 * ```ts
 * server.setRequestHandler('tasks/cancel', (params, ctx) => extensionCancelTask(host, params, ctx));
 * ```
 */
export const extensionCancelTask: ExtensionTaskMethod = async (host, params, context) => {
  const { taskId, requestor, task } = await knownTask(host, 'tasks/cancel', params, context);
  if (!isTerminalStatus(task.status)) {
    await host.store.cancel(taskId, requestor, 'The task was cancelled by request').catch(() => {
      // It ended meanwhile: cancellation is cooperative, the ack stands.
    });
  }
  return {};
};

/** The task a request of the extension names, after its checks: extension declared, task known. */
async function knownTask(
  host: ExtensionHost,
  method: string,
  params: Record<string, unknown>,
  context: RequestContext,
): Promise<{ taskId: string; requestor: TaskRequestor; task: Task }> {
  requireTasksExtension(context, method);
  const taskId = taskIdParam(method, params);
  const requestor = await host.requestorOf(context);
  const task = await host.store.get(taskId, requestor);
  if (!task) throw unknownTaskError(taskId);
  return { taskId, requestor, task };
}
