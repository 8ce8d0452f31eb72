/**
 * The gateway's per-session duties beyond routing server-to-client requests, with real parts:
 * the official SDK client in front, mcpkit servers over Streamable HTTP behind.
 * - `logging/setLevel` reaches the upstreams: a session's own level (one host per session), or
 *   the most verbose level of the sessions sharing one host;
 * - `notifications/elicitation/complete` of a URL-mode elicitation reaches the session that was
 *   sent the elicitation, and no other;
 * - listings paged with the gateway's `pageSize` (upstream pages followed in full);
 * - rate limits per downstream session and upstream server for tool calls and sampling;
 * - readiness: an upstream that stops answering `ping` makes the gateway not ready;
 * - audit events name the downstream session, per-session or on a shared connection;
 * - list_changed reaches all of 20 sessions; resources/updated only those that subscribed.
 */
import { fileURLToPath } from 'node:url';
import type { AuditEvent, ServerEntry } from '@mcpkit/host';
import { createGateway, type GatewayOptions, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer, resourceSupport } from '@mcpkit/server';
import { MemoryBucketStore } from '@mcpkit/server/guards';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  type McpError as SdkError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoHttp } from './fixtures/hostServers.js';
import { eventually } from './support/eventually.js';
import { closeGatewayRuns } from './support/gatewayRuns.js';

type Capabilities = ConstructorParameters<typeof Client>[1];

let live: Awaited<ReturnType<typeof demoHttp>>;
let paged: ServedHandler;
let servers: ServerEntry[];
const running: Array<{ gateway: McpGateway; served: ServedHandler }> = [];
const clients: Client[] = [];

/** An mcpkit server that lists its tools two at a time, so the host must follow its cursors. */
function pagedServer(): McpServer {
  const server = new McpServer(
    { name: 'paged', version: '1.0.0' },
    { pageSize: 2, resources: resourceSupport },
  );
  for (let i = 1; i <= 5; i++) server.tool(`t${i}`, { description: `tool ${i}` }, () => `t${i}`);
  for (let i = 1; i <= 5; i++) {
    server.resource(`paged://doc/${i}`, { name: `doc${i}`, mimeType: 'text/plain' }, () => `doc ${i}`);
  }
  return server;
}

async function startGateway(
  options: Omit<GatewayOptions, 'host'> = {},
  audit?: (event: AuditEvent) => void,
): Promise<string> {
  const gateway = createGateway({ host: { servers, ...(audit ? { audit } : {}) }, ...options });
  const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
  running.push({ gateway, served });
  return served.url;
}

async function connect(url: string, name: string, options?: Capabilities) {
  const client = new Client({ name, version: '1.0.0' }, options);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('');

/** The level the live upstream's session was asked for, as its tool reports it. */
const upstreamLevel = async (client: Client) =>
  textOf(await client.callTool({ name: 'report_level', arguments: {} }));

beforeAll(async () => {
  live = await demoHttp('live');
  live.server.tool('report_level', { description: 'the log level this session asked for' }, (_args, ctx) =>
    String(ctx.session.logLevel),
  );
  const pagedHandler = createStreamableHttpHandler(pagedServer());
  paged = await serve(pagedHandler, { port: 0, path: '/mcp' });
  servers = [live.entry, { ...live.entry, name: 'paged', url: new URL(paged.url) }];
});

afterAll(async () => {
  await closeGatewayRuns(clients, running);
  await paged?.close();
  await live?.close();
});

describe('logging/setLevel through the gateway', () => {
  it('with a host per session, each session’s level reaches its own upstream sessions, even before they start', async () => {
    const url = await startGateway({ upstreams: 'perSession' });
    const { client: quiet } = await connect(url, 'quiet');
    const { client: chatty } = await connect(url, 'chatty');
    await quiet.setLoggingLevel('warning'); // no upstream running yet: applied when it starts
    expect(await upstreamLevel(quiet)).toBe('warning');
    expect(await upstreamLevel(chatty)).toBe('undefined');
    await chatty.setLoggingLevel('debug');
    expect(await upstreamLevel(chatty)).toBe('debug');
    expect(await upstreamLevel(quiet)).toBe('warning');
  });

  it('with shared upstreams, the upstream gets the most verbose level any session wants', async () => {
    const url = await startGateway({ upstreams: 'shared' });
    const { client: alice } = await connect(url, 'alice');
    await alice.setLoggingLevel('error');
    expect(await upstreamLevel(alice)).toBe('error');
    const bob = await connect(url, 'bob');
    await bob.client.listTools(); // a session that set no level wants everything
    await eventually(async () => (await upstreamLevel(alice)) === 'debug', 'level debug');
    expect(await upstreamLevel(alice)).toBe('debug');
    await bob.client.setLoggingLevel('warning');
    expect(await upstreamLevel(alice)).toBe('warning');
    await bob.transport.terminateSession();
    await bob.client.close();
    let level = '';
    await eventually(async () => {
      level = await upstreamLevel(alice);
      return level === 'error';
    }, 'level error after bob left');
    expect(level).toBe('error');
  });
});

/** A client that accepts URL-mode elicitations, recording their ids and the completions it gets. */
async function urlClient(url: string, name: string) {
  const asked: string[] = [];
  const completed: string[] = [];
  const { client } = await connect(url, name, { capabilities: { elicitation: { form: {}, url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const params = request.params as { mode?: string; elicitationId?: string };
    if (params.mode === 'url' && params.elicitationId) asked.push(params.elicitationId);
    return { action: 'accept' };
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (note) => {
    completed.push(note.params.elicitationId);
  });
  return { client, asked, completed };
}

describe('notifications/elicitation/complete through the gateway', () => {
  for (const upstreams of ['perSession', 'shared'] as const) {
    it(`(${upstreams}) reaches the session that was sent the URL elicitation, and no other`, async () => {
      const url = await startGateway({ upstreams });
      const alice = await urlClient(url, 'alice');
      const bob = await urlClient(url, 'bob');
      const result = await alice.client.callTool({ name: 'connect_account', arguments: { service: 'mail' } });
      expect(textOf(result)).toBe('Connected your mail account (simulated).');
      expect(alice.asked).toHaveLength(1);
      await eventually(() => alice.completed.length === 1, 'the completion');
      expect(alice.completed).toEqual(alice.asked);
      expect(bob.asked).toEqual([]);
      await bob.client.callTool({ name: 'connect_account', arguments: {} });
      await eventually(() => bob.completed.length === 1, "bob's completion");
      expect(bob.completed).toEqual(bob.asked);
      expect(alice.completed).toHaveLength(1);
    });
  }
});

describe('paged listings', () => {
  it('pages the aggregated catalogue with nextCursor; the upstream’s own pages are followed in full', async () => {
    const { client: whole } = await connect(await startGateway(), 'whole');
    const everyTool = (await whole.listTools()).tools.map((tool) => tool.name);
    expect(everyTool).toEqual(expect.arrayContaining(['t1', 't2', 't3', 't4', 't5', 'report_level']));
    const { client } = await connect(await startGateway({ pageSize: 3 }), 'pager');
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      expect(page.tools.length).toBeLessThanOrEqual(3);
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(everyTool.length / 3));
    expect(names).toEqual(everyTool);
    const resources: string[] = [];
    cursor = undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      resources.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
    } while (cursor);
    expect(resources).toEqual(expect.arrayContaining([1, 2, 3, 4, 5].map((i) => `paged://doc/${i}`)));
    expect(new Set(resources).size).toBe(resources.length);
  });

  it('refuses a cursor it did not issue, or one of another list, with -32602', async () => {
    const { client } = await connect(await startGateway({ pageSize: 3 }), 'forger');
    const first = await client.listTools();
    expect(first.nextCursor).toBeDefined();
    await expect(client.listTools({ cursor: 'bm9wZQ' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.listPrompts({ cursor: first.nextCursor! })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('rate limits per downstream session and upstream server', () => {
  it('a burst of 50 calls with a limit of 10/s: exactly 10 pass, per session and per server', async () => {
    const store = new MemoryBucketStore({ now: () => 0 }); // a stopped clock: no refill during the burst
    const url = await startGateway({ upstreams: 'shared', limits: { toolCalls: { rate: 10 }, store } });
    const { client: alice } = await connect(url, 'alice');
    const { client: bob } = await connect(url, 'bob');
    const burst = (client: Client, name: string) =>
      Promise.allSettled(
        Array.from({ length: 50 }, () => client.callTool({ name, arguments: { text: 'x' } })),
      );
    const outcomes = await burst(alice, 'echo');
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason as SdkError);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const error of refused) {
      expect(error.code).toBe(-32029);
      expect(error.message).toMatch(
        /at most 10 tool calls per second .* for server "live"; retry after \d+ ms/,
      );
    }
    const forBob = await burst(bob, 'echo');
    expect(forBob.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    const otherServer = await burst(alice, 't1');
    expect(otherServer.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
  });

  it('a server-wide limit counts the calls of every session together', async () => {
    const store = new MemoryBucketStore({ now: () => 0 });
    const url = await startGateway({
      upstreams: 'shared',
      limits: { toolCalls: { rate: 10 }, serverToolCalls: { rate: 15 }, store },
    });
    const { client: alice } = await connect(url, 'alice');
    const { client: bob } = await connect(url, 'bob');
    const burst = (client: Client) =>
      Promise.allSettled(
        Array.from({ length: 10 }, () => client.callTool({ name: 'echo', arguments: { text: 'x' } })),
      );
    const [forAlice, forBob] = await Promise.all([burst(alice), burst(bob)]);
    const passed = [...forAlice, ...forBob].filter((o) => o.status === 'fulfilled');
    const refused = [...forAlice, ...forBob]
      .filter((o) => o.status === 'rejected')
      .map((o) => o.reason as SdkError);
    expect(passed).toHaveLength(15);
    expect(refused).toHaveLength(5);
    for (const error of refused) {
      expect(error.code).toBe(-32029);
      expect(error.message).toMatch(
        /at most 15 tool calls per second \(bursts of 15\) from all clients together for server "live"/,
      );
    }
  });

  it('limits the sampling requests an upstream sends to one session', async () => {
    const store = new MemoryBucketStore({ now: () => 0 });
    const url = await startGateway({ limits: { sampling: { rate: 1 }, store } });
    const { client } = await connect(url, 'model', { capabilities: { sampling: {} } });
    let sampled = 0;
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      sampled++;
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'A summary.' } };
    });
    const summarize = () => client.callTool({ name: 'summarize', arguments: { text: 'Some text.' } });
    expect(textOf(await summarize())).toContain('A summary.');
    const second = await summarize();
    expect(textOf(second)).toMatch(/at most 1 sampling requests per second/);
    expect(sampled).toBe(1);
  });
});

describe('readiness', () => {
  it('reports every upstream, and is not ready once one stops answering ping', async () => {
    const hung: ServerEntry = {
      kind: 'stdio',
      name: 'hung',
      command: process.execPath,
      args: [fileURLToPath(new URL('./fixtures/host-upstream.mjs', import.meta.url)), 'no-ping'],
      env: {},
      disabled: false,
      autoApprove: [],
    };
    const gateway = createGateway({
      host: {
        servers: [live.entry, hung],
        connector: nodeConnector(),
        keepAlive: { intervalMs: 50, timeoutMs: 1_000 },
      },
      upstreams: 'shared',
    });
    const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
    running.push({ gateway, served });
    expect(gateway.readiness()).toEqual({
      ready: true,
      servers: [
        { server: 'live', state: 'stopped', restarts: 0, hosts: 0 },
        { server: 'hung', state: 'stopped', restarts: 0, hosts: 0 },
      ],
    });
    const { client } = await connect(served.url, 'prober');
    await client.listTools(); // starts both upstreams
    const hungRow = () => gateway.readiness().servers.find((row) => row.server === 'hung');
    await eventually(() => hungRow()?.state === 'degraded', 'the hung upstream degraded');
    const readiness = gateway.readiness();
    expect(readiness.ready).toBe(false);
    expect(hungRow()).toMatchObject({ state: 'degraded', hosts: 1 });
    expect(hungRow()?.lastError).toMatch(/ping/);
    expect(readiness.servers.find((row) => row.server === 'live')).toMatchObject({ hosts: 1 });
  });
});

describe('audit through the gateway', () => {
  for (const upstreams of ['perSession', 'shared'] as const) {
    it(`${upstreams}: 10 calls and 2 reads from two clients are 12 events, each naming the downstream session it served`, async () => {
      const events: AuditEvent[] = [];
      // A host per session names its one session; a shared connection names the caller the
      // gateway attributed each forwarded request to.
      const url = await startGateway({ upstreams }, (event) => events.push(event));
      const { client: alice } = await connect(url, 'alice');
      const { client: bob } = await connect(url, 'bob');
      const calls = (client: Client) =>
        Promise.all([
          ...Array.from({ length: 5 }, () => client.callTool({ name: 'echo', arguments: { text: 'x' } })),
          client.readResource({ uri: 'demo://readme' }),
        ]);
      await Promise.all([calls(alice), calls(bob)]);
      await eventually(() => events.length === 12, '12 audit events');
      const toolEvents = events.filter((event) => event.operation === 'tools/call');
      expect(toolEvents).toHaveLength(10);
      for (const event of toolEvents) {
        expect(event).toMatchObject({ server: 'live', operation: 'tools/call', item: 'echo', outcome: 'ok' });
        expect(event.arguments).toBe('[redacted]');
      }
      const sessions = new Set(events.map((event) => event.session));
      expect(sessions.size).toBe(2);
      for (const session of sessions) {
        expect(session).toMatch(/^\S+$/);
        const own = events.filter((event) => event.session === session);
        expect(own.map((event) => event.operation).sort()).toEqual([
          'resources/read',
          ...Array(5).fill('tools/call'),
        ]);
      }
    });
  }
});

describe('notifications to many sessions', () => {
  it('a list_changed reaches each of 20 sessions, and a resource update only the 3 that subscribed', async () => {
    const url = await startGateway({ upstreams: 'shared' });
    const sessions = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const { client } = await connect(url, `watcher-${i}`);
        const seen = { listChanged: 0, updated: [] as string[] };
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => void seen.listChanged++);
        client.setNotificationHandler(
          ResourceUpdatedNotificationSchema,
          (note) => void seen.updated.push(note.params.uri),
        );
        await client.listTools();
        return { client, seen };
      }),
    );
    const subscribers = sessions.slice(0, 3);
    await Promise.all(subscribers.map(({ client }) => client.subscribeResource({ uri: 'demo://readme' })));
    live.server.tool('added_for_watchers', { description: 'registered during the test' }, () => 'ok');
    await eventually(
      () => sessions.every(({ seen }) => seen.listChanged >= 1),
      'list_changed in every session',
    );
    live.server.notifyResourceUpdated('demo://readme');
    await eventually(
      () => subscribers.every(({ seen }) => seen.updated.length === 1),
      'the update at each subscriber',
    );
    // A later notification that every session gets marks the point by which a stray update would have come.
    live.server.tool('added_after_update', { description: 'registered during the test' }, () => 'ok');
    await eventually(() => sessions.every(({ seen }) => seen.listChanged >= 2), 'the second list_changed');
    expect(sessions.slice(3).map(({ seen }) => seen.updated.length)).toEqual(Array(17).fill(0));
    expect(subscribers.map(({ seen }) => seen.updated)).toEqual(Array(3).fill(['demo://readme']));
  });
});
