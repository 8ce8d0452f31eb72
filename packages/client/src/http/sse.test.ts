import type { MessageSink } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { type FetchLike, SseClientTransport } from '../http.js';

const encoder = new TextEncoder();

function sseServer(first: string) {
  let push!: (text: string) => void;
  let end!: () => void;
  const posts: Request[] = [];
  const fetch: FetchLike = async (url, init) => {
    const request = new Request(url, init);
    if (request.method === 'POST') {
      posts.push(request);
      return new Response('Accepted', { status: 202 });
    }
    return new Response(
      new ReadableStream({
        start(controller) {
          push = (text) => controller.enqueue(encoder.encode(text));
          end = () => controller.close();
          if (first) push(first);
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  };
  return { fetch, posts, push: (text: string) => push(text), end: () => end() };
}

function sink() {
  const record = { messages: [] as unknown[], closed: [] as Array<Error | undefined> };
  const asSink: MessageSink = {
    message: (value) => void record.messages.push(value),
    parseError: () => {},
    error: () => {},
    closed: (error) => void record.closed.push(error),
  };
  return { record, asSink };
}

describe('SseClientTransport (stubbed fetch)', () => {
  it('resolves a relative endpoint against the SSE URL and posts there', async () => {
    const server = sseServer('event: endpoint\ndata: messages?session=7\n\n');
    const transport = new SseClientTransport('http://legacy.test/a/sse', { fetch: server.fetch });
    const { record, asSink } = sink();
    await transport.start(asSink);
    expect(transport.endpoint?.href).toBe('http://legacy.test/a/messages?session=7');
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(server.posts.map((post) => post.url)).toEqual(['http://legacy.test/a/messages?session=7']);
    expect(server.posts[0]?.headers.get('content-type')).toBe('application/json');
    server.push(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n\n`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(record.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    await transport.close();
  });

  it('regression: close() during a POST in flight does not reject that send', async () => {
    const server = sseServer('event: endpoint\ndata: /messages\n\n');
    // A POST that only settles when its signal aborts, like a slow server cut off by close().
    const fetch: FetchLike = (url, init) =>
      init?.method === 'POST'
        ? new Promise<Response>((_resolve, reject) => {
            // Like fetch: an already-aborted signal rejects at once, a later abort rejects then.
            const abort = () => reject(new DOMException('aborted', 'AbortError'));
            if (init.signal?.aborted) abort();
            else init.signal?.addEventListener('abort', abort);
          })
        : server.fetch(url, init);
    const transport = new SseClientTransport('http://legacy.test/sse', { fetch });
    const { asSink } = sink();
    await transport.start(asSink);
    const inFlight = transport.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
    await transport.close();
    await expect(inFlight).resolves.toBeUndefined();
  });

  it('closes with an error when the server ends the stream', async () => {
    const server = sseServer('event: endpoint\ndata: /messages\n\n');
    const transport = new SseClientTransport('http://legacy.test/sse', { fetch: server.fetch });
    const { record, asSink } = sink();
    await transport.start(asSink);
    server.end();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(record.closed.map((error) => error?.message)).toEqual(['The server ended the SSE stream']);
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).rejects.toThrow(
      /closed/,
    );
  });

  it('gives up when no endpoint event arrives in time', async () => {
    const server = sseServer(': hello\n\n');
    const transport = new SseClientTransport('http://legacy.test/sse', {
      fetch: server.fetch,
      endpointTimeout: 30,
    });
    await expect(transport.start(sink().asSink)).rejects.toThrow(/no endpoint event within 30 ms/);
  });

  it('refuses an endpoint on another origin', async () => {
    const server = sseServer('event: endpoint\ndata: https://elsewhere.test/messages\n\n');
    const transport = new SseClientTransport('http://legacy.test/sse', { fetch: server.fetch });
    await expect(transport.start(sink().asSink)).rejects.toThrow(/another origin/);
    expect(server.posts).toHaveLength(0);
  });
});
