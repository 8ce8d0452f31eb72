/**
 * A task's status: whether it ended, and the `notifications/tasks/status` a server may send.
 * @module
 */
import type { Task, TaskStatusNotificationParams } from '@mcpkit/core';
import { isTask } from '@mcpkit/core/internal';
import type { Client } from './client.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * True for `completed`, `failed` and `cancelled`.
 *
 * @example
 * ```ts
 * const task = await getTask(client, taskId);
 * if (isTaskTerminal(task)) console.log('done:', task.status);
 * ```
 */
export function isTaskTerminal(task: Pick<Task, 'status'>): boolean {
  return TERMINAL.has(task.status);
}

/**
 * Calls `listener` with every `notifications/tasks/status`; returns an unsubscribe function.
 * Servers need not send them: poll as well (see {@link pollTask}).
 *
 * @example
 * ```ts
 * const stop = onTaskStatus(client, (task) => console.log(task.taskId, task.status));
 * ```
 */
export function onTaskStatus(
  client: Client,
  listener: (task: TaskStatusNotificationParams) => void,
): () => void {
  return client.onNotification('notifications/tasks/status', (params) => {
    if (isTask(params)) listener(params as TaskStatusNotificationParams);
  });
}
