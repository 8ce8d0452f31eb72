/**
 * Connecting to Redis the way a cluster node needs it: commands fail at once while Redis is
 * unreachable (so requests get a 503 instead of hanging in an offline queue), reconnection is
 * automatic and capped, and connection errors are reported, never thrown at the process.
 * @module
 */
import { Redis } from 'ioredis';

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /** Called with each connection error (Redis went away, refused, timed out). Default: ignored. */
  onError?: (error: Error) => void;
  /** Longest wait (ms) between reconnection attempts. Default 1 000. */
  maxReconnectDelay?: number;
}

/**
 * Opens an ioredis connection to `url` (`redis://host:port/db`, `rediss://` for TLS) and waits
 * until it is ready. Commands reject while Redis is unreachable rather than queueing.
 *
 * @throws {Error} when Redis cannot be reached at first.
 * @example
 * ```ts
 * const redis = await connectRedis('redis://127.0.0.1:6379', { onError: (e) => console.error(e.message) });
 * const sessionStore = new RedisSessionStore(redis);
 * ```
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<Redis> {
  const maxDelay = options.maxReconnectDelay ?? 1_000;
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(50 * attempt, maxDelay),
  });
  redis.on('error', (error: Error) => options.onError?.(error));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}
