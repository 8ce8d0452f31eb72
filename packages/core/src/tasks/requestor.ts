/**
 * What both task requestors share (a client waiting for a server's tool task, a server waiting
 * for a client's sampling or elicitation task): recognising a task in a peer's answer, and polling
 * `tasks/get` at the receiver's `pollInterval` until the task is done.
 * @module
 */
import { TASK_STATUSES, type Task } from '../protocol/types.js';
import { timerDelay } from '../timerDelay.js';
import { isTerminalStatus } from './store.js';

/**
 * Options of a poll of a task until it ends.
 *
 * @example
 * ```ts
 * const options: TaskPollOptions = { signal: AbortSignal.timeout(60_000), onStatus: (task) => console.log(task.status) };
 * ```
 */
export interface TaskPollOptions {
  /** Stops polling; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called with each new state seen. */
  onStatus?: (task: Task) => void;
  /** Also stop when the task needs input (`input_required`). Default false. */
  stopOnInputRequired?: boolean;
  /** Poll interval when the receiver suggests none, in ms. Default 1 000. */
  defaultInterval?: number;
  /** The shortest interval honoured, whatever the receiver suggests, in ms. Default 10. */
  minInterval?: number;
  /** The task as last seen (e.g. from `CreateTaskResult`), to skip a first request. */
  initial?: Task;
}

/**
 * How {@link pollTaskUntilDone} reaches the receiver.
 *
 * @example
 * ```ts
 * const source: TaskPollSource = {
 *   get: () => client.request('tasks/get', { taskId }),
 *   onWake: (wake) => client.onNotification('notifications/tasks/status', wake),
 * };
 * ```
 */
export interface TaskPollSource {
  /** Fetches the task's current state (`tasks/get`). */
  get(): Promise<Task>;
  /** Calls `wake` when news of the task arrives, cutting the current wait short; returns an unsubscribe. */
  onWake?(wake: () => void): () => void;
}

/**
 * Longest wait for `tasks/result` of a task that stopped polling, in ms: one hour.
 *
 * @example
 * ```ts
 * await client.request('tasks/result', { taskId }, { timeout: DEFAULT_TASK_RESULT_TIMEOUT });
 * ```
 */
export const DEFAULT_TASK_RESULT_TIMEOUT = 60 * 60_000;

/**
 * Whether `value` has the shape of a task: a string `taskId` and a known status.
 *
 * @example
 * ```ts
 * if (!isTask(created?.task)) throw new Error('The peer answered without a task');
 * ```
 */
export function isTask(value: unknown): value is Task {
  if (typeof value !== 'object' || value === null) return false;
  const task = value as Partial<Task>;
  return typeof task.taskId === 'string' && (TASK_STATUSES as readonly unknown[]).includes(task.status);
}

/**
 * Polls a task until it is terminal (or needs input, with `stopOnInputRequired`), honouring the
 * receiver's `pollInterval`; `onStatus` hears each new state. Status notifications are optional
 * for a receiver, so they only wake the poll early (through `source.onWake`).
 *
 * @example
 * ```ts
 * const task = await pollTaskUntilDone({ get: () => client.request('tasks/get', { taskId }) }, { signal });
 * ```
 */
export async function pollTaskUntilDone(
  source: TaskPollSource,
  options: TaskPollOptions = {},
): Promise<Task> {
  const { signal } = options;
  const wake = new Wakeup();
  const stop = source.onWake?.(() => wake.fire());
  try {
    let task = options.initial ?? (await source.get());
    let last: string | undefined;
    for (;;) {
      const seen = `${task.status}\u0000${task.statusMessage ?? ''}`;
      if (seen !== last) {
        last = seen;
        options.onStatus?.(task);
      }
      if (isTerminalStatus(task.status) || (options.stopOnInputRequired && task.status === 'input_required'))
        return task;
      const interval = Math.max(
        task.pollInterval ?? options.defaultInterval ?? 1_000,
        options.minInterval ?? 10,
      );
      await wake.sleep(interval, signal);
      task = await source.get();
    }
  } finally {
    stop?.();
  }
}

/** A sleep that a notification can cut short. */
class Wakeup {
  #wakeCurrent: (() => void) | undefined;
  #pending = false;

  fire(): void {
    if (this.#wakeCurrent) this.#wakeCurrent();
    else this.#pending = true;
  }

  sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#wakeCurrent = undefined;
      };
      const onAbort = () => {
        done();
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        done();
        resolve();
      }, timerDelay(ms));
      this.#wakeCurrent = () => {
        done();
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
