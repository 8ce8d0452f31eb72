/**
 * Where the rate limit keeps its token buckets: the {@link RateLimitStore} contract, and the
 * default {@link MemoryBucketStore}, bounded in memory.
 *
 * Why not `rate-limiter-flexible`'s `RateLimiterMemory`: it counts fixed windows, not a token
 * bucket; it arms one `setTimeout` per key to expire it; it reads `Date.now()` itself (no clock to
 * inject in tests); and nothing caps how many keys it holds, so a flood of distinct keys grows it
 * without bound. The store here refills lazily (no timer at all), keeps keys in least-recently-used
 * order (to the second), evicts buckets that have refilled (an idle bucket is the same as none) a
 * batch at a time as it is used, and past `maxKeys` evicts the least recently used. A shared store across nodes
 * (Redis, issue 17) implements the same two methods, e.g. on `rate-limiter-flexible`.
 * @module
 */

/** The bucket's shape: refills `rate` tokens per second, holds at most `burst`. */
export interface BucketLimit {
  readonly rate: number;
  readonly burst: number;
}

/**
 * A token-bucket store. Results may be promises (a networked store); the in-memory one answers
 * synchronously, so a request it admits costs no extra promise.
 *
 * @example
 * ```ts
 * const store: RateLimitStore = { take: (key, limit) => redisBucket.take(key, limit.rate, limit.burst) };
 * ```
 */
export interface RateLimitStore {
  /** Takes one token from `key`'s bucket: `0` when taken, else the milliseconds until one is there. */
  take(key: string, limit: BucketLimit): number | Promise<number>;
  /** Like {@link take} but takes nothing (the HTTP gate's look before a body is read). Optional. */
  peek?(key: string, limit: BucketLimit): number | Promise<number>;
}

/** Options of {@link MemoryBucketStore}. */
export interface MemoryBucketStoreOptions {
  /** Buckets kept at most; past it the least recently used is dropped. Default 10,000. */
  maxKeys?: number;
  /** The clock, in milliseconds. Default `Date.now` (tests inject their own). */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  /** When {@link tokens} was computed. */
  at: number;
  /** When the bucket will be full again: from then on it is the same as no bucket. */
  fullAt: number;
  /** When the bucket last moved to the recently-used end of the map. */
  movedAt: number;
}

/** A used bucket moves to the recently-used end at most this often: LRU to the second, cheaply. */
const MOVE_EVERY_MS = 1_000;
/** Every this many takes, up to {@link SWEEP_LOOK} buckets at the cold end are checked for eviction. */
const SWEEP_EVERY = 64;
const SWEEP_LOOK = 128;

/**
 * The default rate-limit store: token buckets in a `Map`, bounded (see the module comment).
 *
 * @example
 * ```ts
 * const store = new MemoryBucketStore({ maxKeys: 50_000 });
 * server.use(rateLimit({ rate: 20, store }));
 * ```
 */
export class MemoryBucketStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxKeys: number;
  private readonly now: () => number;
  private takes = 0;

  constructor(options: MemoryBucketStoreOptions = {}) {
    const maxKeys = options.maxKeys ?? 10_000;
    if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new TypeError('maxKeys must be a positive integer');
    this.maxKeys = maxKeys;
    this.now = options.now ?? Date.now;
  }

  /** How many buckets are held. */
  get size(): number {
    return this.buckets.size;
  }

  take(key: string, limit: BucketLimit): number {
    const now = this.now();
    if (++this.takes % SWEEP_EVERY === 0) this.sweep(now);
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      if (this.buckets.size >= this.maxKeys) this.dropOldest();
      bucket = { tokens: limit.burst, at: now, fullAt: now, movedAt: now };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = refilled(bucket, limit, now);
      bucket.at = now;
      if (now - bucket.movedAt >= MOVE_EVERY_MS) {
        // The Map's order is least recently used first; moving on every take would cost a delete
        // and an insert per request.
        this.buckets.delete(key);
        this.buckets.set(key, bucket);
        bucket.movedAt = now;
      }
    }
    const wait = bucket.tokens >= 1 ? 0 : msUntilOne(bucket.tokens, limit);
    if (wait === 0) bucket.tokens -= 1;
    bucket.fullAt = now + ((limit.burst - bucket.tokens) * 1000) / limit.rate;
    return wait;
  }

  peek(key: string, limit: BucketLimit): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return 0;
    const tokens = refilled(bucket, limit, this.now());
    return tokens >= 1 ? 0 : msUntilOne(tokens, limit);
  }

  /** Drops the buckets that have refilled among the first few at the least recently used end. */
  private sweep(now: number): void {
    let looked = 0;
    for (const [key, bucket] of this.buckets) {
      if (looked++ >= SWEEP_LOOK) return;
      if (bucket.fullAt <= now) this.buckets.delete(key);
    }
  }

  private dropOldest(): void {
    const oldest = this.buckets.keys().next();
    if (!oldest.done) this.buckets.delete(oldest.value);
  }
}

function refilled(bucket: Bucket, limit: BucketLimit, now: number): number {
  return Math.min(limit.burst, bucket.tokens + (Math.max(0, now - bucket.at) * limit.rate) / 1000);
}

function msUntilOne(tokens: number, limit: BucketLimit): number {
  return Math.max(1, Math.ceil(((1 - tokens) * 1000) / limit.rate));
}
