/**
 * Resource-update notifications under concurrency. Many official-SDK clients connect at once,
 * subscribe, and call a tool that fires `notifications/resources/updated` for their resource while
 * their standalone GET stream is still being opened. Every update must arrive, exactly once.
 */
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from '@mcpkit/server/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

const CLIENTS = 30;
const UPDATES = 5;

const servers: ServedHandler[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((served) => served.close()));
});

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'subscriptions', version: '1.0.0' });
  server.resourceTemplate('test://watched/{n}', { name: 'watched' }, (uri) => `contents of ${uri}`);
  const inputSchema = { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] } as const;
  server.tool('touch', { description: 'Changes a resource a few times', inputSchema }, (args) => {
    for (let i = 0; i < UPDATES; i++) server.notifyResourceUpdated(args.uri);
    return 'touched';
  });
  return server;
}

/** One SDK client: connect, subscribe, touch; resolves with how many updates it heard in time. */
async function subscriber(url: string, n: number): Promise<number> {
  const client = new Client({ name: `subscriber-${n}`, version: '1.0.0' });
  const uri = `test://watched/${n}`;
  let heard = 0;
  let settle: (() => void) | undefined;
  const all = new Promise<void>((resolve) => {
    settle = resolve;
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    if (notification.params.uri === uri && ++heard === UPDATES) settle?.();
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    await client.subscribeResource({ uri });
    await client.callTool({ name: 'touch', arguments: { uri } });
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    // Anything beyond the expected count would be a duplicate: give it a moment to show up.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return heard;
  } finally {
    await client.close();
  }
}

async function run(options: StreamableHttpHandlerOptions, rounds: number): Promise<number[]> {
  const served = await serve(createStreamableHttpHandler(mcpServer(), options), { path: '/mcp' });
  servers.push(served);
  const counts: number[] = [];
  for (let round = 0; round < rounds; round++) {
    counts.push(...(await Promise.all(Array.from({ length: CLIENTS }, (_, n) => subscriber(served.url, n)))));
  }
  return counts;
}

describe('resource updates with many concurrent subscribers', () => {
  it('every resources/updated reaches every one of 30 concurrent SDK subscribers, exactly once', async () => {
    const counts = await run({}, 3);
    expect(counts.filter((count) => count !== UPDATES)).toEqual([]);
  }, 120_000);

  it('the same holds without an event store (no priming, no resumption)', async () => {
    const counts = await run({ eventStore: false }, 3);
    expect(counts.filter((count) => count !== UPDATES)).toEqual([]);
  }, 120_000);
});
