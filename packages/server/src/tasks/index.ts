/**
 * `@mcpkit/server/tasks`: tasks (2025-11-25, experimental): the server-side manager and task
 * context, the requestor helpers for tasks the server asks a client to run, and (re-exported from
 * `@mcpkit/core`, where they now live) the stores. A separate entry point, so that servers without
 * tasks do not bundle the task engine.
 *
 * @example
 * ```ts
 * import { InMemoryTaskStore, TaskManager } from '@mcpkit/server/tasks';
 * const tasks = new TaskManager({ store: new InMemoryTaskStore({ maxTasksPerRequestor: 20 }) });
 * const server = new McpServer(info, { tasks });
 * ```
 * @module
 */

// Kept here so that a server's task code needs only this entry point.
export {
  InMemoryTaskStore,
  type InMemoryTaskStoreOptions,
  isTerminalStatus,
  type TaskCreateOptions,
  type TaskEvent,
  type TaskOutcome,
  type TaskPage,
  type TaskPatch,
  type TaskRequest,
  type TaskRequestor,
  type TaskStore,
  unknownTaskError,
  withRelatedTask,
} from '@mcpkit/core';
export {
  type ClientTaskRequestOptions,
  type ClientTaskWaitOptions,
  cancelClientTask,
  elicitAndWait,
  elicitAsTask,
  getClientTask,
  getClientTaskResult,
  listClientTasks,
  type PollClientTaskOptions,
  pollClientTask,
  sampleAndWait,
  sampleAsTask,
} from './clientTasks.js';
export { TaskContext } from './taskContext.js';
export {
  TaskAbortedError,
  type TaskExecutor,
  TaskManager,
  type TaskManagerOptions,
  type TaskRunOptions,
} from './taskManager.js';
