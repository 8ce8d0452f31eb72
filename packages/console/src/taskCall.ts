/**
 * A tool call the person asked to run as a task (one server): `callToolAndWait` of
 * `@mcpkit/client`, as `mcpkit call --task` runs it, each status the client sees passed on. When
 * the person cancels, the client cancels the task (`tasks/cancel`); the task as the server then
 * reports it (`cancelled`, or already `completed`) is the last status passed on.
 * @module
 */
import { callToolAndWait, getTask, type McpClient } from '@mcpkit/client';
import type { CallToolResult, ProgressUpdate, Task } from '@mcpkit/core';

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
export async function callAsTask(
  client: McpClient,
  name: string,
  args: Record<string, unknown>,
  options: {
    signal: AbortSignal;
    onProgress: (update: ProgressUpdate) => void;
    onTaskStatus: (task: Task) => void;
  },
): Promise<CallToolResult> {
  let taskId: string | undefined;
  try {
    return await callToolAndWait(client, name, args, {
      signal: options.signal,
      onProgress: options.onProgress,
      onStatus: (task) => {
        taskId = task.taskId;
        options.onTaskStatus(task);
      },
    });
  } catch (error) {
    if (options.signal.aborted && taskId !== undefined && client.connected) {
      await getTask(client, taskId).then(options.onTaskStatus, () => {});
    }
    throw error;
  }
}
