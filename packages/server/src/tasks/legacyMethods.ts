/**
 * The `tasks/*` methods as 2025-11-25 has them (experimental): `tasks/get`, `tasks/result`,
 * `tasks/list` and `tasks/cancel`, answered from the `TaskManager`'s store. The 2026-07-28
 * extension's forms of the same methods are in ./extension.ts.
 * @module
 */
import {
  ErrorCode,
  type ListTasksResult,
  McpError,
  Method,
  type Task,
  type TaskRequestor,
  type TaskStore,
} from '@mcpkit/core';
import {
  answerCancelTask,
  answerGetTask,
  answerListTasks,
  awaitTaskPayload,
  revisionHas,
  taskIdParam,
} from '@mcpkit/core/internal';
import type { RequestContext } from '../kernel/context.js';
import type { ExtensionHost } from './extension.js';

/**
 * Answers `tasks/get` under a 2025 revision.
 *
 * @throws {McpError} `-32601` on a revision without tasks, `-32602` for an unknown task.
 * @example
 * ```ts
 * server.setRequestHandler('tasks/get', (params, ctx) => legacyGetTask(host, params, ctx));
 * ```
 */
export const legacyGetTask: LegacyTaskMethod<Task> = fromStore(Method.TasksGet, answerGetTask);

/**
 * Answers `tasks/result`: waits for the task to end, then gives its result (or throws its error).
 * Requests to the client the task makes meanwhile travel on this request's stream.
 *
 * @throws {McpError} `-32601` on a revision without tasks, `-32602` for an unknown task, or the
 *   task's own error.
 * @example
 * ```ts
 * server.setRequestHandler('tasks/result', (params, ctx) => legacyTaskResult(host, params, ctx));
 * ```
 */
export const legacyTaskResult: LegacyTaskMethod<Record<string, unknown>> = async (host, params, context) => {
  checkRevision(Method.TasksResult, context);
  const taskId = taskIdParam(Method.TasksResult, params);
  const requestor = await host.requestorOf(context);
  const run = host.runner.get(taskId);
  const route = run?.requestor === requestor ? run : undefined;
  route?.resultRequests.add(context.requestId);
  try {
    return await awaitTaskPayload(host.store, requestor, taskId, context.signal);
  } finally {
    route?.resultRequests.delete(context.requestId);
  }
};

/**
 * Answers `tasks/list`: the requestor's tasks, a page at a time.
 *
 * @throws {McpError} `-32601` on a revision without tasks, `-32602` for a bad cursor.
 * @example
 * ```ts
 * server.setRequestHandler('tasks/list', (params, ctx) => legacyListTasks(host, params, ctx));
 * ```
 */
export const legacyListTasks: LegacyTaskMethod<ListTasksResult> = fromStore(
  Method.TasksList,
  answerListTasks,
);

/**
 * Answers `tasks/cancel`: the task, now `cancelled`. The store makes the task `cancelled` before
 * this resolves; the store event aborts the handler.
 *
 * @throws {McpError} `-32601` on a revision without tasks, `-32602` for an unknown or terminal task.
 * @example
 * ```ts
 * server.setRequestHandler('tasks/cancel', (params, ctx) => legacyCancelTask(host, params, ctx));
 * ```
 */
export const legacyCancelTask: LegacyTaskMethod<Task> = fromStore(Method.TasksCancel, answerCancelTask);

/**
 * A 2025 `tasks/*` handler: the host, the request's params and its context in, the answer out.
 *
 * @example
 * ```ts
 * const get: LegacyTaskMethod<Task> = legacyGetTask;
 * ```
 */
export type LegacyTaskMethod<T> = (
  host: ExtensionHost,
  params: Record<string, unknown>,
  context: RequestContext,
) => Promise<T>;

/**
 * The handler of `method` that checks the revision, then lets `answer` reply from the host's store
 * for the request's requestor. Made once per method at load, not per request.
 */
function fromStore<T>(
  method: string,
  answer: (store: TaskStore, requestor: TaskRequestor, params: Record<string, unknown>) => Promise<T>,
): LegacyTaskMethod<T> {
  return async (host, params, context) => {
    checkRevision(method, context);
    return answer(host.store, await host.requestorOf(context), params);
  };
}

function checkRevision(method: string, context: RequestContext): void {
  if (!revisionHas(context.session.protocolVersion, 'tasks')) {
    throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
}
