/**
 * Server-wide notifications across a cluster (issue 17): three nodes in this process, each with its
 * own McpServer, Redis connections and HTTP server (as separate processes would have), a real
 * redis-server, and nginx balancing two of them round-robin (the third serves no client: a
 * worker that only makes changes). A change made on one node only (a resource updated, a tool
 * added) reaches every client concerned exactly once, whichever node holds its GET
 * stream and whether or not the changing node ever served its session; clients it does not
 * concern hear nothing.
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
  readonly client = new McpClient({ name: 'listener', version: '1.0.0' });
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
