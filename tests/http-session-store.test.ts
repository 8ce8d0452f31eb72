/**
 * The session-store seam of the Streamable HTTP handler (issue 17, item 1): two handlers in one
 * process share an `InMemorySessionStore` and an event store, and a client whose requests alternate
 * between them sees one server: restored without a new handshake, log level carried over, DELETE
 * on one ends the session on the other, and a store that is down gives 503, never a crash.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { serve } from '@mcpkit/node/http';
import { McpServer, type ServerSessionState } from '@mcpkit/server';
import { InMemorySessionStore, SessionStoreBase } from '@mcpkit/server/cluster';
import { createStreamableHttpHandler, InMemoryEventStore, type SessionStore } from '@mcpkit/server/http';
import { afterEach, expect, it } from 'vitest';
import { RawClient } from '../packages/server/src/http/fixtures/rawHttpClient.mjs';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function defineServer(node: string): McpServer {
  const server = new McpServer({ name: 'shared', version: '1.0.0' });
  server.tool('whoami', { description: 'Says which node answered, and logs' }, () => {
    server.log('debug', `debug from ${node}`);
    server.log('warning', `warning from ${node}`);
    return node;
  });
  return server;
}

/** Two nodes on their own ports over one session store; a fetch that alternates between them. */
async function cluster(sessionStore: SessionStore) {
  const eventStore = new InMemoryEventStore();
  const urls: string[] = [];
  for (const node of ['a', 'b']) {
    const handler = createStreamableHttpHandler(defineServer(node), { sessionStore, eventStore });
    const served = await serve(handler, { path: '/mcp' });
    cleanups.push(async () => {
      await handler.close();
      await served.close();
    });
    urls.push(served.url.toString());
  }
  let turn = 0;
  const hits: string[] = [];
  const alternate = (_input: string | URL | Request, init?: RequestInit) => {
    const url = urls[turn++ % urls.length]!;
    hits.push(url);
    return fetch(url, init);
  };
  return { urls, hits, fetch: alternate as typeof fetch };
}

it('a session begun on one node is served by the other, with no new handshake', async () => {
  const store = new InMemorySessionStore();
  const nodes = await cluster(store);
  const client = new McpClient({ name: 'roamer', version: '1.0.0' }, { protocolEra: '2025' });
  const logs: string[] = [];
  client.onNotification('notifications/message', (params) => {
    logs.push(String(params.data));
  });
  await client.connect(new StreamableHttpClientTransport(nodes.urls[0]!, { fetch: nodes.fetch }));
  await client.setLoggingLevel('warning');
  const answers = new Set<string>();
  for (let i = 0; i < 4; i++) {
    const result = await client.callTool('whoami', {});
    answers.add((result.content[0] as { text: string }).text);
  }
  // Both nodes answered calls of the one session, and the level set on one held on the other.
  expect(answers).toEqual(new Set(['a', 'b']));
  expect(new Set(nodes.hits)).toEqual(new Set(nodes.urls));
  expect(logs.some((line) => line.startsWith('warning from'))).toBe(true);
  expect(logs.filter((line) => line.startsWith('debug'))).toEqual([]);
  expect(store.size).toBe(1);
  await client.close();
});

it('DELETE on one node ends the session on every node', async () => {
  const store = new InMemorySessionStore();
  const nodes = await cluster(store);
  const onA = new RawClient(nodes.urls[0]!);
  await onA.connect();
  const onB = new RawClient(nodes.urls[1]!);
  onB.sessionId = onA.sessionId;
  onB.protocolVersion = onA.protocolVersion;
  expect((await onB.request('tools/list')).status).toBe(200); // B restored it
  expect((await onA.delete()).status).toBe(200);
  expect((await onB.request('tools/list')).status).toBe(404);
  expect((await onA.request('tools/list')).status).toBe(404);
  expect(store.size).toBe(0);
});

it('a store that cannot be reached gives 503 with a JSON-RPC error, and service resumes with it', async () => {
  const inner = new InMemorySessionStore();
  let down = false;
  const check = <T>(call: () => T): T => {
    if (down) throw new Error('ECONNREFUSED 127.0.0.1:6379');
    return call();
  };
  const flaky = new (class extends SessionStoreBase {
    load = (id: string, ttl: number | undefined) => check(() => inner.load(id, ttl));
    save = (id: string, state: ServerSessionState, ttl: number | undefined) =>
      check(() => inner.save(id, state, ttl));
    delete = (id: string) => check(() => inner.delete(id));
    touch = (id: string, ttl: number | undefined) => check(() => inner.touch(id, ttl));
  })();
  const nodes = await cluster(flaky);
  const client = new RawClient(nodes.urls[0]!);
  await client.connect();
  down = true;
  const refused = await client.post({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
  expect(refused.status).toBe(503);
  const body = (await refused.json()) as { jsonrpc: string; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe('2.0');
  expect(body.error.message).toMatch(/session store cannot be reached/);
  expect(JSON.stringify(body)).not.toContain('ECONNREFUSED');
  const fresh = new RawClient(nodes.urls[1]!);
  await expect(fresh.connect()).rejects.toThrow(/503/);
  down = false;
  expect((await client.request('tools/list')).status).toBe(200);
});

it('a session idle past the timeout is gone on every node', async () => {
  const store = new InMemorySessionStore();
  const eventStore = new InMemoryEventStore();
  const urls: string[] = [];
  for (const node of ['a', 'b']) {
    const handler = createStreamableHttpHandler(defineServer(node), {
      sessionStore: store,
      eventStore,
      sessionIdleTimeout: 1_000,
    });
    const served = await serve(handler, { path: '/mcp' });
    cleanups.push(async () => {
      await handler.close();
      await served.close();
    });
    urls.push(served.url.toString());
  }
  const onA = new RawClient(urls[0]!);
  await onA.connect();
  const onB = new RawClient(urls[1]!);
  onB.sessionId = onA.sessionId;
  onB.protocolVersion = onA.protocolVersion;
  expect((await onB.request('tools/list')).status).toBe(200);
  // Activity on either node keeps it alive for both.
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await (i % 2 ? onA : onB).request('tools/list')).status).toBe(200);
  }
  await new Promise((resolve) => setTimeout(resolve, 1_300));
  expect((await onA.request('tools/list')).status).toBe(404);
  expect((await onB.request('tools/list')).status).toBe(404);
});

it('refuses a session store that does not extend SessionStoreBase, naming the fix', () => {
  const plain: SessionStore = {
    load: () => undefined,
    save: () => {},
    delete: () => {},
    touch: () => false,
  };
  expect(() => createStreamableHttpHandler(defineServer('a'), { sessionStore: plain })).toThrow(
    /extend SessionStoreBase from @mcpkit\/server\/cluster/,
  );
});
