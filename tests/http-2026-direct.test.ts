/**
 * The direct path of a 2026-07-28 POST (no session, connection or transport made up front): what
 * a handler can still do there. Reading `ctx.session` before or after an await, progress before
 * the result (the answer becomes SSE), errors and their codes, a result that does not serialize,
 * and a client that leaves while an async handler runs (its signal fires, nothing is sent).
 */
import { LATEST_PROTOCOL_VERSION } from '@mcpkit/core';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { McpServer, text } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.js';
import { modernHeaders, modernRequest, postModern } from './support/modernWire.js';

let served: ServedHandler;
let url: string;
let server: McpServer;
let stopped: (reason: unknown) => void;
let stoppedReason: Promise<unknown>;
/** The `hang` handler runs: only then can the test stop it. */
let hanging = false;
const reported: Error[] = [];

beforeEach(async () => {
  reported.length = 0;
  hanging = false;
  stoppedReason = new Promise((resolve) => {
    stopped = resolve;
  });
  server = new McpServer({ name: 'direct', version: '1.0.0' }, { onError: (error) => reported.push(error) });
  server.tool('sync', { description: 'Answers at once' }, () => text('now'));
  server.tool('session-then-wait', { description: 'Reads the session, then awaits' }, async (_args, ctx) => {
    const closed = ctx.session.closed;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return text(`closed=${closed}`);
  });
  server.tool('wait-then-session', { description: 'Awaits, then reads the session' }, async (_args, ctx) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return text(`revision=${ctx.session.protocolVersion}`);
  });
  server.tool('progress', { description: 'Reports progress, then answers' }, async (_args, ctx) => {
    await ctx.progress(1, 2, 'half');
    return text('done');
  });
  server.tool('broken', { description: 'Throws a plain error' }, () => {
    throw new Error('secret internals');
  });
  server.tool('cyclic', { description: 'Returns what JSON cannot carry' }, () => {
    const result: Record<string, unknown> = { content: [] };
    result.self = result;
    return result as never;
  });
  server.tool('scope', { description: "Describes the request's scope" }, (_args, ctx) => {
    const scope = ctx.scope;
    return text(
      JSON.stringify({
        revision: scope.revision,
        client: scope.clientInfo?.name,
        principal: scope.principal?.clientId ?? null,
        sessionId: scope.sessionId ?? null,
        frozen: Object.isFrozen(scope),
      }),
    );
  });
  server.tool('hang', { description: 'Waits for its signal' }, (_args, ctx) => {
    ctx.signal.addEventListener('abort', () => stopped(ctx.signal.reason));
    hanging = true;
    return new Promise(() => {});
  });
  served = await serve(createStreamableHttpHandler(server, { stateless: true, enableJsonResponse: true }), {
    port: 0,
    host: '127.0.0.1',
  });
  url = served.url;
});

afterEach(async () => {
  await served.close();
  await server.close();
});

const call = (id: number, name: string, meta = {}) =>
  modernRequest(id, 'tools/call', { name, arguments: {} }, meta);

describe('2026-07-28 over HTTP, the direct path', () => {
  it('answers a synchronous tool with JSON and keeps no session', async () => {
    const { status, body, response } = await postModern(url, call(1, 'sync'));
    expect(status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(body?.result.content[0].text).toBe('now');
    expect(body?.result.resultType).toBe('complete');
    expect(server.sessions.size).toBe(0);
  });

  it('gives a handler that reads ctx.session before an await its answer', async () => {
    const { body } = await postModern(url, call(2, 'session-then-wait'));
    expect(body?.result.content[0].text).toBe('closed=false');
  });

  it('gives a handler that reads ctx.session after an await its answer', async () => {
    const { body } = await postModern(url, call(3, 'wait-then-session'));
    // The throwaway session the other path makes: connected under LATEST_PROTOCOL_VERSION.
    expect(body?.result.content[0].text).toBe(`revision=${LATEST_PROTOCOL_VERSION}`);
  });

  it('streams progress before the result when the request asked for it', async () => {
    const message = call(4, 'progress', { progressToken: 'p1' });
    const { status, body, response } = await postModern(url, message);
    expect(status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(body?.result.content[0].text).toBe('done');
  });

  it("turns a tool's plain error into an error result without its details", async () => {
    const { status, body } = await postModern(url, call(5, 'broken'));
    expect(status).toBe(200);
    expect(body?.result.isError).toBe(true);
    expect(JSON.stringify(body)).not.toContain('secret internals');
  });

  it('answers a result that does not serialize with -32603', async () => {
    const { body } = await postModern(url, call(6, 'cyclic'));
    expect(body?.error.code).toBe(-32603);
    expect(reported.some((error) => /circular/i.test(error.message))).toBe(true);
  });

  it('answers an unknown method 404 + -32601', async () => {
    const { status, body } = await postModern(url, modernRequest(7, 'tools/nope'));
    expect(status).toBe(404);
    expect(body?.error.code).toBe(-32601);
  });

  it("gives the handler a frozen scope from the envelope, with the caller's principal", async () => {
    const message = call(10, 'scope');
    const handler = createStreamableHttpHandler(server, { stateless: true, enableJsonResponse: true });
    const request = new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: modernHeaders(message),
      body: JSON.stringify(message),
    });
    const authInfo = { token: 't', clientId: 'alice', scopes: [] };
    const response = await handler.handle(request, { authInfo });
    const body = await response.json();
    expect(JSON.parse(body.result.content[0].text)).toEqual({
      revision: '2026-07-28',
      client: 'modern-test',
      principal: 'alice',
      sessionId: null,
      frozen: true,
    });
    // Without an authorization layer there is no principal.
    const anonymous = await postModern(url, call(11, 'scope'));
    expect(JSON.parse(anonymous.body?.result.content[0].text).principal).toBeNull();
  });

  it('names the server in every result unless configured not to; server/discover always does', async () => {
    const INFO = 'io.modelcontextprotocol/serverInfo';
    const named = await postModern(url, call(12, 'sync'));
    expect(named.body?.result._meta?.[INFO]).toEqual({ name: 'direct', version: '1.0.0' });
    const quiet = new McpServer({ name: 'quiet', version: '2.0.0' }, { serverInfoInResults: false });
    quiet.tool('sync', { description: 'Answers at once' }, () => text('now'));
    const handler = createStreamableHttpHandler(quiet, { stateless: true, enableJsonResponse: true });
    const ask = async (message: Record<string, unknown>) => {
      const init = { method: 'POST', headers: modernHeaders(message), body: JSON.stringify(message) };
      return (await (await handler(new Request('http://127.0.0.1/mcp', init))).json()).result;
    };
    const result = await ask(call(13, 'sync'));
    expect(result.content[0].text).toBe('now');
    expect(result.resultType).toBe('complete');
    expect(result._meta).toBeUndefined();
    const discovered = await ask(modernRequest(14, 'server/discover'));
    expect(discovered._meta?.[INFO]).toEqual({ name: 'quiet', version: '2.0.0' });
    await quiet.close();
  });

  it('stops a running handler when the server closes', async () => {
    const posted = postModern(url, call(9, 'hang')).catch((error: unknown) => error);
    await eventually(() => hanging, 'the handler to run');
    await server.close();
    const reason = await stoppedReason;
    expect((reason as Error).name).toBe('ConnectionClosedError');
    await posted;
  });

  it('stops the handler when the client leaves before the answer', async () => {
    const message = call(8, 'hang');
    const controller = new AbortController();
    const posted = fetch(url, {
      method: 'POST',
      headers: modernHeaders(message),
      body: JSON.stringify(message),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    // The handler is running; then the client goes away.
    await eventually(() => hanging, 'the handler to run');
    controller.abort();
    await posted;
    const reason = await stoppedReason;
    expect((reason as Error).name).toBe('ConnectionClosedError');
  });
});
