/**
 * `@mcpkit/redis`: run several mcpkit Streamable HTTP servers as one, behind any load balancer,
 * with their shared state in Redis (Node only).
 *
 * - {@link RedisSessionStore}: session records, so any node serves any session (no stickiness);
 * - {@link RedisEventStore}: resumable SSE streams on Redis Streams, resumable on any node;
 * - {@link RedisTaskStore}: tasks created on one node are polled, cancelled and resulted on any;
 * - {@link RedisBucketStore}: the rate limit's buckets, so one limit holds across nodes;
 * - {@link connectRedis}: an ioredis connection that fails fast while Redis is down (503s, not hangs).
 *
 * @example
 * ```ts
 * import { connectRedis, RedisEventStore, RedisSessionStore } from '@mcpkit/redis';
 * const redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
 * const handler = createStreamableHttpHandler(server, {
 *   sessionStore: new RedisSessionStore(redis),
 *   eventStore: new RedisEventStore(redis),
 * });
 * ```
 * @module
 */
export { type ConnectRedisOptions, connectRedis } from './client.js';
export { RedisEventStore, type RedisEventStoreOptions } from './eventStore.js';
export { RedisBucketStore, type RedisBucketStoreOptions } from './rateLimitStore.js';
export { RedisSessionStore, type RedisSessionStoreOptions } from './sessionStore.js';
export { RedisTaskStore, type RedisTaskStoreOptions } from './taskStore.js';
