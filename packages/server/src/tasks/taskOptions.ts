/**
 * The options of a `TaskManager` and of one task run, the executor type, and the error a
 * task's signal fires with. Kept apart from the manager so its helpers can name them without
 * importing the manager.
 * @module
 */
import type { TaskRequestor, TaskStore } from '@mcpkit/core';
import type { RequestContext } from '../kernel/context.js';
import type { TaskContext } from './taskContext.js';

/**
 * Options of `TaskManager` (and of `McpServer`'s `tasks` option).
 *
 * @example
 * ```ts
 * const tasks = new TaskManager({ maxTtl: 600_000, pollInterval: 2_000, list: false });
 * const server = new McpServer(info, { tasks });
 * ```
 */
export interface TaskManagerOptions {
  /** Where tasks are kept. Default: a new {@link InMemoryTaskStore}. */
  store?: TaskStore;
  /** TTL in ms when the requestor asks for none. Default 300 000 (five minutes). */
  defaultTtl?: number;
  /** Largest TTL granted, in ms; `null` allows unlimited tasks. Default 3 600 000 (one hour). */
  maxTtl?: number | null;
  /** Smallest TTL granted, in ms, so a task outlives its own creation. Default 1 000. */
  minTtl?: number;
  /** Suggested ms between `tasks/get` polls. Default 1 000. */
  pollInterval?: number;
  /** Answer and advertise `tasks/list`. Default true (tasks are always bound to a requestor). */
  list?: boolean;
  /**
   * Names the requestor a request comes from. Default: the auth context when there is one, else
   * the session (see the module documentation).
   */
  identify?: (context: RequestContext) => TaskRequestor | Promise<TaskRequestor>;
  /**
   * Cancel a session's running tasks when it closes: `true` for all, `false` for none. Default:
   * only tasks bound to the session itself (auth-bound tasks keep running).
   */
  cancelOnSessionClose?: boolean;
}

/**
 * Options of one `TaskManager.run`.
 *
 * @example
 * ```ts
 * const options: TaskRunOptions = { modelImmediateResponse: 'Started; I will report back.' };
 * ```
 */
export interface TaskRunOptions {
  /**
   * Text a host may hand to the model at once as an interim tool result
   * (`_meta["io.modelcontextprotocol/model-immediate-response"]` of the `CreateTaskResult`).
   */
  modelImmediateResponse?: string;
  /**
   * Says whether a result is a failure, with the status message to show; `undefined` for success.
   * Default for `tools/call`: a result with `isError: true` fails.
   */
  failureOf?: (result: Record<string, unknown>) => string | undefined;
}

/**
 * Runs a handler as a task; its return value is the result `tasks/result` will give.
 *
 * @example
 * ```ts
 * const execute: TaskExecutor = async (taskCtx) => ({ content: [{ type: 'text', text: taskCtx.taskId }] });
 * ```
 */
export type TaskExecutor = (context: TaskContext) => unknown;

/**
 * Why a task's signal fired: cancelled, expired, its session closed, or the server is closing.
 *
 * @example
 * ```ts
 * taskCtx.signal.addEventListener('abort', () => console.error((taskCtx.signal.reason as Error).message));
 * ```
 */
export class TaskAbortedError extends Error {
  override name = 'TaskAbortedError';
}
