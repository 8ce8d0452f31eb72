/**
 * Issue 29, item 3: every downstream session started every upstream. The gateway now shares its
 * upstreams by default; a call of a client that can be asked something holds a lane (a pooled
 * connection) of its upstream alone. Real parts: the official SDK v1 client over Streamable HTTP,
 * the demo server over stdio (counted as child processes of this test) and over HTTP.
 */
import { execFileSync } from 'node:child_process';
import type { ServerEntry } from '@mcpkit/host';
import { createGateway, type GatewayOptions, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import type { StreamableHttpHandlerOptions } from '@mcpkit/server/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoHttp, demoStdio } from './fixtures/hostServers.js';
import { eventually } from './support/eventually.js';
import { closeGatewayRuns } from './support/gatewayRuns.js';

type Capabilities = ConstructorParameters<typeof Client>[1];

let upstreamHttp: Awaited<ReturnType<typeof demoHttp>>;
let servers: ServerEntry[];
let running: Array<{ gateway: McpGateway; served: ServedHandler }> = [];
let clients: Client[] = [];

/** The demo upstreams over stdio this test process runs now (its child processes). */
function upstreamProcesses(): number {
  const out = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes('serve --stdio')).length;
}

async function startGateway(
  options: Omit<GatewayOptions, 'host'> = {},
  http: StreamableHttpHandlerOptions = {},
  host: Partial<GatewayOptions['host']> = {},
): Promise<{ gateway: McpGateway; url: string }> {
  // Both upstreams listed from the first request, however slow the machine starts the stdio one.
  const gateway = createGateway({
    host: { servers, connector: nodeConnector(), startBudgetMs: Number.POSITIVE_INFINITY, ...host },
    ...options,
  });
  const served = await serve(gateway.httpHandler(http), { port: 0, path: '/mcp' });
  running.push({ gateway, served });
  return { gateway, url: served.url };
}

async function connect(url: string, name: string, options?: Capabilities): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

/** A client that answers form elicitations and sampling with its own name. */
async function asker(url: string, name: string): Promise<Client> {
  const client = await connect(url, name, { capabilities: { elicitation: { form: {} }, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { name, date: '2026-12-01' },
  }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: `summary for ${name}` },
    model: `model-of-${name}`,
  }));
  return client;
}

/** The HTTP status a `ping` on session `sessionId` gets (404 once the session is gone). */
async function pingStatus(url: string, sessionId: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.body?.cancel();
  return response.status;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('');

/** `count` sessions one after another that list, call and `close()` without DELETE, as the SDK does. */
async function abandonSessions(url: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    // Every other client can be asked something: its call takes a lane.
    const client = i % 2 === 0 ? await asker(url, `client${i}`) : await connect(url, `client${i}`);
    await client.listTools();
    expect(textOf(await client.callTool({ name: 'demo__echo', arguments: { text: `hi ${i}` } }))).toBe(
      `hi ${i}`,
    );
    await client.close();
  }
}

beforeAll(async () => {
  upstreamHttp = await demoHttp('live');
  servers = [demoStdio('demo'), upstreamHttp.entry];
});

afterEach(async () => {
  await closeGatewayRuns(clients, running);
  clients = [];
  running = [];
  await eventually(() => upstreamProcesses() === 0, 'the upstream processes of the last test to exit');
});

afterAll(async () => {
  await upstreamHttp?.close();
});

describe('shared upstreams (the default)', () => {
  it('10 sessions that list, call and close without DELETE leave no more upstream processes than 1 session', async () => {
    const one = await startGateway();
    await abandonSessions(one.url, 1);
    const afterOne = upstreamProcesses();
    expect(afterOne).toBeGreaterThanOrEqual(1);
    await closeGatewayRuns(clients, running);
    running = [];
    await eventually(() => upstreamProcesses() === 0, 'the first gateway’s upstreams to exit');

    const ten = await startGateway();
    await abandonSessions(ten.url, 10);
    expect(upstreamProcesses()).toBeLessThanOrEqual(afterOne);
    // The shared connection and one lane (the calls that took one came one after another).
    expect(ten.gateway.readiness().servers.find((row) => row.server === 'demo')?.hosts).toBe(2);
  }, 120_000);

  for (const server of ['demo', 'live'] as const) {
    it(`elicitation and sampling from a shared ${server === 'demo' ? 'stdio' : 'HTTP'} upstream reach the one of two concurrent sessions whose call caused them`, async () => {
      const { gateway, url } = await startGateway();
      const [alice, bob] = [await asker(url, 'alice'), await asker(url, 'bob')];
      const calls = (client: Client) =>
        Promise.all([
          ...Array.from({ length: 4 }, () =>
            client.callTool({ name: `${server}__book_table`, arguments: {} }),
          ),
          ...Array.from({ length: 2 }, () =>
            client.callTool({ name: `${server}__summarize`, arguments: { text: 'tides and the moon' } }),
          ),
        ]);
      const [forAlice, forBob] = await Promise.all([calls(alice), calls(bob)]);
      for (const [who, results] of [
        ['alice', forAlice],
        ['bob', forBob],
      ] as const) {
        const texts = results.map(textOf);
        expect(texts.slice(0, 4).every((text) => text.includes(`for ${who},`))).toBe(true);
        expect(texts.slice(4).every((text) => text.includes(`summary for ${who}`))).toBe(true);
      }
      // At most the shared process and its lanes, however many calls and sessions.
      expect(upstreamProcesses()).toBeLessThanOrEqual(1 + 4);
      // The HTTP upstream sends each question on its call's own stream: one shared connection,
      // no lane. The stdio one needs lanes.
      const hosts = gateway.readiness().servers.find((row) => row.server === server)?.hosts;
      if (server === 'live') expect(hosts).toBe(1);
      else expect(hosts).toBeGreaterThan(1);
    }, 120_000);
  }

  it('a 2026-07-28 HTTP upstream asks through input-required rounds of the call: routed to the caller on one connection', async () => {
    const { gateway, url } = await startGateway(
      {},
      {},
      { servers: [upstreamHttp.entry], protocolEra: '2026' },
    );
    const [alice, bob] = [await asker(url, 'alice'), await asker(url, 'bob')];
    const book = (client: Client) =>
      Promise.all(Array.from({ length: 4 }, () => client.callTool({ name: 'book_table', arguments: {} })));
    const [forAlice, forBob] = await Promise.all([book(alice), book(bob)]);
    expect(forAlice.map(textOf).every((text) => text.includes('for alice,'))).toBe(true);
    expect(forBob.map(textOf).every((text) => text.includes('for bob,'))).toBe(true);
    expect((await gateway.hosts()[0]!.client('live')).protocolVersion).toBe('2026-07-28');
    expect(gateway.hosts()).toHaveLength(1); // the shared host, no lane
  }, 60_000);

  it('a question on the shared connection with no caller to ask is refused with a clear error, never guessed', async () => {
    const { url } = await startGateway();
    const plain = await connect(url, 'plain'); // declared neither elicitation nor sampling
    await asker(url, 'bystander'); // could answer, but did not make the call
    const result = await plain.callTool({ name: 'demo__book_table', arguments: {} });
    expect(textOf(result)).toMatch(/does not support "elicitation\/create"/);
  }, 60_000);

  it('a lane pool of 1: concurrent asking calls wait for the lane, the upstream runs twice at most', async () => {
    const { url } = await startGateway({ lanes: 1 });
    const [alice, bob] = [await asker(url, 'alice'), await asker(url, 'bob')];
    const book = (client: Client) =>
      Promise.all(
        Array.from({ length: 3 }, () => client.callTool({ name: 'demo__book_table', arguments: {} })),
      );
    const [forAlice, forBob] = await Promise.all([book(alice), book(bob)]);
    expect(forAlice.map(textOf).every((text) => text.includes('for alice,'))).toBe(true);
    expect(forBob.map(textOf).every((text) => text.includes('for bob,'))).toBe(true);
    expect(upstreamProcesses()).toBe(2);
  }, 120_000);
});

describe('lanes are closed when unused', () => {
  it('a lane idle for laneIdleMs is closed, its upstream process ended; the next asking call starts one again', async () => {
    const { gateway, url } = await startGateway({ laneIdleMs: 300 });
    const alice = await asker(url, 'alice');
    const call = () => alice.callTool({ name: 'demo__echo', arguments: { text: 'x' } });
    expect(textOf(await call())).toBe('x');
    expect(upstreamProcesses()).toBe(2); // the shared connection and alice's lane
    await eventually(() => upstreamProcesses() === 1, 'the idle lane to close');
    expect(gateway.readiness().servers.find((row) => row.server === 'demo')?.hosts).toBe(1);
    expect(textOf(await call())).toBe('x');
    expect(upstreamProcesses()).toBe(2);
  }, 60_000);
});

describe('downstream sessions are bounded', () => {
  it("past the per-client cap, the client's oldest idle session is evicted, not the new one refused", async () => {
    const { url } = await startGateway({}, { maxSessionsPerClient: 2 });
    const first = await connect(url, 'first');
    await first.listTools();
    const second = await connect(url, 'second');
    await second.listTools();
    // The SDK's GET stream keeps a session busy: close it so the first session is idle.
    const sessionId = (first.transport as StreamableHTTPClientTransport).sessionId!;
    await first.close();
    // The gateway sees the stream end a moment later: until then all of this client's sessions are busy (429).
    let third: Client | undefined;
    for (let tries = 0; !third && tries < 100; tries++) {
      third = await connect(url, 'third').catch(() => undefined);
      if (!third) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!third) throw new Error('the third session never took the idle one’s place');
    expect((await third.listTools()).tools.length).toBeGreaterThan(0);
    expect(await pingStatus(url, sessionId)).toBe(404);
  }, 60_000);

  it('a session idle and never ended expires, and with per-session upstreams its upstream process ends', async () => {
    const { url } = await startGateway({ upstreams: 'perSession' }, { sessionIdleTimeout: 400 });
    const client = await connect(url, 'leaver');
    await client.callTool({ name: 'demo__echo', arguments: { text: 'x' } });
    expect(upstreamProcesses()).toBe(1);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    await client.close(); // no DELETE, as the official SDK and the Inspector CLI do
    await eventually(() => upstreamProcesses() === 0, 'the idle session to expire and its upstream to end');
    expect(await pingStatus(url, sessionId)).toBe(404);
  }, 60_000);
});
