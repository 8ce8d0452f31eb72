/**
 * What ends a task besides its handler, `tasks/cancel` and its TTL: the close of the session that
 * owns it, and the cancellation of the request that created it before its answer reached the
 * client (issue 16). The `CreateTaskResult` is the only place the task id goes, and under
 * 2026-07-28 the server decides that a call becomes a task, so a client that gave up on the call
 * cannot know there is a task to cancel: the server cancels it.
 * @module
 */
import type { IncomingRequest, RequestId, TaskStore } from '@mcpkit/core';
import type { TaskRunner } from '@mcpkit/core/internal';
import type { ServerSession } from '../kernel/session.js';
import type { RunningTask } from './runningTask.js';

/**
 * Ends, on its session's close, each task that nobody else could reach (see
 * `TaskManagerOptions.cancelOnSessionClose`). A 2026-07-28 task outlives the connection its
 * request came on: no session owns it.
 *
 * @example
 * ```ts
 * server.onSessionClosed((session) => cancelSessionTasks(runner, store, undefined, session));
 * ```
 */
export function cancelSessionTasks(
  runner: TaskRunner<RunningTask>,
  store: TaskStore,
  policy: boolean | undefined,
  session: ServerSession,
): void {
  for (const run of runner.runs()) {
    if (run.session !== session || run.inputs || policy === false) continue;
    if (policy === undefined && !run.sessionBound) continue;
    store.cancel(run.taskId, run.requestor, 'The session closed').catch(() => {
      // Already terminal, or gone: nothing left to stop.
    });
  }
}

const CREATOR_CANCELLED = 'The request that created the task was cancelled';

/**
 * Cancels the task of `run` if the request that created it stops before its answer went out
 * (the peer cancelled it, or the HTTP request that carried it is gone): that answer, the only
 * carrier of the task id, will never be delivered. Call once the runner tracks `run`.
 *
 * @example
 * ```ts
 * await runner.start(run, requestor, ctx.request.cancelled, work);
 * cancelIfUnanswered(store, run, ctx.request);
 * ```
 */
export function cancelIfUnanswered(store: TaskStore, run: RunningTask, request: IncomingRequest): void {
  if (request.done) return;
  if (request.stopped) {
    cancelRun(store, run);
    return;
  }
  // The listener lives as long as the request does: no timer, nothing to remove.
  request.addCancelListener(() => {
    if (!request.done) cancelRun(store, run);
  });
}

/**
 * Cancels the 2026-07-28 task that the request `requestId` of `session` created, when the client
 * cancels that request after the server answered it (stdio: the `notifications/cancelled` and the
 * `CreateTaskResult` crossed). The schema's words: the result will be unused, so any associated
 * processing should cease. Request ids are unique on a connection, so the id names that task.
 *
 * @example
 * ```ts
 * server.onNotification('notifications/cancelled', (params, session) =>
 *   cancelCreatedBy(runner, store, params.requestId, session),
 * );
 * ```
 */
export function cancelCreatedBy(
  runner: TaskRunner<RunningTask>,
  store: TaskStore,
  requestId: RequestId | undefined,
  session: ServerSession,
): void {
  if (requestId === undefined) return;
  // Rare (a user gave up on a call): a scan of the running tasks costs nothing per message.
  for (const run of runner.runs()) {
    if (run.createdBy === requestId && run.session === session) cancelRun(store, run);
  }
}

function cancelRun(store: TaskStore, run: RunningTask): void {
  store.cancel(run.taskId, run.requestor, CREATOR_CANCELLED).catch(() => {
    // Already terminal, or gone: nothing left to stop.
  });
}
