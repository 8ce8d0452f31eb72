/**
 * Issue 29: after the server restarted, the client recovered its session and its subscription, but
 * the `resources/updated` the server sent during the first call after recovery was lost (the next
 * one arrived): the call went out again before the new session's standalone GET stream was open,
 * and a server without an event store drops what it has no stream for. The recovery now waits for
 * that stream. The server is the official SDK's (v1) over Streamable HTTP, in this process; a
 * "restart" forgets every session, as a new process would, and answers the new session's GET a
 * moment late.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSdkSession } from './fixtures/sdkHttpServer.js';

const WATCHED = 'test://watched';
const sessions = new Map<string, { server: McpServer; transport: StreamableHTTPServerTransport }>();
let http: Server;
let url = '';
let getDelayMs = 0;

/** The official server: a subscribable resource, and `touch`, which says it changed (outside the call). */
function watchedServer(): McpServer {
  const server = new McpServer(
    { name: 'watched', version: '1.0.0' },
    { capabilities: { resources: { subscribe: true } } },
  );
  server.registerResource('watched', WATCHED, {}, () => ({ contents: [{ uri: WATCHED, text: 'watched' }] }));
  server.server.setRequestHandler(SubscribeRequestSchema, () => ({}));
  server.registerTool('touch', { description: 'Changes the watched resource' }, async () => {
    await server.server.sendResourceUpdated({ uri: WATCHED });
    return { content: [{ type: 'text', text: 'touched' }] };
  });
  return server;
}

async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
  let text = '';
  for await (const chunk of request) text += chunk;
  const body = text === '' ? undefined : JSON.parse(text);
  const id = request.headers['mcp-session-id'];
  const session = typeof id === 'string' ? sessions.get(id) : undefined;
  // A standalone GET that takes a moment to be answered (a busy server, a proxy): the window in
  // which a request sent at once meets a session with no stream for its notifications.
  if (session && request.method === 'GET') await new Promise((resolve) => setTimeout(resolve, getDelayMs));
  if (session) return session.transport.handleRequest(request, response, body);
  if (id !== undefined) {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
    );
    return;
  }
  await openSdkSession(sessions, watchedServer(), request, response, body);
}

beforeAll(async () => {
  http = createServer((request, response) => void route(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  for (const { transport } of sessions.values()) await transport.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

it('the resources/updated sent during the first call after a session recovery arrives (issue 29)', async () => {
  const client = new McpClient({ name: 'survivor', version: '1.0.0' }, { protocolEra: '2025' });
  await client.connect(new StreamableHttpClientTransport(url));
  const updates: string[] = [];
  client.onResourceUpdated((uri) => updates.push(uri));
  await client.subscribeResource(WATCHED);
  await client.callTool('touch');
  await expect.poll(() => updates).toEqual([WATCHED]);

  // The "restart": every session is forgotten (their streams end), as with a new process.
  for (const { transport } of [...sessions.values()]) await transport.close();
  sessions.clear();
  getDelayMs = 300;

  expect((await client.callTool('touch')).content).toEqual([{ type: 'text', text: 'touched' }]);
  await expect.poll(() => updates).toEqual([WATCHED, WATCHED]);
  await client.close();
});
