/**
 * The Streamable HTTP handler called directly with `Request` objects (no sockets): options,
 * limits and the paths a network test reaches only by luck.
 */
import { createInMemoryPair } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { Server } from '../server.js';
import { type EventStore, InMemoryEventStore } from './delivery/eventStore.js';
import { type Json, readAnswer, sseEvents } from './fixtures/rawHttpClient.mjs';
import { closeSseStream, createStreamableHttpHandler, type StreamableHttpHandler } from './streamable.js';

const URL_ = 'http://localhost/mcp';
const ACCEPT = 'application/json, text/event-stream';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function makeServer(errors: Error[] = []): Server {
  const server = new Server(
    { name: 'unit', version: '1' },
    { capabilities: { tools: {}, logging: {} }, onError: (e) => errors.push(e) },
  );
  server.setRequestHandler('tools/call', async (params, ctx) => {
    const args = (params.arguments ?? {}) as Json;
    if (params.name === 'poll') {
      ctx.closeSseStream();
      for (let i = 0; i < Number(args.logs ?? 0); i++) {
        ctx.log.info(i);
        await sleep(1);
      }
      return { content: [{ type: 'text', text: 'polled' }] };
    }
    if (params.name === 'bigint') return { content: [], value: 10n };
    return { content: [{ type: 'text', text: String(args.n) }] };
  });
  return server;
}

function post(
  handler: StreamableHttpHandler,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return handler(
    new Request(URL_, {
      method: 'POST',
      headers: { accept: ACCEPT, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
}

function get(handler: StreamableHttpHandler, headers: Record<string, string>): Promise<Response> {
  return handler(new Request(URL_, { method: 'GET', headers: { accept: 'text/event-stream', ...headers } }));
}

const initialize = (version = '2025-11-25') => ({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'unit', version: '1' } },
});

/** Initializes a session; returns the headers later requests need. */
async function open(handler: StreamableHttpHandler, version = '2025-11-25'): Promise<Record<string, string>> {
  const response = await post(handler, initialize(version));
  expect(response.status).toBe(200);
  await response.body?.cancel();
  const headers = {
    'mcp-session-id': response.headers.get('mcp-session-id')!,
    'mcp-protocol-version': version,
  };
  expect((await post(handler, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(
    202,
  );
  return headers;
}

describe('createStreamableHttpHandler options', () => {
  it('maxSessions: a further initialize replaces an idle session, and gets 503 only when all are busy', async () => {
    const handler = createStreamableHttpHandler(makeServer(), { maxSessions: 1 });
    await open(handler);
    const busy = await open(handler); // the first session was idle: it made room
    expect(handler.sessionCount).toBe(1);
    const stream = await handler(
      new Request(URL_, { method: 'GET', headers: { accept: 'text/event-stream', ...busy } }),
    );
    expect(stream.status).toBe(200);
    const refused = await post(handler, initialize());
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe(-32603);
    await stream.body?.cancel();
    await handler.close();
  });

  it('sessionIdGenerator: ids that are not visible ASCII are refused, not issued', async () => {
    const errors: Error[] = [];
    const handler = createStreamableHttpHandler(makeServer(errors), {
      sessionIdGenerator: () => 'has space',
    });
    const response = await post(handler, initialize());
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(handler.sessionCount).toBe(0);
    expect(errors.map((e) => e.message)).toEqual([
      'sessionIdGenerator returned an invalid or duplicate session id',
    ]);
    const custom = createStreamableHttpHandler(makeServer(), { sessionIdGenerator: () => 'my-session-1' });
    expect((await post(custom, initialize())).headers.get('mcp-session-id')).toBe('my-session-1');
    await custom.close();
  });

  it('a failed initialize creates no session and issues no id', async () => {
    const server = makeServer();
    const handler = createStreamableHttpHandler(server, { enableJsonResponse: true });
    const response = await post(handler, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: 7 },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect((await response.json()).error.code).toBe(-32602);
    await sleep(0);
    expect(handler.sessionCount).toBe(0);
    expect(server.sessions.size).toBe(0);
  });

  it('enableGetStream: false refuses the standalone stream but still resumes streams', async () => {
    const handler = createStreamableHttpHandler(makeServer(), { enableGetStream: false });
    const headers = await open(handler);
    const refused = await get(handler, headers);
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, POST, DELETE');
    const call = await readAnswer(
      await post(handler, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'poll' } }, headers),
    );
    expect(call.messages).toEqual([]);
    const resumed = await readAnswer(
      await get(handler, { ...headers, 'last-event-id': call.events[0]!.id! }),
    );
    expect(resumed.messages).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'polled' }] } },
    ]);
    await handler.close();
  });

  it('enableDelete: false answers DELETE with 405 and keeps the session', async () => {
    const handler = createStreamableHttpHandler(makeServer(), { enableDelete: false });
    const headers = await open(handler);
    const response = await handler(new Request(URL_, { method: 'DELETE', headers }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(handler.sessionCount).toBe(1);
    await handler.close();
    expect(handler.sessionCount).toBe(0);
    expect((await post(handler, { jsonrpc: '2.0', id: 1, method: 'ping' }, headers)).status).toBe(404);
  });

  it('rejects nonsensical option values', () => {
    const server = makeServer();
    expect(() => createStreamableHttpHandler(server, { maxBodyBytes: -1 })).toThrow(RangeError);
    expect(() => createStreamableHttpHandler(server, { keepAliveInterval: 0 })).toThrow(RangeError);
    expect(() => createStreamableHttpHandler(server, { sessionIdleTimeout: Number.NaN })).toThrow(RangeError);
  });
});

describe('createStreamableHttpHandler edge cases', () => {
  it('answers a result that cannot be serialized with -32603 and reports it', async () => {
    const errors: Error[] = [];
    const handler = createStreamableHttpHandler(makeServer(errors), { enableJsonResponse: true });
    const headers = await open(handler);
    const response = await post(
      handler,
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'bigint' } },
      headers,
    );
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 'b',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(errors).toHaveLength(1);
    await handler.close();
  });

  it('takes notifications and stray responses with 202 and an empty body', async () => {
    const errors: Error[] = [];
    const handler = createStreamableHttpHandler(makeServer(errors));
    const headers = await open(handler);
    const notification = await post(
      handler,
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      headers,
    );
    expect(notification.status).toBe(202);
    expect(await notification.text()).toBe('');
    const stray = await post(handler, { jsonrpc: '2.0', id: 12345, result: {} }, headers);
    expect(stray.status).toBe(202);
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('unknown request id 12345')]);
    await handler.close();
  });

  it('disconnects a client that stops reading its stream instead of buffering without bound', async () => {
    const server = makeServer();
    const handler = createStreamableHttpHandler(server, { maxBufferedBytes: 4096, eventStore: false });
    const headers = await open(handler);
    const stream = await get(handler, headers);
    expect(stream.status).toBe(200);
    const notify = (i: number) =>
      server.broadcast('notifications/message', { level: 'info', data: `${i}:${'x'.repeat(100)}` });
    // About 200 bytes each: the client is cut off after ~20 unread events.
    for (let i = 0; i < 30; i++) notify(i);
    await expect(stream.text()).rejects.toThrow('The client is not reading the stream');
    // What could not be written waits for the next standalone stream, which the lost one freed.
    const again = await get(handler, headers);
    expect(again.status).toBe(200);
    const events = sseEvents(again);
    const first = JSON.parse((await events.next()).value!.data).params.data as string;
    const index = Number(first.split(':')[0]);
    expect(index).toBeGreaterThan(10);
    for (let i = index + 1; i < 30; i++)
      expect(JSON.parse((await events.next()).value!.data).params.data).toMatch(`${i}:`);
    await events.return(undefined);
    await handler.close();
  });

  it('keeps at most 64 notifications for a session with no GET stream, newest last', async () => {
    const server = makeServer();
    const handler = createStreamableHttpHandler(server, { eventStore: false });
    const headers = await open(handler);
    for (let i = 0; i < 100; i++) server.broadcast('notifications/message', { level: 'info', data: i });
    const stream = await get(handler, headers);
    const events = sseEvents(stream);
    const data: number[] = [];
    for (let i = 0; i < 64; i++) data.push(JSON.parse((await events.next()).value!.data).params.data);
    expect(data).toEqual(Array.from({ length: 64 }, (_, i) => 36 + i));
    await events.return(undefined);
    await handler.close();
  });

  it('keeps order and exactly-once delivery with a slow asynchronous event store', async () => {
    const inner = new InMemoryEventStore();
    const jitter = () => sleep(Math.random() * 3);
    const slowStore: EventStore = {
      storeEvent: async (streamId, data) => {
        await jitter();
        return inner.storeEvent(streamId, data);
      },
      streamIdOf: async (id) => {
        await jitter();
        return inner.streamIdOf(id);
      },
      replayEventsAfter: async (id, send) => {
        await jitter();
        return inner.replayEventsAfter(id, send);
      },
    };
    const handler = createStreamableHttpHandler(makeServer(), { eventStore: slowStore });
    const headers = await open(handler);
    const first = await readAnswer(
      await post(
        handler,
        { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'poll', arguments: { logs: 20 } } },
        headers,
      ),
    );
    expect(first.events).toHaveLength(1);
    const messages: Json[] = [];
    let lastId = first.events[0]!.id!;
    // Resume repeatedly, dropping after a few events each time.
    for (let round = 0; round < 50 && !messages.some((m) => m.id === 9); round++) {
      const events = sseEvents(await get(handler, { ...headers, 'last-event-id': lastId }));
      for (let read = 0; read < 3; read++) {
        const next = await events.next();
        if (next.done) break;
        lastId = next.value.id!;
        messages.push(JSON.parse(next.value.data));
      }
      await events.return(undefined);
      await sleep(2);
    }
    expect(messages.filter((m) => m.method).map((m) => m.params.data)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    expect(messages.at(-1)).toMatchObject({ id: 9, result: { content: [{ text: 'polled' }] } });
    expect(messages).toHaveLength(21);
    await handler.close();
  });

  it('ctx.closeSseStream (and the deprecated closeSseStream) is a no-op outside a Streamable HTTP session', async () => {
    const server = new Server({ name: 'mem', version: '1' }, { capabilities: { tools: {} } });
    let closed: boolean | undefined;
    server.setRequestHandler('tools/call', (_params, ctx) => {
      closed = ctx.closeSseStream() || closeSseStream(ctx);
      return { content: [] };
    });
    const [clientSide, serverSide] = createInMemoryPair();
    server.connect(serverSide);
    const answers: Json[] = [];
    await clientSide.start({
      message: (m) => answers.push(m as Json),
      parseError: () => {},
      error: () => {},
      closed: () => {},
    });
    clientSide.send(initialize() as never);
    await sleep(5);
    clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    clientSide.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } });
    await sleep(5);
    expect(closed).toBe(false);
    expect(answers.at(-1)).toMatchObject({ id: 1, result: { content: [] } });
  });
});
