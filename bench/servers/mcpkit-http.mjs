/**
 * mcpkit Streamable HTTP server: one server definition and one web-standard handler for every
 * session (json / sse modes) or every request (stateless), on node:http through the adapter; with
 * `BENCH_REDIS_URL`, sessions and events in Redis (one node of a cluster).
 * @module
 */
import { createServer } from 'node:http';
import { toNodeListener } from '@mcpkit/node/http';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { httpServerOptions, listenAndAnnounce } from '../lib/serve.mjs';
import { benchRateLimiter, createMcpkitEchoServer } from './mcpkit-echo.mjs';

const options = httpServerOptions();
const handler = createStreamableHttpHandler(createMcpkitEchoServer(), {
  stateless: options.mode === 'stateless',
  enableJsonResponse: options.mode !== 'sse',
  gate: benchRateLimiter?.httpGate,
  ...(await clusterStores(process.env.BENCH_REDIS_URL)),
});

/** With `BENCH_REDIS_URL` (bench/scenarios/cluster.mjs): one node of a cluster, state in Redis. */
async function clusterStores(url) {
  if (!url) return {};
  const { connectRedis, RedisEventStore, RedisSessionStore } = await import('@mcpkit/redis');
  const redis = await connectRedis(url);
  return { sessionStore: new RedisSessionStore(redis), eventStore: new RedisEventStore(redis) };
}
const listener = toNodeListener(handler);
const httpServer = createServer((req, res) => {
  if (req.url !== options.path) {
    res.writeHead(404).end();
    return;
  }
  listener(req, res);
});

await listenAndAnnounce(httpServer, options);
