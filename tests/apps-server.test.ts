/**
 * MCP Apps, server side, through the public API on both revisions: the extension announced in
 * `initialize` (2025-11-25) and `server/discover` (2026-07-28); a client that declares it sees the
 * app resources and the tools' `_meta.ui` (checked with ext-apps' own schemas) including app-only
 * tools; a client that does not sees plain tools, no app-only tool (a call is refused as unknown),
 * no app resources. Clients: mcpkit's McpClient in both eras and the official SDK v2 client.
 */
import { APP_MIME_TYPE, UI_EXTENSION } from '@mcpkit/apps';
import { appResource, appTool, clientSupportsApps, registerApp } from '@mcpkit/apps/server';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { createInMemoryPair } from '@mcpkit/core';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer, resourceSupport } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { Client as SdkClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpUiResourceMetaSchema, McpUiToolMetaSchema } from '@modelcontextprotocol/ext-apps';
import { getUiCapability } from '@modelcontextprotocol/ext-apps/server';
import { afterEach, describe, expect, it } from 'vitest';
import { appFixtureServer } from './fixtures/appServer.js';
import { MODERN, modernRequest, postModern } from './support/modernWire.js';

const UI_CAPS = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };

const served: ServedHandler[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.close()));
});

async function inMemory(server: McpServer, capabilities?: Record<string, unknown>): Promise<McpClient> {
  const client = new McpClient(
    { name: 'apps-test', version: '1.0.0' },
    { protocolEra: '2025', capabilities },
  );
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

describe('MCP Apps on the server, 2025-11-25', () => {
  it('a client that declares the extension sees apps, links, visibility and the CSP metadata', async () => {
    const client = await inMemory(appFixtureServer('https://api.example.com'), UI_CAPS);
    expect(client.serverCapabilities?.extensions).toEqual({ [UI_EXTENSION]: {} });
    const tools = await client.tools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual([
      'increment',
      'plain',
      'secret_admin',
      'show_counter',
      'show_desk',
      'show_fetcher',
      'show_modes',
    ]);
    const show = byName.get('show_counter')!;
    expect(show._meta?.ui).toEqual({ resourceUri: 'ui://fixture/counter' });
    expect(McpUiToolMetaSchema.parse(show._meta?.ui)).toEqual({ resourceUri: 'ui://fixture/counter' });
    expect(McpUiToolMetaSchema.parse(byName.get('increment')!._meta?.ui)).toEqual({
      resourceUri: 'ui://fixture/counter',
      visibility: ['app'],
    });
    const resources = await client.resources();
    const counter = resources.find((resource) => resource.uri === 'ui://fixture/counter');
    expect(counter).toMatchObject({
      mimeType: APP_MIME_TYPE,
      name: 'counter',
      _meta: { ui: { prefersBorder: true } },
    });
    const read = await client.readResource('ui://fixture/fetcher');
    const content = read.contents[0] as unknown as { mimeType: string; text: string; _meta: { ui: unknown } };
    expect(content.mimeType).toBe(APP_MIME_TYPE);
    expect(content.text.startsWith('<!doctype html>')).toBe(true);
    expect(McpUiResourceMetaSchema.parse(content._meta.ui)).toEqual({
      csp: { connectDomains: ['https://api.example.com'] },
    });
    // The app-only tool is callable (by the host on the view's behalf).
    const result = await client.callTool('increment', {});
    expect(result.structuredContent).toEqual({ count: 1 });
    await client.close();
  });

  it('a client that did not declare it gets plain tools, no app-only tool, no app resources', async () => {
    const client = await inMemory(appFixtureServer());
    const tools = await client.tools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'plain',
      'secret_admin',
      'show_counter',
      'show_desk',
      'show_fetcher',
      'show_modes',
    ]);
    for (const tool of tools) expect(tool._meta?.ui).toBeUndefined();
    await expect(client.callTool('increment', {})).rejects.toMatchObject({ code: -32602 });
    expect((await client.resources()).map((resource) => resource.uri)).toEqual([]);
    // The plain result still carries text for a text-only host.
    const shown = await client.callTool('show_counter', { start: 5 });
    expect(shown.content).toEqual([{ type: 'text', text: 'count is 5' }]);
    await client.close();
  });

  it('the official SDK v2 client, declaring the extension, sees the app like an ext-apps host would', async () => {
    const http = await serve(createStreamableHttpHandler(appFixtureServer()), { path: '/mcp' });
    served.push(http);
    const client = new SdkClient({ name: 'sdk-host', version: '1.0.0' }, { capabilities: UI_CAPS as never });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    expect(getUiCapability(client.getServerCapabilities() as never)).toEqual({});
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'increment')?._meta?.ui).toEqual({
      resourceUri: 'ui://fixture/counter',
      visibility: ['app'],
    });
    const read = await client.readResource({ uri: 'ui://fixture/counter' });
    expect(read.contents[0]?.mimeType).toBe(APP_MIME_TYPE);
    await client.close();
  });
});

describe('MCP Apps on the server, 2026-07-28', () => {
  it('server/discover announces the extension; per-request capabilities decide what each request sees', async () => {
    const http = await serve(createStreamableHttpHandler(appFixtureServer()), { path: '/mcp' });
    served.push(http);
    const discover = await postModern(http.url, modernRequest(1, 'server/discover'));
    expect(discover.body?.result.capabilities.extensions).toMatchObject({ [UI_EXTENSION]: {} });
    const withUi = await postModern(
      http.url,
      modernRequest(2, 'tools/list', {}, { 'io.modelcontextprotocol/clientCapabilities': UI_CAPS }),
    );
    const names = withUi.body?.result.tools.map((tool: { name: string }) => tool.name).sort();
    expect(names).toContain('increment');
    const plain = await postModern(http.url, modernRequest(3, 'tools/list'));
    const plainTools = plain.body?.result.tools as Array<{ name: string; _meta?: Record<string, unknown> }>;
    expect(plainTools.map((tool) => tool.name)).not.toContain('increment');
    expect(plainTools.every((tool) => tool._meta?.ui === undefined)).toBe(true);
    const refused = await postModern(
      http.url,
      modernRequest(4, 'tools/call', { name: 'increment', arguments: {} }),
    );
    expect(refused.body?.error.code).toBe(-32602);
    const allowed = await postModern(
      http.url,
      modernRequest(
        5,
        'tools/call',
        { name: 'increment', arguments: {} },
        { 'io.modelcontextprotocol/clientCapabilities': UI_CAPS },
      ),
    );
    expect(allowed.body?.result.structuredContent).toEqual({ count: 1 });
  });

  it('the official SDK v2 client pinned to 2026-07-28, declaring the extension, sees the app-only tool', async () => {
    const http = await serve(createStreamableHttpHandler(appFixtureServer()), { path: '/mcp' });
    served.push(http);
    const client = new SdkClient({ name: 'sdk-host-2026', version: '1.0.0' }, {
      capabilities: UI_CAPS as never,
      versionNegotiation: { mode: { pin: MODERN } },
    } as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(getUiCapability(client.getServerCapabilities() as never)).toEqual({});
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'increment')?._meta?.ui).toEqual({
      resourceUri: 'ui://fixture/counter',
      visibility: ['app'],
    });
    const called = await client.callTool({ name: 'increment', arguments: {} });
    expect(called.structuredContent).toEqual({ count: 1 });
    await client.close();
  });

  it("mcpkit's McpClient in the 2026 era, declaring the extension, reads the app", async () => {
    const http = await serve(createStreamableHttpHandler(appFixtureServer()), { path: '/mcp' });
    served.push(http);
    const client = new McpClient(
      { name: 'modern-host', version: '1.0.0' },
      { protocolEra: '2026', capabilities: UI_CAPS },
    );
    await client.connect(new StreamableHttpClientTransport(new URL(http.url)));
    expect(client.protocolVersion).toBe(MODERN);
    expect(client.serverCapabilities?.extensions).toMatchObject({ [UI_EXTENSION]: {} });
    const tools = await client.tools();
    expect(tools.find((tool) => tool.name === 'increment')?._meta?.ui).toEqual({
      resourceUri: 'ui://fixture/counter',
      visibility: ['app'],
    });
    const read = await client.readResource('ui://fixture/counter');
    expect((read.contents[0] as { _meta: unknown })._meta).toEqual({ ui: { prefersBorder: true } });
    await client.close();
  });
});

describe('registration checks', () => {
  const server = () => new McpServer({ name: 's', version: '1' }, { resources: resourceSupport });

  it('refuses an app URI outside ui://, a CSP entry that is not an origin, and a bad visibility', () => {
    expect(() => registerApp(server(), { uri: 'https://x/app', html: '' })).toThrow(/ui:\/\//);
    expect(() =>
      registerApp(server(), { uri: 'ui://x/app', html: '', csp: { connectDomains: ["'unsafe-eval'"] } }),
    ).toThrow(/not an origin/);
    expect(() =>
      registerApp(server(), {
        uri: 'ui://x/app',
        html: '',
        csp: { connectDomains: ['https://a.example.com; script-src *'] },
      }),
    ).toThrow(/not an origin/);
    expect(() => appTool(server(), 't', {}, { resourceUri: 'ui://x', visibility: [] }, () => 'x')).toThrow(
      /visibility/,
    );
  });

  it('the full shape: a resource with permissions and a domain, a tool linked by hand', async () => {
    const s = server();
    appResource(
      s,
      'ui://x/app',
      { name: 'x', permissions: { clipboardWrite: {} }, domain: 'x.example.com' },
      () => '<!doctype html>',
    );
    appTool(
      s,
      'open_x',
      { description: 'Opens x' },
      { resourceUri: 'ui://x/app', visibility: ['model', 'app'] },
      () => 'x',
    );
    const client = await inMemory(s, UI_CAPS);
    const [tool] = await client.tools();
    expect(tool?._meta?.ui).toEqual({ resourceUri: 'ui://x/app', visibility: ['model', 'app'] });
    const read = await client.readResource('ui://x/app');
    expect((read.contents[0] as { _meta: unknown })._meta).toEqual({
      ui: { permissions: { clipboardWrite: {} }, domain: 'x.example.com' },
    });
    await client.close();
  });

  it('clientSupportsApps reads the declaration the spec defines', () => {
    expect(clientSupportsApps(UI_CAPS)).toBe(true);
    expect(clientSupportsApps({ extensions: { [UI_EXTENSION]: { mimeTypes: ['text/html'] } } })).toBe(false);
    expect(clientSupportsApps({ extensions: { [UI_EXTENSION]: true } })).toBe(false);
    expect(clientSupportsApps(undefined)).toBe(false);
  });
});
