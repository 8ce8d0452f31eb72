/**
 * Rate limits per downstream session and upstream server: a token bucket for each pair, one for
 * tool calls and one for sampling, kept in a `RateLimitStore` of `@mcpkit/server/guards` (the
 * in-memory one by default: lazy refill, no timers, bounded). A refused request is `-32029`, the
 * guards' code, with a message naming the limit and `data.retryAfterMs`.
 * @module
 */
import { McpError } from '@mcpkit/core';
import { GuardErrorCode, MemoryBucketStore, type RateLimitStore } from '@mcpkit/server/guards';

/**
 * One token bucket: `rate` per second on average, at most `burst` at once (default `rate`).
 *
 * @example
 * ```ts
 * const tenPerSecond: RateLimit = { rate: 10 };
 * ```
 */
export interface RateLimit {
  readonly rate: number;
  readonly burst?: number;
}

/**
 * Options of the gateway's `limits`: each bucket is per downstream session *and* upstream server,
 * so one client cannot use up another's share, nor one server's share another's.
 *
 * @example
 * ```ts
 * const limits: GatewayLimits = { toolCalls: { rate: 10 }, sampling: { rate: 1, burst: 3 } };
 * ```
 */
export interface GatewayLimits {
  /** `tools/call` requests of one session to one server. */
  toolCalls?: RateLimit;
  /** `sampling/createMessage` requests of one server sent to one session. */
  sampling?: RateLimit;
  /**
   * `tools/call` requests to one server from all sessions together: what that server can take,
   * however many clients share the gateway. Checked after the session's own bucket.
   */
  serverToolCalls?: RateLimit;
  /** Where the buckets live. Default a `MemoryBucketStore` (pass one with `now` to test). */
  store?: RateLimitStore;
}

type Kind = 'toolCalls' | 'sampling' | 'serverToolCalls';

const KINDS = ['toolCalls', 'sampling', 'serverToolCalls'] as const;

const WHAT: Record<Kind, string> = {
  toolCalls: 'tool calls per second (bursts of {burst}) per client',
  sampling: 'sampling requests per second (bursts of {burst}) per client',
  serverToolCalls: 'tool calls per second (bursts of {burst}) from all clients together',
};

/**
 * The gateway's buckets.
 *
 * @example
 * ```ts
 * const limiter = new SessionLimiter({ toolCalls: { rate: 10 } });
 * await limiter.take('toolCalls', session.key, 'everything'); // throws -32029 past the limit
 * ```
 */
export class SessionLimiter {
  private readonly store: RateLimitStore;
  private readonly buckets: Partial<Record<Kind, { rate: number; burst: number }>> = {};

  /** @throws {TypeError} for a rate that is not a positive number, or a burst below 1. */
  constructor(limits: GatewayLimits) {
    this.store = limits.store ?? new MemoryBucketStore();
    for (const kind of KINDS) {
      const limit = limits[kind];
      if (!limit) continue;
      const burst = limit.burst ?? limit.rate;
      if (!(limit.rate > 0) || !Number.isFinite(limit.rate) || !(burst >= 1) || !Number.isFinite(burst)) {
        throw new TypeError(`limits.${kind}: rate must be a positive number and burst at least 1`);
      }
      this.buckets[kind] = { rate: limit.rate, burst };
    }
  }

  /**
   * Takes a token for `session` on `server` (for a tool call, then one of the server's own
   * bucket), or throws `-32029` naming the limit.
   */
  async take(kind: 'toolCalls' | 'sampling', session: string, server: string): Promise<void> {
    await this.takeOne(kind, `${session}\u0000${server}`, server);
    if (kind === 'toolCalls') await this.takeOne('serverToolCalls', server, server);
  }

  private async takeOne(kind: Kind, key: string, server: string): Promise<void> {
    const limit = this.buckets[kind];
    if (!limit) return;
    const wait = await this.store.take(`${kind}\u0000${key}`, limit);
    if (wait <= 0) return;
    const retryAfterMs = Math.max(1, Math.ceil(wait));
    const what = WHAT[kind].replace('{burst}', String(limit.burst));
    throw new McpError(
      GuardErrorCode.TooManyRequests,
      `Rate limit exceeded: at most ${limit.rate} ${what} for server "${server}"; retry after ${retryAfterMs} ms`,
      { retryAfterMs, limit: { rate: limit.rate, burst: limit.burst } },
    );
  }
}
