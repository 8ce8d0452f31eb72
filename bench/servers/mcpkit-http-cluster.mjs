/**
 * bench/servers/mcpkit-http.mjs as one node of a cluster (bench/scenarios/cluster.mjs): sessions
 * and events in the Redis at `BENCH_REDIS_URL`.
 * @module
 */
import { connectRedis, RedisEventStore, RedisSessionStore } from '@mcpkit/redis';
import { serveEcho } from './mcpkit-http.mjs';

const url = process.env.BENCH_REDIS_URL;
if (!url) throw new Error('BENCH_REDIS_URL must name the Redis of the cluster');
const redis = await connectRedis(url);
await serveEcho({ sessionStore: new RedisSessionStore(redis), eventStore: new RedisEventStore(redis) });
