/**
 * Session admission and cleanup of the Streamable HTTP handler: a full session table must not
 * lock newcomers out, one client must not take it all, a half-open handshake must not linger, and
 * a session that ends takes its stored events with it.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import {
  createStreamableHttpHandler,
  InMemoryEventStore,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import { RawClient } from '../packages/server/src/http/fixtures/rawHttpClient.mjs';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'sessions', version: '1.0.0' });
  server.tool('echo', { description: 'Answers ok, with a progress step' }, async (_args, ctx) => {
    await ctx.progress(1, 1);
    return 'ok';
  });
  return server;
}

async function served(
  options: StreamableHttpHandlerOptions,
): Promise<{ served: ServedHandler; handler: StreamableHttpHandler }> {
  const handler = createStreamableHttpHandler(mcpServer(), options);
  const result = await serve(handler, { path: '/mcp' });
  cleanups.push(() => result.close());
  return { served: result, handler };
}

async function rawSession(url: string, headers: Record<string, string> = {}): Promise<RawClient> {
  const client = new RawClient(url, { headers });
  await client.connect();
  return client;
}

/** Opens the session's GET stream and keeps it open (closed after the test). */
async function holdStream(client: RawClient): Promise<void> {
  const response = await client.get();
  expect(response.status).toBe(200);
  cleanups.push(() => response.body?.cancel());
}

async function works(client: RawClient): Promise<void> {
  const answer = await client.request('tools/call', { name: 'echo', arguments: {} });
  expect(answer.status).toBe(200);
  expect(answer.messages.at(-1)?.result.content[0].text).toBe('ok');
}

/** An `initialize` request with id 0. */
function initializeMessage(name: string) {
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } };
  return { jsonrpc: '2.0', id: 0, method: 'initialize', params };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('session exhaustion', () => {
  it('a flood of idle sessions past the cap does not lock a new client out', async () => {
    const { served: server, handler } = await served({ maxSessions: 5 });
    const flood: RawClient[] = [];
    for (let i = 0; i < 40; i++) flood.push(await rawSession(server.url));
    expect(handler.sessionCount).toBe(5);

    const client = new McpClient({ name: 'newcomer', version: '1.0.0' }, { onError: () => {} });
    await client.connect(new StreamableHttpClientTransport(server.url));
    cleanups.push(() => client.close());
    const result = await client.callTool('echo', {});
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    // The oldest idle sessions made room; the newest flooder is still there.
    expect((await flood[0]!.request('ping')).status).toBe(404);
    await works(flood.at(-1)!);
  });

  it('when every session is busy, a newcomer gets a clear 503 with a JSON-RPC error, and gets in once one frees', async () => {
    const { served: server } = await served({ maxSessions: 3 });
    const busy: RawClient[] = [];
    for (let i = 0; i < 3; i++) {
      const client = await rawSession(server.url);
      await holdStream(client);
      busy.push(client);
    }
    const newcomer = new RawClient(server.url);
    const refused = await newcomer.post(initializeMessage('late'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toBe('application/json');
    const body = (await refused.json()) as { id: number; error: { code: number; message: string } };
    expect(body.id).toBe(0);
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toMatch(/every session is busy/);
    for (const client of busy) await works(client);

    expect((await busy[0]!.delete()).status).toBe(200);
    await newcomer.connect();
    await works(newcomer);
  });

  it('a per-client quota (by remote address) replaces the client’s own idle session, then refuses with 429', async () => {
    const { served: server, handler } = await served({ maxSessionsPerClient: 2 });
    // Forwarding headers are the client's to write: they must not split its quota.
    const forged = (n: number) => ({ 'x-forwarded-for': `10.0.0.${n}`, forwarded: `for=10.0.0.${n}` });
    const first = await rawSession(server.url, forged(1));
    const second = await rawSession(server.url, forged(2));
    const third = await rawSession(server.url, forged(3)); // over quota: the idle `first` made room
    expect(handler.sessionCount).toBe(2);
    expect((await first.request('ping')).status).toBe(404);
    await holdStream(second);
    await holdStream(third);
    const refused = await new RawClient(server.url, { headers: forged(4) })
      .connect()
      .catch((error: Error) => error);
    expect(String(refused)).toMatch(/initialize failed with 429/);
    await works(second);
    await works(third);
  });

  it('the quota counts authenticated clients by principal, not by address', async () => {
    const handler = createStreamableHttpHandler(mcpServer(), { maxSessionsPerClient: 1 });
    cleanups.push(() => handler.close());
    const init = (clientId: string) =>
      handler.handle(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
          body: JSON.stringify(initializeMessage(clientId)),
        }),
        { authInfo: { clientId, token: 't', scopes: [] } },
      );
    const sessions: string[] = [];
    for (const clientId of ['alice', 'bob', 'alice']) {
      const response = await init(clientId);
      expect(response.status).toBe(200);
      sessions.push(response.headers.get('mcp-session-id')!);
      await response.body?.cancel();
    }
    // alice's second session replaced her first; bob's stays.
    expect(handler.sessionCount).toBe(2);
  });

  it('a session that never completes its handshake expires quickly', async () => {
    const { served: server, handler } = await served({ handshakeTimeout: 300 });
    const halfOpen = new RawClient(server.url);
    const response = await halfOpen.post(initializeMessage('half'));
    expect(response.status).toBe(200);
    await response.text();
    halfOpen.sessionId = response.headers.get('mcp-session-id') ?? undefined;
    const complete = await rawSession(server.url);
    expect(handler.sessionCount).toBe(2);
    const deadline = Date.now() + 10_000;
    while (handler.sessionCount > 1 && Date.now() < deadline) await sleep(50);
    expect(handler.sessionCount).toBe(1);
    expect((await halfOpen.request('ping')).status).toBe(404);
    await works(complete);
  });
});

describe('event store cleanup', () => {
  async function sessionWithHistory(url: string, store: InMemoryEventStore): Promise<RawClient> {
    const client = await rawSession(url);
    for (let i = 0; i < 3; i++) await works(client);
    expect(store.size).toBeGreaterThan(0);
    return client;
  }

  it('deleting a session deletes every event of its finished streams from the event store', async () => {
    const store = new InMemoryEventStore();
    const { served: server } = await served({ eventStore: store });
    const client = await sessionWithHistory(server.url, store);
    expect((await client.delete()).status).toBe(200);
    expect(store.size).toBe(0);
    expect(store.streamCount).toBe(0);
  });

  it('a long session keeps only its newest finished streams resumable, so its events stay bounded', async () => {
    const store = new InMemoryEventStore();
    const { served: server } = await served({ eventStore: store });
    const client = await rawSession(server.url);
    for (let i = 0; i < 100; i++) await works(client);
    expect(store.streamCount).toBeLessThanOrEqual(65); // 64 finished streams and the GET stream
    expect((await client.delete()).status).toBe(200);
    expect(store.size).toBe(0);
  });

  it('an idle-expired session and an evicted one leave no events behind', async () => {
    const store = new InMemoryEventStore();
    const { served: server, handler } = await served({ eventStore: store, sessionIdleTimeout: 300 });
    await sessionWithHistory(server.url, store);
    const deadline = Date.now() + 10_000;
    while (handler.sessionCount > 0 && Date.now() < deadline) await sleep(50);
    expect(handler.sessionCount).toBe(0);
    expect(store.size).toBe(0);

    const evicting = new InMemoryEventStore();
    const { served: small } = await served({ eventStore: evicting, maxSessions: 1 });
    await sessionWithHistory(small.url, evicting);
    const before = evicting.streamCount;
    const newcomer = await rawSession(small.url); // evicts the first session
    expect(evicting.streamCount).toBeLessThan(before);
    expect((await newcomer.delete()).status).toBe(200);
    expect(evicting.size).toBe(0);
  });
});
