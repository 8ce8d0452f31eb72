/**
 * Tasks in Redis, so a task created on one node is polled, cancelled and resulted on any other.
 *
 * One hash per task (`task` JSON, `requestor`, `outcome` JSON) that expires with the task's TTL,
 * and one sorted set per requestor (by creation sequence) for `tasks/list`. Status changes are
 * compare-and-set on the task's JSON (a small Lua script), so a cancel on node B and a result on
 * node A cannot both win. Every change is announced on a pub/sub channel: a node's runner learns
 * that a task it runs was cancelled elsewhere, and `waitForTerminal` wakes on any node. A running
 * task has a lease its node renews (taskLease.ts): when the node dies, the next node to read the
 * task fails it.
 * @module
 */
import type {
  Task,
  TaskCreateOptions,
  TaskEvent,
  TaskOutcome,
  TaskPage,
  TaskPatch,
  TaskRequest,
  TaskRequestor,
  TaskStore,
} from '@mcpkit/core';
import { ErrorCode, isTerminalStatus, McpError, unknownTaskError } from '@mcpkit/core';
import { makeTaskCursor, parseTaskCursor } from '@mcpkit/core/internal';
import type { Redis } from 'ioredis';
import { TaskLeases } from './taskLease.js';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** Prefix of every key. Default `mcpkit:`. */
  keyPrefix?: string;
  /** Tasks one requestor may hold at once. Default 100. */
  maxTasksPerRequestor?: number;
  /** Largest `tasks/list` page. Default 50. */
  pageSize?: number;
  /** Receives errors of listeners and of the event channel. */
  onError?: (error: Error) => void;
  /**
   * How long (ms) a running task outlives the silence of the node running it (a SIGKILL, a lost
   * machine) before the next node that reads it marks it `failed`. The node renews it three times
   * per period. Default 3 000.
   */
  leaseMs?: number;
}

/** Sets the task (and the outcome, when given) only if the task is still what the caller read. */
const COMPARE_AND_SET = `
if redis.call('HGET', KEYS[1], 'task') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'task', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'outcome', ARGV[3]) end
return 1`;

const CANCELLED_OUTCOME: TaskOutcome = {
  error: { code: ErrorCode.InternalError, message: 'The task was cancelled' },
};

type Waiter = (task: Task | undefined) => void;

/**
 * A {@link TaskStore} on Redis for a `TaskManager` on every node of a cluster.
 *
 * Differences from `InMemoryTaskStore`: no cap on the total number of tasks (Redis memory is the
 * operator's), expiry is Redis's (no `deleted` event for an expired task), and `close()` stops
 * listening but leaves the tasks to the other nodes.
 *
 * @example
 * ```ts
 * const redis = await connectRedis('redis://127.0.0.1:6379');
 * const server = new McpServer(info, { tasks: new TaskManager({ store: new RedisTaskStore(redis) }) });
 * ```
 */
export class RedisTaskStore implements TaskStore {
  private readonly prefix: string;
  private readonly channel: string;
  private readonly maxPerRequestor: number;
  private readonly pageSize: number;
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly subscriber: Redis;
  /** This store's id on the channel: its own announcements were already delivered locally. */
  private readonly origin = crypto.randomUUID();
  private readonly leases: TaskLeases;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisTaskStoreOptions = {},
  ) {
    const base = options.keyPrefix ?? 'mcpkit:';
    this.prefix = `${base}task:`;
    this.channel = `${base}task-events`;
    this.maxPerRequestor = options.maxTasksPerRequestor ?? 100;
    this.pageSize = options.pageSize ?? 50;
    const leaseMs = options.leaseMs ?? 3_000;
    if (!(leaseMs >= 1) || !Number.isFinite(leaseMs)) throw new RangeError('leaseMs must be at least 1');
    this.leases = new TaskLeases(
      redis,
      this.prefix,
      Math.floor(leaseMs),
      () => this.waiters.keys(),
      (taskId) => {
        this.readLive(taskId).catch((error: unknown) => this.report(error));
      },
    );
    this.subscriber = redis.duplicate({ enableOfflineQueue: true, lazyConnect: false });
    this.subscriber.on('error', () => {});
    this.subscriber.on('message', (_channel: string, text: string) => this.received(text));
    void this.subscriber.subscribe(this.channel).catch((error: unknown) => this.report(error));
  }

  async create(request: TaskRequest, requestor: TaskRequestor, options: TaskCreateOptions): Promise<Task> {
    await this.ensureRoom(requestor);
    const stamp = new Date().toISOString();
    const task: Task = {
      taskId: crypto.randomUUID(),
      status: 'working',
      createdAt: stamp,
      lastUpdatedAt: stamp,
      ttl: options.ttl,
    };
    if (options.pollInterval !== undefined) task.pollInterval = options.pollInterval;
    const sequence = await this.redis.incr(`${this.prefix}sequence`);
    const key = this.key(task.taskId);
    const write = this.redis
      .multi()
      .hset(key, 'task', JSON.stringify(task), 'requestor', requestor, 'method', request.method);
    if (options.ttl !== null) write.pexpire(key, options.ttl);
    // The node that creates a task runs it (TaskManager.run), so it holds the task's lease.
    this.leases.take(write, task.taskId);
    try {
      await write.zadd(this.listKey(requestor), sequence, task.taskId).exec();
    } catch (error) {
      this.leases.release(task.taskId);
      throw error;
    }
    return task;
  }

  async get(taskId: string, requestor: TaskRequestor): Promise<Task | undefined> {
    const read = await this.readLive(taskId);
    return read && read.requestor === requestor ? read.task : undefined;
  }

  /** The task and its requestor; a live task whose node died is failed first (and announced). */
  private async readLive(taskId: string): Promise<{ task: Task; requestor: string } | undefined> {
    const read = await this.leases.read(taskId);
    if (read?.failed) this.announce({ type: 'status', task: read.task, requestor: read.requestor });
    return read;
  }

  async update(taskId: string, patch: TaskPatch): Promise<Task | undefined> {
    return this.transition(taskId, (task) => {
      const status = patch.status ?? task.status;
      const message = patch.statusMessage;
      if (status === task.status && (message === undefined || message === task.statusMessage))
        return undefined;
      const next: Task = { ...task, status };
      if (message !== undefined) next.statusMessage = message;
      else if (patch.status !== undefined) delete next.statusMessage;
      return { task: next };
    });
  }

  async setResult(
    taskId: string,
    status: 'completed' | 'failed',
    outcome: TaskOutcome,
    statusMessage?: string,
  ): Promise<Task | undefined> {
    return this.transition(taskId, (task) => ({ task: ended(task, status, statusMessage), outcome }));
  }

  async getResult(taskId: string, requestor: TaskRequestor): Promise<TaskOutcome | undefined> {
    const [outcome = null, owner = null] = await this.redis.hmget(this.key(taskId), 'outcome', 'requestor');
    return outcome && owner === requestor ? (JSON.parse(outcome) as TaskOutcome) : undefined;
  }

  async list(requestor: TaskRequestor, cursor?: string, limit?: number): Promise<TaskPage> {
    let after = cursor === undefined ? 0 : parseTaskCursor(cursor);
    const size = Math.max(1, Math.min(limit ?? this.pageSize, this.pageSize));
    const tasks: Task[] = [];
    const listKey = this.listKey(requestor);
    for (;;) {
      const page = await this.redis.zrangebyscore(
        listKey,
        `(${after}`,
        '+inf',
        'WITHSCORES',
        'LIMIT',
        0,
        size + 1,
      );
      if (page.length === 0) return { tasks };
      for (let i = 0; i < page.length; i += 2) {
        const taskId = page[i]!;
        const json = await this.liveJson(taskId);
        if (json === null) {
          await this.redis.zrem(listKey, taskId); // expired: forget it here too
        } else if (tasks.length === size) {
          return { tasks, nextCursor: makeTaskCursor(after) };
        } else {
          tasks.push(JSON.parse(json) as Task);
        }
        after = Number(page[i + 1]);
      }
    }
  }

  async cancel(taskId: string, requestor: TaskRequestor, statusMessage?: string): Promise<Task> {
    if ((await this.get(taskId, requestor)) === undefined) throw unknownTaskError(taskId);
    let terminal: Task | undefined;
    const message = statusMessage ?? 'The task was cancelled by request';
    const task = await this.transition(
      taskId,
      (current) => ({ task: ended(current, 'cancelled', message), outcome: CANCELLED_OUTCOME }),
      (already) => {
        terminal = already;
      },
    );
    if (!task) throw unknownTaskError(taskId);
    if (terminal) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Task "${taskId}" is already ${terminal.status} and cannot be cancelled`,
      );
    }
    return task;
  }

  async delete(taskId: string): Promise<boolean> {
    const requestor = await this.redis.hget(this.key(taskId), 'requestor');
    if (requestor === null) return false;
    await this.redis.multi().del(this.key(taskId)).zrem(this.listKey(requestor), taskId).exec();
    this.announce({ type: 'deleted', taskId, expired: false });
    return true;
  }

  async waitForTerminal(
    taskId: string,
    requestor: TaskRequestor,
    signal?: AbortSignal,
  ): Promise<Task | undefined> {
    if (signal?.aborted) throw signal.reason;
    return new Promise<Task | undefined>((resolve, reject) => {
      let set = this.waiters.get(taskId);
      if (!set) {
        set = new Set();
        this.waiters.set(taskId, set);
      }
      const waiters = set;
      const onAbort = () => {
        done(undefined);
        reject(signal!.reason);
      };
      const done = (task: Task | undefined) => {
        waiters.delete(waiter);
        if (waiters.size === 0 && this.waiters.get(taskId) === waiters) this.waiters.delete(taskId);
        signal?.removeEventListener('abort', onAbort);
        return task;
      };
      const waiter: Waiter = (task) => resolve(done(task));
      waiters.add(waiter);
      this.leases.start(); // its lease is watched while it is waited for
      signal?.addEventListener('abort', onAbort, { once: true });
      // Registered first, read second: a change in between is seen either way.
      this.get(taskId, requestor).then(
        (task) => {
          if (!task || isTerminalStatus(task.status)) waiter(task);
        },
        (error: unknown) => {
          done(undefined);
          reject(error);
        },
      );
    });
  }

  subscribe(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Stops listening to other nodes and renewing leases; the tasks stay in Redis for them (those
   * still running here are failed by the next node that reads them, once their leases lapse).
   */
  close(): void {
    this.leases.stop();
    this.subscriber.disconnect();
    this.listeners.clear();
  }

  // ---------------------------------------------------------------- internals

  /** A task's JSON for `tasks/list`: a live one is read with its lease (and failed if its node died). */
  private async liveJson(taskId: string): Promise<string | null> {
    const json = await this.redis.hget(this.key(taskId), 'task');
    if (json === null || isTerminalStatus((JSON.parse(json) as Task).status)) return json;
    const read = await this.readLive(taskId);
    return read ? JSON.stringify(read.task) : null;
  }

  private key(taskId: string): string {
    return `${this.prefix}${taskId}`;
  }

  private listKey(requestor: TaskRequestor): string {
    return `${this.prefix}of:${requestor}`;
  }

  /**
   * Applies `change` to a live task atomically (retrying when another node changed it first).
   * A terminal task is left as it is (`onTerminal` hears of it). Resolves the task afterwards.
   */
  private async transition(
    taskId: string,
    change: (task: Task) => { task: Task; outcome?: TaskOutcome } | undefined,
    onTerminal?: (task: Task) => void,
  ): Promise<Task | undefined> {
    const key = this.key(taskId);
    for (;;) {
      const [json = null, requestor = null] = await this.redis.hmget(key, 'task', 'requestor');
      if (json === null || requestor === null) {
        this.leases.release(taskId); // expired with its TTL: nothing left to hold
        return undefined;
      }
      const task = JSON.parse(json) as Task;
      if (isTerminalStatus(task.status)) {
        this.leases.release(taskId);
        onTerminal?.(task);
        return task;
      }
      const next = change(task);
      if (!next) return task;
      next.task.lastUpdatedAt = new Date().toISOString();
      const outcome = next.outcome === undefined ? '' : JSON.stringify(next.outcome);
      const swapped = await this.redis.eval(
        COMPARE_AND_SET,
        1,
        key,
        json,
        JSON.stringify(next.task),
        outcome,
      );
      if (swapped !== 1) continue;
      this.announce({ type: 'status', task: next.task, requestor });
      return next.task;
    }
  }

  private async ensureRoom(requestor: TaskRequestor): Promise<void> {
    const listKey = this.listKey(requestor);
    if ((await this.redis.zcard(listKey)) < this.maxPerRequestor) return;
    // Expired tasks leave their ids behind: drop those, then count again.
    for (const taskId of await this.redis.zrange(listKey, '0', '-1')) {
      if ((await this.redis.exists(this.key(taskId))) === 0) await this.redis.zrem(listKey, taskId);
    }
    if ((await this.redis.zcard(listKey)) >= this.maxPerRequestor) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Task limit reached: at most ${this.maxPerRequestor} tasks are kept per requestor until they expire`,
      );
    }
  }

  /** Delivers an event here at once, and to the other nodes through the channel. */
  private announce(event: TaskEvent): void {
    this.deliver(event);
    this.redis
      .publish(this.channel, JSON.stringify({ origin: this.origin, event }))
      .catch((error: unknown) => this.report(error));
  }

  private received(text: string): void {
    let parsed: { origin?: unknown; event?: TaskEvent };
    try {
      parsed = JSON.parse(text) as { origin?: unknown; event?: TaskEvent };
    } catch {
      return;
    }
    if (parsed.origin === this.origin || typeof parsed.event?.type !== 'string') return;
    this.deliver(parsed.event);
  }

  private deliver(event: TaskEvent): void {
    const taskId = event.type === 'status' ? event.task.taskId : event.taskId;
    if (event.type === 'deleted' || isTerminalStatus(event.task.status)) this.leases.release(taskId);
    const waiters = this.waiters.get(taskId);
    if (waiters && (event.type === 'deleted' || isTerminalStatus(event.task.status))) {
      const task = event.type === 'status' ? event.task : undefined;
      for (const waiter of [...waiters]) waiter(task ? { ...task } : undefined);
    }
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.report(error);
      }
    }
  }

  private report(error: unknown): void {
    this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
  }
}

function ended(task: Task, status: Task['status'], message: string | undefined): Task {
  const next: Task = { ...task, status };
  if (message !== undefined) next.statusMessage = message;
  else delete next.statusMessage;
  return next;
}
