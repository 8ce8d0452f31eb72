/**
 * The HTTP client transports against mcpkit's own HTTP server (`@mcpkit/server/http` served by
 * `@mcpkit/node/http`): both ends of the wire from this repository.
 */
import { McpClient } from '@mcpkit/client';
import {
  connectHttp,
  HttpClientTransport,
  SseClientTransport,
  StreamableHttpClientTransport,
} from '@mcpkit/client/http';
import { serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import {
  createLegacySseHandler,
  createStreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import { expectPolledAnswerOnce, RESPONSE_MODES } from './support/streamableHttpCases.js';

interface Seen {
  readonly method: string;
  readonly headers: Headers;
  readonly body: { method?: string; result?: unknown } | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function demoServer(counters = { polls: 0 }): McpServer {
  const server = new McpServer({ name: 'mcpkit-server', version: '1.0.0' });
  server.tool(
    'echo',
    { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    ({ text }) => String(text),
  );
  server.tool('progress', async (_args, ctx) => {
    await ctx.progress(1, 2);
    return 'progressed';
  });
  server.tool('ask', async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return `hello ${String(answer.content?.name)}`;
  });
  server.tool('poll', async (_args, ctx) => {
    counters.polls++;
    await ctx.progress(1);
    ctx.closeSseStream(); // SSE polling: the client comes back with GET + Last-Event-ID
    await sleep(150);
    return 'polled';
  });
  return server;
}

/** Serves `handle` on 127.0.0.1 and records every request it sees. */
async function serveRecorded(
  handle: ((request: Request) => Promise<Response>) & { close(): Promise<void> },
  path: string,
) {
  const seen: Seen[] = [];
  const recorder = Object.assign(
    async (request: Request) => {
      const text = request.method === 'POST' ? await request.clone().text() : '';
      seen.push({
        method: request.method,
        headers: request.headers,
        body: text ? JSON.parse(text) : undefined,
      });
      return handle(request);
    },
    { close: () => handle.close() },
  );
  const served = await serve(recorder, { path });
  cleanups.push(() => served.close());
  return { url: served.url, seen };
}

async function startMcpkitServer(options: StreamableHttpHandlerOptions = {}) {
  const counters = { polls: 0 };
  const server = demoServer(counters);
  const handler = createStreamableHttpHandler(server, options);
  const { url, seen } = await serveRecorded(handler, '/mcp');
  return { server, handler, url, seen, counters };
}

function newClient(options: ConstructorParameters<typeof McpClient>[1] = {}): McpClient {
  const client = new McpClient(
    { name: 'http-test', version: '1.0.0' },
    { onError: () => {}, protocolEra: '2025', ...options },
  );
  cleanups.push(() => client.close());
  return client;
}

const methodsOf = (seen: Seen[]) => seen.map((request) => request.body?.method ?? request.method);

describe.each(RESPONSE_MODES)(
  'Streamable HTTP client against mcpkit’s server (%s responses)',
  (_mode, enableJsonResponse) => {
    it('initializes, carries the session id and protocol version, calls tools and ends the session', async () => {
      const server = await startMcpkitServer({ enableJsonResponse });
      // The 2025 session's wire, request by request: no era probe in front of it.
      const client = newClient({ protocolEra: '2025' });
      const transport = new StreamableHttpClientTransport(server.url);
      await client.connect(transport);
      const sessionId = transport.sessionId;
      expect(sessionId).toBeDefined();
      expect(server.handler.sessionCount).toBe(1);
      await expect(client.callTool('echo', { text: 'hi' })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'hi' }],
      });
      for (const request of server.seen.slice(1)) {
        expect(request.headers.get('mcp-session-id')).toBe(sessionId);
        expect(request.headers.get('mcp-protocol-version')).toBe('2025-11-25');
      }
      await client.close();
      expect(server.seen.at(-1)?.method).toBe('DELETE');
      expect(server.handler.sessionCount).toBe(0);
    });

    it('re-initializes transparently when the server forgot the session (404)', async () => {
      const server = await startMcpkitServer({ enableJsonResponse });
      const client = newClient({ protocolEra: '2025' });
      const transport = new StreamableHttpClientTransport(server.url, { openGetStream: false });
      await client.connect(transport);
      const first = transport.sessionId;
      await Promise.all([...server.server.sessions].map((session) => session.close()));
      expect(server.handler.sessionCount).toBe(0);
      await expect(client.callTool('echo', { text: 'again' })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'again' }],
      });
      expect(transport.sessionId).not.toBe(first);
      expect(methodsOf(server.seen).slice(0, 6)).toEqual([
        'initialize',
        'notifications/initialized',
        'tools/call',
        'initialize',
        'notifications/initialized',
        'tools/call',
      ]);
    });
  },
);

describe('Streamable HTTP client against mcpkit’s server: streams', () => {
  it('delivers progress before the result and answers elicitation sent on the answer stream', async () => {
    const server = await startMcpkitServer();
    const client = newClient({
      elicitation: { form: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    });
    await client.connect(new StreamableHttpClientTransport(server.url));
    const updates: number[] = [];
    const progressed = await client.callTool(
      'progress',
      {},
      { onProgress: (update) => updates.push(update.progress) },
    );
    expect(progressed.content).toEqual([{ type: 'text', text: 'progressed' }]);
    expect(updates).toEqual([1]);
    const asked = await client.callTool('ask', {});
    expect(asked.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });

  it('receives notifications that belong to no request on the standalone GET stream', async () => {
    const server = await startMcpkitServer();
    const client = newClient();
    const received = new Promise<unknown>((resolve) =>
      client.onNotification('notifications/message', (p) => resolve(p.data)),
    );
    await client.connect(new StreamableHttpClientTransport(server.url));
    // Messages sent before the GET stream is registered have nowhere to go, so keep sending.
    const sender = setInterval(() => server.server.log('info', 'broadcast'), 20);
    try {
      await expect(received).resolves.toBe('broadcast');
    } finally {
      clearInterval(sender);
    }
    expect(server.seen.filter((request) => request.method === 'GET')).toHaveLength(1);
  });

  it('resumes after the server closed the answer stream mid-call (SSE polling), result exactly once', async () => {
    const server = await startMcpkitServer({ retryInterval: 50 });
    const errors: Error[] = [];
    const client = newClient({ onError: (error) => errors.push(error) });
    await client.connect(new StreamableHttpClientTransport(server.url, { openGetStream: false }));
    await expectPolledAnswerOnce(
      client,
      errors,
      server,
      (request) => request.headers.get('last-event-id'),
      30,
    );
  });
});

describe('legacy HTTP+SSE client against mcpkit’s legacy handler', () => {
  async function startLegacy() {
    const server = demoServer();
    const handler = createLegacySseHandler(server);
    return serveRecorded(handler, '/sse');
  }

  it('connects with SseClientTransport and calls tools', async () => {
    const legacy = await startLegacy();
    const client = newClient();
    const transport = new SseClientTransport(legacy.url);
    await client.connect(transport);
    expect(transport.endpoint?.pathname).toBe('/sse');
    await expect(client.callTool('echo', { text: 'legacy' })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'legacy' }],
    });
  });

  it('is found by connectHttp through the fallback', async () => {
    const legacy = await startLegacy();
    const client = newClient();
    const transport = await connectHttp(client, legacy.url);
    expect(transport).toBeInstanceOf(HttpClientTransport);
    expect(transport.kind).toBe('sse');
    await expect(client.callTool('echo', { text: 'found' })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'found' }],
    });
  });
});
