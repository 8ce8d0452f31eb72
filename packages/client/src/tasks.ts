/**
 * The requestor side of tasks (2025-11-25, experimental): call a tool as a task, poll it, fetch
 * its result, list and cancel tasks, and hear `notifications/tasks/status`.
 *
 * Under 2026-07-28 the same functions speak the tasks extension `io.modelcontextprotocol/tasks`
 * (SEP-2663; `./era/tasks.ts`): tasks come back in the 2025 shape (`ttl`, `pollInterval`), the
 * result comes from `tasks/get` (no `tasks/result`), input requests are answered with
 * `tasks/update`, and `tasks/list` does not exist. There the server decides which calls become
 * tasks, so `callTool()` alone already follows any task to its result.
 *
 * These are functions over any connected {@link Client}, so they work with `McpClient` and with
 * the low-level client alike. Status notifications are optional for a server, so everything here
 * that waits polls `tasks/get` at the server's `pollInterval`; a notification only wakes the poll
 * early.
 * @module
 */
import {
  type CallToolRequestParams,
  type CallToolResult,
  type CancelTaskResult,
  type CreateTaskResult,
  type GetTaskResult,
  type ListTasksResult,
  McpError,
  type OutgoingRequestOptions,
  type Task,
} from '@mcpkit/core';
import { DEFAULT_TASK_RESULT_TIMEOUT, pollTaskUntilDone } from '@mcpkit/core/internal';
import type { Client } from './client.js';
import { TASK_HANDLING } from './era/tasks.js';
import { createToolTask, getExtensionTask } from './taskCreation.js';
import type {
  CallToolAndWaitOptions,
  CallToolAsTaskOptions,
  PollTaskOptions,
  ToolTaskCall,
} from './taskOptions.js';
import { endProgressWatch, type ProgressWatch, requestTask } from './taskProgress.js';
import { onTaskStatus } from './taskStatus.js';

// The options and the status helpers live in their own modules; exported from here, as before.
export type {
  CallToolAndWaitOptions,
  CallToolAsTaskOptions,
  PollTaskOptions,
  ToolTaskCall,
} from './taskOptions.js';
export { isTaskTerminal, onTaskStatus } from './taskStatus.js';

/**
 * Calls a tool as a task. Resolves with the `CreateTaskResult` as soon as the server accepted the
 * task; fetch the tool's result later with {@link getTaskResult} (or use {@link callToolAndWait}).
 *
 * @throws {CapabilityError} locally when the server lacks `tasks.requests.tools.call` or the tool
 *   does not allow tasks.
 * @example
 * ```ts
 * const { task } = await callToolAsTask(client, 'render', { scene: 1 }, { ttl: 600_000 });
 * console.log(task.taskId, task.status); // '…', 'working'
 * ```
 */
export const callToolAsTask: ToolTaskCall<CallToolAsTaskOptions, CreateTaskResult> = async (
  client,
  name,
  args = {},
  { onProgress, ...rest } = {},
) => {
  const created = await createToolTask(client, name, args, rest, onProgress);
  // Left to the watch: it ends once the task is seen terminal, expires, or the client closes.
  created.progress?.watch(created.result.task);
  return created.result;
};

/**
 * Gets a task's current state (`tasks/get`).
 *
 * @throws {McpError} `-32602` for an unknown or expired task.
 * @example
 * ```ts
 * const task = await getTask(client, taskId);
 * ```
 */
export function getTask(
  client: Client,
  taskId: string,
  options?: OutgoingRequestOptions,
): Promise<GetTaskResult> {
  if (client.era === '2026') return getExtensionTask(client, taskId, options);
  return requestTask<GetTaskResult>(client, 'tasks/get', taskId, options);
}

/**
 * Gets a task's result (`tasks/result`): what the original request would have returned. The server
 * holds the answer until the task ends; a task that failed with a JSON-RPC error rejects with it.
 *
 * @example
 * ```ts
 * const result = await getTaskResult<CallToolResult>(client, taskId);
 * ```
 */
export async function getTaskResult<R = CallToolResult>(
  client: Client,
  taskId: string,
  options?: OutgoingRequestOptions,
): Promise<R> {
  // 2026-07-28: no tasks/result; the task is followed (and its input answered) until it ends.
  if (client.era === '2026') return (await client.followExtensionTask(taskId, options)) as R;
  try {
    const result = await client.request<R>('tasks/result', { taskId }, options);
    endProgressWatch(client, taskId);
    return result;
  } catch (error) {
    // The server's own error means the task is over (failed, or gone); a local one (a LocalError:
    // timeout, abort, closed, refused) says nothing.
    if (error instanceof McpError) endProgressWatch(client, taskId);
    throw error;
  }
}

/**
 * Lists one page of this client's tasks (`tasks/list`).
 *
 * @example
 * ```ts
 * const { tasks, nextCursor } = await listTasks(client);
 * ```
 */
export function listTasks(
  client: Client,
  cursor?: string,
  options?: OutgoingRequestOptions,
): Promise<ListTasksResult> {
  return client.request<ListTasksResult>('tasks/list', cursor === undefined ? {} : { cursor }, options);
}

/**
 * Cancels a task (`tasks/cancel`). Resolves with the task, now `cancelled`.
 *
 * @throws {McpError} `-32602` when the task is unknown or already terminal.
 * @example
 * ```ts
 * await cancelTask(client, taskId);
 * ```
 */
export function cancelTask(
  client: Client,
  taskId: string,
  options?: OutgoingRequestOptions,
): Promise<CancelTaskResult> {
  if (client.era === '2026') {
    // The extension only acknowledges; the task as it is now is one tasks/get away.
    return client
      .request('tasks/cancel', { taskId }, options)
      .then(() => getExtensionTask(client, taskId, options));
  }
  return requestTask<CancelTaskResult>(client, 'tasks/cancel', taskId, options);
}
/**
 * Polls a task until it is terminal (or needs input, with `stopOnInputRequired`), honouring the
 * server's `pollInterval`. A status notification for the task wakes the poll early.
 *
 * @example
 * ```ts
 * const task = await pollTask(client, taskId, { onStatus: (t) => console.log(t.status) });
 * if (task.status === 'completed') console.log(await getTaskResult(client, taskId));
 * ```
 */
export function pollTask(client: Client, taskId: string, options: PollTaskOptions = {}): Promise<Task> {
  const { signal } = options;
  const source = {
    get: () => getTask(client, taskId, { signal }),
    onWake: (wake: () => void) =>
      onTaskStatus(client, (task) => {
        if (task.taskId === taskId) wake();
      }),
  };
  return pollTaskUntilDone(source, options);
}

/**
 * Calls a tool as a task and waits for its result: creates the task, polls it, then fetches the
 * result with `tasks/result` (at once when the task needs input, so the server can deliver its
 * elicitation or sampling requests on that request). Resolves with the tool's `CallToolResult`
 * (`isError: true` included); a task that ended with a JSON-RPC error rejects with it.
 *
 * @example
 * ```ts
 * const result = await callToolAndWait(client, 'render', { scene: 1 }, {
 *   onStatus: (task) => console.log(task.status),
 *   onProgress: ({ progress, total }) => console.log(progress, total),
 * });
 * ```
 */
export const callToolAndWait: ToolTaskCall<CallToolAndWaitOptions, CallToolResult> = async (
  client,
  name,
  args = {},
  options = {},
) => {
  const {
    onProgress,
    onStatus,
    resultTimeout,
    cancelOnAbort,
    defaultInterval,
    minInterval,
    signal,
    ...callOptions
  } = options;
  if (client.era === '2026') {
    // The server decides (tasks extension): the call is followed to its end, task or not.
    const params: CallToolRequestParams = { name, arguments: args };
    if (callOptions.meta) params._meta = callOptions.meta;
    const { ttl: _ttl, meta: _meta, checkTaskSupport: _check, ...requestOptions } = callOptions;
    const sendOptions: OutgoingRequestOptions = { ...requestOptions, signal };
    if (onStatus) TASK_HANDLING.set(sendOptions, { onStatus });
    return client.request<CallToolResult>('tools/call', params, sendOptions);
  }
  let progress: ProgressWatch | undefined;
  let taskId: string | undefined;
  try {
    const { result: created, progress: watch } = await createToolTask(
      client,
      name,
      args,
      { ...callOptions, signal },
      onProgress,
    );
    progress = watch;
    progress?.watch(created.task);
    const id = created.task.taskId;
    taskId = id;
    const last = await pollTask(client, id, {
      initial: created.task,
      stopOnInputRequired: true,
      signal,
      onStatus,
      defaultInterval,
      minInterval,
    });
    // While tasks/result blocks, status notifications (if the server sends them) keep onStatus current.
    let seen = last.status;
    const stopStatus = onStatus
      ? onTaskStatus(client, (task) => {
          if (task.taskId !== id || task.status === seen) return;
          seen = task.status;
          onStatus(task);
        })
      : undefined;
    try {
      return await getTaskResult<CallToolResult>(client, id, {
        signal,
        timeout: resultTimeout ?? DEFAULT_TASK_RESULT_TIMEOUT,
        resetTimeoutOnProgress: false,
      });
    } finally {
      stopStatus?.();
    }
  } catch (error) {
    if (signal?.aborted && taskId !== undefined && cancelOnAbort !== false && client.connected) {
      await cancelTask(client, taskId).catch(() => {
        // Already terminal or gone: nothing to stop.
      });
    }
    throw error;
  } finally {
    progress?.stop();
  }
};
