/**
 * A task running on this server: what the {@link TaskRunner} tracks of it (its signal, its status
 * routing, its open questions under 2026-07-28), plus where it came from: the session and the
 * requestor of the request that created it.
 * @module
 */
import type { ProgressToken, RequestId, Task, TaskRequestor, TaskStore } from '@mcpkit/core';
import type { RequestContext } from '../kernel/context.js';
import type { ServerSession } from '../kernel/session.js';
import { isSessionBound } from './requestors.js';
import type { TaskRun } from './taskContext.js';
import type { TaskEra } from './taskEra.js';

/**
 * A task running here, with the session and requestor of the request that created it.
 *
 * @example
 * ```ts
 * declare const run: RunningTask;
 * if (run.sessionBound) console.error(`${run.taskId} ends with its session`);
 * ```
 */
export interface RunningTask extends TaskRun {
  readonly session: ServerSession;
  readonly requestor: TaskRequestor;
  readonly sessionBound: boolean;
  /**
   * Under 2026-07-28, the id of the request that created the task on `session`: a late
   * `notifications/cancelled` for it cancels the task (see ./taskLifetime.ts).
   */
  readonly createdBy: RequestId | undefined;
}

/**
 * The running-task record of `task`, created by the request of `context`.
 *
 * @example
 * ```ts
 * const run = runningTask(store, task, ctx, requestor, LEGACY_TASKS);
 * ```
 */
export function runningTask(
  store: TaskStore,
  task: Task,
  context: RequestContext,
  requestor: TaskRequestor,
  era: TaskEra,
): RunningTask {
  const run: RunningTask = {
    taskId: task.taskId,
    session: context.session,
    requestor,
    sessionBound: isSessionBound(requestor),
    createdBy: era.createdBy(context),
    controller: new AbortController(),
    progressToken: progressTokenOf(context),
    lastProgress: Number.NEGATIVE_INFINITY,
    terminal: false,
    pendingInputs: 0,
    resultRequests: new Set(),
    setInputRequired: async (waiting) => {
      if (run.terminal) return;
      await store.update(task.taskId, { status: waiting ? 'input_required' : 'working' });
    },
    inputs: era.questions((waiting) => run.setInputRequired(waiting)),
  };
  return run;
}

/**
 * A tool result with `isError: true` fails its task (2025-11-25); the first text block says why.
 *
 * @example
 * ```ts
 * toolFailure({ isError: true, content: [{ type: 'text', text: 'disk full' }] }); // 'disk full'
 * ```
 */
export function toolFailure(result: Record<string, unknown>): string | undefined {
  if (result.isError !== true) return undefined;
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.find(
    (block): block is { type: 'text'; text: string } =>
      typeof block === 'object' && block !== null && block.type === 'text' && typeof block.text === 'string',
  );
  return text ? text.text.slice(0, 500) : 'The tool reported an error';
}

function progressTokenOf(context: RequestContext): ProgressToken | undefined {
  const token = context.meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}
