import { createServer, type Server as NodeServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { APPS_CLIENT_CAPABILITIES } from '@mcpkit/apps';
import { type SandboxServer, serveSandbox } from '@mcpkit/apps/sandbox';
import { McpClient } from '@mcpkit/client';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import {
  McpUiHostContextChangedNotificationSchema,
  McpUiInitializeResultSchema,
  McpUiRequestDisplayModeResultSchema,
} from '@modelcontextprotocol/ext-apps';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFixtureServer } from './fixtures/appServer.js';
import { bundleForBrowser } from './support/browserBundle.js';
import { launchChromium } from './support/chromium.js';

const skip = process.env.MCPKIT_SKIP_BROWSER === '1';
if (skip) console.warn('tests/browser-apps.test.ts skipped: MCPKIT_SKIP_BROWSER=1 is set');

/** The host page's modules: @mcpkit/client and @mcpkit/apps/bridge, bundled from the sources. */
function bundleHost(): Promise<string> {
  return bundleForBrowser(
    [
      "export { McpClient } from '@mcpkit/client';",
      "export { StreamableHttpClientTransport } from '@mcpkit/client/http';",
      "export { mount, APPS_CLIENT_CAPABILITIES } from '@mcpkit/apps/bridge';",
    ].join('\n'),
  );
}

function listen(server: NodeServer): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

/** The host page and its bundle, on their own origin. */
async function servePage(bundle: string): Promise<{ origin: string; server: NodeServer }> {
  const html =
    '<!doctype html><title>host</title><div id="app"></div>' +
    '<script type="module">import * as apps from "/host.js"; window.apps = apps;</script>';
  const server = createServer((req, res) => {
    if (req.url === '/host.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  return { origin: await listen(server), server };
}

/** A third origin a view may or may not fetch from (CORS open, so only the CSP decides). */
async function serveTarget(): Promise<{ origin: string; server: NodeServer }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('pong');
  });
  return { origin: await listen(server), server };
}

interface Mounted {
  toolName: string;
  error?: string;
}

describe.skipIf(skip)('MCP Apps host bridge in headless Chromium', () => {
  let context: BrowserContext | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: { origin: string; server: NodeServer } | undefined;
  let target: { origin: string; server: NodeServer } | undefined;
  let sandbox: SandboxServer | undefined;
  let mcp: ServedHandler | undefined;

  beforeAll(async () => {
    page = await servePage(await bundleHost());
    target = await serveTarget();
    sandbox = await serveSandbox();
    mcp = await serve(
      createStreamableHttpHandler(appFixtureServer(target.origin), {
        cors: { allowedOrigins: [page.origin] },
      }),
      { path: '/mcp' },
    );
    browser = await launchChromium();
    context = browser.context;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await mcp?.close();
    await sandbox?.close();
    for (const served of [page, target])
      if (served) await new Promise<void>((resolve) => served.server.close(() => resolve()));
  });

  /**
   * What the host page offers: display modes beyond inline (it lays the view out fullscreen by
   * fixing `#app` over the page), and whether it takes (`accept`) or declines the view's messages
   * and model context.
   */
  interface HostOffer {
    displayModes?: string[];
    talk?: 'accept' | 'decline';
    /** Whether the host saves a view's files and answers its sampling (with a fixed reply), or declines both. */
    consent?: 'accept' | 'decline';
  }

  /** Opens the host page, has it call `toolName` on the fixture server and mount the tool's view. */
  async function mountFixture(
    toolName: string,
    offer: HostOffer = {},
  ): Promise<{ tab: Page; view: Frame; proxy: Frame }> {
    const tab = await context!.newPage();
    await tab.goto(`${page!.origin}/`);
    await tab.waitForFunction(() => 'apps' in window);
    const mounted = await tab.evaluate(
      async ([url, sandboxUrl, name, { displayModes, talk, consent }]): Promise<Mounted> => {
        const w = window as any;
        const { McpClient, StreamableHttpClientTransport, mount, APPS_CLIENT_CAPABILITIES } = w.apps;
        try {
          const client = new McpClient(
            { name: 'page-host', version: '1.0.0' },
            { capabilities: APPS_CLIENT_CAPABILITIES },
          );
          await client.connect(new StreamableHttpClientTransport(url, { maxRetries: 0 }));
          const tool = (await client.tools()).find((candidate: any) => candidate.name === name);
          const toolInput = name === 'show_counter' ? { start: 3 } : {};
          const toolResult = await client.callTool(name, toolInput);
          w.logs = [];
          w.sizes = [];
          w.messages = [];
          w.contexts = [];
          w.files = [];
          w.samples = [];
          const container = document.getElementById('app')!;
          /** The host's layout: fullscreen and pip fix the container over the page (pip in a corner). */
          const layOut = (mode: string) => {
            const full = mode === 'fullscreen';
            container.style.cssText =
              mode === 'inline'
                ? ''
                : `position:fixed;right:0;bottom:0;width:${full ? '100vw' : '300px'};height:${full ? '100vh' : '200px'}`;
            return mode;
          };
          w.layOut = layOut;
          w.handle = await mount(container, {
            client,
            resource: tool._meta.ui.resourceUri,
            sandbox: sandboxUrl,
            tool,
            toolInput,
            toolResult,
            teardownTimeoutMs: 10_000,
            ...(displayModes ? { displayModes } : {}),
            callbacks: {
              log: (entry: unknown) => w.logs.push(entry),
              sizeChanged: (size: unknown) => w.sizes.push(size),
              ...(displayModes ? { requestDisplayMode: layOut } : {}),
              ...(talk
                ? {
                    message: (message: unknown) => w.messages.push(message) > 0 && talk === 'accept',
                    updateModelContext: (context: unknown) =>
                      w.contexts.push(context) > 0 && talk === 'accept',
                  }
                : {}),
              ...(consent
                ? {
                    downloadFile: (params: unknown) => w.files.push(params) > 0 && consent === 'accept',
                    sample: async (params: unknown) => {
                      w.samples.push(params);
                      if (consent === 'decline')
                        throw { code: -1, message: 'User rejected sampling request' };
                      return { role: 'assistant', content: { type: 'text', text: 'Tidy' }, model: 'person' };
                    },
                  }
                : {}),
            },
          });
          await w.handle.initialized;
          return { toolName: name };
        } catch (error) {
          return { toolName: name, error: String(error) };
        }
      },
      [mcp!.url, sandbox!.url, toolName, offer] as const,
    );
    expect(mounted.error).toBeUndefined();
    const proxy = tab.frames().find((frame) => frame.url().startsWith(sandbox!.origin));
    const view = tab.frames().find((frame) => frame.parentFrame() === proxy);
    if (!proxy || !view) throw new Error('the proxy frame or the view frame is missing');
    return { tab, view, proxy };
  }

  it('renders through a sandbox proxy on another origin, with the sandbox attribute the spec requires', async () => {
    const { tab, view } = await mountFixture('show_counter');
    const frame = await tab.evaluate(() => {
      const element = document.querySelector('#app iframe') as HTMLIFrameElement;
      return { sandbox: element.getAttribute('sandbox'), src: element.src, pageOrigin: location.origin };
    });
    expect(frame.sandbox).toBe('allow-scripts allow-same-origin');
    expect(new URL(frame.src).origin).toBe(sandbox!.origin);
    expect(new URL(frame.src).origin).not.toBe(frame.pageOrigin);
    // The view itself runs with an opaque origin: it reaches neither the proxy nor the page.
    const inside = await view.evaluate(() => {
      let parentDocument = 'reachable';
      try {
        void window.parent.document.body;
      } catch {
        parentDocument = 'blocked';
      }
      return { origin: window.origin, parentDocument };
    });
    expect(inside).toEqual({ origin: 'null', parentDocument: 'blocked' });
    await tab.close();
  }, 60_000);

  it('sends nothing to the view before initialized, then the tool input and result as notifications', async () => {
    const { tab, view } = await mountFixture('show_counter');
    const early = await view.evaluate(() => {
      const v = (window as any).__view;
      return v.seen.slice(0, v.seenBeforeInitialized);
    });
    // Only the answer to ui/initialize arrived meanwhile, though the host had input and result waiting.
    expect(early).toHaveLength(1);
    expect(early[0].method).toBeUndefined();
    expect(early[0].result.protocolVersion).toBe('2026-01-26');
    expect(early[0].result.hostCapabilities).toMatchObject({ serverTools: {}, serverResources: {} });
    expect(early[0].result.hostContext).toMatchObject({ displayMode: 'inline', platform: 'web' });
    expect(early[0].result.hostContext.toolInfo.tool.name).toBe('show_counter');
    // ext-apps' own schema of the answer accepts it.
    expect(() => McpUiInitializeResultSchema.parse(early[0].result)).not.toThrow();
    await expect
      .poll(() => view.evaluate(() => (window as any).__view.seen.map((m: any) => m.method ?? 'response')))
      .toEqual(['response', 'ui/notifications/tool-input', 'ui/notifications/tool-result']);
    const notifications = await view.evaluate(() => (window as any).__view.seen.slice(1));
    expect(notifications[0].params).toEqual({ arguments: { start: 3 } });
    expect(notifications[1].params.structuredContent).toEqual({ count: 3 });
    await tab.close();
  }, 60_000);

  it('proxies an app tool call to the server, refuses a model-only tool and unknown methods with clear errors', async () => {
    const { tab, view } = await mountFixture('show_counter');
    const call = (method: string, params: unknown) =>
      view.evaluate(([m, p]) => (window as any).__view.request(m, p), [method, params] as const);
    const incremented = await call('tools/call', { name: 'increment', arguments: {} });
    expect(incremented.result.structuredContent).toEqual({ count: 4 });
    const modelOnly = await call('tools/call', { name: 'secret_admin', arguments: {} });
    expect(modelOnly.error).toEqual({
      code: -32000,
      message: 'Tool "secret_admin" is not callable from an app: its visibility does not include "app"',
    });
    const unknown = await call('tools/call', { name: 'nope', arguments: {} });
    expect(unknown.error).toEqual({ code: -32602, message: 'Unknown tool: nope' });
    const listed = await call('tools/list', {});
    expect(listed.result.tools.map((tool: { name: string }) => tool.name)).not.toContain('secret_admin');
    const link = await call('ui/open-link', { url: 'https://example.com/' });
    expect(link.error).toEqual({ code: -32000, message: 'This host does not open links' });
    const sampling = await call('sampling/createMessage', { messages: [], maxTokens: 10 });
    expect(sampling.error).toEqual({ code: -32000, message: 'This host does not offer sampling to apps' });
    // The host offers inline only: a request for fullscreen is answered with the current mode.
    expect((await call('ui/request-display-mode', { mode: 'fullscreen' })).result).toEqual({
      mode: 'inline',
    });
    // A view that starts like a plain MCP client gets the host's answer as a server.
    const mcp = await call('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'plain-view', version: '1.0.0' },
    });
    expect(mcp.result.protocolVersion).toBe('2025-06-18');
    expect(mcp.result.capabilities.extensions['io.modelcontextprotocol/ui']).toMatchObject({
      serverTools: {},
    });
    const odd = await call('ui/teleport', {});
    expect(odd.error).toEqual({ code: -32601, message: 'Method not found: ui/teleport' });
    const read = await call('resources/read', { uri: 'ui://fixture/counter' });
    expect(read.result.contents[0].mimeType).toBe('text/html;profile=mcp-app');
    await tab.close();
  }, 60_000);

  it('switches the display mode a view asks for when the host offers it, sizes the frame for it, and says so in the host context', async () => {
    const { tab, view } = await mountFixture('show_counter', {
      displayModes: ['inline', 'fullscreen', 'pip'],
    });
    const request = (method: string, params: unknown) =>
      view.evaluate(([m, p]) => (window as any).__view.request(m, p), [method, params] as const);
    const contextChanges = () =>
      view.evaluate(() =>
        (window as any).__view.seen
          .filter((m: any) => m.method === 'ui/notifications/host-context-changed')
          .map((m: any) => m.params),
      );
    const frameSize = () =>
      tab.evaluate(() => {
        const frame = document.querySelector('#app iframe') as HTMLIFrameElement;
        return { width: frame.clientWidth, height: frame.clientHeight };
      });
    const viewport = tab.viewportSize()!;
    // The host offers what it named; the view declared inline and fullscreen.
    const init = await view.evaluate(() => (window as any).__view.init.result.hostContext);
    expect(init.availableDisplayModes).toEqual(['inline', 'fullscreen', 'pip']);
    await view.evaluate(() =>
      (window as any).__view.notify('ui/notifications/size-changed', { width: 500, height: 321 }),
    );
    await expect.poll(frameSize).toMatchObject({ height: 321 });
    const answer = await request('ui/request-display-mode', { mode: 'fullscreen' });
    expect(answer.result).toEqual({ mode: 'fullscreen' });
    expect(McpUiRequestDisplayModeResultSchema.parse(answer.result)).toEqual({ mode: 'fullscreen' });
    // The frame fills what the host laid out, and the view is told its mode and its fixed container.
    await expect.poll(frameSize).toEqual({ width: viewport.width, height: viewport.height });
    await expect.poll(contextChanges).toHaveLength(1);
    const [fullscreen] = await contextChanges();
    expect(fullscreen).toEqual({
      displayMode: 'fullscreen',
      containerDimensions: { width: viewport.width, height: viewport.height },
    });
    // The window resized: the frame follows the host's layout, and the view is told its new container.
    await tab.setViewportSize({ width: 700, height: 500 });
    await expect.poll(contextChanges).toHaveLength(2);
    expect((await contextChanges())[1]).toEqual({ containerDimensions: { width: 700, height: 500 } });
    await tab.setViewportSize(viewport);
    await expect.poll(contextChanges).toHaveLength(3);
    // The view's size does not shrink the frame while the host lays it out.
    await view.evaluate(() =>
      (window as any).__view.notify('ui/notifications/size-changed', { width: 500, height: 100 }),
    );
    // A mode the view did not declare is not switched to; a mode the host does not offer neither.
    expect((await request('ui/request-display-mode', { mode: 'pip' })).result).toEqual({
      mode: 'fullscreen',
    });
    expect(await frameSize()).toEqual({ width: viewport.width, height: viewport.height });
    // The host switches back itself (its own button, Escape): the frame takes the view's last size.
    const back = await tab.evaluate(() => {
      const w = window as any;
      w.layOut('inline');
      return { mode: w.handle.setDisplayMode('inline'), pip: w.handle.canDisplay('pip') };
    });
    expect(back).toEqual({ mode: 'inline', pip: false });
    await expect.poll(frameSize).toMatchObject({ height: 100 });
    await expect.poll(contextChanges).toHaveLength(4);
    expect((await contextChanges())[3]).toEqual({ displayMode: 'inline', containerDimensions: {} });
    // ext-apps' own schema accepts every change the view was told.
    for (const params of await contextChanges()) {
      expect(() =>
        McpUiHostContextChangedNotificationSchema.parse({
          method: 'ui/notifications/host-context-changed',
          params,
        }),
      ).not.toThrow();
    }
    // Inline again, a resized window is the view's business (its size-changed), not a context change.
    await tab.setViewportSize({ width: 700, height: 500 });
    await view.evaluate(() => (window as any).__view.request('ping', {}));
    expect(await contextChanges()).toHaveLength(4);
    await tab.setViewportSize(viewport);
    await tab.close();
  }, 60_000);

  it('declines a display mode the host does not offer, and refuses to offer one it cannot switch to', async () => {
    const { tab, view } = await mountFixture('show_counter');
    const answer = await view.evaluate(() =>
      (window as any).__view.request('ui/request-display-mode', { mode: 'fullscreen' }),
    );
    expect(answer.result).toEqual({ mode: 'inline' });
    expect(
      await view.evaluate(() => (window as any).__view.init.result.hostContext.availableDisplayModes),
    ).toEqual(['inline']);
    const refused = await tab.evaluate(async () => {
      const w = window as any;
      try {
        await w.apps.mount(document.createElement('div'), {
          server: { listTools: async () => [], callTool: async () => ({}), readResource: async () => ({}) },
          resource: w.handle.view,
          sandbox: 'http://127.0.0.1:9/sandbox',
          displayModes: ['inline', 'fullscreen'],
        });
        return 'mounted';
      } catch (error) {
        return String(error);
      }
    });
    expect(refused).toBe(
      'TypeError: Offering display modes other than the current one needs callbacks.requestDisplayMode',
    );
    await tab.close();
  }, 60_000);

  it('hands ui/message and ui/update-model-context to the host, answers {} when it takes them, -32000 when it declines', async () => {
    const accepting = await mountFixture('show_counter', { talk: 'accept' });
    const request = (view: Frame, method: string, params: unknown) =>
      view.evaluate(([m, p]) => (window as any).__view.request(m, p), [method, params] as const);
    const init = await accepting.view.evaluate(() => (window as any).__view.init.result.hostCapabilities);
    expect(init).toMatchObject({
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
    });
    const text = { type: 'text', text: 'hello' };
    expect(await request(accepting.view, 'ui/message', { role: 'user', content: [text] })).toMatchObject({
      result: {},
    });
    // The spec's example sends one block, ext-apps' App a list: the host gets a list either way.
    expect(await request(accepting.view, 'ui/message', { role: 'user', content: text })).toMatchObject({
      result: {},
    });
    expect(await request(accepting.view, 'ui/message', { role: 'user', content: ['hello'] })).toMatchObject({
      error: { code: -32602, message: 'Invalid message format: a role and content blocks are required' },
    });
    const update = { content: [text], structuredContent: { step: 1 } };
    expect(await request(accepting.view, 'ui/update-model-context', update)).toMatchObject({ result: {} });
    expect(
      await request(accepting.view, 'ui/update-model-context', { structuredContent: [1, 2] }),
    ).toMatchObject({ error: { code: -32602, message: 'Invalid content format' } });
    expect(await accepting.tab.evaluate(() => (window as any).messages)).toEqual([
      { role: 'user', content: [text] },
      { role: 'user', content: [text] },
    ]);
    expect(await accepting.tab.evaluate(() => (window as any).contexts)).toEqual([update]);
    await accepting.tab.close();
    const declining = await mountFixture('show_counter', { talk: 'decline' });
    expect(await request(declining.view, 'ui/message', { role: 'user', content: [text] })).toMatchObject({
      error: { code: -32000, message: 'Message sending denied' },
    });
    expect(await request(declining.view, 'ui/update-model-context', update)).toMatchObject({
      error: { code: -32000, message: 'Context update denied' },
    });
    await declining.tab.close();
  }, 60_000);

  it('refuses ui/download-file and sampling by default; with callbacks, checks their params and answers -32000 / -1 when declined', async () => {
    const request = (view: Frame, method: string, params: unknown) =>
      view.evaluate(([m, p]) => (window as any).__view.request(m, p), [method, params] as const);
    const file = {
      type: 'resource',
      resource: { uri: 'file:///x/notes.txt', mimeType: 'text/plain', text: 'hi' },
    };
    const ask = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 };
    const bare = await mountFixture('show_desk');
    const bareCaps = await bare.view.evaluate(() => (window as any).__view.init.result.hostCapabilities);
    expect(bareCaps.downloadFile).toBeUndefined();
    expect(bareCaps.sampling).toBeUndefined();
    expect(await request(bare.view, 'ui/download-file', { contents: [file] })).toMatchObject({
      error: { code: -32000, message: 'This host does not download files for apps' },
    });
    await bare.tab.close();

    const accepting = await mountFixture('show_desk', { consent: 'accept' });
    const caps = await accepting.view.evaluate(() => (window as any).__view.init.result.hostCapabilities);
    expect(caps).toMatchObject({ downloadFile: {}, sampling: {} });
    for (const contents of [
      [],
      [{ type: 'resource', resource: { uri: 'file:///a', text: 'a', blob: 'YQ==' } }],
      ['x'],
    ])
      expect(await request(accepting.view, 'ui/download-file', { contents })).toMatchObject({
        error: { code: -32602 },
      });
    const link = { type: 'resource_link', uri: 'https://example.com/r.pdf', name: 'R', extra: 1 };
    expect(await request(accepting.view, 'ui/download-file', { contents: [file, link] })).toEqual(
      expect.objectContaining({ result: {} }),
    );
    // The host gets the files as checked: only the fields the spec names.
    expect(await accepting.tab.evaluate(() => (window as any).files)).toEqual([
      { contents: [file, { type: 'resource_link', uri: 'https://example.com/r.pdf', name: 'R' }] },
    ]);
    expect(await request(accepting.view, 'sampling/createMessage', { ...ask, maxTokens: 0 })).toMatchObject({
      error: { code: -32602, message: 'maxTokens must be a positive integer' },
    });
    expect(await request(accepting.view, 'sampling/createMessage', ask)).toMatchObject({
      result: { role: 'assistant', content: { type: 'text', text: 'Tidy' } },
    });
    await accepting.tab.close();

    const declining = await mountFixture('show_desk', { consent: 'decline' });
    expect(await request(declining.view, 'ui/download-file', { contents: [file] })).toMatchObject({
      error: { code: -32000, message: 'Download denied by user' },
    });
    expect(await request(declining.view, 'sampling/createMessage', ask)).toMatchObject({
      error: { code: -1, message: 'User rejected sampling request' },
    });
    await declining.tab.close();
  }, 60_000);

  it("lists and calls a view's own tools (ui/list-view-tools, ui/call-view-tool) only when it declares them", async () => {
    const desk = await mountFixture('show_desk');
    const tools = await desk.tab.evaluate(async () => {
      const handle = (window as any).handle;
      return { offers: handle.offersTools, tools: await handle.listViewTools() };
    });
    expect(tools.offers).toBe(true);
    expect(tools.tools.map((tool: { name: string }) => tool.name)).toEqual(['set_note']);
    const result = await desk.tab.evaluate(() =>
      (window as any).handle.callViewTool('set_note', { text: 'buy milk' }),
    );
    expect(result.structuredContent).toEqual({ note: 'buy milk' });
    expect(await desk.view.textContent('#note')).toBe('buy milk');
    const unknown = await desk.tab.evaluate(() =>
      (window as any).handle.callViewTool('nope', {}).then(
        () => 'called',
        (error: any) => `${error.name} ${error.code}: ${error.message}`,
      ),
    );
    expect(unknown).toBe('ViewToolError -32602: Unknown tool');
    await desk.tab.close();
    // A view that predates ext-apps 2.x answers "method not found": asked again as tools/list, tools/call.
    const older = await mountFixture('show_desk');
    await older.view.evaluate(() => ((window as any).__view.legacy = true));
    const olderResult = await older.tab.evaluate(async () => {
      const handle = (window as any).handle;
      const listed = await handle.listViewTools();
      return { listed: listed.length, called: await handle.callViewTool('set_note', { text: 'old' }) };
    });
    expect(olderResult).toMatchObject({ listed: 1, called: { structuredContent: { note: 'old' } } });
    const methods = await older.view.evaluate(() =>
      (window as any).__view.seen
        .filter((m: any) => m.id !== undefined && m.method)
        .map((m: any) => m.method),
    );
    expect(methods).toEqual(['ui/list-view-tools', 'tools/list', 'tools/call']);
    await older.tab.close();
    const counter = await mountFixture('show_counter');
    const refused = await counter.tab.evaluate(() =>
      (window as any).handle.listViewTools().then(
        () => 'listed',
        (error: any) => error.message,
      ),
    );
    expect(refused).toBe('The view offers no tools');
    await counter.tab.close();
  }, 60_000);

  it('blocks a fetch to an undeclared origin (a CSP violation) and allows it once connectDomains declares it', async () => {
    const url = `${target!.origin}/ping`;
    const first = await mountFixture('show_counter');
    const blocked = await first.view.evaluate((u) => (window as any).__view.tryFetch(u), url);
    expect(blocked.ok).toBe(false);
    await expect
      .poll(() => first.view.evaluate(() => (window as any).__view.violations))
      .toContainEqual({ directive: 'connect-src', blocked: url });
    await first.tab.close();
    const second = await mountFixture('show_fetcher');
    const allowed = await second.view.evaluate((u) => (window as any).__view.tryFetch(u), url);
    expect(allowed).toEqual({ ok: true, status: 200, body: 'pong' });
    expect(await second.view.evaluate(() => (window as any).__view.violations)).toEqual([]);
    await second.tab.close();
  }, 60_000);

  it('resizes the frame on size-changed and sends ui/resource-teardown before removing it', async () => {
    const { tab, view } = await mountFixture('show_counter');
    await view.evaluate(() =>
      (window as any).__view.notify('ui/notifications/size-changed', { width: 500, height: 321 }),
    );
    await expect
      .poll(() =>
        tab.evaluate(() => (document.querySelector('#app iframe') as HTMLIFrameElement).clientHeight),
      )
      .toBe(321);
    expect(await tab.evaluate(() => (window as any).sizes)).toEqual([{ height: 321 }]);
    const torn = await tab.evaluate(async () => {
      const started = performance.now();
      await (window as any).handle.teardown('test over');
      return {
        ms: performance.now() - started,
        frames: document.querySelectorAll('#app iframe').length,
        logs: (window as any).logs,
      };
    });
    expect(torn.frames).toBe(0);
    // The view answered (well before the 10 s timeout) and logged the reason it was given.
    expect(torn.ms).toBeLessThan(5000);
    expect(torn.logs).toEqual([{ level: 'info', data: 'teardown: test over' }]);
    await tab.close();
  }, 60_000);

  it("renders the official ext-apps example (server-basic-vanillajs, ext-apps' App class in the view)", async () => {
    const require = createRequire(import.meta.url);
    // The package exports its server module (dist/server.js); its stdio entry is dist/index.js beside it.
    const example = join(
      dirname(require.resolve('@modelcontextprotocol/server-basic-vanillajs')),
      'index.js',
    );
    const client = new McpClient(
      { name: 'test-host', version: '1.0.0' },
      { capabilities: APPS_CLIENT_CAPABILITIES },
    );
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [example, '--stdio'] }));
    const calls: string[] = [];
    const tab = await context!.newPage();
    // What the view logs to its console (ext-apps' App says whether the host accepted a message).
    const viewConsole: string[] = [];
    tab.on('console', (line) => viewConsole.push(`${line.type()}: ${line.text()}`));
    try {
      await tab.exposeFunction('exampleServer', async (op: string, a: unknown, b: unknown) => {
        if (op === 'listTools') return client.tools();
        if (op === 'readResource') return client.readResource(a as string);
        calls.push(a as string);
        return client.callTool(a as string, b as Record<string, unknown>);
      });
      await tab.goto(`${page!.origin}/`);
      await tab.waitForFunction(() => 'apps' in window);
      const tools = await client.tools();
      const tool = tools.find((candidate) => candidate.name === 'get-time');
      expect(tool?._meta?.ui).toEqual({ resourceUri: 'ui://get-time/mcp-app.html' });
      const toolResult = await client.callTool('get-time', {});
      const mounted = await tab.evaluate(
        async ([sandboxUrl, t, result]) => {
          const w = window as any;
          w.logs = [];
          w.links = [];
          w.messages = [];
          const server = {
            listTools: () => w.exampleServer('listTools'),
            callTool: (name: string, args: unknown) => w.exampleServer('callTool', name, args),
            readResource: (uri: string) => w.exampleServer('readResource', uri),
          };
          try {
            w.handle = await w.apps.mount(document.getElementById('app'), {
              server,
              resource: (t as any)._meta.ui.resourceUri,
              sandbox: sandboxUrl,
              tool: t,
              toolInput: {},
              toolResult: result,
              displayModes: ['inline', 'fullscreen'],
              callbacks: {
                log: (entry: unknown) => w.logs.push(entry),
                openLink: (url: string) => w.links.push(url),
                message: (message: unknown) => void w.messages.push(message),
                requestDisplayMode: (mode: string) => mode,
              },
            });
            await w.handle.initialized;
            return 'initialized';
          } catch (error) {
            return String(error);
          }
        },
        [sandbox!.url, tool, toolResult] as const,
      );
      expect(mounted).toBe('initialized');
      const proxy = tab.frames().find((frame) => frame.url().startsWith(sandbox!.origin));
      const view = tab.frames().find((frame) => frame.parentFrame() === proxy)!;
      const before = calls.length;
      await view.click('#get-time-btn');
      await expect.poll(() => calls.length).toBe(before + 1);
      await expect.poll(() => view.textContent('#server-time')).toMatch(/^\d{4}-\d\d-\d\dT/);
      await view.fill('#log-text', 'hello from the view');
      await view.click('#send-log-btn');
      await expect
        .poll(() => tab.evaluate(() => (window as any).logs))
        .toContainEqual(expect.objectContaining({ data: 'hello from the view' }));
      await view.fill('#link-url', 'https://example.com/docs');
      await view.click('#open-link-btn');
      await expect
        .poll(() => tab.evaluate(() => (window as any).links))
        .toEqual(['https://example.com/docs']);
      await view.click('#send-message-btn');
      await expect
        .poll(() => tab.evaluate(() => (window as any).messages))
        .toEqual([{ role: 'user', content: [{ type: 'text', text: 'This is message text.' }] }]);
      // The App got the answer ui/message has when the host takes it.
      await expect.poll(() => viewConsole).toContain('info: Message accepted');
      // A display mode the host switches to itself reaches the App as host context it accepts
      // (ext-apps validates each notification; a rejected one is logged as an error), and later
      // context still applies (the App sets the theme on its document).
      expect(await tab.evaluate(() => (window as any).handle.setDisplayMode('fullscreen'))).toBe(
        'fullscreen',
      );
      await tab.evaluate(() => (window as any).handle.setHostContext({ theme: 'dark' }));
      await expect.poll(() => view.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      expect(viewConsole.filter((line) => line.startsWith('error'))).toEqual([]);
      const torn = await tab.evaluate(async () => {
        await (window as any).handle.teardown('done');
        return document.querySelectorAll('#app iframe').length;
      });
      expect(torn).toBe(0);
    } finally {
      await tab.close();
      await client.close();
    }
  }, 90_000);
});
