/**
 * The guards' bounds (issue 21, section 2): rate-limit memory stays bounded under 100,000 distinct
 * keys and idle buckets are evicted; the concurrency limit refuses (or queues up to a bound) past N
 * in flight per client; the deadline aborts the handler's signal and answers with a timeout error.
 * A real McpServer and McpClient over in-memory pairs; no assertion depends on timing.
 */
import { McpClient } from '@mcpkit/client';
import { createInMemoryPair, McpError } from '@mcpkit/core';
import { McpServer } from '@mcpkit/server';
import {
  concurrencyLimit,
  deadline,
  GuardErrorCode,
  MemoryBucketStore,
  rateLimit,
} from '@mcpkit/server/guards';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

async function connect(server: McpServer) {
  const [clientSide, serverSide] = createInMemoryPair();
  server.connect(serverSide);
  const client = new McpClient({ name: 'c', version: '1' });
  await client.connect(clientSide);
  return client;
}

/** Lets queued work run until `done()` holds (bounded by turns, not by time). */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1_000 && !done(); turn++) await new Promise((resolve) => setImmediate(resolve));
  if (!done()) throw new Error('the condition never held');
}

describe('rateLimit: bounded memory', () => {
  it('a flood of 100,000 distinct keys through the middleware never holds more than maxKeys buckets', async () => {
    const limiter = rateLimit({
      rate: 1,
      burst: 1,
      maxKeys: 1_000,
      key: (ctx) => String(ctx.params.arguments && (ctx.params.arguments as { k: unknown }).k),
    });
    const store = limiter.store as MemoryBucketStore;
    const server = new McpServer({ name: 'm', version: '1' });
    server.tool('t', { inputSchema: z.object({ k: z.number() }) }, () => 'ok');
    server.use(limiter);
    const client = await connect(server);
    let largest = 0;
    for (let start = 0; start < 100_000; start += 2_000) {
      await Promise.all(Array.from({ length: 2_000 }, (_, i) => client.callTool('t', { k: start + i })));
      largest = Math.max(largest, store.size);
    }
    expect(largest).toBe(1_000);
    // Every key was new, so every call was served: eviction dropped the least recently used.
    await expect(client.callTool('t', { k: 99_999 })).rejects.toMatchObject({
      code: GuardErrorCode.TooManyRequests,
    });
  }, 60_000);

  it('buckets that have refilled are evicted as the store is used, without any timer', () => {
    let now = 0;
    const store = new MemoryBucketStore({ now: () => now });
    const limit = { rate: 10, burst: 20 };
    for (let i = 0; i < 1_000; i++) store.take(`idle-${i}`, limit);
    expect(store.size).toBe(1_000);
    now += 10_000; // long past a full refill
    for (let i = 0; i < 600; i++) store.take('busy', limit);
    expect(store.size).toBe(1);
    expect(store.peek('busy', limit)).toBeGreaterThan(0);
  });
});

describe('concurrencyLimit', () => {
  function slowServer(options: Parameters<typeof concurrencyLimit>[0]) {
    const server = new McpServer({ name: 'cc', version: '1' });
    const waiting: (() => void)[] = [];
    server.tool(
      'slow',
      { description: 'Waits to be released' },
      () => new Promise<string>((resolve) => waiting.push(() => resolve('done'))),
    );
    // tools/call only: the client's own tools/list (to check structured output) must not queue behind.
    server.use(concurrencyLimit({ methods: ['tools/call'], ...options }));
    return { server, waiting };
  }

  it('refuses past max in flight per client, and admits again once one ends', async () => {
    const { server, waiting } = slowServer({ max: 2 });
    const client = await connect(server);
    const other = await connect(server);
    const first = [client.callTool('slow'), client.callTool('slow')];
    await until(() => waiting.length === 2);
    const refused = await client.callTool('slow').catch((error: McpError) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: GuardErrorCode.TooManyRequests, data: { limit: 2 } });
    // Another client has its own slots.
    const theirs = other.callTool('slow');
    await until(() => waiting.length === 3);
    waiting.shift()!();
    await first[0];
    const again = client.callTool('slow');
    await until(() => waiting.length === 3);
    for (const release of waiting.splice(0)) release();
    await Promise.all([first[1], theirs, again]);
  });

  it('with a queue, waits in order up to the bound and refuses the next', async () => {
    const { server, waiting } = slowServer({ max: 1, queue: 1 });
    const client = await connect(server);
    const running = client.callTool('slow');
    await until(() => waiting.length === 1);
    const queued = client.callTool('slow');
    await expect(client.callTool('slow')).rejects.toMatchObject({ code: GuardErrorCode.TooManyRequests });
    expect(waiting).toHaveLength(1); // the queued call has not started
    waiting.shift()!();
    await running;
    await until(() => waiting.length === 1); // the queued call got the slot
    waiting.shift()!();
    expect((await queued).isError).toBeFalsy();
  });
});

describe('concurrencyLimit: a cancelled waiter', () => {
  it('leaves the queue, so the slot goes to the next one in line', async () => {
    const server = new McpServer({ name: 'cq', version: '1' });
    const started: string[] = [];
    const waiting: (() => void)[] = [];
    server.tool('slow', { inputSchema: z.object({ tag: z.string() }) }, ({ tag }) => {
      started.push(tag);
      return new Promise<string>((resolve) => waiting.push(() => resolve(tag)));
    });
    server.use(concurrencyLimit({ max: 1, queue: 2, methods: ['tools/call'] }));
    const client = await connect(server);
    const running = client.callTool('slow', { tag: 'running' });
    await until(() => started.length === 1);
    const abort = new AbortController();
    const cancelled = client
      .callTool('slow', { tag: 'cancelled' }, { signal: abort.signal })
      .catch((e: unknown) => e);
    const next = client.callTool('slow', { tag: 'next' });
    abort.abort();
    expect(await cancelled).toBeInstanceOf(Error);
    // A ping travels behind notifications/cancelled: once it is answered, the server has seen the cancel.
    await client.ping();
    waiting.shift()!();
    await running;
    await until(() => started.length === 2);
    expect(started).toEqual(['running', 'next']);
    waiting.shift()!();
    expect((await next).content).toEqual([{ type: 'text', text: 'next' }]);
  });
});

describe('deadline', () => {
  it("aborts the handler's signal past the tool's limit and answers with the timeout error", async () => {
    const server = new McpServer({ name: 'd', version: '1' });
    let aborted: unknown;
    server.tool(
      'stuck',
      { description: 'Never finishes by itself' },
      (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted = ctx.signal.reason;
            resolve('too late');
          });
        }),
    );
    server.tool('quick', { description: 'Answers at once' }, () => 'fast');
    server.use(deadline({ ms: 60_000, tools: { stuck: 20 } }));
    const client = await connect(server);
    expect((await client.callTool('quick')).content).toEqual([{ type: 'text', text: 'fast' }]);
    const error = await client.callTool('stuck').catch((e: McpError) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: GuardErrorCode.Timeout, data: { timeoutMs: 20 } });
    expect((error as McpError).message).toContain('Tool "stuck" exceeded its time limit of 20 ms');
    await until(() => aborted !== undefined);
    expect(aborted).toBeInstanceOf(McpError);
  });

  it('refuses a negative limit at once', () => {
    expect(() => deadline({ ms: -1 })).toThrow(TypeError);
  });
});
