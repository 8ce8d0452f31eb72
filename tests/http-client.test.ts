import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from 'node:http';
import { McpClient } from '@mcpkit/client';
import { HttpClientTransport, SseClientTransport, StreamableHttpClientTransport } from '@mcpkit/client/http';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSdkSession } from './fixtures/sdkHttpServer.js';
import { eventually } from './support/eventually.js';
import { listen as listenOn } from './support/listen.js';
import { expectPolledAnswerOnce, RESPONSE_MODES } from './support/streamableHttpCases.js';

interface Seen {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

interface SdkOptions {
  readonly json?: boolean;
  /** Enables resumability (event store) and SSE polling with this `retry:` value. */
  readonly retryInterval?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(server: NodeServer): Promise<string> {
  const { origin, close } = await listenOn(server);
  cleanups.push(close);
  return origin;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : undefined;
}

function newClient(): McpClient {
  const client = new McpClient(
    { name: 'http-test', version: '1.0.0' },
    { onError: () => {}, protocolEra: 'auto' },
  );
  cleanups.push(() => client.close());
  return client;
}

/** An SDK `McpServer` with a few tools, one per session. */
function sdkMcpServer(counters: { polls: number }): McpServer {
  const server = new McpServer({ name: 'sdk-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('progress', { inputSchema: {} }, async (_args, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1, total: 2 },
      });
    }
    return { content: [{ type: 'text', text: 'progressed' }] };
  });
  server.registerTool('ask', { inputSchema: {} }, async (_args, extra) => {
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
      ElicitResultSchema,
    );
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
  });
  server.registerTool('poll', { inputSchema: {} }, async (_args, extra) => {
    counters.polls++;
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1 },
      });
    }
    extra.closeSSEStream?.(); // SSE polling: the client must come back with Last-Event-ID
    await sleep(150);
    return { content: [{ type: 'text', text: 'polled' }] };
  });
  return server;
}

/** The official Streamable HTTP server, one transport per session, 404 for unknown sessions. */
async function startSdkServer(options: SdkOptions = {}) {
  const seen: Seen[] = [];
  const counters = { polls: 0 };
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  let resolveGet: () => void = () => {};
  const getOpened = new Promise<void>((resolve) => {
    resolveGet = resolve;
  });
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    seen.push({ method: req.method ?? '', headers: req.headers, body });
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
        );
        return;
      }
      if (req.method === 'GET' && !req.headers['last-event-id']) resolveGet();
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method === 'POST' && (body as { method?: string } | undefined)?.method === 'initialize') {
      await openSdkSession(sessions, sdkMcpServer(counters), req, res, body, {
        enableJsonResponse: options.json ?? false,
        ...(options.retryInterval === undefined
          ? {}
          : { eventStore: new InMemoryEventStore(), retryInterval: options.retryInterval }),
      });
      return;
    }
    res.writeHead(400, { 'content-type': 'text/plain' });
    res.end('Missing session');
  });
  const base = await listen(http);
  cleanups.push(async () => {
    for (const { server } of sessions.values()) await server.close();
  });
  return {
    url: `${base}/mcp`,
    seen,
    counters,
    sessions,
    getOpened,
    /** Forgets a session as a restarted server would: its id now gets 404. */
    expire(id: string) {
      const session = sessions.get(id);
      sessions.delete(id);
      void session?.server.close();
    },
  };
}

describe.each(RESPONSE_MODES)(
  'Streamable HTTP client against the official SDK server (%s responses)',
  (_mode, json) => {
    it('initializes, carries the session id and protocol version, and calls tools', async () => {
      const server = await startSdkServer({ json });
      const client = newClient();
      const transport = new StreamableHttpClientTransport(server.url);
      const result = await client.connect(transport);
      expect(result.protocolVersion).toBe('2025-11-25');
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const call = await client.callTool('echo', { text: 'hi' });
      expect(call.content).toEqual([{ type: 'text', text: 'hi' }]);

      // The era probe first: a 2025-only server refuses server/discover, so the client initializes.
      const [probe, initialize, ...later] = server.seen;
      expect((probe?.body as { method?: string } | undefined)?.method).toBe('server/discover');
      expect(probe?.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(probe?.headers['mcp-method']).toBe('server/discover');
      expect(client.era).toBe('2025');
      expect(initialize?.headers['mcp-session-id']).toBeUndefined();
      expect(initialize?.headers.accept).toBe('application/json, text/event-stream');
      expect(initialize?.headers['content-type']).toBe('application/json');
      expect(later.length).toBeGreaterThanOrEqual(2);
      for (const request of later) {
        expect(request.headers['mcp-session-id']).toBe(transport.sessionId);
        expect(request.headers['mcp-protocol-version']).toBe('2025-11-25');
      }

      const sessionId = transport.sessionId;
      await client.close();
      const deletion = server.seen.find((request) => request.method === 'DELETE');
      expect(deletion?.headers['mcp-session-id']).toBe(sessionId);
      expect(deletion?.headers['mcp-protocol-version']).toBe('2025-11-25');
      expect(server.sessions.size).toBe(0);
    });

    it('re-initializes transparently when the session expires (404)', async () => {
      const server = await startSdkServer({ json });
      const client = newClient();
      const errors: Error[] = [];
      client.onClose((error) => error && errors.push(error));
      const transport = new StreamableHttpClientTransport(server.url, { openGetStream: false });
      await client.connect(transport);
      const first = transport.sessionId!;
      server.expire(first);

      const call = await client.callTool('echo', { text: 'again' });
      expect(call.content).toEqual([{ type: 'text', text: 'again' }]);
      expect(transport.sessionId).not.toBe(first);
      expect(server.sessions.has(transport.sessionId!)).toBe(true);
      const methods = server.seen.map((request) => (request.body as { method?: string } | undefined)?.method);
      // McpClient then lists tools to learn the output schema; only the recovery matters here.
      expect(methods.slice(0, 7)).toEqual([
        'server/discover', // the era probe, refused by this 2025-only server
        'initialize',
        'notifications/initialized',
        'tools/call', // 404
        'initialize',
        'notifications/initialized',
        'tools/call',
      ]);
      expect(server.seen[4]?.headers['mcp-session-id']).toBeUndefined();
      expect(client.connected).toBe(true);
      expect(errors).toEqual([]);
    });
  },
);

describe('Streamable HTTP client: streams against the official SDK server', () => {
  it('delivers progress sent on the SSE answer stream before the result', async () => {
    const server = await startSdkServer();
    const client = newClient();
    await client.connect(new StreamableHttpClientTransport(server.url));
    const updates: number[] = [];
    const call = await client.callTool(
      'progress',
      {},
      { onProgress: (update) => updates.push(update.progress) },
    );
    expect(updates).toEqual([1]);
    expect(call.content).toEqual([{ type: 'text', text: 'progressed' }]);
  });

  it('answers a request the server sends on the answer stream (elicitation during a tool call)', async () => {
    const server = await startSdkServer();
    const client = new McpClient(
      { name: 'http-test', version: '1.0.0' },
      {
        onError: () => {},
        protocolEra: 'auto',
        elicitation: { form: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
      },
    );
    cleanups.push(() => client.close());
    await client.connect(new StreamableHttpClientTransport(server.url));
    const call = await client.callTool('ask', {});
    expect(call.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    const answer = server.seen.find((request) => (request.body as { result?: unknown } | undefined)?.result);
    expect(answer?.headers['mcp-session-id']).toBeDefined();
  });

  it('opens the GET stream after initialization and receives server notifications on it', async () => {
    const server = await startSdkServer();
    const client = newClient();
    const transport = new StreamableHttpClientTransport(server.url);
    const received = new Promise<void>((resolve) =>
      client.onNotification('notifications/message', () => resolve()),
    );
    await client.connect(transport);
    await server.getOpened;
    const get = server.seen.find((request) => request.method === 'GET');
    expect(get?.headers.accept).toBe('text/event-stream');
    expect(get?.headers['mcp-session-id']).toBe(transport.sessionId);
    expect(get?.headers['mcp-protocol-version']).toBe('2025-11-25');
    // Sent outside any request, so the SDK routes it to the standalone GET stream.
    await server.sessions
      .get(transport.sessionId!)!
      .server.server.sendLoggingMessage({ level: 'info', data: 'hello' });
    await received;
  });

  it('resumes an answer stream the server closed mid-call (SSE polling) and gets the result exactly once', async () => {
    const server = await startSdkServer({ retryInterval: 100 });
    const errors: Error[] = [];
    const client = new McpClient(
      { name: 'http-test', version: '1.0.0' },
      { onError: (error) => errors.push(error), protocolEra: 'auto' },
    );
    cleanups.push(() => client.close());
    const transport = new StreamableHttpClientTransport(server.url, { openGetStream: false });
    await client.connect(transport);
    await expectPolledAnswerOnce(client, errors, server, (request) => request.headers['last-event-id'], 50);
  });
});

/** The official legacy HTTP+SSE server: GET /sse opens the stream, POST /messages?sessionId= takes messages. */
async function startLegacySdkServer() {
  const transports = new Map<string, SSEServerTransport>();
  const seen: Seen[] = [];
  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    seen.push({ method: req.method ?? '', headers: req.headers, body: undefined });
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      const server = sdkMcpServer({ polls: 0 });
      res.on('close', () => {
        transports.delete(transport.sessionId);
        void server.close();
      });
      await server.connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) {
        res.writeHead(404).end();
        return;
      }
      await transport.handlePostMessage(req, res);
      return;
    }
    // What a server that predates Streamable HTTP answers to a POST on its SSE URL.
    res.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed');
  });
  const base = await listen(http);
  return { url: `${base}/sse`, transports, seen };
}

describe('legacy HTTP+SSE client against the official SDK SSEServerTransport', () => {
  it('waits for the endpoint, posts messages there and reads answers from the stream', async () => {
    const server = await startLegacySdkServer();
    const client = newClient();
    const transport = new SseClientTransport(server.url);
    const result = await client.connect(transport);
    expect(result.serverInfo.name).toBe('sdk-server');
    expect(transport.endpoint?.pathname).toBe('/messages');
    const call = await client.callTool('echo', { text: 'legacy' });
    expect(call.content).toEqual([{ type: 'text', text: 'legacy' }]);
    await client.close();
    // Closing the client closed the stream: the server sees it when the socket closes.
    await eventually(() => server.transports.size === 0, 'the server to see the stream close');
  });

  it('HttpClientTransport falls back to HTTP+SSE when the POST is answered 405', async () => {
    const server = await startLegacySdkServer();
    const client = newClient();
    const transport = new HttpClientTransport(server.url);
    await client.connect(transport);
    expect(transport.kind).toBe('sse');
    const call = await client.callTool('echo', { text: 'fallback' });
    expect(call.content).toEqual([{ type: 'text', text: 'fallback' }]);
    // server/discover (refused: 2025 era), initialize (405: no Streamable HTTP), then the SSE GET.
    expect(server.seen.map((request) => request.method).slice(0, 3)).toEqual(['POST', 'POST', 'GET']);
  });

  it('HttpClientTransport stays on Streamable HTTP when the server speaks it', async () => {
    const server = await startSdkServer({ json: true });
    const client = newClient();
    const transport = new HttpClientTransport(server.url);
    await client.connect(transport);
    expect(transport.kind).toBe('streamable-http');
    expect(transport.sessionId).toBeDefined();
    const call = await client.callTool('echo', { text: 'modern' });
    expect(call.content).toEqual([{ type: 'text', text: 'modern' }]);
  });
});
