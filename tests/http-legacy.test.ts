/**
 * The deprecated HTTP+SSE transport (2024-11-05): the GET event stream with its `endpoint` event,
 * POSTs answered 202 with the responses on the stream, and the official SDK's SSE client.
 */
import type { CallToolResult } from '@mcpkit/core';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { Server } from '@mcpkit/server';
import {
  createLegacySseHandler,
  createStreamableHttpHandler,
  type LegacySseHandler,
} from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Json,
  parseSse,
  runSdkClient,
  sseEvents,
} from '../packages/server/src/http/fixtures/rawHttpClient.mjs';
import { eventually } from './support/eventually.js';

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const running: ServedHandler[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((served) => served.close()));
});

function makeServer(): Server {
  const server = new Server({ name: 'legacy', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async (params, ctx) => {
    if (params.name === 'progress') {
      for (let i = 1; i <= 3; i++) {
        await ctx.progress(i, 3);
      }
      // The SDK client handles notifications a microtask late but responses at once, so a result
      // in the same TCP read as the last progress would overtake it on its side. A round trip to
      // the client orders them without a timer: the client answers only after reading the progress.
      await ctx.listRoots();
      return text('progressed');
    }
    if (params.name === 'roots') return text((await ctx.listRoots()).roots.map((root) => root.uri).join(','));
    return text(JSON.stringify(params.arguments ?? {}));
  });
  return server;
}

/** Streamable HTTP at /mcp and legacy SSE at GET /sse + POST /messages, side by side. */
async function start(): Promise<{ base: string; server: Server; legacy: LegacySseHandler }> {
  const server = makeServer();
  const modern = createStreamableHttpHandler(server);
  const legacy = createLegacySseHandler(server, { messagesPath: '/messages' });
  const served = await serve(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/mcp') return modern(request);
    if (pathname === '/sse' || pathname === '/messages') return legacy(request);
    return new Response(null, { status: 404 });
  });
  running.push(served);
  return { base: served.url, server, legacy };
}

const JSON_HEADERS = { 'content-type': 'application/json' };

describe('legacy HTTP+SSE', () => {
  it('announces the endpoint, accepts POSTs with 202 and answers on the event stream', async () => {
    const { base, server, legacy } = await start();
    const controller = new AbortController();
    const stream = await fetch(`${base}/sse`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(stream);
    const endpoint = (await events.next()).value!;
    expect(endpoint.event).toBe('endpoint');
    expect(endpoint.data).toMatch(/^\/messages\?sessionId=[0-9a-f-]{36}$/);
    const postUrl = new URL(endpoint.data, base).href;
    const next = async (): Promise<Json> => {
      const event = (await events.next()).value!;
      expect(event.event).toBe('message');
      return JSON.parse(event.data) as Json;
    };

    const init = await fetch(postUrl, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2024-11-05',
          capabilities: {},
          clientInfo: { name: 'old', version: '1' },
        },
      }),
    });
    expect(init.status).toBe(202);
    expect(await init.text()).toBe('');
    expect(await next()).toMatchObject({ id: 1, result: { protocolVersion: '2024-11-05' } });
    expect(
      (
        await fetch(postUrl, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        })
      ).status,
    ).toBe(202);
    const call = await fetch(postUrl, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo', arguments: { a: 1 } },
      }),
    });
    expect(call.status).toBe(202);
    expect(await next()).toEqual({ jsonrpc: '2.0', id: 2, result: text('{"a":1}') });
    expect(legacy.sessionCount).toBe(1);

    // The event stream is the session: closing it ends the session.
    controller.abort();
    await events.return(undefined);
    // The server learns of it when the socket closes, some time after the client let go.
    await eventually(() => legacy.sessionCount === 0, 'the session to end');
    await eventually(() => server.sessions.size === 0, 'the server session to end');
    const late = await fetch(postUrl, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: '{"jsonrpc":"2.0","id":3,"method":"ping"}',
    });
    expect(late.status).toBe(404);
  });

  it('refuses bad input with the same codes as the Streamable endpoint', async () => {
    const { base } = await start();
    const stream = await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream' } });
    const events = sseEvents(stream);
    const postUrl = new URL((await events.next()).value!.data, base).href;
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

    expect(
      (await fetch(`${base}/messages`, { method: 'POST', headers: JSON_HEADERS, body: ping })).status,
    ).toBe(400);
    expect(
      (await fetch(`${base}/messages?sessionId=nope`, { method: 'POST', headers: JSON_HEADERS, body: ping }))
        .status,
    ).toBe(404);
    expect(
      (await fetch(postUrl, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: ping }))
        .status,
    ).toBe(415);
    const malformed = await fetch(postUrl, { method: 'POST', headers: JSON_HEADERS, body: '{nope' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe(-32700);
    const invalid = await fetch(postUrl, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: '{"jsonrpc":"2.0","id":7,"method":1}',
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ id: 7, error: { code: -32600 } });
    const evil = await fetch(`${base}/sse`, {
      headers: { accept: 'text/event-stream', origin: 'http://evil.example.com' },
    });
    expect(evil.status).toBe(403);
    expect((await fetch(`${base}/sse`, { headers: { accept: 'application/json' } })).status).toBe(406);
    expect((await fetch(`${base}/sse`, { method: 'DELETE' })).status).toBe(405);

    // The session still works after all that.
    expect((await fetch(postUrl, { method: 'POST', headers: JSON_HEADERS, body: ping })).status).toBe(202);
    expect(JSON.parse((await events.next()).value!.data)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await events.return(undefined);
  });

  it('serves both methods at one path with the default messagesPath', async () => {
    const server = makeServer();
    const served = await serve(createLegacySseHandler(server), { path: '/legacy' });
    running.push(served);
    const response = await fetch(served.url, { headers: { accept: 'text/event-stream' } });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    const [endpoint] = parseSse(new TextDecoder().decode(value));
    expect(endpoint!.data).toMatch(/^\/legacy\?sessionId=/);
    await reader.cancel();
  });

  it('works with the official SDK SSE client', async () => {
    const { base } = await start();
    const report = await runSdkClient('sse', `${base}/sse`);
    expect(report.error).toBeUndefined();
    expect(report.tools).toEqual({ tools: [] });
    expect(report.progress).toEqual([1, 2, 3]);
    expect(report.progressResult).toEqual(text('progressed'));
    expect(report.rootsResult).toEqual(text('file:///sdk'));
  });
});

// Regression: `keepAliveInterval` was not checked, and `Infinity` or `NaN` reached `setInterval`,
// which turns a delay it cannot honour into 1 ms: a timer spinning a thousand times a second.
describe('legacy keepAliveInterval is checked like the streamable handler', () => {
  it.each([Number.POSITIVE_INFINITY, Number.NaN, 0, -5])(
    'refuses %s with a RangeError naming it',
    (value) => {
      expect(() => createLegacySseHandler(makeServer(), { keepAliveInterval: value })).toThrow(
        /keepAliveInterval must be a positive number of ms or false/,
      );
    },
  );

  it('takes false (off) and a finite interval', () => {
    expect(() => createLegacySseHandler(makeServer(), { keepAliveInterval: false })).not.toThrow();
    expect(() => createLegacySseHandler(makeServer(), { keepAliveInterval: 4_000 })).not.toThrow();
  });
});
