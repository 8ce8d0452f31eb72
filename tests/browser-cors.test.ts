/**
 * The `cors` option in a real browser (issue 12): headless Chromium (Debian's `chromium`, driven
 * by playwright-core) opens a page served from one loopback port; the page loads @mcpkit/client
 * bundled for the browser by esbuild, connects to an mcpkit server on another port, and calls a
 * tool that reports progress. Without `cors` the same page is stopped by the browser.
 *
 * Needs /usr/bin/chromium (`scripts/install-chromium.sh`, run by .ci/run). A machine without it
 * fails this test; set MCPKIT_SKIP_BROWSER=1 to skip it on purpose.
 */
import { createServer, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidTokenError, protect } from '@mcpkit/auth/server';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from '@mcpkit/server/http';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser } from './support/browserBundle.js';
import { type HeadlessChromium, launchChromium } from './support/chromium.js';

const skip = process.env.MCPKIT_SKIP_BROWSER === '1';
if (skip) console.warn('tests/browser-cors.test.ts skipped: MCPKIT_SKIP_BROWSER=1 is set');

/** @mcpkit/client as one browser module, from the TypeScript sources. */
function bundleClient(): Promise<string> {
  return bundleForBrowser(
    "export { McpClient } from '@mcpkit/client';\nexport { StreamableHttpClientTransport } from '@mcpkit/client/http';\n",
  );
}

/** Serves the page and the bundle from their own loopback port (their own origin). */
async function servePage(bundle: string): Promise<{ origin: string; server: NodeServer }> {
  const html =
    '<!doctype html><title>mcpkit</title><pre id="out"></pre>' +
    '<script type="module">import * as mcpkit from "/client.js"; window.mcpkit = mcpkit;</script>';
  const server = createServer((req, res) => {
    if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A handler whose tool reports three progress steps before it answers. */
function countingHandler(options: StreamableHttpHandlerOptions) {
  const server = new McpServer({ name: 'browser-cors', version: '1.0.0' });
  server.tool('count', { description: 'Counts to three with progress' }, async (_args, ctx) => {
    for (let step = 1; step <= 3; step++) await ctx.progress(step, 3, `step ${step}`);
    return 'counted to 3';
  });
  return createStreamableHttpHandler(server, options);
}

function serveMcp(options: StreamableHttpHandlerOptions): Promise<ServedHandler> {
  return serve(countingHandler(options), { path: '/mcp' });
}

/** The same server behind protect(), accepting the bearer token "good". */
function serveProtected(options: StreamableHttpHandlerOptions): Promise<ServedHandler> {
  const handler = countingHandler(options);
  const guarded = protect(handler, {
    resource: 'http://127.0.0.1/mcp',
    authorizationServers: ['http://127.0.0.1:1'],
    verifier: async (token) => {
      if (token !== 'good') throw new InvalidTokenError('unknown token');
      return { token, clientId: 'page', scopes: [] };
    },
  });
  return serve(Object.assign(guarded, { close: () => handler.close() }), { path: '/mcp' });
}

/** What the page saw when it called the tool at `url`. */
interface PageOutcome {
  readonly text?: string;
  readonly progress?: number[];
  readonly error?: string;
  /** What a bare fetch without a token saw: the status and the challenge the page could read. */
  readonly challenge?: { status: number; wwwAuthenticate: string | null };
}

describe.skipIf(skip)('CORS in headless Chromium', () => {
  let browser: HeadlessChromium | undefined;
  let context: BrowserContext | undefined;
  let page: { origin: string; server: NodeServer } | undefined;
  const servers: ServedHandler[] = [];

  beforeAll(async () => {
    page = await servePage(await bundleClient());
    browser = await launchChromium();
    context = browser.context;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((served) => served.close()));
    if (page) await new Promise<void>((resolve) => page!.server.close(() => resolve()));
  });

  async function callFromPage(mcpUrl: string, token?: string): Promise<PageOutcome> {
    const tab = await context!.newPage();
    try {
      await tab.goto(`${page!.origin}/`);
      await tab.waitForFunction(() => 'mcpkit' in window);
      return await tab.evaluate(
        async ([url, bearer]): Promise<PageOutcome> => {
          // Runs in the page: the bundled @mcpkit/client over the browser's own fetch.
          const { McpClient, StreamableHttpClientTransport } = (window as unknown as { mcpkit: any }).mcpkit;
          const out = document.getElementById('out')!;
          const client = new McpClient({ name: 'page', version: '1.0.0' });
          try {
            let challenge: PageOutcome['challenge'];
            if (bearer !== undefined) {
              const bare = await fetch(url, {
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  accept: 'application/json, text/event-stream',
                },
                body: '{"jsonrpc":"2.0","id":0,"method":"ping"}',
              });
              challenge = { status: bare.status, wwwAuthenticate: bare.headers.get('www-authenticate') };
            }
            const headers = bearer === undefined ? undefined : { authorization: `Bearer ${bearer}` };
            await client.connect(new StreamableHttpClientTransport(url, { maxRetries: 0, headers }));
            const progress: number[] = [];
            const result = await client.callTool(
              'count',
              {},
              { onProgress: (update: { progress: number }) => progress.push(update.progress) },
            );
            const text = result.content[0].text as string;
            out.textContent = `${text} ${progress.join(',')}`;
            await client.close();
            return challenge ? { text, progress, challenge } : { text, progress };
          } catch (error) {
            out.textContent = String(error);
            return { error: String(error) };
          }
        },
        [mcpUrl, token] as const,
      );
    } finally {
      await tab.close();
    }
  }

  it('a page on another loopback port calls a tool with progress when its origin is allowed', async () => {
    const mcp = await serveMcp({ cors: { allowedOrigins: [page!.origin] } });
    servers.push(mcp);
    expect(new URL(mcp.url).origin).not.toBe(page!.origin);
    const outcome = await callFromPage(mcp.url);
    expect(outcome).toEqual({ text: 'counted to 3', progress: [1, 2, 3] });
  }, 60_000);

  it('behind protect(), the page reads the 401 challenge, then calls the tool with its token', async () => {
    const mcp = await serveProtected({ cors: { allowedOrigins: [page!.origin] } });
    servers.push(mcp);
    const outcome = await callFromPage(mcp.url, 'good');
    expect(outcome.challenge?.status).toBe(401);
    expect(outcome.challenge?.wwwAuthenticate).toMatch(/^Bearer resource_metadata=/);
    expect(outcome).toMatchObject({ text: 'counted to 3', progress: [1, 2, 3] });
  }, 60_000);

  it('issue 35: a page pinned to 2026-07-28 (no fallback) sends Mcp-Method, Mcp-Name and Mcp-Param-* through the preflight', async () => {
    const server = new McpServer({ name: 'browser-cors-2026', version: '1.0.0' });
    const region = { type: 'string', 'x-mcp-header': 'Region' };
    server.tool(
      'geo',
      { description: 'Echoes its region', inputSchema: { type: 'object', properties: { region } } },
      ({ region }) => `region ${String(region)}`,
    );
    const mcp = await serve(
      createStreamableHttpHandler(server, { cors: { allowedOrigins: [page!.origin] } }),
      {
        path: '/mcp',
      },
    );
    servers.push(mcp);
    const tab = await context!.newPage();
    const consoleErrors: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    try {
      await tab.goto(`${page!.origin}/`);
      await tab.waitForFunction(() => 'mcpkit' in window);
      const outcome = await tab.evaluate(async (url) => {
        const { McpClient, StreamableHttpClientTransport } = (window as unknown as { mcpkit: any }).mcpkit;
        const client = new McpClient({ name: 'page', version: '1.0.0' }, { protocolEra: '2026' });
        try {
          await client.connect(new StreamableHttpClientTransport(url, { maxRetries: 0 }));
          const tools = (await client.tools()).map((tool: { name: string }) => tool.name);
          const result = await client.callTool('geo', { region: 'eu-west' });
          const version = client.protocolVersion as string;
          await client.close();
          return { version, tools, text: result.content[0].text as string };
        } catch (error) {
          return { error: String(error) };
        }
      }, mcp.url);
      expect(outcome).toEqual({ version: '2026-07-28', tools: ['geo'], text: 'region eu-west' });
      expect(consoleErrors).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 60_000);

  it('the same page is stopped by the browser when the server has no cors option', async () => {
    const mcp = await serveMcp({});
    servers.push(mcp);
    const outcome = await callFromPage(mcp.url);
    expect(outcome.text).toBeUndefined();
    expect(outcome.error).toMatch(/fetch/i);
  }, 60_000);
});
