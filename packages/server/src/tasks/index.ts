/**
 * Tasks (2025-11-25, experimental): stores, the server-side manager and the task context.
 *
 * @example
 * ```ts
 * import { InMemoryTaskStore, TaskManager } from '@mcpkit/server';
 * const tasks = new TaskManager({ store: new InMemoryTaskStore({ maxTasksPerRequestor: 20 }) });
 * ```
 * @module
 */

export { InMemoryTaskStore, type InMemoryTaskStoreOptions } from './memoryStore.js';
export {
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
} from './store.js';
export { TaskContext, withRelatedTask } from './taskContext.js';
export {
  TaskAbortedError,
  type TaskExecutor,
  TaskManager,
  type TaskManagerOptions,
  type TaskRunOptions,
} from './taskManager.js';
