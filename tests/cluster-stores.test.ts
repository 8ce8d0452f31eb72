/**
 * The stores of `@mcpkit/redis` against a real redis-server, each "node" with its own connection:
 * event ids unique across nodes and replayable from any, a stream followed live from another node
 * until it ends, streams bounded by length and by age; a call whose node stops renewing its lease
 * taken over by exactly one follower; tasks created on one node, cancelled on another, and a late
 * result that cannot undo the cancel.
 */
import { connectRedis, RedisEventStore, RedisTaskStore } from '@mcpkit/redis';
import type { OrphanedStream } from '@mcpkit/server/http';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisProcess } from './support/cluster.js';
import { eventually } from './support/eventually.js';

let redis: RedisProcess;
const connections: Redis[] = [];

beforeAll(async () => {
  redis = await RedisProcess.start();
}, 30_000);

afterAll(async () => {
  for (const connection of connections) connection.disconnect();
  await redis?.remove();
});

async function connect(): Promise<Redis> {
  const connection = await connectRedis(redis.url);
  connections.push(connection);
  return connection;
}

it('gives event ids unique across nodes and replays them from any node', async () => {
  const [a, b] = [new RedisEventStore(await connect()), new RedisEventStore(await connect())];
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(await a.storeEvent('s-a', `a${i}`));
    ids.push(await b.storeEvent('s-b', `b${i}`));
  }
  expect(new Set(ids).size).toBe(10);
  expect(await b.streamIdOf(ids[0]!)).toBe('s-a');
  const replayed: string[] = [];
  expect(await b.replayEventsAfter(ids[0]!, (_id, data) => void replayed.push(data))).toBe('s-a');
  expect(replayed).toEqual(['a1', 'a2', 'a3', 'a4']);
  for (const bad of ['s-a/1-x', 's-a', '/1-0', 's-a/-1', 'nope/1-0']) {
    expect(await b.replayEventsAfter(bad, () => {})).toBeUndefined();
  }
});

it('follows a stream another node is still writing, until it ends', async () => {
  const writer = new RedisEventStore(await connect());
  const reader = new RedisEventStore(await connect(), { followPoll: 50 });
  const start = await writer.storeEvent('live', '');
  const seen: string[] = [];
  const following = reader.followEventsAfter(
    start,
    (_id, data) => void seen.push(data),
    () => false,
  );
  for (let i = 0; i < 3; i++) {
    await writer.storeEvent('live', `m${i}`);
    await eventually(() => seen.length === i + 1, `message ${i}`);
  }
  await writer.endStream('live');
  await writer.storeEvent('live', 'after the end');
  expect(await following).toBe('live');
  expect(seen).toEqual(['m0', 'm1', 'm2']);
});

it('hands a call whose node went silent to one follower, with its request and what it stored', async () => {
  const dead = new RedisEventStore(await connect(), { leaseMs: 1_000 });
  const request = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } });
  const start = await dead.storeEvent('orphan', '');
  await dead.claimStream('orphan', request);
  await dead.storeEvent('orphan', 'p1');
  await dead.storeEvent('orphan', 'p2');
  // While the lease is renewed, a follower waits; followers that take over get the call once.
  const orphans: OrphanedStream[] = [];
  const followers = [0, 1].map(async () => {
    const store = new RedisEventStore(await connect(), { followPoll: 50, leaseMs: 150 });
    const seen: string[] = [];
    const following = store.followEventsAfter(
      start,
      (_id, data) => void seen.push(data),
      () => false,
      (orphan) => {
        orphans.push(orphan);
        // The node that took it over runs the call: its messages go on the same stream.
        void store.storeEvent(orphan.streamId, 'answer').then(() => store.endStream(orphan.streamId));
        return true;
      },
    );
    return { seen, following };
  });
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(orphans).toEqual([]); // the lease is alive: nobody takes over
  dead.close(); // the node dies: its lease is no longer renewed
  const done = await Promise.all(followers);
  for (const { seen, following } of done) {
    expect(await following).toBe('orphan');
    expect(seen).toEqual(['p1', 'p2', 'answer']);
  }
  expect(orphans).toEqual([{ streamId: 'orphan', request, earlier: ['p1', 'p2'] }]);
  // The end released the lease and the request with it.
  const keys = await connections[0]!.keys('mcpkit:events:*orphan');
  expect(keys).toEqual(['mcpkit:events:orphan']);
});

it('refuses writes to a call whose lease another node took while this one paused', async () => {
  const connection = await connect();
  const slow = new RedisEventStore(connection, { leaseMs: 300 });
  await slow.claimStream('paused', '{"jsonrpc":"2.0","id":1,"method":"tools/call"}');
  await slow.storeEvent('paused', 'first run');
  // Another node took the call over (its lease lapsed while this node was paused).
  await connection.set('mcpkit:events:lease:paused', 'another node', 'PX', 60_000);
  let refused: unknown;
  for (let attempt = 0; attempt < 250 && refused === undefined; attempt++) {
    await slow.storeEvent('paused', 'late').catch((error: unknown) => {
      refused = error;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(String(refused)).toMatch(/Another node runs the call/);
  // Its end is the other node's to write; the lease stays the other node's.
  await slow.endStream('paused');
  const entries = await connection.xrange('mcpkit:events:paused', '-', '+');
  expect(entries.some(([, fields]) => fields[0] === 'e')).toBe(false);
  expect(await connection.get('mcpkit:events:lease:paused')).toBe('another node');
  slow.close();
});

it('bounds each stream by length and by age', async () => {
  const connection = await connect();
  const short = new RedisEventStore(connection, { maxEventsPerStream: 10 });
  for (let i = 0; i < 1_000; i++) await short.storeEvent('long', String(i));
  // MAXLEN ~ trims whole macro nodes (100 entries by default): far below what was written.
  expect(await connection.xlen('mcpkit:events:long')).toBeLessThanOrEqual(200);

  const brief = new RedisEventStore(connection, { maxAge: 100 });
  const id = await brief.storeEvent('brief', 'soon gone');
  expect(await brief.streamIdOf(id)).toBe('brief');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await brief.streamIdOf(id)).toBeUndefined();
});

it('runs a task created on one node, cancelled on another; a late result does not undo it', async () => {
  const a = new RedisTaskStore(await connect());
  const b = new RedisTaskStore(await connect());
  try {
    const task = await a.create({ method: 'tools/call' }, 'alice', { ttl: 60_000 });
    expect(await b.get(task.taskId, 'alice')).toMatchObject({ taskId: task.taskId, status: 'working' });
    expect(await b.get(task.taskId, 'mallory')).toBeUndefined();
    const statuses: string[] = [];
    a.subscribe((event) => {
      if (event.type === 'status' && event.task.taskId === task.taskId) statuses.push(event.task.status);
    });
    const waited = a.waitForTerminal(task.taskId, 'alice');
    expect((await b.cancel(task.taskId, 'alice')).status).toBe('cancelled');
    expect((await waited)?.status).toBe('cancelled');
    await eventually(() => statuses.includes('cancelled'), 'the cancel event on the other node');
    const late = await a.setResult(task.taskId, 'completed', { result: { content: [] } });
    expect(late?.status).toBe('cancelled');
    expect(await b.getResult(task.taskId, 'alice')).toMatchObject({ error: { code: -32603 } });
    await expect(a.cancel(task.taskId, 'alice')).rejects.toMatchObject({ code: -32602 });

    const more = [];
    for (let i = 0; i < 3; i++) more.push(await a.create({ method: 'tools/call' }, 'bob', { ttl: null }));
    const first = await b.list('bob', undefined, 2);
    expect(first.tasks.map((t) => t.taskId)).toEqual(more.slice(0, 2).map((t) => t.taskId));
    const second = await b.list('bob', first.nextCursor, 2);
    expect(second).toEqual({ tasks: [more[2]] });
    expect(await b.delete(more[0]!.taskId)).toBe(true);
    expect((await a.list('bob')).tasks).toHaveLength(2);
  } finally {
    a.close();
    b.close();
  }
});

it('keeps a task working while its node renews its lease, and fails it once the node goes silent', async () => {
  const leaseMs = 300;
  const runner = new RedisTaskStore(await connect(), { leaseMs });
  const reader = new RedisTaskStore(await connect(), { leaseMs });
  try {
    const alive = await runner.create({ method: 'tools/call' }, 'carol', { ttl: 60_000 });
    const doomed = await runner.create({ method: 'tools/call' }, 'carol', { ttl: 60_000 });
    // Several lease periods pass: renewed, both are still working wherever they are read.
    await new Promise((resolve) => setTimeout(resolve, 4 * leaseMs));
    expect((await reader.get(alive.taskId, 'carol'))?.status).toBe('working');
    expect((await reader.list('carol')).tasks.map((task) => task.status)).toEqual(['working', 'working']);
    await runner.setResult(alive.taskId, 'completed', { result: { content: [] } });

    // The runner goes silent (as a killed node does): a node waiting for the task sees it fail.
    const waited = reader.waitForTerminal(doomed.taskId, 'carol');
    runner.close();
    const failed = await waited;
    expect(failed).toMatchObject({ status: 'failed', statusMessage: expect.stringMatching(/lease expired/) });
    expect(await reader.getResult(doomed.taskId, 'carol')).toMatchObject({
      error: { code: -32603, message: expect.stringMatching(/stopped before it finished/) },
    });
    expect((await reader.get(doomed.taskId, 'carol'))?.status).toBe('failed');
    expect((await reader.get(alive.taskId, 'carol'))?.status).toBe('completed');
    // A result the silent node sends late does not undo the failure.
    const late = await runner.setResult(doomed.taskId, 'completed', { result: { content: [] } });
    expect(late?.status).toBe('failed');
  } finally {
    runner.close();
    reader.close();
  }
});
