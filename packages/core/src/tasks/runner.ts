/**
 * The lifecycle both task receivers share (a server running tools, a client running sampling or
 * elicitation): the tasks running here, their end on a terminal status, deletion or expiry, the
 * status notifications, and the outcome recorded in the store. What differs between the two
 * (where a notification goes, where an error is reported, which error a signal fires with) comes
 * in as {@link TaskRunnerHooks}.
 * @module
 */

import { McpError } from '../jsonrpc/errors.js';
import { ErrorCode, type JsonRpcErrorObject } from '../jsonrpc/messages.js';
import type { Task } from '../protocol/types.js';
import { toError } from '../shared.js';
import {
  isTerminalStatus,
  type TaskEvent,
  type TaskOutcome,
  type TaskRequestor,
  type TaskStore,
} from './store.js';

/**
 * What a {@link TaskRunner} needs of a task running here; receivers add their own fields.
 *
 * @example
 * ```ts
 * const run: RunningTask = { taskId: task.taskId, controller: new AbortController(), terminal: false };
 * ```
 */
export interface RunningTask {
  readonly taskId: string;
  /** Fires when the task ends before its handler did: cancelled, expired, deleted or shut down. */
  readonly controller: AbortController;
  /** True once the task reached a terminal status or was aborted: nothing more is sent for it. */
  terminal: boolean;
}

/**
 * What a {@link TaskRunner} leaves to the receiver that owns it.
 *
 * @example
 * ```ts
 * const hooks: TaskRunnerHooks<RunningTask> = {
 *   sendStatus: (_run, task) => connection.notify('notifications/tasks/status', { ...task }),
 *   reportError: (error) => console.error(error),
 *   abortError: (reason) => new Error(reason),
 * };
 * ```
 */
export interface TaskRunnerHooks<R extends RunningTask> {
  /** Sends `notifications/tasks/status` with the task's new state, or nothing if it should not. */
  sendStatus(run: R, task: Task): void | Promise<void>;
  /** Hears what cannot reach the peer: a handler's internal error, a failed send or store write. */
  reportError(error: Error, run: R): void;
  /** The reason a task's signal fires with. */
  abortError(reason: string): Error;
  /** Whether a status event of the store concerns `run` (e.g. comes from its requestor). Default: yes. */
  concerns?(run: R, requestor: TaskRequestor): boolean;
  /** Called as a run ends (terminal status or abort), right after `terminal` is set. */
  onEnd?(run: R): void;
}

/**
 * How {@link TaskRunner.start} records what a handler did.
 *
 * @example
 * ```ts
 * const options: TaskExecutionOptions = { failureOf: (result) => (result.isError ? 'failed' : undefined) };
 * ```
 */
export interface TaskExecutionOptions {
  /** Says whether a result is a failure, with the status message to show; `undefined` for success. */
  failureOf?: (result: Record<string, unknown>) => string | undefined;
  /** Neither record nor report a throw from a handler whose task already ended. Default false. */
  quietAfterEnd?: boolean;
}

/**
 * Owns the tasks a receiver runs: starts their handlers, follows the store's events to end them
 * (their signals fire on cancel, expiry and deletion), sends their status notifications, and
 * records each handler's result or error, mapped to the JSON-RPC error the request would have had.
 *
 * @example
 * ```ts
 * const runner = new TaskRunner(store, hooks);
 * const stop = runner.listen();
 * await runner.start({ taskId: task.taskId, controller: new AbortController(), terminal: false }, requestor, false, work);
 * ```
 */
export class TaskRunner<R extends RunningTask> {
  readonly #running = new Map<string, R>();

  readonly #store: TaskStore;
  readonly #hooks: TaskRunnerHooks<R>;
  constructor(store: TaskStore, hooks: TaskRunnerHooks<R>) {
    this.#store = store;
    this.#hooks = hooks;
  }

  /**
   * Follows the store's events; returns the function that stops following them.
   *
   * @example
   * ```ts
   * const unsubscribe = runner.listen();
   * ```
   */
  listen(): () => void {
    return this.#store.subscribe((event) => this.#onStoreEvent(event));
  }

  /**
   * The running task `taskId`, if it runs here and has not ended.
   *
   * @example
   * ```ts
   * const run = runner.get(taskId);
   * ```
   */
  get(taskId: string): R | undefined {
    return this.#running.get(taskId);
  }

  /**
   * Every task running here.
   *
   * @example
   * ```ts
   * for (const run of runner.runs()) console.log(run.taskId);
   * ```
   */
  runs(): R[] {
    return [...this.#running.values()];
  }

  /**
   * Tracks `run` and runs `work` as its handler on a later turn of the event loop, so that the
   * `CreateTaskResult` reaches the peer before any status notification of the task it names. When
   * the request was cancelled already, the task is cancelled at once.
   *
   * @example
   * ```ts
   * await runner.start(run, requestor, request.cancelled, () => handler(params, context));
   * ```
   */
  async start(
    run: R,
    requestor: TaskRequestor,
    requestCancelled: boolean,
    work: () => unknown,
    options: TaskExecutionOptions = {},
  ): Promise<void> {
    this.#running.set(run.taskId, run);
    if (requestCancelled) {
      // The peer gave up on the request (or left) before it could learn the task id.
      await this.#store.cancel(run.taskId, requestor, 'The request was cancelled').catch(() => {});
    }
    setTimeout(() => void this.#execute(run, work, options), 0);
  }

  /**
   * Ends `run`: its signal fires with the hooks' error for `reason`.
   *
   * @example
   * ```ts
   * runner.abort(run, 'The connection closed');
   * ```
   */
  abort(run: R, reason: string): void {
    run.terminal = true;
    this.#hooks.onEnd?.(run);
    if (!run.controller.signal.aborted) run.controller.abort(this.#hooks.abortError(reason));
  }

  /**
   * Ends every task running here and forgets them; returns them.
   *
   * @example
   * ```ts
   * runner.abortAll('The server is closing');
   * ```
   */
  abortAll(reason: string): R[] {
    const runs = this.runs();
    this.#running.clear();
    for (const run of runs) this.abort(run, reason);
    return runs;
  }

  async #execute(run: R, work: () => unknown, options: TaskExecutionOptions): Promise<void> {
    if (run.terminal) return;
    let status: 'completed' | 'failed';
    let outcome: TaskOutcome;
    let message: string | undefined;
    try {
      const value = await work();
      const result = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      message = options.failureOf?.(result);
      status = message === undefined ? 'completed' : 'failed';
      outcome = { result };
    } catch (error) {
      // A handler stopped by cancellation or expiry usually throws: nothing to record or report.
      if (options.quietAfterEnd && run.terminal) return;
      const wire = this.#wireError(error, run);
      status = 'failed';
      outcome = { error: wire };
      message = wire.message;
    }
    try {
      // A task cancelled meanwhile stays cancelled: the store drops this late outcome.
      await this.#store.setResult(run.taskId, status, outcome, message);
    } catch (error) {
      this.#hooks.reportError(toError(error), run);
    }
  }

  /** The JSON-RPC error the original request would have been answered with. */
  #wireError(error: unknown, run: R): JsonRpcErrorObject {
    if (error instanceof McpError) return error.toJSON();
    // Same rule as the engine: internals stay here, the peer learns only that it failed.
    this.#hooks.reportError(toError(error), run);
    return { code: ErrorCode.InternalError, message: 'Internal error' };
  }

  #onStoreEvent(event: TaskEvent): void {
    if (event.type === 'deleted') {
      const run = this.#running.get(event.taskId);
      if (!run) return;
      this.#running.delete(event.taskId);
      this.abort(run, event.expired ? 'The task expired' : 'The task was deleted');
      return;
    }
    const run = this.#running.get(event.task.taskId);
    if (!run || (this.#hooks.concerns && !this.#hooks.concerns(run, event.requestor))) return;
    if (isTerminalStatus(event.task.status)) {
      run.terminal = true;
      this.#hooks.onEnd?.(run);
      this.#running.delete(run.taskId);
    }
    this.#sendStatus(run, event.task);
    if (event.task.status === 'cancelled')
      this.abort(run, event.task.statusMessage ?? 'The task was cancelled');
  }

  #sendStatus(run: R, task: Task): void {
    try {
      const sent = this.#hooks.sendStatus(run, task);
      if (sent) sent.catch((error: unknown) => this.#hooks.reportError(toError(error), run));
    } catch (error) {
      this.#hooks.reportError(toError(error), run);
    }
  }
}
