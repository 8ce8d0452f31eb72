/**
 * The storage contract of tasks (2025-11-25, experimental): where a receiver keeps each task's
 * state and final outcome between the request that created it and the requests that poll it.
 *
 * Every method is async so that a shared store (Redis, a database) fits the same interface as
 * {@link InMemoryTaskStore}. The store is the single source of truth for a task's status: the
 * state machine (`working` ⇄ `input_required` → one terminal state) is enforced here, so that two
 * writers (a finishing tool and a `tasks/cancel`) can never leave a terminal task changed.
 *
 * It lives in the core so that both receivers share it: a server running `tools/call` as tasks, and
 * a client running `sampling/createMessage` or `elicitation/create` as tasks.
 * @module
 */
import { McpError } from '../jsonrpc/errors.js';
import { ErrorCode, type JsonRpcErrorObject } from '../jsonrpc/messages.js';
import type { Task, TaskStatus } from '../protocol/types.js';

/**
 * Who a task belongs to: an opaque key derived from the auth context, or from the session (on a
 * client: the connection) when there is none. Only the same key can read, list, await or cancel
 * the task.
 *
 * @example
 * ```ts
 * const requestor: TaskRequestor = 'session:0b6f2c1e-...';
 * ```
 */
export type TaskRequestor = string;

/**
 * The request a task runs. Stores that only keep state (the in-memory one) keep just the method;
 * a store that hands work to another process may keep the params as well.
 *
 * @example
 * ```ts
 * const request: TaskRequest = { method: 'tools/call', params: { name: 'render' } };
 * ```
 */
export interface TaskRequest {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/**
 * Lifetime settings of a new task, already capped by the receiver.
 *
 * @example
 * ```ts
 * const options: TaskCreateOptions = { ttl: 60_000, pollInterval: 1_000 };
 * ```
 */
export interface TaskCreateOptions {
  /** Retention from creation in ms; `null` keeps the task until it is deleted. */
  readonly ttl: number | null;
  /** Suggested ms between `tasks/get` polls. */
  readonly pollInterval?: number;
}

/**
 * What `tasks/result` answers once a task is terminal: exactly the result, or exactly the JSON-RPC
 * error, that the original request would have been answered with.
 *
 * @example
 * ```ts
 * const ok: TaskOutcome = { result: { content: [{ type: 'text', text: 'done' }] } };
 * const failed: TaskOutcome = { error: { code: -32602, message: 'Unknown tool: "x"' } };
 * ```
 */
export type TaskOutcome =
  | { readonly result: Record<string, unknown>; readonly error?: undefined }
  | { readonly error: JsonRpcErrorObject; readonly result?: undefined };

/**
 * A change a store reports to its subscribers.
 *
 * - `status`: the task's status or status message changed (never sent for creation);
 * - `deleted`: the task is gone, because its TTL elapsed (`expired: true`) or it was deleted.
 *
 * @example
 * ```ts
 * store.subscribe((event) => {
 *   if (event.type === 'deleted' && event.expired) console.error(`task ${event.taskId} expired`);
 * });
 * ```
 */
export type TaskEvent =
  | { readonly type: 'status'; readonly task: Task; readonly requestor: TaskRequestor }
  | { readonly type: 'deleted'; readonly taskId: string; readonly expired: boolean };

/**
 * A page of tasks.
 *
 * @example
 * ```ts
 * const page: TaskPage = { tasks: [], nextCursor: undefined };
 * ```
 */
export interface TaskPage {
  readonly tasks: Task[];
  readonly nextCursor?: string;
}

/**
 * A status change a live task may take. Terminal statuses are reached only through
 * {@link TaskStore.setResult} and {@link TaskStore.cancel}, so that every terminal task has an
 * outcome for `tasks/result`.
 *
 * @example
 * ```ts
 * const patch: TaskPatch = { status: 'input_required', statusMessage: 'Waiting for the user' };
 * ```
 */
export interface TaskPatch {
  readonly status?: 'working' | 'input_required';
  readonly statusMessage?: string;
}

/**
 * Where tasks live. Errors a peer may see are thrown as `McpError` with code `-32602` (unknown,
 * expired or foreign task; terminal task on cancel; bad cursor) or `-32600` (a task limit was
 * reached). Reads scoped by `requestor` treat another requestor's task as unknown, so a caller
 * cannot even learn that a task id exists.
 *
 * @example
 * ```ts
 * const task = await store.create({ method: 'tools/call' }, requestor, { ttl: 60_000 });
 * await store.setResult(task.taskId, 'completed', { result: { content: [] } });
 * const outcome = await store.getResult(task.taskId, requestor);
 * ```
 */
export interface TaskStore {
  /** Creates a task in `working`, with a cryptographically random id. Throws when a cap is hit. */
  create(request: TaskRequest, requestor: TaskRequestor, options: TaskCreateOptions): Promise<Task>;
  /** The task, if it exists and belongs to `requestor`. */
  get(taskId: string, requestor: TaskRequestor): Promise<Task | undefined>;
  /**
   * Moves a live task between `working` and `input_required`, or changes its message. A terminal
   * task is left as it is. Resolves with the task afterwards, `undefined` when it is unknown.
   */
  update(taskId: string, patch: TaskPatch): Promise<Task | undefined>;
  /**
   * Ends a live task with its outcome. A task that is already terminal (cancelled, typically) keeps
   * its status and outcome: the late result is dropped. Resolves with the task afterwards.
   */
  setResult(
    taskId: string,
    status: 'completed' | 'failed',
    outcome: TaskOutcome,
    statusMessage?: string,
  ): Promise<Task | undefined>;
  /** The outcome of a terminal task of `requestor`; `undefined` while it runs or when unknown. */
  getResult(taskId: string, requestor: TaskRequestor): Promise<TaskOutcome | undefined>;
  /** One page of `requestor`'s tasks, oldest first. */
  list(requestor: TaskRequestor, cursor?: string, limit?: number): Promise<TaskPage>;
  /**
   * Cancels a live task of `requestor`, atomically: the task is `cancelled` when this resolves.
   * Throws `-32602` when the task is unknown or already terminal.
   */
  cancel(taskId: string, requestor: TaskRequestor, statusMessage?: string): Promise<Task>;
  /** Deletes a task and its outcome. Resolves `false` when there was none. */
  delete(taskId: string): Promise<boolean>;
  /**
   * Resolves once the task of `requestor` is terminal (at once if it already is), with the task;
   * `undefined` when it is unknown or is deleted first. Rejects when `signal` aborts, and forgets
   * the waiter then, so abandoned waits do not accumulate.
   */
  waitForTerminal(taskId: string, requestor: TaskRequestor, signal?: AbortSignal): Promise<Task | undefined>;
  /** Reports every change; returns an unsubscribe function. */
  subscribe(listener: (event: TaskEvent) => void): () => void;
  /** Stops timers and drops every task. */
  close(): void | Promise<void>;
}

/** Terminal task statuses. */
const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/**
 * True for `completed`, `failed` and `cancelled`: statuses a task never leaves.
 *
 * @example
 * ```ts
 * isTerminalStatus('input_required'); // false
 * ```
 */
export function isTerminalStatus(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/**
 * The `-32602` error for a task id that is unknown, expired, or another requestor's: the three are
 * indistinguishable on purpose.
 *
 * @example
 * ```ts
 * const task = await store.get(taskId, requestor);
 * if (!task) throw unknownTaskError(taskId);
 * ```
 */
export function unknownTaskError(taskId: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Unknown or expired task: ${JSON.stringify(taskId)}`);
}
