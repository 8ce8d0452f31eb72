/**
 * The gateway (`@mcpkit/host/gateway`) with real parts: the official SDK client over Streamable
 * HTTP in front, the demo server over stdio and HTTP and the reference everything server behind.
 * Listing and calls across upstreams; sampling, elicitation, progress and log messages routed to
 * the session that made the call (100 of 100 with two clients at once); refusals when that
 * session lacks the capability; cancellation upstream; list_changed and resources/updated downstream.
 */
import type { ServerEntry } from '@mcpkit/host';
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoHttp, demoStdio, reference } from './fixtures/hostServers.js';
import { eventually } from './support/eventually.js';
import { closeGatewayRuns } from './support/gatewayRuns.js';

type Capabilities = ConstructorParameters<typeof Client>[1];

let upstreamHttp: Awaited<ReturnType<typeof demoHttp>>;
let servers: ServerEntry[];
const running: Array<{ gateway: McpGateway; served: ServedHandler }> = [];
const clients: Client[] = [];

async function startGateway(
  upstreams: 'perSession' | 'shared' = 'perSession',
  forwardRoots = false,
): Promise<string> {
  const gateway = createGateway({
    host: {
      servers,
      connector: nodeConnector(),
      policy: { live: { trusted: true } },
      // The tests read the whole catalogue from the first listing: wait for every server.
      startBudgetMs: Number.POSITIVE_INFINITY,
    },
    upstreams,
    forwardRoots,
  });
  const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
  running.push({ gateway, served });
  return served.url;
}

async function connect(url: string, name: string, options?: Capabilities): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

/** A client whose form elicitations are answered with its own name, counting them. */
async function booker(url: string, name: string): Promise<{ client: Client; asked: () => number }> {
  let asked = 0;
  const client = await connect(url, name, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async () => {
    asked++;
    return { action: 'accept', content: { name, date: '2026-12-01' } };
  });
  return { client, asked: () => asked };
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('');

beforeAll(async () => {
  upstreamHttp = await demoHttp('live', 50);
  servers = [demoStdio('demo'), reference('everything', 'server-everything', ['stdio']), upstreamHttp.entry];
});

afterAll(async () => {
  await closeGatewayRuns(clients, running);
  await upstreamHttp?.close();
});

describe('the gateway, driven by the official SDK client over Streamable HTTP', () => {
  it('lists the tools of every upstream, namespaced where they collide, and routes calls to each', async () => {
    const client = await connect(await startGateway(), 'sdk');
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['demo__echo', 'everything__echo', 'live__echo']));
    expect(names).not.toContain('echo');
    for (const tool of tools) expect(Object.keys(tool)).not.toContain('original');
    const fromDemo = await client.callTool({ name: 'demo__echo', arguments: { text: 'hi demo' } });
    expect(textOf(fromDemo)).toContain('hi demo');
    const fromEverything = await client.callTool({
      name: 'everything__echo',
      arguments: { message: 'hi ref' },
    });
    expect(textOf(fromEverything)).toContain('hi ref');
    await expect(client.callTool({ name: 'nope__echo', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("runs an upstream tool that requires tasks as a task, and answers the client's plain call with its result", async () => {
    const client = await connect(await startGateway(), 'plain-caller');
    const { tools } = await client.listTools();
    const research = tools.find((tool) => tool.name === 'simulate-research-query');
    expect(research).toBeDefined();
    // Offered as optional: the gateway runs it as the upstream's task either way, and waits for it here.
    expect(research?.execution).toEqual({ taskSupport: 'optional' });
    const result = await client.callTool({ name: 'simulate-research-query', arguments: { topic: 'tides' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('tides');
  }, 60_000);

  it('routes 100 of 100 elicitations to the client whose call caused them, with two clients at once', async () => {
    const url = await startGateway();
    const alice = await booker(url, 'alice');
    const bob = await booker(url, 'bob');
    const book = (who: typeof alice) =>
      Promise.all(
        Array.from({ length: 50 }, () => who.client.callTool({ name: 'demo__book_table', arguments: {} })),
      );
    const [forAlice, forBob] = await Promise.all([book(alice), book(bob)]);
    expect(forAlice.map(textOf).filter((text) => text.includes('for alice,'))).toHaveLength(50);
    expect(forBob.map(textOf).filter((text) => text.includes('for bob,'))).toHaveLength(50);
    expect([alice.asked(), bob.asked()]).toEqual([50, 50]);
  });

  it('with shared upstreams, routes by the call in flight and refuses what it cannot attribute, never crossing sessions', async () => {
    const url = await startGateway('shared');
    const alice = await booker(url, 'alice');
    const bob = await booker(url, 'bob');
    expect(textOf(await alice.client.callTool({ name: 'demo__book_table', arguments: {} }))).toContain(
      'for alice,',
    );
    expect(textOf(await bob.client.callTool({ name: 'demo__book_table', arguments: {} }))).toContain(
      'for bob,',
    );
    const call = (who: typeof alice) =>
      Promise.all(
        Array.from({ length: 10 }, () => who.client.callTool({ name: 'demo__book_table', arguments: {} })),
      );
    const [forAlice, forBob] = await Promise.all([call(alice), call(bob)]);
    for (const text of forAlice.map(textOf)) expect(text).toMatch(/for alice,|cannot tell whose it is/);
    for (const text of forBob.map(textOf)) expect(text).toMatch(/for bob,|cannot tell whose it is/);
  });

  it('refuses an elicitation with -32601 when the calling client did not declare the capability', async () => {
    upstreamHttp.server.tool(
      'elicit_error_code',
      { description: 'elicits; returns the error code' },
      async (_args, ctx) => {
        try {
          await ctx.elicit({
            mode: 'form',
            message: 'Name?',
            requestedSchema: { type: 'object', properties: {} },
          });
          return 'answered';
        } catch (error) {
          return `code ${(error as { code?: number }).code}: ${(error as Error).message}`;
        }
      },
    );
    const client = await connect(await startGateway(), 'plain');
    const direct = await client.callTool({ name: 'demo__book_table', arguments: {} });
    expect(textOf(direct)).toMatch(/does not support "elicitation\/create"/);
    const coded = await client.callTool({ name: 'elicit_error_code', arguments: {} });
    expect(textOf(coded)).toMatch(/^code -32601: .*does not support "elicitation\/create"/);
  });

  it("sends an upstream's sampling request to the caller and its answer back", async () => {
    const client = await connect(await startGateway(), 'model', { capabilities: { sampling: {} } });
    const seen: string[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      seen.push(JSON.stringify(request.params.messages));
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'A short summary.' } };
    });
    const result = await client.callTool({
      name: 'demo__summarize',
      arguments: { text: 'The gateway routes sampling back to the caller.' },
    });
    expect(textOf(result)).toContain('A short summary.');
    expect(seen.join('')).toContain('The gateway routes sampling back to the caller.');
  });

  it("passes an upstream's progress and log messages to the caller", async () => {
    const client = await connect(await startGateway(), 'watcher');
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
      logs.push(String(note.params.data));
    });
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'demo__slow_count', arguments: { steps: 3, delayMs: 10 } },
      undefined,
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress).toEqual([1, 2, 3]);
    await eventually(() => logs.includes('step 3 of 3'), 'the last log message');
  });

  it('with forwardRoots, an upstream sees the roots of the client that called it, and only those', async () => {
    const url = await startGateway('perSession', true);
    const withRoots = async (name: string) => {
      const client = await connect(url, name, { capabilities: { roots: { listChanged: true } } });
      client.setRequestHandler(ListRootsRequestSchema, async () => ({
        roots: [{ uri: `file:///work/${name}`, name }],
      }));
      return client;
    };
    const [alice, bob] = await Promise.all([withRoots('alice'), withRoots('bob')]);
    const [seenByAlice, seenByBob] = await Promise.all([
      alice.callTool({ name: 'demo__list_roots', arguments: {} }),
      bob.callTool({ name: 'demo__list_roots', arguments: {} }),
    ]);
    expect(textOf(seenByAlice)).toContain('file:///work/alice');
    expect(textOf(seenByAlice)).not.toContain('bob');
    expect(textOf(seenByBob)).toContain('file:///work/bob');
    expect(textOf(seenByBob)).not.toContain('alice');
    const plain = await connect(url, 'no-roots');
    const refused = await plain.callTool({ name: 'demo__list_roots', arguments: {} });
    expect(textOf(refused)).toMatch(/does not support "roots\/list"/);
  });

  it('cancels the upstream call when the caller cancels', async () => {
    let started = 0;
    let aborted = 0;
    upstreamHttp.server.tool(
      'wait_for_cancel',
      { description: 'runs until cancelled' },
      async (_args, ctx) => {
        started++;
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        aborted++;
        return 'cancelled';
      },
    );
    const client = await connect(await startGateway(), 'canceller');
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_cancel', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await eventually(() => started === 1, 'the upstream call');
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await eventually(() => aborted === 1, 'the upstream cancellation');
  });

  it('propagates list_changed and resources/updated to the downstream session', async () => {
    const client = await connect(await startGateway(), 'subscriber');
    let listChanged = 0;
    const updated: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
    client.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (note) => void updated.push(note.params.uri),
    );
    const { resources } = await client.listResources();
    const clock = resources.find(
      (resource) => resource.uri.endsWith('clock') && resource.uri.includes('live'),
    );
    expect(clock, JSON.stringify(resources.map((r) => r.uri))).toBeDefined();
    await client.subscribeResource({ uri: clock!.uri });
    await eventually(() => updated.includes(clock!.uri), 'resources/updated');
    const before = listChanged;
    upstreamHttp.server.tool('added_later', { description: 'registered during the test' }, () => 'ok');
    await eventually(() => listChanged > before, 'tools/list_changed');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('added_later');
  });
});
