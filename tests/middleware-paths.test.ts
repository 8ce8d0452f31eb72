/**
 * "No path skips it" (issue 21): every request method the server answers, sent over in-memory,
 * stdio, Streamable HTTP (stateful and stateless) and legacy HTTP+SSE, and in every older 2025/2024
 * revision, passes a middleware installed with `server.use`, and so does a client notification
 * that reaches the server's listeners. Under 2026-07-28 (requests with the `_meta` envelope, no
 * `initialize`) the same holds for every method that revision answers, `server/discover` and
 * `subscriptions/listen` included, over in-memory, stdio and Streamable HTTP. The methods are enumerated from the server's own method table, so a method added
 * later and not driven here fails the test.
 */
import {
  createInMemoryPair,
  EXTENSION_METHOD_TABLE,
  METHOD_TABLE,
  Method,
  methodExists,
  type ProtocolVersion,
} from '@mcpkit/core';
import { serve } from '@mcpkit/node/http';
import type { McpServer } from '@mcpkit/server';
import { createLegacySseHandler } from '@mcpkit/server/http';
import { TaskManager } from '@mcpkit/server/tasks';
import { afterEach, describe, expect, it } from 'vitest';
import { sseEvents } from '../packages/server/src/http/fixtures/rawHttpClient.mjs';
import { createMcpkitServer } from './fixtures/mcpkitServer.js';
import { eventually as until } from './support/eventually.js';
import { MODERN, modernHeaders, modernRequest, postModern } from './support/modernWire.js';
import { type Json, overHttp as overHttpRaw, overStdio, REVISION, type Send } from './support/rawJsonRpc.js';

const TASK = { taskId: 'no-such-task' };
/** One request of every method a client may send, with params good enough to reach the handler. */
const REQUESTS: Readonly<Record<string, Json>> = {
  [Method.Ping]: {},
  [Method.ToolsList]: {},
  [Method.ToolsCall]: { name: 'add', arguments: { a: 1, b: 2 } },
  [Method.ResourcesList]: {},
  [Method.ResourcesTemplatesList]: {},
  [Method.ResourcesRead]: { uri: 'mem://logo' },
  [Method.ResourcesSubscribe]: { uri: 'mem://logo' },
  [Method.ResourcesUnsubscribe]: { uri: 'mem://logo' },
  [Method.PromptsList]: {},
  [Method.PromptsGet]: { name: 'plain' },
  [Method.CompletionComplete]: {
    ref: { type: 'ref/prompt', name: 'greet' },
    argument: { name: 'name', value: 'A' },
  },
  [Method.LoggingSetLevel]: { level: 'info' },
  [Method.TasksList]: {},
  [Method.TasksGet]: TASK,
  [Method.TasksResult]: TASK,
  [Method.TasksCancel]: TASK,
};
const INITIALIZE = {
  protocolVersion: REVISION,
  capabilities: { roots: { listChanged: true } },
  clientInfo: { name: 'paths', version: '1' },
};

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A full-featured server that records every method its middleware sees. */
function watchedServer(): { server: McpServer; seen: Set<string> } {
  const server = createMcpkitServer({ tasks: new TaskManager(), onError: () => {} });
  const seen = new Set<string>();
  server.use((ctx, next) => {
    seen.add(ctx.method);
    return next();
  });
  cleanups.push(() => server.close());
  return { server, seen };
}

/** Every method the server's table answers, from the protocol's method list. */
function answeredMethods(server: McpServer): string[] {
  return Object.values(Method).filter((method) => server.requestHandler(method) !== undefined);
}

async function inMemory(server: McpServer): Promise<Send> {
  const [clientSide, serverSide] = createInMemoryPair({ serialize: true });
  server.connect(serverSide);
  const received: Json[] = [];
  await clientSide.start({
    message: (value) => received.push(value as Json),
    parseError: () => {},
    error: () => {},
    closed: () => {},
  });
  return async (message) => {
    await clientSide.send(message as never);
    if (message.id === undefined) return undefined;
    return until(() => received.find((m) => m.id === message.id && !m.method), `response ${message.id}`);
  };
}

async function overHttp(server: McpServer, stateless: boolean): Promise<Send> {
  const { send, served } = await overHttpRaw(server, { stateless });
  cleanups.push(() => served.close());
  return send;
}

/** The deprecated HTTP+SSE transport: requests are POSTed, answers come on the event stream. */
async function overLegacySse(server: McpServer): Promise<Send> {
  const served = await serve(createLegacySseHandler(server, { messagesPath: '/messages' }));
  const controller = new AbortController();
  cleanups.push(() => controller.abort());
  cleanups.push(() => served.close());
  const stream = await fetch(`${served.url}/sse`, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const events = sseEvents(stream);
  const endpoint = (await events.next()).value!;
  const postUrl = new URL(endpoint.data, served.url).href;
  const received: Json[] = [];
  void (async () => {
    for await (const event of events) if (event.event === 'message') received.push(JSON.parse(event.data));
  })().catch(() => {});
  return async (message) => {
    const response = await fetch(postUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
    });
    await response.arrayBuffer();
    if (message.id === undefined) return undefined;
    return until(() => received.find((m) => m.id === message.id && !m.method), `response ${message.id}`);
  };
}

/** Initializes, then sends every request and a notification that reaches the server's listeners. */
async function driveEverything(send: Send, revision = REVISION): Promise<Json[]> {
  const responses: Json[] = [];
  let id = 0;
  const params = { ...INITIALIZE, protocolVersion: revision };
  const init = await send({ jsonrpc: '2.0', id: ++id, method: Method.Initialize, params });
  expect(init?.result?.protocolVersion).toBe(revision);
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (const [method, params] of Object.entries(REQUESTS)) {
    responses.push((await send({ jsonrpc: '2.0', id: ++id, method, params }))!);
  }
  await send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
  return responses;
}

const TRANSPORTS: readonly [string, (server: McpServer) => Send | Promise<Send>][] = [
  ['in-memory', inMemory],
  ['stdio', overStdio],
  ['Streamable HTTP, stateful', (server) => overHttp(server, false)],
  ['Streamable HTTP, stateless', (server) => overHttp(server, true)],
  ['legacy HTTP+SSE', overLegacySse],
];

describe('middleware: the context over HTTP', () => {
  it('holds the remote address, the request headers and the session id over Streamable HTTP', async () => {
    const { server } = watchedServer();
    const seen: Json[] = [];
    server.use('tools/list', (ctx, next) => {
      seen.push({
        remoteAddress: ctx.remoteAddress,
        header: ctx.header('mcp-protocol-version'),
        headers: ctx.headers?.get('mcp-protocol-version'),
        sessionId: ctx.sessionId,
      });
      return next();
    });
    const send = await overHttp(server, false);
    await send({ jsonrpc: '2.0', id: 1, method: Method.Initialize, params: INITIALIZE });
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await send({ jsonrpc: '2.0', id: 2, method: Method.ToolsList, params: {} });
    expect(seen).toEqual([
      { remoteAddress: '127.0.0.1', header: REVISION, headers: REVISION, sessionId: expect.any(String) },
    ]);
  });
});

describe('middleware: no path skips it', () => {
  it('the requests driven here are every method the server answers', () => {
    const { server } = watchedServer();
    expect(answeredMethods(server).sort()).toEqual([Method.Initialize, ...Object.keys(REQUESTS)].sort());
  });

  for (const [name, connect] of TRANSPORTS) {
    it(`a middleware sees every method the server answers over ${name}`, async () => {
      const { server, seen } = watchedServer();
      const send = await connect(server);
      const responses = await driveEverything(send);
      // The server answered them all (with a result or a spec error): none was lost on the way.
      expect(responses.every((r) => 'result' in r || 'error' in r)).toBe(true);
      const expected = answeredMethods(server);
      // Stateless HTTP answers a notification 202 and drops it: there is no session to deliver to.
      const listenersReached = name.includes('stateless') ? [] : ['notifications/roots/list_changed'];
      await until(
        () => (listenersReached.every((m) => seen.has(m)) ? true : undefined),
        'the notification to pass the middleware',
      );
      expect([...seen].sort()).toEqual([...expected, ...listenersReached].sort());
    });
  }

  for (const revision of ['2025-06-18', '2025-03-26', '2024-11-05'] as ProtocolVersion[]) {
    it(`a middleware sees every method the server answers in revision ${revision}`, async () => {
      // A method the revision lacks (tasks/* before 2025-11-25) is refused with -32601 before any
      // middleware, like an unknown one: the method table routes by revision.
      const { server, seen } = watchedServer();
      const inRevision = answeredMethods(server).filter((method) => methodExists(method, 'c2s', revision));
      const responses = await driveEverything(await inMemory(server), revision);
      expect(responses.every((r) => 'result' in r || 'error' in r)).toBe(true);
      await until(
        () => (seen.has('notifications/roots/list_changed') ? true : undefined),
        'the notification',
      );
      expect([...seen].sort()).toEqual([...inRevision, 'notifications/roots/list_changed'].sort());
    });
  }
});

/** One request of every method a 2026-07-28 client may send (`subscriptions/listen` stays open). */
const MODERN_REQUESTS: Readonly<Record<string, Json>> = {
  'server/discover': {},
  'subscriptions/listen': { notifications: { toolsListChanged: true } },
  [Method.ToolsList]: {},
  [Method.ToolsCall]: REQUESTS[Method.ToolsCall]!,
  [Method.ResourcesList]: {},
  [Method.ResourcesTemplatesList]: {},
  [Method.ResourcesRead]: REQUESTS[Method.ResourcesRead]!,
  [Method.PromptsList]: {},
  [Method.PromptsGet]: REQUESTS[Method.PromptsGet]!,
  [Method.CompletionComplete]: REQUESTS[Method.CompletionComplete]!,
  // The tasks extension (the server has a TaskManager): answered -32021 here, after the middleware.
  [Method.TasksGet]: REQUESTS[Method.TasksGet]!,
  [Method.TasksCancel]: REQUESTS[Method.TasksCancel]!,
  'tasks/update': { ...(REQUESTS[Method.TasksGet] as object), inputResponses: {} },
};
const LISTEN = 'subscriptions/listen';

/** Every method the server's table answers under 2026-07-28, from the revision's method table. */
function answeredModernMethods(server: McpServer): string[] {
  const rows = [...METHOD_TABLE, ...EXTENSION_METHOD_TABLE];
  const candidates = new Set([...Object.values(Method), ...rows.map((row) => row.method)]);
  return [...candidates].filter(
    (method) => server.requestHandler(method) !== undefined && methodExists(method, 'c2s', MODERN),
  );
}

/**
 * Sends one 2026-07-28 request per method without any handshake; `subscriptions/listen` is not
 * awaited (it answers only when it ends): `open` sends it and returns how to close it.
 */
async function driveModern(
  send: Send,
  open: (message: Json) => () => void,
  seen: Set<string>,
): Promise<Json[]> {
  const responses: Json[] = [];
  let id = 100;
  for (const [method, params] of Object.entries(MODERN_REQUESTS)) {
    const message = modernRequest(++id, method, params);
    if (method === LISTEN) {
      const close = open(message);
      cleanups.push(close);
      await until(() => seen.has(LISTEN), 'subscriptions/listen to pass the middleware');
    } else {
      responses.push((await send(message))!);
    }
  }
  return responses;
}

/** A raw sender's listen: sent, never awaited; the server ends it when the test closes the server. */
function listenOn(send: Send): (message: Json) => () => void {
  return (message) => {
    void send(message).catch(() => {});
    return () => {};
  };
}

/** Streamable HTTP, 2026-07-28: each request a POST with its `Mcp-*` headers; listen is aborted. */
async function overHttpModern(server: McpServer, stateless: boolean) {
  const { served } = await overHttpRaw(server, { stateless });
  cleanups.push(() => served.close());
  const send: Send = async (message) => (await postModern(served.url, message)).body;
  const open = (message: Json) => {
    const controller = new AbortController();
    void fetch(served.url, {
      method: 'POST',
      headers: modernHeaders(message),
      body: JSON.stringify(message),
      signal: controller.signal,
    }).catch(() => {});
    return () => controller.abort();
  };
  return { send, open };
}

const MODERN_TRANSPORTS: readonly [
  string,
  (server: McpServer) => Promise<{ send: Send; open: (message: Json) => () => void }>,
][] = [
  ['in-memory', async (server) => inMemory(server).then((send) => ({ send, open: listenOn(send) }))],
  ['stdio', async (server) => ((send) => ({ send, open: listenOn(send) }))(overStdio(server))],
  ['Streamable HTTP, stateful', (server) => overHttpModern(server, false)],
  ['Streamable HTTP, stateless', (server) => overHttpModern(server, true)],
];

describe('middleware: no path skips it under 2026-07-28', () => {
  it('the 2026-07-28 requests driven here are every method the server answers in that revision', () => {
    const { server } = watchedServer();
    expect(answeredModernMethods(server).sort()).toEqual(Object.keys(MODERN_REQUESTS).sort());
  });

  for (const [name, connect] of MODERN_TRANSPORTS) {
    it(`a middleware sees every method the 2026-07-28 server answers over ${name}`, async () => {
      const { server, seen } = watchedServer();
      const { send, open } = await connect(server);
      const responses = await driveModern(send, open, seen);
      // Every one answered with a complete 2026 result: none refused before dispatch, none lost. The
      // tasks extension's methods are refused by their handler, after the middleware: these
      // requests do not declare the extension (-32021).
      const answered = Object.keys(MODERN_REQUESTS).filter((method) => method !== LISTEN);
      expect(responses.map((r) => r.result?.resultType ?? r.error?.code)).toEqual(
        answered.map((method) => (method.startsWith('tasks/') ? -32021 : 'complete')),
      );
      expect([...seen].sort()).toEqual(answeredModernMethods(server).sort());
    });
  }
});
