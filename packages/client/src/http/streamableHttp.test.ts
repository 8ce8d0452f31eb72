import type { MessageSink } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { type FetchLike, HttpTransportError, StreamableHttpClientTransport } from '../http.js';

const URL_ = 'http://mcp.test/mcp';
const encoder = new TextEncoder();

/** A fetch that answers from `route` and remembers every request. */
function stubFetch(route: (request: Request, body: any) => Response | Promise<Response>) {
  const requests: Request[] = [];
  const fetch: FetchLike = async (url, init) => {
    const request = new Request(url, init);
    requests.push(request);
    const text = init.body === undefined ? '' : String(init.body);
    return route(request, text ? JSON.parse(text) : undefined);
  };
  return { fetch, requests };
}

function recordingSink() {
  const sink = {
    messages: [] as unknown[],
    errors: [] as Error[],
    closed: [] as Array<Error | undefined>,
    message: (value: unknown) => void sink.messages.push(value),
    parseError: (error: Error) => void sink.errors.push(error),
    error: (error: Error) => void sink.errors.push(error),
    closedCalled: (error?: Error) => void sink.closed.push(error),
  };
  const asSink: MessageSink = {
    message: sink.message,
    parseError: sink.parseError,
    error: sink.error,
    closed: sink.closedCalled,
  };
  return { sink, asSink };
}

const json = (value: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(value), {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });

function hangingSse(): Response {
  return new Response(new ReadableStream({ start: (c) => c.enqueue(encoder.encode(': open\n\n')) }), {
    headers: { 'content-type': 'text/event-stream' },
  });
}

const initialize = { jsonrpc: '2.0' as const, id: 0, method: 'initialize', params: {} };
const ping = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'ping' });

describe('StreamableHttpClientTransport (stubbed fetch)', () => {
  it('releases finished requests: close() aborts only what is still in flight', async () => {
    const { fetch, requests } = stubFetch((_request, body) =>
      body.id === 99 ? hangingSse() : json({ jsonrpc: '2.0', id: body.id, result: {} }),
    );
    const transport = new StreamableHttpClientTransport(URL_, {
      fetch,
      openGetStream: false,
      terminateOnClose: false,
    });
    const { sink, asSink } = recordingSink();
    transport.start(asSink);
    for (let id = 1; id <= 20; id++) await transport.send(ping(id));
    await transport.send(ping(99));
    expect(sink.messages).toHaveLength(20);
    await transport.close();
    expect(requests.map((request) => request.signal.aborted)).toEqual([...Array(20).fill(false), true]);
    expect(sink.closed).toEqual([undefined]);
  });

  it('sends MCP-Protocol-Version and Mcp-Session-Id after initialization, neither on initialize', async () => {
    const { fetch, requests } = stubFetch((_request, body) =>
      json({ jsonrpc: '2.0', id: body.id, result: {} }, { headers: { 'mcp-session-id': 'abc' } }),
    );
    const transport = new StreamableHttpClientTransport(URL_, { fetch, openGetStream: false });
    transport.start(recordingSink().asSink);
    await transport.send(initialize);
    transport.setProtocolVersion('2025-06-18');
    await transport.send(ping(1));
    expect(transport.sessionId).toBe('abc');
    expect(requests[0]?.headers.get('mcp-session-id')).toBeNull();
    expect(requests[0]?.headers.get('mcp-protocol-version')).toBeNull();
    expect(requests[1]?.headers.get('mcp-session-id')).toBe('abc');
    expect(requests[1]?.headers.get('mcp-protocol-version')).toBe('2025-06-18');
  });

  it('rejects a session id with characters outside visible ASCII', async () => {
    const { fetch } = stubFetch((_request, body) =>
      json({ jsonrpc: '2.0', id: body.id, result: {} }, { headers: { 'mcp-session-id': 'has space' } }),
    );
    const transport = new StreamableHttpClientTransport(URL_, { fetch });
    transport.start(recordingSink().asSink);
    await expect(transport.send(initialize)).rejects.toThrow(/visible ASCII/);
  });

  it('follows same-origin 307/308 redirects for POST and refuses the others', async () => {
    const { fetch, requests } = stubFetch((request, body) => {
      const path = new URL(request.url).pathname;
      if (path === '/mcp') return new Response(null, { status: 308, headers: { location: '/v2/mcp' } });
      if (path === '/v2/mcp') return json({ jsonrpc: '2.0', id: body.id, result: {} });
      return new Response(null, { status: 302, headers: { location: '/mcp' } });
    });
    const transport = new StreamableHttpClientTransport(URL_, { fetch, openGetStream: false });
    const { sink, asSink } = recordingSink();
    transport.start(asSink);
    await transport.send(ping(1));
    expect(requests.map((request) => new URL(request.url).pathname)).toEqual(['/mcp', '/v2/mcp']);
    expect(sink.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);

    const other = new StreamableHttpClientTransport('http://mcp.test/old', { fetch, openGetStream: false });
    other.start(recordingSink().asSink);
    await expect(other.send(ping(2))).rejects.toThrow(/only 307 and 308 redirects are followed for POST/);
  });

  it('rejects answers it cannot read instead of leaving the request hanging', async () => {
    const { fetch } = stubFetch((_request, body) =>
      body.id === 1
        ? new Response('<html></html>', { headers: { 'content-type': 'text/html' } })
        : new Response('{not json', { headers: { 'content-type': 'application/json' } }),
    );
    const transport = new StreamableHttpClientTransport(URL_, { fetch, openGetStream: false });
    transport.start(recordingSink().asSink);
    await expect(transport.send(ping(1))).rejects.toThrow(/unexpected content type "text\/html"/);
    await expect(transport.send(ping(2))).rejects.toThrow(/not valid JSON/);
  });

  it('accepts a bare 202 to a request and takes the answer from the GET stream', async () => {
    let push!: (text: string) => void;
    const { fetch } = stubFetch((request, body) => {
      if (request.method === 'GET') {
        return new Response(
          new ReadableStream({
            start(controller) {
              push = (text) => controller.enqueue(encoder.encode(text));
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        );
      }
      if (body.method === 'initialize') return json({ jsonrpc: '2.0', id: body.id, result: {} });
      return new Response(null, { status: 202 });
    });
    const transport = new StreamableHttpClientTransport(URL_, { fetch });
    const { sink, asSink } = recordingSink();
    transport.start(asSink);
    await transport.send(initialize);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await transport.send(ping(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    push(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n\n`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sink.messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await transport.close();
  });

  it('reports data that is not JSON as a parse error and keeps reading', async () => {
    const { fetch } = stubFetch(
      (_request, body) =>
        new Response(
          `data: oops\n\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: {} })}\n\n`,
          {
            headers: { 'content-type': 'text/event-stream' },
          },
        ),
    );
    const transport = new StreamableHttpClientTransport(URL_, { fetch, openGetStream: false });
    const { sink, asSink } = recordingSink();
    transport.start(asSink);
    await transport.send(ping(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sink.errors.map((error) => error.message)).toEqual([expect.stringMatching(/not JSON/)]);
    expect(sink.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('refuses answers larger than maxMessageSize, as JSON or as an SSE event', async () => {
    const big = 'x'.repeat(200);
    const { fetch } = stubFetch((_request, body) =>
      body.id === 1
        ? json({ jsonrpc: '2.0', id: 1, result: { big } })
        : new Response(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 2, result: { big } })}\n\n`, {
            headers: { 'content-type': 'text/event-stream' },
          }),
    );
    const transport = new StreamableHttpClientTransport(URL_, {
      fetch,
      openGetStream: false,
      maxMessageSize: 100,
    });
    const { sink, asSink } = recordingSink();
    transport.start(asSink);
    await expect(transport.send(ping(1))).rejects.toThrow(/exceeds 100 characters/);
    await transport.send(ping(2));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sink.messages).toEqual([
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32000, message: expect.stringMatching(/exceeded the limit of 100 characters/) },
      },
    ]);
  });

  it('refuses to work before start() and after close(), and starts once', async () => {
    const transport = new StreamableHttpClientTransport(URL_, { fetch: stubFetch(() => json({})).fetch });
    await expect(transport.send(ping(1))).rejects.toThrow(/has not been started/);
    transport.start(recordingSink().asSink);
    expect(() => transport.start(recordingSink().asSink)).toThrow(/starts once/);
    await transport.close();
    await expect(transport.send(ping(1))).rejects.toBeInstanceOf(HttpTransportError);
  });

  it('terminateSession accepts 405 and surfaces other failures', async () => {
    let deleteStatus = 405;
    const { fetch, requests } = stubFetch((request, body) =>
      request.method === 'DELETE'
        ? new Response(null, { status: deleteStatus })
        : json({ jsonrpc: '2.0', id: body.id, result: {} }, { headers: { 'mcp-session-id': 's' } }),
    );
    const transport = new StreamableHttpClientTransport(URL_, { fetch, openGetStream: false });
    transport.start(recordingSink().asSink);
    await transport.send(initialize);
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    await transport.send(initialize);
    deleteStatus = 500;
    await expect(transport.terminateSession()).rejects.toThrow(/DELETE .* failed: HTTP 500/);
    expect(requests.filter((request) => request.method === 'DELETE')).toHaveLength(2);
  });
});
