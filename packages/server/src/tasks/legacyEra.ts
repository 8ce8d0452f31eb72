/**
 * Tasks as 2025-11-25 has them (and 2025 revisions after it): the request asks for a task with a
 * `task` param, a task is bound to the session without auth, `tasks/get`/`tasks/cancel` answer
 * with the task, and a tool's `isError` result fails its task. The tasks feature's default era.
 * @module
 */
import { type CreateTaskResult, ErrorCode, McpError, type TaskMetadata, type Tool } from '@mcpkit/core';
import { revisionHas, taskParamOf } from '@mcpkit/core/internal';
import type { RequestContext } from '../kernel/context.js';
import { legacyCancelTask, legacyGetTask } from './legacyMethods.js';
import { SESSION_PREFIX } from './requestors.js';
import { toolFailure } from './runningTask.js';
import type { TaskEra } from './taskEra.js';

/**
 * The 2025 revisions' tasks: what a request's context gets when its era plugged in no tasks of its
 * own (every request of a 2025 session).
 *
 * @example
 * ```ts
 * declare const ctx: RequestContext;
 * const task = LEGACY_TASKS.requested({ task: { ttl: 60_000 } }, ctx); // { ttl: 60000 } on 2025-11-25
 * ```
 */
export const LEGACY_TASKS: TaskEra = {
  getTask: legacyGetTask,
  cancelTask: legacyCancelTask,
  requested(params: Record<string, unknown>, context: RequestContext): TaskMetadata | undefined {
    if (params.task === undefined || !revisionHas(context.session.protocolVersion, 'tasks')) return undefined;
    return taskParamOf(params);
  },
  // The request asks; toolTask ignores a `task` from revisions before 2025-11-25.
  wantsTask: (_tool: Tool, params: Record<string, unknown>) => params.task !== undefined,
  toolTask(tool: Tool, params: Record<string, unknown>, context: RequestContext): TaskMetadata | undefined {
    const task = LEGACY_TASKS.requested(params, context);
    if (task && (tool.execution?.taskSupport ?? 'forbidden') === 'forbidden') {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool "${tool.name}" does not support task execution: call it without "task"`,
      );
    }
    return task;
  },
  beforeRun() {},
  // Keyed by the session's stable key (its id, or one it keeps in its state), so a restored
  // session still owns its tasks.
  unboundRequestor: (context: RequestContext) => `${SESSION_PREFIX}${context.session.key}`,
  createdBy: () => undefined,
  questions: () => undefined,
  toolFailure,
  created: (task) => ({ task }) as CreateTaskResult,
};
