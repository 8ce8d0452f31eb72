/**
 * The progress of a task, followed for as long as the task lives rather than only until the
 * request that created it is answered (the engine's own progress token dies with the request).
 * @module
 */
import type { OutgoingRequestOptions, ProgressUpdate, Task } from '@mcpkit/core';
import { isTask, timerDelay } from '@mcpkit/core/internal';
import type { Client } from './client.js';
import { isTaskTerminal, onTaskStatus } from './taskStatus.js';

/** The progress watches of each client's tasks, by task id. */
const progressWatches = new WeakMap<Client, Map<string, ProgressWatch>>();

function watchesOf(client: Client): Map<string, ProgressWatch> {
  let watches = progressWatches.get(client);
  if (!watches) {
    const created = new Map<string, ProgressWatch>();
    watches = created;
    progressWatches.set(client, created);
    client.onClose(() => {
      for (const watch of [...created.values()]) watch.stop();
    });
  }
  return watches;
}

/** Every task state a helper sees passes here: a terminal one ends its task's progress watch. */
/** Sends `tasks/get` or `tasks/cancel`; a terminal task in the answer ends its progress watch. */
export async function requestTask<R extends Task>(
  client: Client,
  method: 'tasks/get' | 'tasks/cancel',
  taskId: string,
  options: OutgoingRequestOptions | undefined,
): Promise<R> {
  const task = await client.request<R>(method, { taskId }, options);
  noteTask(client, task);
  return task;
}

function noteTask(client: Client, task: Task): void {
  if (isTask(task) && isTaskTerminal(task)) endProgressWatch(client, task.taskId);
}

export function endProgressWatch(client: Client, taskId: string): void {
  progressWatches.get(client)?.get(taskId)?.stop();
}

/**
 * Follows the progress of one task under a token of its own, from before the request is sent
 * until the task is seen terminal (by a helper here or a status notification), its TTL elapses,
 * the client closes, or {@link ProgressWatch.stop} is called.
 */
export class ProgressWatch {
  readonly token = `task-progress-${crypto.randomUUID()}`;
  private taskId: string | undefined;
  private expiry: ReturnType<typeof setTimeout> | undefined;
  private stopProgress: (() => void) | undefined;
  private stopStatus: (() => void) | undefined;

  constructor(
    private readonly client: Client,
    onProgress: (update: ProgressUpdate) => void,
  ) {
    this.stopProgress = client.onNotification('notifications/progress', (params) => {
      if (params.progressToken !== this.token || typeof params.progress !== 'number') return;
      const update: ProgressUpdate = { progress: params.progress };
      if (typeof params.total === 'number') update.total = params.total;
      if (typeof params.message === 'string') update.message = params.message;
      onProgress(update);
    });
  }

  /** Ties the watch to the task the request created, so that its end ends the watch. */
  watch(task: Task): void {
    if (!this.stopProgress) return;
    if (isTaskTerminal(task)) {
      this.stop();
      return;
    }
    const taskId = task.taskId;
    this.taskId = taskId;
    watchesOf(this.client).set(taskId, this);
    this.stopStatus = onTaskStatus(this.client, (status) => {
      if (status.taskId === taskId) noteTask(this.client, status);
    });
    if (typeof task.ttl === 'number') {
      // Past its TTL the task may be deleted at any time, so no more progress can come for it.
      // Counted from now rather than from `createdAt`, which is the server's clock.
      this.expiry = setTimeout(() => this.stop(), timerDelay(task.ttl));
      (this.expiry as { unref?: () => void }).unref?.();
    }
  }

  stop(): void {
    this.stopProgress?.();
    this.stopStatus?.();
    this.stopProgress = undefined;
    this.stopStatus = undefined;
    if (this.expiry !== undefined) clearTimeout(this.expiry);
    this.expiry = undefined;
    if (this.taskId !== undefined) {
      const watches = progressWatches.get(this.client);
      if (watches?.get(this.taskId) === this) watches.delete(this.taskId);
    }
  }
}
