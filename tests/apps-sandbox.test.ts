/**
 * MCP Apps pieces that need no browser: the view CSP (built only from declared origins, never
 * loosened by what a server declares), the sandbox proxy page's response (its CSP header, its
 * refusals), the Node sandbox server's loopback binding and Host check, and the bridge's readers
 * (messages off the wire, the app resource, frame sizes, the proxy URL).
 */
import { request } from 'node:http';
import { APP_MIME_TYPE, appLinkOf, contentSecurityPolicy, sandboxResponse, visibilityOf } from '@mcpkit/apps';
import { appViewOf, sandboxUrlFor } from '@mcpkit/apps/bridge';
import { serveSandbox } from '@mcpkit/apps/sandbox';
import { describe, expect, it } from 'vitest';
import { readViewMessage } from '../packages/apps/src/bridge/rpc.js';
import { frameSize } from '../packages/apps/src/bridge/sizing.js';

const DEFAULT_POLICY =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; " +
  "base-uri 'self'; form-action 'none'";

describe('the view CSP', () => {
  it('is the restrictive default when nothing is declared', () => {
    expect(contentSecurityPolicy(undefined)).toBe(DEFAULT_POLICY);
    expect(contentSecurityPolicy({ connectDomains: [] })).toBe(DEFAULT_POLICY);
  });

  it('adds exactly the declared origins to their directives', () => {
    const policy = contentSecurityPolicy({
      connectDomains: ['https://api.example.com', 'wss://live.example.com'],
      resourceDomains: ['https://*.cdn.example.com'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: ['https://base.example.com'],
    });
    expect(policy).toContain('connect-src https://api.example.com wss://live.example.com;');
    expect(policy).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example.com;");
    expect(policy).toContain("img-src 'self' data: https://*.cdn.example.com;");
    expect(policy).toContain('frame-src https://www.youtube.com;');
    expect(policy).toContain('base-uri https://base.example.com;');
    expect(policy).toContain("object-src 'none'");
  });

  it.each([
    ["'unsafe-eval'"],
    ['*'],
    ['https:'],
    ['https://a.example.com; script-src *'],
    ['https://a.example.com/path'],
    ['data:'],
    ['https://*'],
    ['javascript://x'],
  ])('refuses %s, which would loosen the policy', (entry) => {
    expect(() => contentSecurityPolicy({ connectDomains: [entry] })).toThrow(/not an origin/);
  });
});

describe('the sandbox proxy page', () => {
  const host = encodeURIComponent('http://127.0.0.1:3000');

  it('is served with the CSP of the declared domains as its header', async () => {
    const csp = encodeURIComponent(JSON.stringify({ connectDomains: ['https://api.example.com'] }));
    const response = sandboxResponse(new Request(`http://127.0.0.1:4100/sandbox?host=${host}&csp=${csp}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(
      DEFAULT_POLICY.replace("connect-src 'none'", 'connect-src https://api.example.com'),
    );
    expect(await response.text()).toContain('ui/notifications/sandbox-proxy-ready');
    const bare = sandboxResponse(new Request(`http://127.0.0.1:4100/sandbox?host=${host}`));
    expect(bare.headers.get('content-security-policy')).toBe(DEFAULT_POLICY);
  });

  it('answers a bad host, a bad csp, another path and another method with errors', async () => {
    const base = 'http://127.0.0.1:4100';
    expect(sandboxResponse(new Request(`${base}/sandbox`)).status).toBe(400);
    expect(sandboxResponse(new Request(`${base}/sandbox?host=javascript:alert(1)`)).status).toBe(400);
    const loose = encodeURIComponent(JSON.stringify({ connectDomains: ['*'] }));
    const refused = sandboxResponse(new Request(`${base}/sandbox?host=${host}&csp=${loose}`));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/not an origin/);
    expect(sandboxResponse(new Request(`${base}/sandbox?host=${host}&csp=%7Bnope`)).status).toBe(400);
    expect(sandboxResponse(new Request(`${base}/other?host=${host}`)).status).toBe(404);
    expect(sandboxResponse(new Request(`${base}/sandbox?host=${host}`, { method: 'POST' })).status).toBe(405);
  });

  it('serveSandbox binds loopback only and refuses a foreign Host header (DNS rebinding)', async () => {
    await expect(serveSandbox({ hostname: '0.0.0.0' })).rejects.toThrow(/loopback/);
    const sandbox = await serveSandbox();
    try {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox$/);
      const ok = await fetch(`${sandbox.url}?host=${host}`);
      expect(ok.status).toBe(200);
      const status = await new Promise<number>((resolve, reject) => {
        const url = new URL(sandbox.url);
        request(
          {
            host: url.hostname,
            port: url.port,
            path: `/sandbox?host=${host}`,
            headers: { host: 'evil.example:80' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
          .on('error', reject)
          .end();
      });
      expect(status).toBe(421);
    } finally {
      await sandbox.close();
    }
  });
});

describe('the bridge, off the wire', () => {
  it('reads JSON-RPC messages and drops anything else', () => {
    expect(readViewMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toEqual({
      kind: 'request',
      id: 1,
      method: 'ping',
      params: {},
    });
    expect(readViewMessage({ jsonrpc: '2.0', method: 'x', params: { a: 1 } })).toEqual({
      kind: 'notification',
      method: 'x',
      params: { a: 1 },
    });
    expect(readViewMessage({ jsonrpc: '2.0', id: 'a', result: {} })).toEqual({
      kind: 'response',
      id: 'a',
      result: {},
    });
    expect(readViewMessage({ jsonrpc: '1.0', id: 1, method: 'ping' })).toBeUndefined();
    expect(readViewMessage({ jsonrpc: '2.0', id: {}, method: 'ping' })).toBeUndefined();
    expect(readViewMessage({ jsonrpc: '2.0', method: 'x', params: [1] })).toBeUndefined();
    expect(readViewMessage('{"jsonrpc":"2.0"}')).toBeUndefined();
  });

  it('reads an app resource: text or base64 HTML, the content item _meta.ui before the listing', () => {
    const uri = 'ui://a/view';
    const html = '<!doctype html><p>é</p>';
    const listing = { _meta: { ui: { prefersBorder: false } } };
    const fromText = appViewOf(uri, { contents: [{ uri, mimeType: APP_MIME_TYPE, text: html }] }, listing);
    expect(fromText).toEqual({ uri, html, meta: { prefersBorder: false } });
    const blob = Buffer.from(html).toString('base64');
    const fromBlob = appViewOf(
      uri,
      {
        contents: [
          {
            uri,
            mimeType: APP_MIME_TYPE,
            blob,
            _meta: { ui: { csp: { connectDomains: ['https://x.example'] } } },
          },
        ],
      },
      listing,
    );
    expect(fromBlob).toEqual({ uri, html, meta: { csp: { connectDomains: ['https://x.example'] } } });
    expect(() => appViewOf(uri, { contents: [{ uri, mimeType: 'text/html', text: html }] })).toThrow(
      /no content/,
    );
    expect(() => appViewOf('https://a/view', { contents: [] })).toThrow(/not a ui:\/\//);
  });

  it('reads tool links and visibility, including the deprecated flat key', () => {
    expect(appLinkOf({ _meta: { 'ui/resourceUri': 'ui://old/view' } })).toEqual({
      resourceUri: 'ui://old/view',
      visibility: ['model', 'app'],
    });
    expect(appLinkOf({ _meta: { ui: { resourceUri: 'https://x' } } })).toBeUndefined();
    expect(visibilityOf({ _meta: { ui: { visibility: ['app', 'bogus'] } } })).toEqual(['app']);
    expect(visibilityOf({ _meta: { ui: { visibility: 'app' } } })).toEqual(['model', 'app']);
  });

  it('sizes frames: fixed dimensions stay, flexible ones follow the view up to their maximum', () => {
    expect(frameSize({ width: 500, height: 321 }, {})).toEqual({ height: 321 });
    expect(frameSize({ height: 900 }, { containerDimensions: { maxHeight: 600 } })).toEqual({ height: 600 });
    expect(
      frameSize({ height: 900, width: 300 }, { containerDimensions: { height: 400, maxWidth: 200 } }),
    ).toEqual({ width: 200 });
    expect(frameSize({ height: -1, width: Number.NaN }, {})).toEqual({});
  });

  it('puts the proxy on another origin, with the host origin and the declared CSP in its URL', () => {
    const url = sandboxUrlFor('http://127.0.0.1:4100/sandbox', 'http://127.0.0.1:3000', {
      connectDomains: ['https://a.example'],
    });
    expect(url.searchParams.get('host')).toBe('http://127.0.0.1:3000');
    expect(JSON.parse(url.searchParams.get('csp')!)).toEqual({ connectDomains: ['https://a.example'] });
    expect(() => sandboxUrlFor('/sandbox', 'http://127.0.0.1:3000', {})).toThrow(/another origin/);
  });
});
