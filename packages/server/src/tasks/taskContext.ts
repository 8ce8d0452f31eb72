/**
 * The context a handler gets while it runs as a task: the same API as {@link RequestContext}, but
 * tied to the task rather than to the JSON-RPC request that created it. That request was answered
 * with a `CreateTaskResult` long ago, so:
 *
 * - `signal` fires on `tasks/cancel`, TTL expiry, or (for session-bound tasks) session close;
 * - progress keeps using the request's `progressToken` until the task is terminal;
 * - every notification and request to the client carries the related-task `_meta`;
 * - `elicit` and `sample` move the task to `input_required` until the client answers.
 *
 * Under 2026-07-28 (the tasks extension) a task has no channel to the client but `tasks/get`:
 * questions become the task's `inputRequests` (answered by `tasks/update`), and progress, logs
 * and other notifications are not sent (the extension does not support them on tasks).
 * @module
 */
import {
  CapabilityError,
  type LoggingLevel,
  Method,
  MissingRequiredClientCapabilityError,
  Notification,
  type OutgoingRequestOptions,
  type ProgressToken,
  withRelatedTask,
} from '@mcpkit/core';
import { RequestContext } from '../kernel/context.js';
import { missingForRequest } from '../mrtr/missingCapability.js';
import type { TaskInputs } from './taskInputs.js';

/** Methods whose answer is input the task waits for: the task shows `input_required` meanwhile. */
const INPUT_METHODS: ReadonlySet<string> = new Set([Method.ElicitationCreate, Method.SamplingCreateMessage]);

/** @internal What a task context needs from the task that runs it. */
export interface TaskRun {
  readonly taskId: string;
  readonly controller: AbortController;
  readonly progressToken: ProgressToken | undefined;
  lastProgress: number;
  /** True once the task reached a terminal status: nothing more is sent for it. */
  terminal: boolean;
  /** Side requests awaiting the client's input. */
  pendingInputs: number;
  /** Outstanding `tasks/result` requests for this task (HTTP routes side requests onto them). */
  readonly resultRequests: Set<string | number>;
  setInputRequired(waiting: boolean): Promise<void>;
  /** Under the tasks extension (2026-07-28): the task's open questions to the client. */
  readonly inputs: TaskInputs | undefined;
}

/**
 * The context of a handler running as a task.
 *
 * @example
 * ```ts
 * tasks.run(ctx, { method: 'tools/call' }, async (taskCtx) => {
 *   await taskCtx.progress(1, 2);
 *   const answer = await taskCtx.elicit({ message: 'Continue?', requestedSchema: { type: 'object', properties: {} } });
 *   return { content: [{ type: 'text', text: `${taskCtx.taskId}: ${answer.action}` }] };
 * });
 * ```
 */
export class TaskContext extends RequestContext {
  /** @internal */
  constructor(
    base: RequestContext,
    private readonly run: TaskRun,
  ) {
    super(base.session, base.request, base.modern, base.eraPort);
  }

  /** The id of the task this handler runs as. */
  get taskId(): string {
    return this.run.taskId;
  }

  /** Fires on `tasks/cancel`, when the task's TTL elapses, or when its session closes. */
  override get signal(): AbortSignal {
    return this.run.controller.signal;
  }

  /**
   * Reports progress under the original request's token, until the task is terminal.
   *
   * @example
   * ```ts
   * await taskCtx.progress(5, 10, 'half way');
   * ```
   */
  override progress(progress: number, total?: number, message?: string): Promise<void> {
    const run = this.run;
    if (run.inputs || run.terminal || run.progressToken === undefined || !(progress > run.lastProgress))
      return Promise.resolve();
    run.lastProgress = progress;
    const params: Record<string, unknown> = { progressToken: run.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return this.sendTaskNotification(Notification.Progress, params);
  }

  /**
   * Logs through `notifications/message`, tagged with the task.
   *
   * @example
   * ```ts
   * taskCtx.sendLog('info', 'stage 2 of 3');
   * ```
   */
  override sendLog(level: LoggingLevel, data: unknown, logger?: string): void {
    if (this.run.inputs || this.run.terminal || !this.session.wantsLog(level)) return;
    if (!this.session.server.capabilities.logging) return;
    const params: Record<string, unknown> = logger === undefined ? { level, data } : { level, data, logger };
    this.sendTaskNotification(Notification.Message, params).catch(() => {});
  }

  /**
   * Sends a request to the client on behalf of the task. Elicitation and sampling move the task
   * to `input_required` until the client answers.
   *
   * @example
   * ```ts
   * const { roots } = await taskCtx.requestClient('roots/list', {});
   * ```
   */
  override async requestClient<R = Record<string, unknown>>(
    method: string,
    params: object,
    options?: OutgoingRequestOptions,
  ): Promise<R> {
    const run = this.run;
    if (run.inputs) return this.askUnderExtension<R>(run.inputs, method, params as Record<string, unknown>);
    const tagged = withRelatedTask(params as Record<string, unknown>, run.taskId);
    const route = lastOf(run.resultRequests);
    const sendOptions: OutgoingRequestOptions = {
      ...options,
      signal: options?.signal ?? run.controller.signal,
    };
    if (route !== undefined) sendOptions.relatedRequestId = route;
    if (!INPUT_METHODS.has(method)) return this.session.request<R>(method, tagged, sendOptions);
    // Checked before the status changes, so a request that cannot be sent leaves the task as it was.
    this.session.prepareRequest(method, tagged);
    if (++run.pendingInputs === 1) await run.setInputRequired(true);
    try {
      return await this.session.request<R>(method, tagged, sendOptions);
    } finally {
      if (--run.pendingInputs === 0) await run.setInputRequired(false);
    }
  }

  /**
   * Sends a notification tagged with the task.
   *
   * @example
   * ```ts
   * taskCtx.notify('notifications/resources/updated', { uri: 'test://report' });
   * ```
   */
  override notify(method: string, params?: Record<string, unknown>): void | Promise<void> {
    if (this.run.inputs) return;
    return this.session.notify(method, withRelatedTask(params ?? {}, this.run.taskId));
  }

  /** A question of a task under the tasks extension: an entry of its `inputRequests`. */
  private askUnderExtension<R>(
    inputs: TaskInputs,
    method: string,
    params: Record<string, unknown>,
  ): Promise<R> {
    const revision = this.scope.revision;
    if (!INPUT_METHODS.has(method) && method !== Method.RootsList) {
      return Promise.reject(
        new CapabilityError(
          `Cannot send "${method}" to the client from a task: protocol revision ${revision} has no server-to-client requests`,
        ),
      );
    }
    const missing = missingForRequest(method, params, this.scope.clientCapabilities);
    if (missing) {
      return Promise.reject(
        new MissingRequiredClientCapabilityError(
          missing,
          `"${method}" needs the client capability ${Object.keys(missing)[0]}, which the request that created the task did not declare`,
        ),
      );
    }
    return inputs.ask<R>(method, { ...params }, this.run.controller.signal);
  }

  private sendTaskNotification(method: string, params: Record<string, unknown>): Promise<void> {
    try {
      return Promise.resolve(this.session.notify(method, withRelatedTask(params, this.run.taskId)));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function lastOf<T>(set: ReadonlySet<T>): T | undefined {
  let last: T | undefined;
  for (const value of set) last = value;
  return last;
}
