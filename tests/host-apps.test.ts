/**
 * MCP Apps through @mcpkit/host and its gateway: with `apps: true` the host declares the
 * extension to its upstreams, exposes each tool's app link (`host.appLink`) and the tools a model
 * may see (`host.modelTools`); the gateway keeps `_meta.ui`, app-only tools and the upstreams'
 * `ui://` views for downstream clients that declare the extension, and lists them plain for those
 * that do not. Upstreams: the apps fixture over HTTP and ext-apps' server-basic-vanillajs (from
 * npm) over stdio.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { APP_MIME_TYPE, APPS_CLIENT_CAPABILITIES } from '@mcpkit/apps';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { McpHost, type ServerEntry } from '@mcpkit/host';
import { createGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFixtureServer } from './fixtures/appServer.js';

const base = { disabled: false, autoApprove: [] as string[], env: {} as Record<string, string> };
const require = createRequire(import.meta.url);
const example = join(dirname(require.resolve('@modelcontextprotocol/server-basic-vanillajs')), 'index.js');

let fixture: ServedHandler;
let servers: ServerEntry[];
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  fixture = await serve(createStreamableHttpHandler(appFixtureServer()), { path: '/mcp' });
  servers = [
    { ...base, kind: 'url', name: 'fixture', url: new URL(fixture.url), headers: {}, transport: 'auto' },
    { ...base, kind: 'stdio', name: 'example', command: process.execPath, args: [example, '--stdio'] },
  ];
});

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await fixture.close();
});

async function startHost(apps: boolean): Promise<McpHost> {
  const host = new McpHost({ servers, connector: nodeConnector(), apps });
  cleanups.push(() => host.close());
  await host.start();
  return host;
}

describe('McpHost with apps', () => {
  it('lists app links and app-only tools, and keeps app-only tools from the model', async () => {
    const host = await startHost(true);
    const names = (await host.tools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['show_counter', 'increment', 'get-time']));
    const forModel = (await host.modelTools()).map((tool) => tool.name);
    expect(forModel).toContain('show_counter');
    expect(forModel).not.toContain('increment');
    expect(await host.appLink('show_counter')).toEqual({
      tool: 'show_counter',
      server: 'fixture',
      resourceUri: 'ui://fixture/counter',
      serverResourceUri: 'ui://fixture/counter',
      visibility: ['model', 'app'],
    });
    const time = await host.appLink('get-time');
    expect(time).toMatchObject({ server: 'example', resourceUri: 'ui://get-time/mcp-app.html' });
    const read = await host.readResource(time!.resourceUri);
    expect(read.contents[0]?.mimeType).toBe(APP_MIME_TYPE);
    expect(await host.appLink('plain')).toBeUndefined();
  }, 60_000);

  it('without apps, the fixture lists its tools plain and no app-only tool', async () => {
    const host = await startHost(false);
    const tools = await host.tools();
    expect(tools.map((tool) => tool.name)).not.toContain('increment');
    expect(tools.find((tool) => tool.name === 'show_counter')?._meta?.ui).toBeUndefined();
  }, 60_000);
});

describe('two servers serving the same view URI', () => {
  it('namespace it as a ui:// URI, in the listing and in the tools that link to it', async () => {
    const twin = await serve(createStreamableHttpHandler(appFixtureServer()), { path: '/mcp' });
    cleanups.push(() => twin.close());
    const entry = (name: string, url: string): ServerEntry => ({
      ...base,
      kind: 'url',
      name,
      url: new URL(url),
      headers: {},
      transport: 'auto',
    });
    const host = new McpHost({ servers: [entry('one', fixture.url), entry('two', twin.url)], apps: true });
    cleanups.push(() => host.close());
    await host.start();
    const tools = new Map((await host.tools()).map((tool) => [tool.name, tool]));
    expect(tools.get('one__show_counter')?._meta?.ui).toEqual({
      resourceUri: 'ui://mcp-host/one/fixture/counter',
    });
    expect(tools.get('two__increment')?._meta?.ui).toEqual({
      resourceUri: 'ui://mcp-host/two/fixture/counter',
      visibility: ['app'],
    });
    const uris = (await host.resources()).map((resource) => resource.uri);
    expect(uris).toEqual(
      expect.arrayContaining(['ui://mcp-host/one/fixture/counter', 'ui://mcp-host/two/fixture/counter']),
    );
    const link = await host.appLink('two__show_counter');
    expect(link).toMatchObject({
      server: 'two',
      resourceUri: 'ui://mcp-host/two/fixture/counter',
      serverResourceUri: 'ui://fixture/counter',
    });
    const read = await host.readResource(link!.resourceUri);
    expect(read.contents[0]?.mimeType).toBe(APP_MIME_TYPE);
  }, 60_000);
});

describe('the gateway passes apps through', () => {
  let url: string;

  beforeAll(async () => {
    const gateway = createGateway({ host: { servers, connector: nodeConnector(), apps: true } });
    const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });
    cleanups.push(async () => {
      await served.close();
      await gateway.close();
    });
    url = served.url;
  }, 60_000);

  async function downstream(capabilities?: Record<string, unknown>): Promise<McpClient> {
    const client = new McpClient(
      { name: 'downstream', version: '1.0.0' },
      { protocolEra: '2025', capabilities },
    );
    await client.connect(new StreamableHttpClientTransport(new URL(url)));
    cleanups.push(() => client.close());
    return client;
  }

  it('to a client that declares the extension: links, app-only tools, views, calls', async () => {
    const client = await downstream(APPS_CLIENT_CAPABILITIES);
    expect(client.serverCapabilities?.extensions).toMatchObject({ 'io.modelcontextprotocol/ui': {} });
    const tools = new Map((await client.tools()).map((tool) => [tool.name, tool]));
    expect(tools.get('increment')?._meta?.ui).toEqual({
      resourceUri: 'ui://fixture/counter',
      visibility: ['app'],
    });
    expect(tools.get('get-time')?._meta?.ui).toEqual({ resourceUri: 'ui://get-time/mcp-app.html' });
    const uris = (await client.resources()).map((resource) => resource.uri);
    expect(uris).toEqual(expect.arrayContaining(['ui://fixture/counter', 'ui://get-time/mcp-app.html']));
    const view = await client.readResource('ui://get-time/mcp-app.html');
    expect((view.contents[0] as { text: string }).text).toContain('get-time-btn');
    const counted = await client.callTool('increment', {});
    expect(counted.structuredContent).toMatchObject({ count: expect.any(Number) });
  }, 60_000);

  it('to a client that does not: plain tools, no app-only tool, no views listed', async () => {
    const client = await downstream();
    const tools = await client.tools();
    expect(tools.map((tool) => tool.name)).not.toContain('increment');
    expect(tools.every((tool) => tool._meta?.ui === undefined)).toBe(true);
    expect((await client.resources()).some((resource) => resource.uri.startsWith('ui://'))).toBe(false);
  }, 60_000);

  it('regression: a client that does not declare apps cannot call an app-only tool by name', async () => {
    const client = await downstream();
    await expect(client.callTool('increment', {})).rejects.toMatchObject({ code: -32602 });
    const plain = await client.callTool('show_counter', {});
    expect(plain.isError).toBeFalsy();
  }, 60_000);
});
