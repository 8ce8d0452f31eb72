/**
 * `subscriptions/listen` (2026-07-28) through the gateway, with real parts: the demo server over
 * HTTP as the upstream (its clock resource changes every 100 ms; the test registers a tool on it
 * while it runs), the gateway in process over HTTP and as `mcpkit gateway --stdio`, and McpClient
 * on 2026-07-28 ('auto' over stdio) in front. The client hears the upstream's `tools/list_changed`
 * and `resources/updated` for the resource it listens to, on its listen stream.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { createGateway, type McpGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { serve } from '@mcpkit/node/http';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoHttp } from './fixtures/hostServers.js';
import { eventually } from './support/eventually.js';
import { gatewayStdio } from './support/gatewayProcess.js';

let upstream: Awaited<ReturnType<typeof demoHttp>>;
let dir = '';
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  upstream = await demoHttp('live', 100);
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-gateway-listen-'));
});

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await upstream.close();
  await rm(dir, { recursive: true, force: true });
});

/** Listens for tool changes and for the clock; adds a tool upstream; checks what arrives. */
async function hearsChanges(client: McpClient, tag: string): Promise<void> {
  const resources = await client.resources();
  const clock = resources.find((resource) => resource.uri.endsWith('clock'));
  expect(clock, JSON.stringify(resources.map((r) => r.uri))).toBeDefined();
  let toolsChanged = 0;
  const updated: string[] = [];
  client.onListChanged('tools', () => void toolsChanged++);
  client.onResourceUpdated((uri) => void updated.push(uri));
  await client.subscribeResource(clock!.uri);
  await eventually(() => updated.includes(clock!.uri), `resources/updated for ${clock!.uri}`);
  expect(updated.every((uri) => uri === clock!.uri)).toBe(true);

  const name = `added_${tag}`;
  upstream.server.tool(name, { description: 'registered during the test' }, () => 'ok');
  await eventually(() => toolsChanged > 0, 'tools/list_changed');
  expect((await client.tools()).map((tool) => tool.name)).toEqual(expect.arrayContaining([name]));
}

describe('a 2026 client listening through the gateway over HTTP', () => {
  let gateway: McpGateway;
  let url = '';

  beforeAll(async () => {
    gateway = createGateway({
      host: { servers: [upstream.entry], connector: nodeConnector(), policy: { live: { trusted: true } } },
    });
    const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
    url = served.url;
    closers.push(async () => {
      await served.close();
      await gateway.close();
    });
  });

  it('hears tools/list_changed and resources/updated for the URI it listens to', async () => {
    const client = new McpClient({ name: 'listener', version: '1.0.0' }, { protocolEra: '2026' });
    await client.connect(new StreamableHttpClientTransport(new URL(url)));
    closers.push(() => client.close());
    expect(client.protocolVersion).toBe('2026-07-28');
    await hearsChanges(client, 'http');
  });

  it('the upstream subscription ends with the last listen stream: its host is closed', async () => {
    // With per-session upstreams a listen stream has a host of its own (shared: the shared host's).
    const own = createGateway({
      host: { servers: [upstream.entry], connector: nodeConnector() },
      upstreams: 'perSession',
    });
    const served = await serve(own.httpHandler(), { port: 0, path: '/mcp' });
    closers.push(async () => {
      await served.close();
      await own.close();
    });
    const client = new McpClient({ name: 'brief', version: '1.0.0' }, { protocolEra: '2026' });
    await client.connect(new StreamableHttpClientTransport(new URL(served.url)));
    const clock = (await client.resources()).find((resource) => resource.uri.endsWith('clock'))!;
    const listed = own.hosts().length; // the pool's host that served the listing
    const updated: string[] = [];
    client.onResourceUpdated((uri) => void updated.push(uri));
    await client.subscribeResource(clock.uri);
    await eventually(() => updated.length > 0, 'resources/updated');
    expect(own.hosts()).toHaveLength(listed + 1);
    await client.unsubscribeResource(clock.uri);
    await eventually(() => own.hosts().length === listed, 'the subscribing host closed');
    await client.close();
  });
});

describe('a 2026 client listening through `mcpkit gateway --stdio`', () => {
  it("hears the upstream's tools/list_changed and resources/updated", async () => {
    const config = path.join(dir, 'mcp.json');
    await writeFile(config, JSON.stringify({ mcpServers: { live: { url: upstream.entry.url.href } } }));
    const client = new McpClient({ name: 'stdio-listener', version: '1.0.0' }, { protocolEra: 'auto' });
    await client.connect(new StdioClientTransport(gatewayStdio(config, 'pipe')));
    closers.push(() => client.close());
    expect(client.protocolVersion).toBe('2026-07-28');
    await hearsChanges(client, 'stdio');
  }, 60_000);
});
