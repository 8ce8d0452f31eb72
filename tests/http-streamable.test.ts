import type { CallToolResult } from '@mcpkit/core';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { type RequestContext, Server } from '@mcpkit/server';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Json,
  RawClient,
  readAnswer,
  runSdkClient,
  type SseEvent,
  sseEvents,
} from '../packages/server/src/http/fixtures/rawHttpClient.mjs';
import { eventually } from './support/eventually.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

interface Harness {
  url: string;
  server: Server;
  handler: StreamableHttpHandler;
  served: ServedHandler;
  errors: Error[];
  /** The signal of the last `slow` call, to observe cancellation. */
  slowSignal?: AbortSignal;
}

const running: Harness[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.served.close()));
});

/** A low-level server with a few tools that exercise the transport. */
function makeServer(errors: Error[], harness: Partial<Harness>): Server {
  const server = new Server(
    { name: 'http-test', version: '1.0.0' },
    { capabilities: { tools: {}, logging: {} }, onError: (error) => errors.push(error) },
  );
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async (params, ctx: RequestContext) => {
    const args = (params.arguments ?? {}) as Json;
    switch (params.name) {
      case 'echo':
        return text(JSON.stringify(args));
      case 'progress': {
        const steps = Number(args.steps ?? 3);
        for (let i = 1; i <= steps; i++) {
          await ctx.progress(i, steps, `step ${i}`);
          // Like real work: also keeps the official SDK client (which handles notifications a
          // microtask after responses) from seeing the result before the last progress.
          if (args.pace) await sleep(Number(args.pace));
        }
        return text('progressed');
      }
      case 'roots': {
        const { roots } = await ctx.listRoots();
        return text(roots.map((root) => root.uri).join(','));
      }
      case 'poll': {
        const closed = ctx.closeSseStream();
        await sleep(Number(args.delay ?? 50));
        ctx.log.info('after the poll');
        return text(`polled:${closed}`);
      }
      case 'slow': {
        harness.slowSignal = ctx.signal;
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, Number(args.ms ?? 10_000));
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve(undefined);
          });
        });
        return text(ctx.signal.aborted ? 'aborted' : 'slept');
      }
      default:
        return { isError: true, ...text(`unknown tool ${String(params.name)}`) };
    }
  });
  return server;
}

async function start(
  options: StreamableHttpHandlerOptions = {},
  extraOf?: (req: any) => any,
): Promise<Harness> {
  const errors: Error[] = [];
  const harness: Partial<Harness> = { errors };
  const server = makeServer(errors, harness);
  const handler = createStreamableHttpHandler(server, options);
  const served = await serve(handler, { path: '/mcp', extra: extraOf });
  Object.assign(harness, { url: served.url, server, handler, served });
  running.push(harness as Harness);
  return harness as Harness;
}

/** Posts `initialize` for 2025-11-25 with request id `id`, as client `name`. */
function postInitialize(client: RawClient, id: number, name: string) {
  return client.post({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } },
  });
}

/**
 * GETs the standalone stream until the server has let go of the previous one: 409 until it
 * notices that stream's socket closed, then the new stream.
 */
async function openOnceReleased(client: RawClient): Promise<Response> {
  let response: Response | undefined;
  await expect
    .poll(async () => {
      response = await client.get();
      if (response.status === 409) await response.body?.cancel();
      return response.status;
    })
    .not.toBe(409);
  return response!;
}

function call(name: string, args: Json = {}, meta?: Json): Json {
  return meta ? { name, arguments: args, _meta: meta } : { name, arguments: args };
}

describe('Streamable HTTP: the session lifecycle', () => {
  it('initializes, answers over SSE with priming, streams GET notifications, and ends on DELETE', async () => {
    const h = await start();
    const client = new RawClient(h.url);

    const init = await postInitialize(client, 0, 'raw');
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id');
    expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const initAnswer = await readAnswer(init);
    expect(initAnswer.kind).toBe('sse');
    // Priming first: an id, empty data and a retry; then the result with an id of the same stream.
    const [priming, result] = initAnswer.events;
    expect(priming).toMatchObject({ data: '', retry: 1000 });
    expect(priming!.id).toBeTruthy();
    expect(result!.event).toBe('message');
    expect(result!.id!.split('/')[0]).toBe(priming!.id!.split('/')[0]);
    expect(initAnswer.messages).toEqual([
      { jsonrpc: '2.0', id: 0, result: expect.objectContaining({ protocolVersion: '2025-11-25' }) },
    ]);
    client.sessionId = sessionId!;
    client.protocolVersion = '2025-11-25';
    expect((await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect(h.handler.sessionCount).toBe(1);

    const list = await client.request('tools/list');
    expect(list.kind).toBe('sse');
    expect(list.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { tools: [] } }]);

    // The standalone GET stream carries notifications that belong to no request.
    const get = await client.get();
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(get);
    const first = await events.next();
    expect(first.value).toMatchObject({ data: '', retry: 1000 });
    h.server.broadcast('notifications/tools/list_changed');
    const notification = await events.next();
    expect(JSON.parse(notification.value!.data)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });

    const deleted = await client.delete();
    expect(deleted.status).toBe(200);
    expect((await events.next()).done).toBe(true); // the GET stream ended with the session
    expect(h.handler.sessionCount).toBe(0);
    expect(h.server.sessions.size).toBe(0);

    const after = await client.post({ jsonrpc: '2.0', id: 9, method: 'tools/list' });
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringContaining('Session not found') },
    });
    expect((await client.get()).status).toBe(404);
    expect(h.errors).toEqual([]);
  });

  it('answers with JSON in JSON mode, and upgrades to SSE when progress comes before the result', async () => {
    const h = await start({ enableJsonResponse: true });
    const client = new RawClient(h.url);
    await client.connect();

    const list = await client.request('tools/list');
    expect(list.kind).toBe('json');
    expect(list.headers.get('content-type')).toBe('application/json');
    expect(list.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { tools: [] } }]);

    const echo = await client.request('tools/call', call('echo', { a: 1 }));
    expect(echo.kind).toBe('json');
    expect(echo.messages[0]!.result).toEqual(text('{"a":1}'));

    const progress = await client.request(
      'tools/call',
      call('progress', { steps: 3 }, { progressToken: 'tok' }),
    );
    expect(progress.kind).toBe('sse');
    expect(progress.messages.map((m) => m.method ?? 'result')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'result',
    ]);
    expect(progress.messages[0]!.params).toEqual({
      progressToken: 'tok',
      progress: 1,
      total: 3,
      message: 'step 1',
    });
    expect(progress.messages[3]!.result).toEqual(text('progressed'));
    // Without a token there is nothing to send before the result, so JSON it stays.
    const quiet = await client.request('tools/call', call('progress', { steps: 3 }));
    expect(quiet.kind).toBe('json');
  });

  it('carries a server-to-client request on the POST stream and takes its answer by POST', async () => {
    const h = await start();
    const client = new RawClient(h.url);
    await client.connect({ roots: { listChanged: true } });
    const get = await client.get();
    const standalone = sseEvents(get);
    await standalone.next(); // priming

    const response = await client.post({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: call('roots'),
    });
    const events = sseEvents(response);
    const messages: Json[] = [];
    for await (const event of events) {
      if (event.data === '') continue;
      const message = JSON.parse(event.data) as Json;
      messages.push(message);
      if (message.method === 'roots/list') {
        const answer = await client.post({
          jsonrpc: '2.0',
          id: message.id,
          result: { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] },
        });
        expect(answer.status).toBe(202);
        expect(await answer.text()).toBe('');
      }
    }
    expect(messages.map((m) => m.method ?? `response ${m.id}`)).toEqual(['roots/list', 'response 7']);
    expect(messages[1]!.result).toEqual(text('file:///a,file:///b'));

    // Nothing about the call leaked onto the standalone stream.
    h.server.broadcast('notifications/tools/list_changed');
    const next = await standalone.next();
    expect(JSON.parse(next.value!.data).method).toBe('notifications/tools/list_changed');
  });

  it('allows one standalone GET stream per session, and queues notifications until one opens', async () => {
    const h = await start();
    const client = new RawClient(h.url);
    await client.connect();
    h.server.broadcast('notifications/resources/list_changed');
    const get = await client.get();
    expect(get.status).toBe(200);
    const second = await client.get();
    expect(second.status).toBe(409);
    expect((await second.json()).error.code).toBe(-32600);
    const events = sseEvents(get);
    const queued = await events.next();
    expect(JSON.parse(queued.value!.data)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/list_changed',
    });
    expect((await events.next()).value).toMatchObject({ data: '', retry: 1000 }); // priming after the backlog
    await events.return(undefined);
    // Once the first stream is gone, a new one may open. The server learns it is gone when the
    // socket closes, some time after the client let go; until then a GET is still a second one.
    const third = await openOnceReleased(client);
    expect(third.status).toBe(200);
    await third.body!.cancel();
  });

  it('ends the call stream without a response when the client cancels the request', async () => {
    const h = await start();
    const client = new RawClient(h.url);
    await client.connect();
    const pending = client.post({ jsonrpc: '2.0', id: 'slow-1', method: 'tools/call', params: call('slow') });
    const response = await pending;
    // Headers can arrive before the tool runs; a cancellation before that would find nothing.
    await eventually(() => h.slowSignal, 'the call to start');
    const cancel = await client.post({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'slow-1', reason: 'user' },
    });
    expect(cancel.status).toBe(202);
    const answer = await readAnswer(response);
    expect(answer.messages).toEqual([]);
    expect(h.slowSignal?.aborted).toBe(true);
    // The id is free again and the session still works.
    const again = await client.request('tools/call', call('echo', { again: true }), 'slow-1');
    expect(again.messages.at(-1)!.result).toEqual(text('{"again":true}'));
  });

  it('expires idle sessions with 404 afterwards, but never one with an open stream', async () => {
    // Long enough that a loaded machine cannot expire the session between initialize and
    // initialized; the test waits for the expiry instead of sleeping a fixed time.
    const h = await start({ sessionIdleTimeout: 400, keepAliveInterval: false });
    const idle = new RawClient(h.url);
    await idle.connect();
    const watching = new RawClient(h.url);
    await watching.connect();
    const get = await watching.get();
    await eventually(() => h.handler.sessionCount === 1, 'the idle session to expire');
    expect((await idle.request('tools/list')).status).toBe(404);
    expect((await watching.request('tools/list')).status).toBe(200);
    await get.body!.cancel();
    expect(h.handler.sessionCount).toBe(1);
  });

  it('expires a session whose client left a resumable call behind, cancelling the call', async () => {
    // Long enough that a loaded machine cannot expire the session before the call arrives (80 ms
    // could: the POST got 404 and no call ran); the test waits for the expiry, not a fixed time.
    const h = await start({ sessionIdleTimeout: 400, keepAliveInterval: false });
    const client = new RawClient(h.url);
    await client.connect();
    const controller = new AbortController();
    const response = await client.post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: call('slow') },
      undefined,
      controller.signal,
    );
    expect(response.status).toBe(200);
    await sseEvents(response).next(); // priming: the client could resume, but never does
    await eventually(() => h.slowSignal, 'the call to start');
    controller.abort();
    await eventually(() => h.handler.sessionCount === 0, 'the session to expire');
    expect(h.slowSignal?.aborted).toBe(true);
  });

  it('sends keep-alive comments on quiet streams', async () => {
    const h = await start({ keepAliveInterval: 30 });
    const client = new RawClient(h.url);
    await client.connect();
    const get = await client.get();
    const reader = get.body!.getReader();
    let seen = '';
    const deadline = Date.now() + 2_000;
    while (!seen.includes(': keep-alive') && Date.now() < deadline) {
      const { value } = await reader.read();
      seen += new TextDecoder().decode(value);
    }
    expect(seen).toContain(': keep-alive\n\n');
    await reader.cancel();
  });

  it('binds a session to the credentials that created it', async () => {
    const h = await start({}, (req) => ({ authInfo: { clientId: String(req.headers['x-client'] ?? '') } }));
    const alice = new RawClient(h.url, { headers: { 'x-client': 'alice' } });
    await alice.connect();
    const mallory = new RawClient(h.url, { headers: { 'x-client': 'mallory' } });
    mallory.sessionId = alice.sessionId;
    expect((await mallory.request('tools/list')).status).toBe(404);
    expect((await alice.request('tools/list')).status).toBe(200);
  });

  it('processes JSON-RPC batches on a 2025-03-26 session only', async () => {
    const h = await start();
    const old = new RawClient(h.url, { protocolVersion: '2025-03-26' });
    await old.connect();
    const batch = await readAnswer(
      await old.post([
        { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: call('echo', { n: 1 }) },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
      ]),
    );
    expect(batch.status).toBe(200);
    // 2025-03-26 has no priming events; the batch answer is one array event.
    expect(batch.events.every((event) => event.data !== '')).toBe(true);
    const answers = batch.messages.flat() as Json[];
    expect(answers.map((m) => m.id).sort()).toEqual(['a', 'b']);

    const current = new RawClient(h.url);
    await current.connect();
    const refused = await current.post([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe(-32600);
  });
});

describe('Streamable HTTP: SSE polling and resumption', () => {
  it('closes the POST stream mid-call and delivers the rest on GET with Last-Event-ID', async () => {
    const h = await start();
    const client = new RawClient(h.url);
    await client.connect();
    // A standalone stream is open, as real clients keep one: a resume is not a second one.
    const standalone = await client.get();
    expect(standalone.status).toBe(200);

    const post = await client.post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: call('poll') },
      { accept: 'text/event-stream, application/json', 'mcp-protocol-version': '2025-03-26' },
    );
    const first = await readAnswer(post);
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({ data: '', retry: 1000 });
    expect(first.messages).toEqual([]);

    const resumed = await client.get({
      'last-event-id': first.events[0]!.id!,
      'mcp-protocol-version': '2025-03-26',
    });
    expect(resumed.status).toBe(200);
    const rest = await readAnswer(resumed);
    expect(rest.messages.map((m) => m.method ?? `response ${m.id}`)).toEqual([
      'notifications/message',
      'response 1',
    ]);
    expect(rest.messages[1]!.result).toEqual(text('polled:true'));
    expect(rest.events.every((event) => event.id?.startsWith(first.events[0]!.id!.split('/')[0]!))).toBe(
      true,
    );

    // Resuming the finished stream again replays it (from the same position), then ends.
    const replay = await readAnswer(await client.get({ 'last-event-id': first.events[0]!.id! }));
    expect(replay.messages).toEqual(rest.messages);
    await standalone.body!.cancel();
  });

  it('replays only the stream a Last-Event-ID belongs to, and refuses ids of other sessions', async () => {
    const h = await start();
    const a = new RawClient(h.url);
    await a.connect();
    const b = new RawClient(h.url);
    await b.connect();
    const one = await a.request('tools/call', call('echo', { call: 1 }));
    await a.request('tools/call', call('echo', { call: 2 }));
    const replay = await readAnswer(await a.get({ 'last-event-id': one.events[0]!.id! }));
    expect(replay.messages).toEqual([one.messages[0]]);
    // b cannot read a's stream, even with a valid id.
    const stolen = await b.get({ 'last-event-id': one.events[0]!.id! });
    expect(stolen.status).toBe(400);
  });

  it('does not offer polling to clients older than 2025-11-25', async () => {
    const h = await start();
    const client = new RawClient(h.url, { protocolVersion: '2025-06-18' });
    await client.connect();
    const answer = await client.request('tools/call', call('poll'));
    expect(answer.events.some((event) => event.data === '')).toBe(false);
    expect(answer.messages.at(-1)!.result).toEqual(text('polled:false'));
  });

  it('keeps a call running when a resumable connection drops, and aborts it when nothing can resume', async () => {
    const resumable = await start();
    const a = new RawClient(resumable.url);
    await a.connect();
    const controller = new AbortController();
    const response = await a.post(
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: call('slow', { ms: 150 }) },
      undefined,
      controller.signal,
    );
    const events = sseEvents(response);
    const priming = (await events.next()).value as SseEvent;
    controller.abort();
    await sleep(300);
    expect(resumable.slowSignal?.aborted).toBe(false);
    const rest = await readAnswer(await a.get({ 'last-event-id': priming.id! }));
    expect(rest.messages).toEqual([{ jsonrpc: '2.0', id: 5, result: text('slept') }]);

    const plain = await start({ eventStore: false });
    const b = new RawClient(plain.url);
    await b.connect();
    const controller2 = new AbortController();
    await b.post(
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: call('slow') },
      undefined,
      controller2.signal,
    );
    await eventually(() => plain.slowSignal, 'the call to start');
    controller2.abort();
    // The server learns of the disconnect when the socket closes, some time after the abort.
    await eventually(() => plain.slowSignal?.aborted, 'the call to be aborted');
    // Without a store there is nothing to resume.
    expect((await b.get({ 'last-event-id': 'x/1' })).status).toBe(400);
  });

  it('aborts a JSON-mode call whose client disconnects before the answer', async () => {
    const h = await start({ enableJsonResponse: true });
    const client = new RawClient(h.url);
    await client.connect();
    const controller = new AbortController();
    const pending = client.post(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: call('slow') },
      undefined,
      controller.signal,
    );
    await eventually(() => h.slowSignal, 'the call to start');
    controller.abort();
    await expect(pending).rejects.toThrow();
    await eventually(() => h.slowSignal?.aborted, 'the call to be aborted');
    expect((await client.request('tools/list')).status).toBe(200);
  });
});

describe('Streamable HTTP: stateless mode', () => {
  it('serves initialize and calls without sessions, over one shared server definition', async () => {
    const h = await start({ stateless: true });
    const client = new RawClient(h.url);
    const init = await postInitialize(client, 1, 'c');
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect((await readAnswer(init)).messages[0]!.result.protocolVersion).toBe('2025-11-25');
    client.protocolVersion = '2025-11-25';
    expect((await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);

    const echo = await client.request('tools/call', call('echo', { x: 1 }));
    expect(echo.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: text('{"x":1}') }]);
    // No event store: no ids, no priming.
    expect(echo.events.every((event) => event.id === undefined)).toBe(true);
    const progress = await client.request('tools/call', call('progress', { steps: 2 }, { progressToken: 9 }));
    expect(progress.messages.map((m) => m.method ?? 'result')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'result',
    ]);
    // Requests to the client need a session (the client declared no capabilities): refused.
    const roots = await client.request('tools/call', call('roots'));
    expect(roots.messages.at(-1)).toMatchObject({ id: 3, error: { code: expect.any(Number) } });

    expect((await client.get()).status).toBe(405);
    expect((await client.delete()).status).toBe(405);
    expect(h.handler.sessionCount).toBe(0);
    // Every throwaway session ended (asynchronously, after its answer went out).
    await eventually(() => h.server.sessions.size === 0, 'the throwaway sessions to end');
  });

  it('answers JSON in stateless JSON mode and rejects an unsupported protocol version header', async () => {
    const h = await start({ stateless: true, enableJsonResponse: true });
    const client = new RawClient(h.url);
    const list = await client.request('tools/list');
    expect(list.kind).toBe('json');
    const bad = await client.post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'mcp-protocol-version': '1999-01-01' },
    );
    expect(bad.status).toBe(400);
  });
});

describe('Streamable HTTP: interoperability with the official SDK client', () => {
  it('connects, lists, calls with progress, answers a roots request and terminates the session', async () => {
    const h = await start();
    const report = await runSdkClient('streamable', h.url);
    expect(report.error).toBeUndefined();
    expect(report.sessionId).toBe(true);
    expect(report.tools).toEqual({ tools: [] });
    expect(report.progressResult).toEqual(text('progressed'));
    expect(report.progress).toEqual([1, 2, 3]);
    expect(report.rootsResult).toEqual(text('file:///sdk'));
    expect(h.handler.sessionCount).toBe(0);
  });
});
