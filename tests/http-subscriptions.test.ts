/**
 * Resource-update notifications under concurrency. Many official-SDK clients connect at once,
 * subscribe, and call a tool that fires `notifications/resources/updated` for their resource while
 * their standalone GET stream is still being opened. Every update must arrive, exactly once.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer, resourceSupport } from '@mcpkit/server';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import { subscriber } from './fixtures/sdkSubscribers.mjs';

const CLIENTS = 30;
const UPDATES = 5;

const servers: ServedHandler[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((served) => served.close()));
});

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'subscriptions', version: '1.0.0' }, { resources: resourceSupport });
  server.resourceTemplate('test://watched/{n}', { name: 'watched' }, (uri) => `contents of ${uri}`);
  const inputSchema = { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] } as const;
  server.tool('touch', { description: 'Changes a resource a few times', inputSchema }, (args) => {
    for (let i = 0; i < UPDATES; i++) server.notifyResourceUpdated(args.uri);
    return 'touched';
  });
  return server;
}

async function run(options: StreamableHttpHandlerOptions, rounds: number): Promise<number[]> {
  const served = await serve(createStreamableHttpHandler(mcpServer(), options), { path: '/mcp' });
  servers.push(served);
  const counts: number[] = [];
  for (let round = 0; round < rounds; round++) {
    counts.push(
      ...(await Promise.all(
        Array.from({ length: CLIENTS }, (_, n) => subscriber(served.url, n, UPDATES, 5_000)),
      )),
    );
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

  it('the same holds for 30 SDK clients in their own process, as real clients are', async () => {
    const served = await serve(createStreamableHttpHandler(mcpServer()), { path: '/mcp' });
    servers.push(served);
    const script = fileURLToPath(new URL('./fixtures/sdkSubscribers.mjs', import.meta.url));
    for (let round = 0; round < 3; round++) {
      const args = [script, served.url, String(CLIENTS), String(UPDATES), '5000'];
      const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 60_000 });
      const counts = JSON.parse(stdout.trim()) as number[];
      expect(counts).toHaveLength(CLIENTS);
      expect(counts.filter((count) => count !== UPDATES)).toEqual([]);
    }
  }, 120_000);
});
