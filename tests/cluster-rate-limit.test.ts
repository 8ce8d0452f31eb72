/**
 * The rate limit's Redis store (`@mcpkit/redis` RedisBucketStore) against a real redis-server:
 * two server instances, each with its own Redis connection, enforce one limit for one principal
 * (refusals carry `data.retryAfterMs`), another principal has its own; when Redis goes away the
 * store fails closed with a clear retryable error (or open, when asked), never a crash, and
 * serves again once Redis is back. And `mcpkit serve --http --redis URL --rate-limit …` nodes share it:
 * one session served by two nodes in turn counts against one limit.
 */
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair, McpError } from '@mcpkit/core';
import { connectRedis, RedisBucketStore, type RedisBucketStoreOptions } from '@mcpkit/redis';
import { McpServer } from '@mcpkit/server';
import { GuardErrorCode, rateLimit } from '@mcpkit/server/guards';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { NodeProcess, RedisProcess } from './support/cluster.js';
import { eventually } from './support/eventually.js';

let redis: RedisProcess;
const connections: Redis[] = [];
const clients: McpClient[] = [];

beforeAll(async () => {
  redis = await RedisProcess.start();
}, 30_000);

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

afterAll(async () => {
  for (const connection of connections) connection.disconnect();
  await redis?.remove();
});

/** One "node": its own Redis connection and store, a server limited to `burst` calls per window. */
async function node(prefix: string, storeOptions: RedisBucketStoreOptions = {}) {
  const connection = await connectRedis(redis.url);
  connections.push(connection);
  const store = new RedisBucketStore(connection, { keyPrefix: prefix, ...storeOptions });
  const server = new McpServer({ name: 'limited', version: '1.0.0' }, { onError: () => {} });
  server.tool('work', { description: 'Does a unit of work' }, () => 'done');
  // One call per 10 s on average, bursts of 3: no refill can happen during the test.
  server.use(rateLimit({ rate: 0.3, burst: 3, store, methods: ['tools/call'] }));
  const connectAs = async (clientId: string) => {
    const [clientSide, serverSide] = createInMemoryPair({ extra: { authInfo: { token: 't', clientId } } });
    server.connect(serverSide);
    const mcp = new McpClient({ name: clientId, version: '1' }, { protocolEra: '2025' });
    await mcp.connect(clientSide);
    clients.push(mcp);
    return mcp;
  };
  return Object.assign(connectAs, { store });
}

async function refusal(mcp: McpClient): Promise<McpError> {
  const error = await mcp.callTool('work').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

it('holds one limit for a principal across two server instances', async () => {
  const [a, b] = [await node('rl-shared'), await node('rl-shared')];
  const [aliceOnA, aliceOnB, bobOnB] = [await a('alice'), await b('alice'), await b('bob')];
  await aliceOnA.callTool('work');
  await aliceOnB.callTool('work');
  await aliceOnA.callTool('work');
  for (const mcp of [aliceOnA, aliceOnB]) {
    const error = await refusal(mcp);
    expect(error.code).toBe(GuardErrorCode.TooManyRequests);
    const { retryAfterMs } = error.data as { retryAfterMs: number };
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(10_000);
  }
  // The HTTP gate's look, from either node, sees the shared empty bucket without taking from it.
  const limit = { rate: 0.3, burst: 3 };
  expect(await b.store.peek('principal:alice', limit)).toBeGreaterThan(0);
  expect(await a.store.peek('principal:bob', limit)).toBe(0);
  // Another principal has a bucket of its own.
  for (let i = 0; i < 3; i++) await bobOnB.callTool('work');
  expect((await refusal(bobOnB)).code).toBe(GuardErrorCode.TooManyRequests);
});

it('fails closed while Redis is down (a clear error, no crash), open when asked, and recovers', async () => {
  const errors: Error[] = [];
  const closedNode = await node('rl-down', { onError: (e) => errors.push(e) });
  const closed = await closedNode('carol');
  const open = await (await node('rl-open', { failOpen: true }))('dave');
  await closed.callTool('work');
  await redis.stop();
  try {
    const error = await refusal(closed);
    expect(error.code).toBe(GuardErrorCode.TooManyRequests);
    expect(error.message).toMatch(/Rate limit store unavailable/);
    expect(error.data).toEqual({ retryAfterMs: 1_000 });
    expect(errors.length).toBeGreaterThan(0);
    // Failing closed, the HTTP gate refuses too (429 with Retry-After).
    expect(await closedNode.store.peek('principal:carol', { rate: 0.3, burst: 3 })).toBe(1_000);
    // Failing open, the same outage admits the call.
    expect(await open.callTool('work')).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
  } finally {
    await redis.start();
  }
  // connectRedis reconnects by itself; the bucket is served again (one of three tokens was used).
  let served = false;
  const retry = () =>
    closed.callTool('work').then(
      () => (served = true),
      () => setTimeout(retry, 50),
    );
  void retry();
  await eventually(() => served, 'served again after Redis came back');
});

/** POSTs one JSON-RPC message to a node; returns the answer (JSON or the SSE frame) and the session id. */
async function post(node: NodeProcess, message: object, sessionId?: string) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  if (sessionId) headers['mcp-session-id'] = sessionId;
  const response = await fetch(`http://127.0.0.1:${node.port}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify(message),
  });
  const text = await response.text();
  const frames = (response.headers.get('content-type') ?? '').includes('json')
    ? [text]
    : text.split('\n').flatMap((line) => (line.startsWith('data:') ? [line.slice(5)] : []));
  const answer = frames
    .filter((frame) => frame.trim() !== '')
    .map((frame) => JSON.parse(frame))
    .find((m) => 'result' in m || 'error' in m);
  return { answer, sessionId: response.headers.get('mcp-session-id') ?? sessionId };
}

it('mcpkit serve --redis --rate-limit: the nodes of a cluster share one limit per client', async () => {
  // 6 a minute in bursts of 3: no token comes back during the test.
  const args = ['--rate-limit', '6/m,burst=3'];
  const nodes = await Promise.all([0, 1].map(() => NodeProcess.start(redis.url, 0, args)));
  try {
    const init = await post(nodes[0]!, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'rl', version: '1' } },
    });
    const session = init.sessionId!;
    await post(nodes[0]!, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    // The session is served by either node (no stickiness); its requests count against one bucket.
    const answers = [];
    for (let id = 1; id <= 4; id++) {
      answers.push(
        (await post(nodes[id % 2]!, { jsonrpc: '2.0', id, method: 'tools/list' }, session)).answer,
      );
    }
    expect(answers.slice(0, 3).every((a) => Array.isArray(a.result?.tools))).toBe(true);
    expect(answers[3].error).toMatchObject({
      code: GuardErrorCode.TooManyRequests,
      data: { retryAfterMs: expect.any(Number) },
    });
  } finally {
    for (const node of nodes) await node.kill();
  }
}, 60_000);
