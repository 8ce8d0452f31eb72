/**
 * Leases of running tasks, so that a task whose node died does not stay `working` until its TTL.
 *
 * The node that creates a task runs it and holds its lease (`task:lease:<id>`, a key with a short
 * expiry), renewed by one timer per store for all its tasks in one pipelined round trip. A node
 * that reads a live task whose lease is gone fails it (a small Lua script checks, atomically, that
 * the lease is still gone and the task unchanged, so a late renewal or a result wins over it). The
 * same timer watches the leases of the tasks this node's `tasks/result` requests wait for.
 * @module
 */
import { ErrorCode, isTerminalStatus, type Task, type TaskOutcome } from '@mcpkit/core';
import type { Redis } from 'ioredis';

/**
 * Ends a live task as failed if its lease is gone and it is still what the caller read:
 * KEYS = task hash, lease; ARGV = task JSON read, failed task JSON, outcome JSON.
 */
const FAIL_IF_LEASE_LOST = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('HGET', KEYS[1], 'task') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'task', ARGV[2], 'outcome', ARGV[3])
return 1`;

/** The hash field marking a task that has a lease (tasks stored before leases have none). */
const LEASED = 'leased';

const LOST_MESSAGE = 'The server node running this task stopped before it finished (its lease expired)';
const LOST_OUTCOME: TaskOutcome = { error: { code: ErrorCode.InternalError, message: LOST_MESSAGE } };

/** A task as read with its lease; `failed` when this read failed it (the caller announces it). */
export interface LeasedRead {
  readonly task: Task;
  readonly requestor: string;
  readonly failed: boolean;
}

/**
 * The leases one task store holds and watches.
 *
 * @example
 * ```ts
 * const leases = new TaskLeases(redis, 'mcpkit:task:', 3_000, () => [], (taskId) => console.log('lost', taskId));
 * const write = redis.multi();
 * leases.take(write, 'task-1');
 * await write.exec();
 * ```
 */
export class TaskLeases {
  /** Tasks this node runs: their leases are renewed. */
  private readonly held = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** How long (ms) a task outlives its node's silence. */
    readonly leaseMs: number,
    /** The tasks someone here waits for (their leases are checked while they wait). */
    private readonly watched: () => Iterable<string>,
    /** Called with a watched task whose lease is gone. */
    private readonly lost: (taskId: string) => void,
  ) {}

  key(taskId: string): string {
    return `${this.prefix}lease:${taskId}`;
  }

  /** Adds the lease of a task this node will run to the transaction that creates it. */
  take(write: ReturnType<Redis['multi']>, taskId: string): void {
    write.hset(`${this.prefix}${taskId}`, LEASED, '1').set(this.key(taskId), '1', 'PX', this.leaseMs);
    this.held.add(taskId);
    this.start();
  }

  /** The task ended (here or elsewhere): its lease, if held here, goes. */
  release(taskId: string): void {
    if (!this.held.delete(taskId)) return;
    this.redis.del(this.key(taskId)).catch(() => {}); // it expires by itself anyway
  }

  /** Makes sure the timer runs (a task is held or waited for). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.timer.unref?.();
  }

  /**
   * The task and its requestor, read with its lease in one round trip. A live task whose lease is
   * gone (its node died) is failed first, unless its lease or the task changed meanwhile.
   */
  async read(taskId: string): Promise<LeasedRead | undefined> {
    const key = `${this.prefix}${taskId}`;
    const results = await this.redis
      .pipeline()
      .hmget(key, 'task', 'requestor', LEASED)
      .exists(this.key(taskId))
      .exec();
    const [fields, lease] = (results ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    }) as [(string | null)[] | undefined, number | undefined];
    const [json = null, requestor = null, leased = null] = fields ?? [];
    if (json === null || requestor === null) return undefined;
    const task = JSON.parse(json) as Task;
    if (isTerminalStatus(task.status) || leased === null || lease === 1)
      return { task, requestor, failed: false };
    const { statusMessage: _, ...rest } = task;
    const failed: Task = {
      ...rest,
      status: 'failed',
      statusMessage: LOST_MESSAGE,
      lastUpdatedAt: new Date().toISOString(),
    };
    const args = [json, JSON.stringify(failed), JSON.stringify(LOST_OUTCOME)];
    if ((await this.redis.eval(FAIL_IF_LEASE_LOST, 2, key, this.key(taskId), ...args)) === 1)
      return { task: failed, requestor, failed: true };
    const now = await this.redis.hget(key, 'task');
    return { task: now === null ? task : (JSON.parse(now) as Task), requestor, failed: false };
  }

  /** Stops renewing: the tasks held here will be failed by the other nodes once their leases lapse. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.held.clear();
  }

  /** One pipelined round trip: renew every lease held, check every one waited for. */
  private tick(): void {
    const waited = [...this.watched()].filter((taskId) => !this.held.has(taskId));
    if (this.held.size === 0 && waited.length === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const pipeline = this.redis.pipeline();
    // Set again rather than extended: a lease that lapsed while this node paused is taken back,
    // unless another node has already failed the task (then the task's end releases it here).
    for (const taskId of this.held) pipeline.set(this.key(taskId), '1', 'PX', this.leaseMs);
    for (const taskId of waited) pipeline.exists(this.key(taskId));
    const skip = this.held.size;
    pipeline.exec().then(
      (results) => {
        waited.forEach((taskId, i) => {
          if (results?.[skip + i]?.[1] === 0) this.lost(taskId);
        });
      },
      () => {}, // Redis is away: the next period tries again
    );
  }
}
