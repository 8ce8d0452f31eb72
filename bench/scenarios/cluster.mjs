/**
 * Issue 17's cluster rows, mcpkit only, side by side at 50 connections (stateful Streamable HTTP,
 * JSON responses): one node in memory, one node on Redis (sessions and events in a real
 * `redis-server`), and three nodes on Redis behind nginx round-robin (keep-alive to the nodes, as
 * in production); and one node on Redis with SSE responses. Target: the Redis node at least 0.5x the in-memory one. Each round runs the
 * variants in an order rotated by the round, each in fresh server processes on one Redis. Beside
 * the rate, each row records the nodes' CPU per request and, on Redis, the Redis commands each
 * request cost (from `INFO commandstats`).
 * Needs `redis-server` and nginx (scripts/install-cluster-deps.sh).
 * @module
 */
import path from 'node:path';
import { Redis } from 'ioredis';
import { Balancer, RedisProcess } from '../lib/cluster.mjs';
import { echoCallRequest, PROBE_TEXT } from '../lib/echo.mjs';
import { checkedEchoCall, openSession } from '../lib/mcp-http.mjs';
import { runWorker, startServer } from '../lib/proc.mjs';
import { rotate } from '../lib/stats.mjs';

const CONNECTIONS = 50;

const VARIANTS = [
  { id: 'memory', label: 'one node, in memory', nodes: 1, redis: false, mode: 'json' },
  { id: 'redis', label: 'one node on Redis', nodes: 1, redis: true, mode: 'json' },
  { id: 'nginx3', label: 'three nodes on Redis behind nginx', nodes: 3, redis: true, mode: 'json' },
  // SSE answers write the event stream and the fail-over record: compare with http-sse-50.
  { id: 'redis-sse', label: 'one node on Redis, SSE responses', nodes: 1, redis: true, mode: 'sse' },
];

let calls = 0;

export const clusterGroup = {
  id: 'http-cluster',
  title: 'Streamable HTTP cluster (50 connections)',
  rows: VARIANTS.map((variant) => ({
    id: `http-cluster-${variant.id}`,
    label: `HTTP cluster, ${variant.label}`,
    unit: 'req/s',
    better: 'higher',
    variant,
  })),
  rounds: (profile) => profile.rounds.http,
  participates: (impl) => impl.id === 'mcpkit' && Boolean(impl.files.httpServer),
  async measure(impl, ctx, rows) {
    const redis = await RedisProcess.start();
    const probe = new Redis(redis.url);
    const samples = {};
    const notes = [];
    let stderr = '';
    try {
      for (const row of rotate(rows, calls++)) {
        const result = await measureVariant(impl, ctx, row, redis.url, probe);
        samples[row.id] = result.sample;
        notes.push(...result.notes);
        stderr += result.stderr;
      }
    } finally {
      probe.disconnect();
      await redis.remove();
    }
    return { samples, stderr, notes };
  },
};

/** Starts the variant's nodes (and nginx), checks one call, loads it, and stops everything. */
async function measureVariant(impl, ctx, row, redisUrl, probe) {
  const { variant } = row;
  const env = {
    BENCH_HTTP_MODE: variant.mode,
    BENCH_PORT: '0',
    ...(variant.redis ? { BENCH_REDIS_URL: redisUrl } : {}),
  };
  const servers = [];
  let balancer;
  const outcome = { sample: undefined, notes: [], stderr: '' };
  const notes = outcome.notes;
  try {
    for (let i = 0; i < variant.nodes; i++) {
      servers.push(
        await startServer({
          // The in-memory row runs the plain server, the others its cluster-node variant.
          script: variant.redis
            ? path.join(ctx.paths.bench, 'servers/mcpkit-http-cluster.mjs')
            : impl.files.httpServer,
          env,
          cwd: ctx.paths.bench,
          agent: ctx.paths.agent,
          nodeArgs: ctx.nodeArgs(row.id, impl.id),
        }),
      );
    }
    if (variant.nodes > 1)
      balancer = await Balancer.start(
        servers.map((server) => server.port),
        { keepalive: true },
      );
    const url = balancer?.url ?? `http://127.0.0.1:${servers[0].port}/mcp`;
    const { headers } = await openSession(url);
    const contentType = variant.mode === 'sse' ? 'text/event-stream' : 'application/json';
    const check = { text: PROBE_TEXT, expectContentType: contentType };
    // Through nginx, one call per node: the session must be served by each.
    for (let i = 0; i < variant.nodes; i++) await checkedEchoCall(url, headers, check);
    const body = JSON.stringify(echoCallRequest('[<id>]', PROBE_TEXT));
    const load = async (durationS) => {
      const task = {
        url,
        headers,
        body,
        connections: CONNECTIONS,
        warmupS: 0,
        durationS,
        expectText: PROBE_TEXT,
      };
      const { reply, stderr } = await runWorker(ctx.paths.loadWorker, task, {
        timeoutMs: 60_000 + durationS * 3_000,
        cwd: ctx.paths.bench,
      });
      if (stderr.trim()) notes.push(`load generator stderr: ${stderr.trim().slice(0, 300)}`);
      if (!reply.ok) throw new Error(reply.error);
      return reply.result;
    };
    if (ctx.profile.http.warmupS > 0) await load(ctx.profile.http.warmupS);
    const cpu = async () => {
      let total = 0;
      for (const server of servers) {
        const { cpu: used } = await server.request('bench:memory', { gc: false });
        total += used.user + used.system;
      }
      return total;
    };
    const before = await cpu();
    const commandsBefore = await commandCount(probe);
    const result = await load(ctx.profile.http.durationS);
    const cpuUs = (await cpu()) - before;
    const commands = (await commandCount(probe)) - commandsBefore - 1; // the INFO itself
    await checkedEchoCall(url, headers, check);
    // Server CPU per request over all nodes (nginx's and Redis's own CPU not included).
    outcome.sample = { ...result, serverCpuUsPerRequest: cpuUs / result.requests };
    if (variant.redis) outcome.sample.redisCommandsPerRequest = commands / result.requests;
  } finally {
    await balancer?.stop();
    outcome.stderr = servers.map((server) => server.stderr()).join('');
    for (const server of servers) await server.stop();
  }
  return outcome;
}

/** Commands Redis has run since it started, all kinds together. */
async function commandCount(probe) {
  const info = await probe.info('commandstats');
  let total = 0;
  for (const match of info.matchAll(/calls=(\d+)/g)) total += Number(match[1]);
  return total;
}
