/**
 * A task store in process memory, bounded three ways: every task has a TTL (expired tasks and their
 * results are dropped by one sweeper timer per store), and the number of stored tasks is capped per
 * requestor and in total. A new task beyond a cap is refused with `-32600`; nothing is evicted
 * early, so a requestor never loses a result it was promised for the task's TTL.
 * @module
 */

import { DeadlineTimer } from '../jsonrpc/deadlines.js';
import { McpError } from '../jsonrpc/errors.js';
import { ErrorCode } from '../jsonrpc/messages.js';
import type { Task } from '../protocol/types.js';
import { toError } from '../shared.js';
import {
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

/**
 * Options of {@link InMemoryTaskStore}.
 *
 * @example
 * ```ts
 * new InMemoryTaskStore({ maxTasks: 1_000, maxTasksPerRequestor: 10, pageSize: 20 });
 * ```
 */
export interface InMemoryTaskStoreOptions {
  /** Most tasks kept at once, across requestors (live and terminal until they expire). Default 10 000. */
  maxTasks?: number;
  /** Most tasks kept at once for one requestor. Default 100. */
  maxTasksPerRequestor?: number;
  /** Page size of {@link InMemoryTaskStore.list} when the caller gives none. Default 50. */
  pageSize?: number;
  /** Receives errors thrown by subscribers. Default: ignored. */
  onError?: (error: Error) => void;
}

interface Entry {
  readonly task: Task;
  readonly requestor: TaskRequestor;
  readonly method: string;
  /** Creation order; cursors are built from it, so a deleted task never invalidates a cursor. */
  readonly seq: number;
  readonly expiresAt: number;
  outcome: TaskOutcome | undefined;
  waiters: Set<Waiter> | undefined;
}

type Waiter = (task: Task | undefined) => void;

/** The outcome `tasks/result` gives for a cancelled task: there is no result to give. */
const CANCELLED_OUTCOME: TaskOutcome = {
  error: { code: ErrorCode.InternalError, message: 'The task was cancelled' },
};
const CURSOR_PREFIX = 'task-seq:';

/**
 * The default {@link TaskStore}: fast, bounded, and lost on restart.
 *
 * @example
 * ```ts
 * const store = new InMemoryTaskStore({ maxTasksPerRequestor: 20 });
 * const task = await store.create({ method: 'tools/call' }, 'session:1', { ttl: 60_000, pollInterval: 500 });
 * await store.setResult(task.taskId, 'completed', { result: { content: [] } });
 * ```
 */
export class InMemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Entry>();
  readonly #byRequestor = new Map<TaskRequestor, Map<string, Entry>>();
  readonly #listeners = new Set<(event: TaskEvent) => void>();
  readonly #maxTasks: number;
  readonly #maxPerRequestor: number;
  readonly #pageSize: number;
  #nextSeq = 1;
  // One timer for the whole store, armed for the earliest expiry; a sweep re-arms it.
  readonly #timer = new DeadlineTimer((now) => this.#sweep(now));

  readonly #options: InMemoryTaskStoreOptions;
  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.#options = options;
    this.#maxTasks = positive(options.maxTasks, 10_000, 'maxTasks');
    this.#maxPerRequestor = positive(options.maxTasksPerRequestor, 100, 'maxTasksPerRequestor');
    this.#pageSize = positive(options.pageSize, 50, 'pageSize');
  }

  /** How many tasks are stored (live and terminal). */
  get size(): number {
    return this.#tasks.size;
  }

  async create(request: TaskRequest, requestor: TaskRequestor, options: TaskCreateOptions): Promise<Task> {
    this.#ensureRoom(requestor);
    const now = Date.now();
    const stamp = new Date(now).toISOString();
    const task: Task = {
      taskId: this.#newId(),
      status: 'working',
      createdAt: stamp,
      lastUpdatedAt: stamp,
      ttl: options.ttl,
    };
    if (options.pollInterval !== undefined) task.pollInterval = options.pollInterval;
    const expiresAt = options.ttl === null ? Number.POSITIVE_INFINITY : now + options.ttl;
    const entry: Entry = {
      task,
      requestor,
      method: request.method,
      seq: this.#nextSeq++,
      expiresAt,
      outcome: undefined,
      waiters: undefined,
    };
    this.#tasks.set(task.taskId, entry);
    let own = this.#byRequestor.get(requestor);
    if (!own) {
      own = new Map();
      this.#byRequestor.set(requestor, own);
    }
    own.set(task.taskId, entry);
    this.#timer.schedule(expiresAt);
    return { ...task };
  }

  async get(taskId: string, requestor: TaskRequestor): Promise<Task | undefined> {
    const entry = this.#owned(taskId, requestor);
    return entry ? { ...entry.task } : undefined;
  }

  async update(taskId: string, patch: TaskPatch): Promise<Task | undefined> {
    const entry = this.#live(taskId);
    if (!entry) return undefined;
    if (isTerminalStatus(entry.task.status)) return { ...entry.task };
    const task = entry.task;
    const status = patch.status ?? task.status;
    const changed =
      status !== task.status ||
      (patch.statusMessage !== undefined && patch.statusMessage !== task.statusMessage);
    if (!changed) return { ...task };
    task.status = status;
    if (patch.statusMessage !== undefined) task.statusMessage = patch.statusMessage;
    else if (patch.status !== undefined) delete task.statusMessage;
    this.#touch(entry);
    return { ...task };
  }

  async setResult(
    taskId: string,
    status: 'completed' | 'failed',
    outcome: TaskOutcome,
    statusMessage?: string,
  ): Promise<Task | undefined> {
    const entry = this.#live(taskId);
    if (!entry) return undefined;
    if (isTerminalStatus(entry.task.status)) return { ...entry.task };
    this.#finish(entry, status, outcome, statusMessage);
    return { ...entry.task };
  }

  async getResult(taskId: string, requestor: TaskRequestor): Promise<TaskOutcome | undefined> {
    return this.#owned(taskId, requestor)?.outcome;
  }

  async list(requestor: TaskRequestor, cursor?: string, limit?: number): Promise<TaskPage> {
    const after = cursor === undefined ? 0 : parseTaskCursor(cursor);
    const size = Math.max(1, Math.min(limit ?? this.#pageSize, this.#pageSize));
    const now = Date.now();
    const tasks: Task[] = [];
    let last = 0;
    let more = false;
    for (const entry of this.#byRequestor.get(requestor)?.values() ?? []) {
      if (entry.seq <= after || entry.expiresAt <= now) continue;
      if (tasks.length === size) {
        more = true;
        break;
      }
      tasks.push({ ...entry.task });
      last = entry.seq;
    }
    return more ? { tasks, nextCursor: makeTaskCursor(last) } : { tasks };
  }

  async cancel(taskId: string, requestor: TaskRequestor, statusMessage?: string): Promise<Task> {
    const entry = this.#owned(taskId, requestor);
    if (!entry) throw unknownTaskError(taskId);
    if (isTerminalStatus(entry.task.status)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Task "${taskId}" is already ${entry.task.status} and cannot be cancelled`,
      );
    }
    this.#finish(entry, 'cancelled', CANCELLED_OUTCOME, statusMessage ?? 'The task was cancelled by request');
    return { ...entry.task };
  }

  async delete(taskId: string): Promise<boolean> {
    const entry = this.#tasks.get(taskId);
    if (!entry) return false;
    this.#remove(entry, false);
    return true;
  }

  waitForTerminal(taskId: string, requestor: TaskRequestor, signal?: AbortSignal): Promise<Task | undefined> {
    const entry = this.#owned(taskId, requestor);
    if (!entry) return Promise.resolve(undefined);
    if (isTerminalStatus(entry.task.status)) return Promise.resolve({ ...entry.task });
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Task | undefined>((resolve, reject) => {
      const onAbort = () => {
        entry.waiters?.delete(waiter);
        reject(signal!.reason);
      };
      const waiter: Waiter = (task) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(task);
      };
      if (!entry.waiters) entry.waiters = new Set();
      entry.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  subscribe(listener: (event: TaskEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#timer.stop();
    for (const entry of [...this.#tasks.values()]) this.#remove(entry, false);
  }

  // ---------------------------------------------------------------- internals

  #newId(): string {
    let id = crypto.randomUUID();
    while (this.#tasks.has(id)) id = crypto.randomUUID();
    return id;
  }

  #ensureRoom(requestor: TaskRequestor): void {
    if (this.#isFull(requestor)) this.#sweep(Date.now());
    if (this.#tasks.size >= this.#maxTasks) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The task store holds its maximum of ${this.#maxTasks} tasks; try again once some have expired`,
      );
    }
    if ((this.#byRequestor.get(requestor)?.size ?? 0) >= this.#maxPerRequestor) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Task limit reached: at most ${this.#maxPerRequestor} tasks are kept per requestor until they expire`,
      );
    }
  }

  #isFull(requestor: TaskRequestor): boolean {
    return (
      this.#tasks.size >= this.#maxTasks ||
      (this.#byRequestor.get(requestor)?.size ?? 0) >= this.#maxPerRequestor
    );
  }

  /** The entry if it exists and has not expired (the sweeper may not have run yet). */
  #live(taskId: string): Entry | undefined {
    const entry = this.#tasks.get(taskId);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#remove(entry, true);
      return undefined;
    }
    return entry;
  }

  #owned(taskId: string, requestor: TaskRequestor): Entry | undefined {
    if (typeof taskId !== 'string') return undefined;
    const entry = this.#live(taskId);
    return entry && entry.requestor === requestor ? entry : undefined;
  }

  #finish(
    entry: Entry,
    status: 'completed' | 'failed' | 'cancelled',
    outcome: TaskOutcome,
    message?: string,
  ): void {
    entry.task.status = status;
    if (message !== undefined) entry.task.statusMessage = message;
    else delete entry.task.statusMessage;
    entry.outcome = outcome;
    this.#touch(entry);
    const waiters = entry.waiters;
    entry.waiters = undefined;
    if (waiters) for (const waiter of waiters) waiter({ ...entry.task });
  }

  #touch(entry: Entry): void {
    entry.task.lastUpdatedAt = new Date().toISOString();
    this.#emit({ type: 'status', task: { ...entry.task }, requestor: entry.requestor });
  }

  #remove(entry: Entry, expired: boolean): void {
    const taskId = entry.task.taskId;
    if (this.#tasks.get(taskId) !== entry) return;
    this.#tasks.delete(taskId);
    const own = this.#byRequestor.get(entry.requestor);
    own?.delete(taskId);
    if (own && own.size === 0) this.#byRequestor.delete(entry.requestor);
    entry.outcome = undefined;
    const waiters = entry.waiters;
    entry.waiters = undefined;
    if (waiters) for (const waiter of waiters) waiter(undefined);
    this.#emit({ type: 'deleted', taskId, expired });
  }

  #emit(event: TaskEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#options.onError?.(toError(error));
      }
    }
  }

  /** Drops expired tasks; returns the next expiry. */
  #sweep(now: number): number {
    let next = Number.POSITIVE_INFINITY;
    for (const entry of [...this.#tasks.values()]) {
      if (entry.expiresAt <= now) this.#remove(entry, true);
      else if (entry.expiresAt < next) next = entry.expiresAt;
    }
    return next;
  }
}

/**
 * The `tasks/list` cursor after the task with creation sequence `seq` (opaque to clients). Shared
 * by task stores that page by a creation sequence, so their cursors look alike.
 *
 * @example
 * ```ts
 * const page = { tasks, nextCursor: makeTaskCursor(lastSeq) };
 * ```
 */
export function makeTaskCursor(seq: number): string {
  return btoa(`${CURSOR_PREFIX}${seq}`);
}

/**
 * The creation sequence a {@link makeTaskCursor} cursor names.
 *
 * @throws {McpError} `-32602` for a cursor this scheme did not make.
 * @example
 * ```ts
 * const after = cursor === undefined ? 0 : parseTaskCursor(cursor);
 * ```
 */
export function parseTaskCursor(cursor: string): number {
  let decoded = '';
  try {
    decoded = atob(cursor);
  } catch {
    // Not base64: reported below like any other foreign cursor.
  }
  const digits = decoded.startsWith(CURSOR_PREFIX) ? decoded.slice(CURSOR_PREFIX.length) : '';
  const seq =
    digits.length > 0 && digits.length <= 15 && /^[0-9]+$/.test(digits) ? Number(digits) : Number.NaN;
  if (!Number.isSafeInteger(seq))
    throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor for tasks/list');
  return seq;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}
