/**
 * What ends a task besides its handler, `tasks/cancel` and its TTL: the close of the session that
 * owns it.
 * @module
 */
import type { TaskStore } from '@mcpkit/core';
import type { TaskRunner } from '@mcpkit/core/internal';
import type { ServerSession } from '../session.js';
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
