/**
 * On Node, `toNodeListener` serves mcpkit's HTTP handlers through their request-view entry
 * (no `Request`/`Response` objects). These tests hold that path to the web-standard one: same
 * answers, repeated headers read the same way, `ctx.httpRequest` still there, a body a framework
 * already parsed still used.
 */
import { createServer, type IncomingMessage, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect as connectTcp } from 'node:net';
import { toNodeListener } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import {
  createStreamableHttpHandler,
  RAW_HTTP_HANDLER,
  type StreamableHttpHandler,
} from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';

const ACCEPT = 'application/json, text/event-stream';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

const open: NodeServer[] = [];
const handlers: StreamableHttpHandler[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

/** A server whose `whoami` tool reports what `ctx.httpRequest` says. */
function mcpServer(): McpServer {
  const server = new McpServer({ name: 'raw-path', version: '1.0.0' });
  server.tool('whoami', { description: 'Reports the HTTP request' }, (_args, ctx) => {
    const request = ctx.httpRequest;
    return JSON.stringify({
      method: request?.method,
      path: request ? new URL(request.url).pathname : undefined,
      trace: request?.headers.get('x-trace'),
    });
  });
  return server;
}

function statelessHandler(): StreamableHttpHandler {
  const handler = createStreamableHttpHandler(mcpServer(), { stateless: true, enableJsonResponse: true });
  handlers.push(handler);
  return handler;
}

async function listen(listener: (req: IncomingMessage, res: import('node:http').ServerResponse) => void) {
  const server = createServer(listener);
  open.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

function post(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: JSON.stringify(body),
  };
}

/** The status and JSON body of a response, session ids left out. */
async function outcome(response: Response): Promise<{ status: number; type: string | null; body: unknown }> {
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: text === '' ? '' : JSON.parse(text),
  };
}

/** Sends raw HTTP/1.1 bytes (to forge what fetch will not send) and returns the status line. */
function rawStatusLine(url: string, head: string, body: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connectTcp(Number(port), '127.0.0.1', () => {
      socket.write(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.includes('\r\n')) {
        socket.destroy();
        resolve(received.slice(0, received.indexOf('\r\n')));
      }
    });
    socket.on('error', reject);
  });
}

describe('toNodeListener with an mcpkit handler', () => {
  it('finds the request-view entry under the registry symbol both packages name', () => {
    // @mcpkit/node recreates the symbol with Symbol.for instead of importing @mcpkit/server.
    expect(RAW_HTTP_HANDLER).toBe(Symbol.for('mcpkit.rawHttpHandler'));
    const handler = createStreamableHttpHandler(mcpServer());
    handlers.push(handler);
    expect(typeof (handler as unknown as Record<symbol, unknown>)[RAW_HTTP_HANDLER]).toBe('function');
  });

  it('answers exactly as the web-standard handler does', async () => {
    const handler = statelessHandler();
    const url = await listen(toNodeListener(handler));
    const cases: Array<[unknown, Record<string, string>]> = [
      [INITIALIZE, {}],
      [{ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': '2025-11-25' }],
      [{ jsonrpc: '2.0', id: 3, method: 'nope' }, {}],
      [{ jsonrpc: '2.0', method: 'x' }, {}],
      [{ id: 4 }, {}],
      [INITIALIZE, { 'content-type': 'text/plain' }],
      [INITIALIZE, { accept: 'application/json' }],
      [INITIALIZE, { origin: 'http://evil.example' }],
      [INITIALIZE, { 'mcp-protocol-version': '1999-01-01' }],
    ];
    for (const [body, headers] of cases) {
      const viaNode = await outcome(await fetch(url, post(body, headers)));
      const viaWeb = await outcome(await handler(new Request(url, post(body, headers))));
      expect(viaNode, JSON.stringify([body, headers])).toEqual(viaWeb);
    }
  });

  it('gives tool handlers the HTTP request as a web Request', async () => {
    const url = await listen(toNodeListener(statelessHandler()));
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'whoami', arguments: {} } };
    const response = await fetch(url, post(call, { 'x-trace': 'abc', 'mcp-protocol-version': '2025-11-25' }));
    const body = (await response.json()) as { result: { content: Array<{ text: string }> } };
    expect(JSON.parse(body.result.content[0]!.text)).toEqual({ method: 'POST', path: '/mcp', trace: 'abc' });
  });

  it('reads a repeated Host header as one joined value, so a forged second Host is refused', async () => {
    const url = await listen(toNodeListener(statelessHandler()));
    const body = JSON.stringify(INITIALIZE);
    const head = (hosts: string[]) =>
      `POST /mcp HTTP/1.1\r\n${hosts.map((host) => `host: ${host}\r\n`).join('')}` +
      `content-type: application/json\r\naccept: ${ACCEPT}\r\nconnection: close\r\n`;
    expect(await rawStatusLine(url, head(['localhost']), body)).toBe('HTTP/1.1 200 OK');
    expect(await rawStatusLine(url, head(['localhost', 'evil.example']), body)).toBe(
      'HTTP/1.1 403 Forbidden',
    );
  });

  it('reads every repeated header as Headers.get does, whichever way Node folds it', async () => {
    // Node's req.headers keeps the first of some names, joins Cookie with "; " and makes
    // Set-Cookie an array; the view must still give "first, second" for each, like a web Request.
    const names = [
      'age',
      'authorization',
      'cookie',
      'etag',
      'expires',
      'from',
      'if-modified-since',
      'if-unmodified-since',
      'last-modified',
      'location',
      'max-forwards',
      'proxy-authorization',
      'referer',
      'retry-after',
      'server',
      'set-cookie',
      'user-agent',
      // Names Node itself joins with ", ".
      'x-trace',
      'accept-language',
      'mcp-param-region',
      'if-none-match',
    ];
    const server = mcpServer();
    const seen: Record<string, string | null | undefined> = {};
    server.use('tools/call', (ctx, next) => {
      for (const name of [...names, 'absent-header', 'mcp-protocol-version']) seen[name] = ctx.header(name);
      return next();
    });
    const handler = createStreamableHttpHandler(server, { stateless: true, enableJsonResponse: true });
    handlers.push(handler);
    const url = await listen(toNodeListener(handler));
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'whoami', arguments: {} } };
    // Mixed case on the wire: header names are case-insensitive.
    const repeated = names.map((name) => `${name}: first\r\n${name.toUpperCase()}: second\r\n`).join('');
    const head =
      `POST /mcp HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\naccept: ${ACCEPT}\r\n` +
      `MCP-Protocol-Version: 2025-11-25\r\n${repeated}connection: close\r\n`;
    expect(await rawStatusLine(url, head, JSON.stringify(call))).toBe('HTTP/1.1 200 OK');
    const expected: Record<string, string | null> = {
      'absent-header': null,
      'mcp-protocol-version': '2025-11-25',
    };
    for (const name of names) expected[name] = 'first, second';
    expect(seen).toEqual(expected);
  });

  it('uses a body that a framework parsed before the listener ran', async () => {
    const listener = toNodeListener(statelessHandler());
    const url = await listen((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        text += chunk;
      });
      req.on('end', () => {
        (req as IncomingMessage & { body?: unknown }).body = JSON.parse(text);
        listener(req, res);
      });
    });
    const result = await outcome(await fetch(url, post(INITIALIZE)));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
  });
});
