/**
 * Server-wide notifications across a cluster (issue 17): three nodes in this process, each with its
 * own McpServer, Redis connections and HTTP server (as separate processes would have), a real
 * redis-server, and nginx balancing two of them round-robin (the third serves no client: a
 * worker that only makes changes). A change made on one node only (a resource updated, a tool
 * added) reaches every client concerned exactly once, whichever node holds its GET
 * stream and whether or not the changing node ever served its session; clients it does not
 * concern hear nothing. The same holds for 2026-07-28 `subscriptions/listen` streams and for
 * `server.log` (by level), while a broadcast filtered by a function stays on its node.
 */
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { serve } from '@mcpkit/node/http';
import { connectRedis, RedisEventStore, RedisSessionStore } from '@mcpkit/redis';
import { McpServer, resourceSupport } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Balancer, RedisProcess } from './support/cluster.js';
import { eventually } from './support/eventually.js';

const STATUS = 'test://status';

interface Node {
  readonly server: McpServer;
  readonly port: number;
  close(): Promise<void>;
}

async function startNode(redisUrl: string): Promise<Node> {
  const redis = await connectRedis(redisUrl);
  const server = new McpServer({ name: 'node', version: '1.0.0' }, { resources: resourceSupport });
  server.resource(STATUS, { name: 'status' }, () => ({ contents: [{ uri: STATUS, text: 'ok' }] }));
  server.tool('echo', () => 'echo');
  const sessionStore = new RedisSessionStore(redis);
  const eventStore = new RedisEventStore(redis);
  const served = await serve(createStreamableHttpHandler(server, { sessionStore, eventStore }), {
    port: 0,
    path: '/mcp',
  });
  return {
    server,
    port: served.port,
    close: async () => {
      await served.close();
      sessionStore.close();
      eventStore.close();
      redis.disconnect();
    },
  };
}

let redis: RedisProcess;
let nodes: Node[] = [];
let balancer: Balancer;

beforeAll(async () => {
  redis = await RedisProcess.start();
  nodes = [await startNode(redis.url), await startNode(redis.url), await startNode(redis.url)];
  balancer = await Balancer.start(nodes.slice(0, 2).map((node) => node.port));
}, 60_000);

afterAll(async () => {
  await balancer?.stop();
  for (const node of nodes) await node.close();
  await redis?.remove();
});

/** A client through the balancer that counts what it hears, and knows which node holds its GET. */
class Listener {
  // '2025': it listens on the session's GET stream (ModernListener, below, is the 2026 one).
  readonly client = new McpClient({ name: 'listener', version: '1.0.0' }, { protocolEra: '2025' });
  readonly heard: string[] = [];
  getNode = -1;

  async connect(): Promise<void> {
    for (const method of ['notifications/resources/updated', 'notifications/tools/list_changed']) {
      this.client.onNotification(method, () => {
        this.heard.push(method);
      });
    }
    const fetchRecording = (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (init?.method === 'GET' && response.status === 200) {
        const upstream = response.headers.get('x-upstream') ?? '';
        this.getNode = nodes.findIndex((node) => upstream.endsWith(`:${node.port}`));
      }
      return response;
    }) as typeof fetch;
    await this.client.connect(new StreamableHttpClientTransport(balancer.url, { fetch: fetchRecording }));
    await eventually(() => this.getNode >= 0, 'the GET stream');
  }

  count(method: string): number {
    return this.heard.filter((heard) => heard === method).length;
  }
}

it('fans resources/updated and list_changed out to every node, once per session', async () => {
  // Clients until the GET streams sit on both nodes (round-robin gets there within a few).
  const listeners: Listener[] = [];
  while (listeners.length < 6 && new Set(listeners.map((listener) => listener.getNode)).size < 2) {
    const listener = new Listener();
    await listener.connect();
    listeners.push(listener);
  }
  expect(new Set(listeners.map((listener) => listener.getNode))).toEqual(new Set([0, 1]));
  // All but the first subscribe (through any node).
  const [bystander, ...subscribers] = listeners;
  for (const listener of subscribers) await listener.client.subscribeResource(STATUS);

  // Each change happens on one node only; every concerned session hears it once.
  nodes[0]!.server.notifyResourceUpdated(STATUS);
  nodes[1]!.server.notifyResourceUpdated(STATUS);
  nodes[2]!.server.notifyResourceUpdated(STATUS);
  nodes[2]!.server.tool('added', () => 'added on the worker only');
  const all = (method: string, count: number) => () =>
    subscribers.every((listener) => listener.count(method) >= count);
  await eventually(all('notifications/resources/updated', 3), 'three resource updates');
  await eventually(
    () => listeners.every((listener) => listener.count('notifications/tools/list_changed') >= 1),
    'the tool list change',
  );
  // A last round trip through every node, so a duplicate still in flight would have landed.
  nodes[0]!.server.tool('sentinel', () => 'last');
  await eventually(
    () => listeners.every((listener) => listener.count('notifications/tools/list_changed') >= 2),
    'the second tool list change',
  );
  for (const listener of subscribers) {
    expect(listener.count('notifications/resources/updated')).toBe(3);
    expect(listener.count('notifications/tools/list_changed')).toBe(2);
  }
  expect(bystander!.count('notifications/resources/updated')).toBe(0);
  for (const listener of listeners) await listener.client.close();
}, 60_000);

/** A 2026-07-28 client through the balancer: no session, one `subscriptions/listen` stream. */
class ModernListener {
  readonly client = new McpClient({ name: 'modern', version: '1.0.0' }, { protocolEra: '2026' });
  readonly heard: string[] = [];
  /** The node of the latest listen request (nginx's `X-Upstream`). */
  listenNode = -1;
  acknowledged: Record<string, unknown>[] = [];

  async connect(): Promise<void> {
    this.client.onResourceUpdated(() => this.heard.push('notifications/resources/updated'));
    this.client.onNotification('notifications/subscriptions/acknowledged', (params) => {
      this.acknowledged.push(params.notifications as Record<string, unknown>);
    });
    const fetchRecording = (async (input: string | URL | Request, init?: RequestInit) => {
      const listen = typeof init?.body === 'string' && init.body.includes('"subscriptions/listen"');
      const response = await fetch(input, init);
      if (listen) {
        const upstream = response.headers.get('x-upstream') ?? '';
        this.listenNode = nodes.findIndex((node) => upstream.endsWith(`:${node.port}`));
      }
      return response;
    }) as typeof fetch;
    await this.client.connect(new StreamableHttpClientTransport(balancer.url, { fetch: fetchRecording }));
    this.client.onListChanged('tools', () => this.heard.push('notifications/tools/list_changed'));
    await this.client.subscribeResource(STATUS);
    // The stream that carries both (a change of filter replaces the stream) is acknowledged.
    await eventually(
      () => this.acknowledged.some((filter) => (filter.resourceSubscriptions as unknown[])?.includes(STATUS)),
      'the listen stream acknowledged',
    );
  }

  count(method: string): number {
    return this.heard.filter((heard) => heard === method).length;
  }
}

it('reaches a 2026-07-28 listen stream on one node with changes made on the others, once each', async () => {
  const listener = new ModernListener();
  await listener.connect();
  expect([0, 1]).toContain(listener.listenNode);
  const other = 1 - listener.listenNode;

  // The other balanced node and the worker change things; the listen stream's node does not.
  nodes[other]!.server.notifyResourceUpdated(STATUS);
  nodes[2]!.server.notifyResourceUpdated(STATUS);
  nodes[2]!.server.notifyResourceUpdated('test://not-listened');
  nodes[other]!.server.tool('added-elsewhere', () => 'added on the other node');
  await eventually(() => listener.count('notifications/resources/updated') >= 2, 'two resource updates');
  await eventually(() => listener.count('notifications/tools/list_changed') >= 1, 'the tool list change');
  // Changes on the listen stream's own node: heard at once, and not again through Redis.
  nodes[listener.listenNode]!.server.notifyResourceUpdated(STATUS);
  nodes[listener.listenNode]!.server.tool('added-here', () => 'added on the listen node');
  await eventually(
    () => listener.count('notifications/tools/list_changed') >= 2,
    'the second tool list change',
  );
  await eventually(() => listener.count('notifications/resources/updated') >= 3, 'the third resource update');
  // A last update through Redis, published after those: a duplicate of them would land before it.
  nodes[2]!.server.notifyResourceUpdated(STATUS);
  await eventually(() => listener.count('notifications/resources/updated') >= 4, 'the last resource update');
  expect(listener.count('notifications/resources/updated')).toBe(4);
  expect(listener.count('notifications/tools/list_changed')).toBe(2);
  await listener.client.close();
}, 60_000);

it('relays server.log by level to every node, and keeps a function-filtered broadcast on its node', async () => {
  const client = new McpClient({ name: 'logs', version: '1.0.0' }, { protocolEra: '2025' });
  const heard: string[] = [];
  client.onLog((log) => {
    heard.push(String(log.data));
  });
  let getNode = -1;
  const fetchRecording = (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (init?.method === 'GET' && response.status === 200) {
      const upstream = response.headers.get('x-upstream') ?? '';
      getNode = nodes.findIndex((node) => upstream.endsWith(`:${node.port}`));
    }
    return response;
  }) as typeof fetch;
  await client.connect(new StreamableHttpClientTransport(balancer.url, { fetch: fetchRecording }));
  await eventually(() => getNode >= 0, 'the GET stream');
  await client.setLoggingLevel('warning');

  // The worker never served this session: only what travels as data reaches it from there.
  const worker = nodes[2]!.server;
  worker.log('error', 'error from the worker');
  worker.log('info', 'info below the level');
  worker.broadcast(
    'notifications/message',
    { level: 'error', data: 'function filter on the worker' },
    () => true,
  );
  worker.broadcast(
    'notifications/message',
    { level: 'error', data: 'scope on the worker' },
    { logLevel: 'error' },
  );
  nodes[1 - getNode]!.server.log('warning', 'warning from the other node');
  nodes[getNode]!.server.log('critical', 'critical from the GET node');
  const expected = [
    'critical from the GET node',
    'error from the worker',
    'scope on the worker',
    'warning from the other node',
  ];
  await eventually(() => expected.every((data) => heard.includes(data)), 'the log messages');
  // One more from each node, each published after that node's earlier ones: anything they would
  // still bring (a duplicate, a message below the level) lands before these.
  for (const node of nodes) node.server.log('error', 'last');
  await eventually(() => heard.filter((data) => data === 'last').length === 3, 'the last log messages');
  expect(heard.sort()).toEqual([...expected, 'last', 'last', 'last'].sort());
  await client.close();
}, 60_000);
