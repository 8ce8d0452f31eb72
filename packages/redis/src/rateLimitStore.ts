/**
 * The rate limit's buckets in Redis, so one limit holds for a client across every node of a
 * cluster: a {@link RateLimitStore} for `@mcpkit/server/guards`' `rateLimit`, built on
 * `rate-limiter-flexible`'s `RateLimiterRedis` (one atomic Lua script per request, keys that
 * expire on their own: Redis holds the memory, and it is bounded by the keys' TTL).
 *
 * The shape differs slightly from the in-memory token bucket: `rate-limiter-flexible` counts
 * windows, so a limit `{ rate, burst }` becomes `burst` requests per window of `burst / rate`
 * seconds, rounded up to whole seconds (Redis expiry is in seconds). The average never exceeds
 * `rate`; at a window's edge a client can get up to two bursts back to back.
 *
 * When Redis cannot be reached the store fails closed by default: each request is refused with
 * `-32029` and `data.retryAfterMs` (a clear, retryable error; the limit is not silently lifted
 * while the cluster's other state is unreachable too). `failOpen: true` admits instead.
 * @module
 */
import { McpError } from '@mcpkit/core';
import { type BucketLimit, GuardErrorCode, type RateLimitStore } from '@mcpkit/server/guards';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** Options of {@link RedisBucketStore}. */
export interface RedisBucketStoreOptions {
  /** Prefix of every key. Default `mcpkit:rl`. */
  keyPrefix?: string;
  /** Admit requests while Redis is unreachable (default `false`: refuse them, see the module comment). */
  failOpen?: boolean;
  /** When failing closed, the `retryAfterMs` the refusal carries. Default 1 000. */
  unavailableRetryMs?: number;
  /** Called with each Redis error the store met (it never throws them at the caller). */
  onError?: (error: Error) => void;
}

/**
 * A shared rate-limit store in Redis, for `rateLimit({ store })` on every node.
 *
 * @example
 * ```ts
 * import { connectRedis, RedisBucketStore } from '@mcpkit/redis';
 * import { rateLimit } from '@mcpkit/server/guards';
 * const redis = await connectRedis('redis://127.0.0.1:6379');
 * server.use(rateLimit({ rate: 20, store: new RedisBucketStore(redis) }));
 * ```
 */
export class RedisBucketStore implements RateLimitStore {
  /** One limiter per distinct limit (a server has a handful), made on first use. */
  private readonly limiters = new Map<string, RateLimiterRedis>();
  private readonly keyPrefix: string;
  private readonly failOpen: boolean;
  private readonly unavailableRetryMs: number;
  private readonly onError: ((error: Error) => void) | undefined;

  constructor(
    private readonly redis: Redis,
    options: RedisBucketStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'mcpkit:rl';
    this.failOpen = options.failOpen ?? false;
    this.unavailableRetryMs = options.unavailableRetryMs ?? 1_000;
    this.onError = options.onError;
  }

  async take(key: string, limit: BucketLimit): Promise<number> {
    try {
      await this.limiter(limit).consume(key, 1);
      return 0;
    } catch (error) {
      if (error instanceof RateLimiterRes) return Math.max(1, error.msBeforeNext);
      return this.unavailable(error);
    }
  }

  async peek(key: string, limit: BucketLimit): Promise<number> {
    try {
      const res = await this.limiter(limit).get(key);
      return res === null || res.remainingPoints > 0 ? 0 : Math.max(1, res.msBeforeNext);
    } catch (error) {
      this.report(error);
      // Failing closed, the HTTP gate answers 429 with Retry-After: the same refusal, before the body is read.
      return this.failOpen ? 0 : this.unavailableRetryMs;
    }
  }

  private limiter(limit: BucketLimit): RateLimiterRedis {
    const id = `${limit.rate}/${limit.burst}`;
    let limiter = this.limiters.get(id);
    if (limiter === undefined) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.keyPrefix}:${id}`,
        points: Math.max(1, Math.floor(limit.burst)),
        duration: Math.max(1, Math.ceil(limit.burst / limit.rate)),
        rejectIfRedisNotReady: true,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /** Redis failed: admit (fail open) or refuse with a clear, retryable error (fail closed). */
  private unavailable(error: unknown): number {
    this.report(error);
    if (this.failOpen) return 0;
    throw new McpError(
      GuardErrorCode.TooManyRequests,
      `Rate limit store unavailable: retry after ${this.unavailableRetryMs} ms`,
      { retryAfterMs: this.unavailableRetryMs },
    );
  }

  private report(error: unknown): void {
    // rejectIfRedisNotReady rejects with a plain Error; anything else is wrapped so onError gets one.
    this.onError?.(error instanceof Error ? error : new Error(String(error)));
  }
}
