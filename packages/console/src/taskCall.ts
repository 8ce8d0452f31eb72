/**
 * A tool call the person asked to run as a task: `callToolAndWait` of `@mcpkit/client`, as
 * `mcpkit call --task` runs it (against a host, `McpHost.callTool` does the same), each status the
 * client sees passed on. When the person cancels, the client cancels the task (`tasks/cancel`);
 * the task as the server then reports it (`cancelled`, or already `completed`) is the last status
 * passed on.
 * @module
 */
import { callToolAndWait, getTask, type McpClient } from '@mcpkit/client';
import type { CallToolResult, ProgressUpdate, Task } from '@mcpkit/core';

/**
 * What a task call reports: its progress, and each status of its task.
 *
 * @example
 * ```ts
 * const options: TaskCallOptions = { signal: AbortSignal.timeout(60_000), onProgress: () => {}, onTaskStatus: (task) => console.log(task.status) };
 * ```
 */
export interface TaskCallOptions {
  signal: AbortSignal;
  onProgress: (update: ProgressUpdate) => void;
  onTaskStatus: (task: Task) => void;
}

/**
 * Runs `name` as a task and resolves with its result.
 *
 * @example
 * ```ts
 * declare const client: McpClient;
 * const result = await callAsTask(client, 'research', { topic: 'tides' }, {
 *   signal: AbortSignal.timeout(60_000),
 *   onProgress: () => {},
 *   onTaskStatus: (task) => console.log(task.status),
 * });
 * ```
 */
export function callAsTask(
  client: McpClient,
  name: string,
  args: Record<string, unknown>,
  options: TaskCallOptions,
): Promise<CallToolResult> {
  return followTask(
    options,
    (onStatus) =>
      callToolAndWait(client, name, args, {
        signal: options.signal,
        onProgress: options.onProgress,
        onStatus,
      }),
    async () => client,
  );
}

/**
 * Runs a task call (`run`, given the status listener to pass on) and, when the person cancelled
 * it, reports the task's status as its server (the client `clientOf` finds) then tells.
 *
 * @example
 * ```ts
 * declare const host: McpHost;
 * declare const options: TaskCallOptions;
 * await followTask(options, (onTaskStatus) => host.callTool('a__research', {}, { ...options, onTaskStatus }), () => host.client('a'));
 * ```
 */
export async function followTask<T>(
  options: TaskCallOptions,
  run: (onStatus: (task: Task) => void) => Promise<T>,
  clientOf: () => Promise<McpClient | undefined>,
): Promise<T> {
  let taskId: string | undefined;
  try {
    return await run((task) => {
      taskId = task.taskId;
      options.onTaskStatus(task);
    });
  } catch (error) {
    if (options.signal.aborted && taskId !== undefined) {
      const client = await clientOf().catch(() => undefined);
      if (client?.connected) await getTask(client, taskId).then(options.onTaskStatus, () => {});
    }
    throw error;
  }
}
