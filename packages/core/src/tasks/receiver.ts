/**
 * What every task receiver does the same way, whichever side it is on: read the `task` param of a
 * task-augmented request, grant a TTL within its limits, tag task-related messages, and answer
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` from a {@link TaskStore}.
 *
 * The server's `TaskManager` and the client's task receiver are both built on these, so the two
 * answer a requestor identically.
 * @module
 */
import { McpError } from '../jsonrpc/errors.js';
import { ErrorCode } from '../jsonrpc/messages.js';
import { RELATED_TASK_META_KEY, type Task, type TaskMetadata } from '../protocol/types.js';
import { type TaskRequestor, type TaskStore, unknownTaskError } from './store.js';

/**
 * The TTL bounds of a receiver, in ms.
 *
 * @example
 * ```ts
 * const limits: TaskTtlLimits = { defaultTtl: 60_000, maxTtl: 600_000, minTtl: 1_000 };
 * ```
 */
export interface TaskTtlLimits {
  /** TTL when the requestor asks for none. Default 300 000 (five minutes). */
  defaultTtl?: number;
  /** Largest TTL granted; `null` allows any. Default 3 600 000 (one hour). */
  maxTtl?: number | null;
  /** Smallest TTL granted, so a task outlives its own creation. Default 1 000. */
  minTtl?: number;
}

const DEFAULT_TTL = 5 * 60_000;
const DEFAULT_MAX_TTL = 60 * 60_000;
const DEFAULT_MIN_TTL = 1_000;

/**
 * A function that turns a requested TTL (or none) into the one granted under `limits`: the
 * default when none was asked, else the request clamped to `[minTtl, maxTtl]`.
 *
 * @example
 * ```ts
 * const grant = ttlGranter({ maxTtl: 600_000 });
 * grant(undefined); // 300000
 * grant(86_400_000); // 600000
 * ```
 */
export function ttlGranter(limits: TaskTtlLimits = {}): (requested: number | undefined) => number {
  const maxTtl = limits.maxTtl === undefined ? DEFAULT_MAX_TTL : limits.maxTtl;
  const minTtl = limits.minTtl ?? DEFAULT_MIN_TTL;
  const cap = (ttl: number) => {
    const floored = Math.max(ttl, minTtl);
    return maxTtl === null ? floored : Math.min(floored, maxTtl);
  };
  const defaultTtl = cap(limits.defaultTtl ?? DEFAULT_TTL);
  return (requested) => (requested === undefined ? defaultTtl : cap(requested));
}

/**
 * The `task` param of a request, checked: `undefined` when the request does not ask for a task.
 * The caller decides first whether task augmentation applies at all (revision, capability).
 *
 * @throws {McpError} `-32602` when `task` is not an object or its `ttl` not a non-negative number.
 * @example
 * ```ts
 * taskParamOf({ task: { ttl: 60_000 } }); // { ttl: 60000 }
 * taskParamOf({}); // undefined
 * ```
 */
export function taskParamOf(params: Record<string, unknown>): TaskMetadata | undefined {
  const task = params.task;
  if (task === undefined) return undefined;
  if (typeof task !== 'object' || task === null || Array.isArray(task)) {
    throw new McpError(ErrorCode.InvalidParams, '"task" must be an object');
  }
  const ttl = (task as TaskMetadata).ttl;
  if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0)) {
    throw new McpError(ErrorCode.InvalidParams, '"task.ttl" must be a non-negative number of milliseconds');
  }
  return ttl === undefined ? {} : { ttl };
}

/**
 * A copy of `params` (or of a result) whose `_meta` ties it to `taskId`.
 *
 * @example
 * ```ts
 * withRelatedTask({ message: 'Continue?' }, 't-1');
 * // { message: 'Continue?', _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't-1' } } }
 * ```
 */
export function withRelatedTask(params: Record<string, unknown>, taskId: string): Record<string, unknown> {
  const meta = params._meta;
  const base = typeof meta === 'object' && meta !== null ? meta : {};
  return { ...params, _meta: { ...base, [RELATED_TASK_META_KEY]: { taskId } } };
}

/**
 * The `taskId` param of `tasks/get`, `tasks/result` or `tasks/cancel`. It is authoritative: any
 * related-task `_meta` is ignored, as the specification requires.
 *
 * @throws {McpError} `-32602` when it is not a string.
 * @example
 * ```ts
 * const taskId = taskIdParam('tasks/get', params);
 * ```
 */
export function taskIdParam(method: string, params: Record<string, unknown>): string {
  const taskId = params.taskId;
  if (typeof taskId !== 'string')
    throw new McpError(ErrorCode.InvalidParams, `${method}: "taskId" must be a string`);
  return taskId;
}

/**
 * Answers `tasks/get`: the task of `requestor`.
 *
 * @throws {McpError} `-32602` for an unknown, expired or foreign task.
 * @example
 * ```ts
 * server.setRequestHandler('tasks/get', (params) => answerGetTask(store, requestor, params));
 * ```
 */
export async function answerGetTask(
  store: TaskStore,
  requestor: TaskRequestor,
  params: Record<string, unknown>,
): Promise<Task> {
  const taskId = taskIdParam('tasks/get', params);
  const task = await store.get(taskId, requestor);
  if (!task) throw unknownTaskError(taskId);
  return task;
}

/**
 * Answers `tasks/result`: waits until the task is terminal, then gives exactly what the original
 * request would have been answered with (its result, tagged with the task, or its JSON-RPC error).
 *
 * @throws {McpError} the task's own error, or `-32602` when the task is unknown or is deleted
 *   first. Rejects with the signal's reason when `signal` aborts.
 * @example
 * ```ts
 * const payload = await awaitTaskPayload(store, requestor, taskId, request.signal);
 * ```
 */
export async function awaitTaskPayload(
  store: TaskStore,
  requestor: TaskRequestor,
  taskId: string,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const task = await store.waitForTerminal(taskId, requestor, signal);
  const outcome = task ? await store.getResult(taskId, requestor) : undefined;
  if (!outcome) throw unknownTaskError(taskId);
  if (outcome.error) throw McpError.fromWire(outcome.error);
  return withRelatedTask(outcome.result, taskId);
}

/**
 * Answers `tasks/list`: one page of the tasks of `requestor`.
 *
 * @throws {McpError} `-32602` for a cursor that is not a string or not this store's.
 * @example
 * ```ts
 * client.setRequestHandler('tasks/list', (params) => answerListTasks(store, requestor, params));
 * ```
 */
export async function answerListTasks(
  store: TaskStore,
  requestor: TaskRequestor,
  params: Record<string, unknown>,
): Promise<{ tasks: Task[]; nextCursor?: string }> {
  const cursor = params.cursor;
  if (cursor !== undefined && typeof cursor !== 'string') {
    throw new McpError(ErrorCode.InvalidParams, 'tasks/list: "cursor" must be a string');
  }
  const page = await store.list(requestor, cursor);
  return page.nextCursor === undefined
    ? { tasks: page.tasks }
    : { tasks: page.tasks, nextCursor: page.nextCursor };
}

/**
 * Answers `tasks/cancel`: the task is `cancelled` in the store before this resolves, as the
 * specification requires; the receiver stops the work when it hears of it from the store.
 *
 * @throws {McpError} `-32602` when the task is unknown or already terminal.
 * @example
 * ```ts
 * client.setRequestHandler('tasks/cancel', (params) => answerCancelTask(store, requestor, params));
 * ```
 */
export function answerCancelTask(
  store: TaskStore,
  requestor: TaskRequestor,
  params: Record<string, unknown>,
): Promise<Task> {
  const taskId = taskIdParam('tasks/cancel', params);
  return store.cancel(taskId, requestor, 'The task was cancelled by request');
}
