/**
 * The rate-limit guard (issue 21, section 2) through the public API over real Streamable HTTP:
 * one session floods `tools/call` while a second, at 5 calls/s, gets every call served; the
 * flooder's refusals say when to retry, and it is served again once it slows down; the HTTP gate
 * refuses a whole POST with 429 and `Retry-After` before reading its body. Time is an injected
 * clock the test moves by hand: nothing here depends on how fast the machine is.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { createInMemoryPair, McpError } from '@mcpkit/core';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { GuardErrorCode, type RateLimitGuard, rateLimit } from '@mcpkit/server/guards';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A clock the test advances. */
function manualClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function start(limiter: RateLimitGuard, gate = false) {
  const server = new McpServer({ name: 'limited', version: '1.0.0' }, { onError: () => {} });
  server.tool('work', { description: 'Does a unit of work' }, () => 'done');
  server.use(limiter);
  const handler = createStreamableHttpHandler(server, gate ? { gate: limiter.httpGate } : {});
  const served: ServedHandler = await serve(handler, { path: '/mcp' });
  cleanups.push(async () => {
    await handler.close();
    await served.close();
  });
  return served;
}

async function client(served: ServedHandler, name: string) {
  const mcp = new McpClient({ name, version: '1' }, { protocolEra: '2025' }); // buckets per session
  const transport = new StreamableHttpClientTransport(served.url, { openGetStream: false });
  await mcp.connect(transport);
  cleanups.push(() => mcp.close());
  return Object.assign(mcp, { sessionId: transport.sessionId });
}

/** Sends `count` calls at once; returns how many were served and the refusals. */
async function burst(mcp: McpClient, count: number) {
  const settled = await Promise.allSettled(Array.from({ length: count }, () => mcp.callTool('work')));
  const refusals = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as McpError] : []));
  return { served: settled.filter((s) => s.status === 'fulfilled').length, refusals };
}

describe('rateLimit: who counts as one client', () => {
  it('sessions of one principal share a bucket; another principal has its own', async () => {
    const clock = manualClock();
    const server = new McpServer({ name: 'p', version: '1' });
    server.tool('work', { description: 'Does a unit of work' }, () => 'done');
    server.use(rateLimit({ rate: 1, burst: 2, methods: ['tools/call'], now: clock.now }));
    const connectAs = async (clientId: string) => {
      const [clientSide, serverSide] = createInMemoryPair({ extra: { authInfo: { token: 't', clientId } } });
      server.connect(serverSide);
      const mcp = new McpClient({ name: clientId, version: '1' }, { protocolEra: '2025' });
      await mcp.connect(clientSide);
      return mcp;
    };
    const [alice1, alice2, bob] = [
      await connectAs('alice'),
      await connectAs('alice'),
      await connectAs('bob'),
    ];
    await alice1.callTool('work');
    await alice2.callTool('work');
    await expect(alice1.callTool('work')).rejects.toMatchObject({ code: GuardErrorCode.TooManyRequests });
    await expect(alice2.callTool('work')).rejects.toMatchObject({ code: GuardErrorCode.TooManyRequests });
    expect((await bob.callTool('work')).isError).toBeFalsy();
  });
});

describe('rateLimit over Streamable HTTP', () => {
  it('a flooding session is refused with retryAfterMs while a session at 5 calls/s gets every call served', async () => {
    const clock = manualClock();
    // 10 per second, bursts of 20, per session. Initialize and the list fetches do not count: tools/call only.
    const served = await start(rateLimit({ rate: 10, methods: ['tools/call'], now: clock.now }));
    const flooder = await client(served, 'flooder');
    const polite = await client(served, 'polite');

    const first = await burst(flooder, 40);
    expect(first.served).toBe(20);
    expect(first.refusals).toHaveLength(20);
    for (const refusal of first.refusals) {
      expect(refusal).toBeInstanceOf(McpError);
      expect(refusal.code).toBe(GuardErrorCode.TooManyRequests);
      expect((refusal.data as { retryAfterMs: number }).retryAfterMs).toBe(100);
    }

    let politeServed = 0;
    let flooderServed = 0;
    for (let step = 0; step < 10; step++) {
      clock.advance(200); // 5 calls per second for the polite session
      const [flood, call] = await Promise.all([burst(flooder, 8), polite.callTool('work')]);
      expect(call.isError).toBeFalsy();
      politeServed++;
      flooderServed += flood.served;
      expect(flood.refusals.length).toBeGreaterThan(0);
    }
    expect(politeServed).toBe(10);
    expect(flooderServed).toBe(20); // 2 tokens per 200 ms, no more

    // The flooder waits as told, then is served again; at 5 calls/s it stays served.
    const { refusals } = await burst(flooder, 1);
    const retryAfterMs = (refusals[0]!.data as { retryAfterMs: number }).retryAfterMs;
    expect(retryAfterMs).toBeGreaterThan(0);
    clock.advance(retryAfterMs);
    expect((await flooder.callTool('work')).isError).toBeFalsy();
    for (let step = 0; step < 10; step++) {
      clock.advance(200);
      expect((await flooder.callTool('work')).isError).toBeFalsy();
    }
  });

  it('per tool: each tool name has its own bucket', async () => {
    const clock = manualClock();
    const served = await start(
      rateLimit({ rate: 1, burst: 1, per: 'tool', methods: ['tools/call'], now: clock.now }),
    );
    const mcp = await client(served, 'c');
    await mcp.callTool('work');
    await expect(mcp.callTool('work')).rejects.toMatchObject({ code: GuardErrorCode.TooManyRequests });
    // Another method keeps its own bucket.
    await mcp.listTools();
    await mcp.listTools();
  });

  it('the HTTP gate refuses a POST from a client whose bucket is empty with 429 and Retry-After', async () => {
    const clock = manualClock();
    const limiter = rateLimit({ rate: 0.5, burst: 2, now: clock.now });
    const served = await start(limiter, true);
    const mcp = await client(served, 'gated');
    // initialize and notifications/initialized went through; tools/call takes the rest of the bucket.
    await burst(mcp, 5);
    const response = await fetch(served.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': mcp.sessionId ?? '',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const { error } = await response.json();
    expect(error.code).toBe(GuardErrorCode.TooManyRequests);
    expect(error.data.retryAfterMs).toBeGreaterThan(0);
    clock.advance(2_000);
    expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(['work']);
  });
});
