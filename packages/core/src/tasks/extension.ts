/**
 * The wire of the tasks extension `io.modelcontextprotocol/tasks` (SEP-2663), which replaces the
 * 2025-11-25 tasks under 2026-07-28. The task state machine and the stores are shared with
 * 2025-11-25; only the shapes differ: a flat `CreateTaskResult` with `resultType: "task"`,
 * `ttlMs`/`pollIntervalMs` in place of `ttl`/`pollInterval`, and a `tasks/get` answer that inlines
 * the outcome (`result` or `error`) and the open `inputRequests`. Both sides use these helpers,
 * so the translation lives in one place.
 * @module
 */
import { MissingRequiredClientCapabilityError } from '../jsonrpc/errors.js';
import { TASKS_EXTENSION } from '../protocol/methodTable.js';
import type { Task } from '../protocol/types.js';
import { isRecord } from '../shared.js';
import type { TaskOutcome } from './store.js';

/**
 * A task as the extension sends it: the 2025 fields with the units in their names.
 *
 * @example
 * ```ts
 * const wire: ExtensionTask = { taskId: 't', status: 'working', createdAt: '', lastUpdatedAt: '', ttlMs: 60_000 };
 * ```
 */
export interface ExtensionTask {
  taskId: string;
  status: Task['status'];
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
}

/**
 * True when `capabilities` (a client's, from the request's envelope, or a server's) declare the
 * tasks extension.
 *
 * @example
 * ```ts
 * declaresTasksExtension({ extensions: { 'io.modelcontextprotocol/tasks': {} } }); // true
 * ```
 */
export function declaresTasksExtension(capabilities: unknown): boolean {
  const extensions = isRecord(capabilities) ? capabilities.extensions : undefined;
  return isRecord(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

/**
 * The `-32021` error of a request that needs the tasks extension the client did not declare, with
 * `data.requiredCapabilities` naming it (SEP-2663 "Capability Negotiation").
 *
 * @example
 * ```ts
 * throw tasksExtensionRequired('tasks/get needs the tasks extension');
 * ```
 */
export function tasksExtensionRequired(message: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } }, message);
}

/**
 * A stored task in the extension's shape.
 *
 * @example
 * ```ts
 * declare const task: Task;
 * toExtensionTask(task).ttlMs === task.ttl; // true
 * ```
 */
export function toExtensionTask(task: Task): ExtensionTask {
  const wire: ExtensionTask = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttl,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  if (task.pollInterval !== undefined) wire.pollIntervalMs = task.pollInterval;
  return wire;
}

/**
 * An extension task (from a `CreateTaskResult`, a `tasks/get` answer or `notifications/tasks`) in
 * the 2025 shape the client's task API speaks; `undefined` when it is not a task.
 *
 * @example
 * ```ts
 * fromExtensionTask({ taskId: 't', status: 'working', createdAt: '', lastUpdatedAt: '', ttlMs: null })?.ttl; // null
 * ```
 */
export function fromExtensionTask(wire: unknown): Task | undefined {
  if (!isRecord(wire) || typeof wire.taskId !== 'string' || typeof wire.status !== 'string') return undefined;
  const ttl = wire.ttlMs;
  const task: Task = {
    taskId: wire.taskId,
    status: wire.status as Task['status'],
    createdAt: typeof wire.createdAt === 'string' ? wire.createdAt : '',
    lastUpdatedAt: typeof wire.lastUpdatedAt === 'string' ? wire.lastUpdatedAt : '',
    ttl: typeof ttl === 'number' ? ttl : null,
  };
  if (typeof wire.statusMessage === 'string') task.statusMessage = wire.statusMessage;
  if (typeof wire.pollIntervalMs === 'number') task.pollInterval = wire.pollIntervalMs;
  return task;
}

/**
 * The `CreateTaskResult` of the extension: the task, flat, marked `resultType: "task"`.
 *
 * @example
 * ```ts
 * declare const task: Task;
 * createTaskResult(task).resultType; // 'task'
 * ```
 */
export function createTaskResult(task: Task): Record<string, unknown> {
  return { resultType: 'task', ...toExtensionTask(task) };
}

/**
 * The answer to `tasks/get` (a `DetailedTask`): the task, with `inputRequests` while it waits for
 * input, its `result` once completed and its `error` once failed.
 *
 * @example
 * ```ts
 * declare const task: Task;
 * detailedTask(task, { result: { content: [] } }, undefined);
 * ```
 */
export function detailedTask(
  task: Task,
  outcome: TaskOutcome | undefined,
  inputRequests: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const detailed: Record<string, unknown> = { ...toExtensionTask(task) };
  if (task.status === 'input_required') detailed.inputRequests = inputRequests ?? {};
  if (task.status === 'completed' && outcome?.result) detailed.result = outcome.result;
  if (task.status === 'failed') {
    // A 2025-style failure recorded as a result (a tool's isError) still reaches the client.
    if (outcome?.error) detailed.error = outcome.error;
    else detailed.error = { code: -32603, message: task.statusMessage ?? 'The task failed' };
  }
  return detailed;
}
