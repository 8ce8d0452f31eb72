/**
 * Issue 10 items 4 and 5: responses that are malformed, or that carry `"error": null`, never
 * crash the connection, are never answered, and never leave a request waiting forever. Each case
 * runs through a real server over a real transport: Streamable HTTP (node:http) and stdio.
 */
import { type ServedHandler, serve } from '@mcpkit/node/http';
import { type RequestContext, Server } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { afterEach, describe, expect, it } from 'vitest';
import { type Json, RawClient, sseEvents } from '../packages/server/src/http/fixtures/rawHttpClient.mjs';
import { stdioPipes } from './support/stdioPipes.js';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** A server whose `roots` tool waits on the client's answer to `roots/list`. */
function rootsServer(errors: Error[]): Server {
  const server = new Server(
    { name: 'malformed-responses', version: '1.0.0' },
    { capabilities: { tools: {} }, onError: (error) => errors.push(error) },
  );
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async (params, ctx: RequestContext) => {
    if (params.name !== 'roots') return text('echo');
    const { roots } = await ctx.listRoots();
    return text(roots.map((root) => root.uri).join(','));
  });
  return server;
}

const served: ServedHandler[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.close()));
});

async function startHttp() {
  const errors: Error[] = [];
  const handler = createStreamableHttpHandler(rootsServer(errors));
  const s = await serve(handler, { path: '/mcp' });
  served.push(s);
  return { url: s.url, errors };
}

/**
 * Calls the `roots` tool over HTTP and answers the server's `roots/list` with `answer(id)`.
 * Returns the status of the answering POST, its body, and the tool call's final response.
 */
async function rootsCallOverHttp(url: string, answer: (id: unknown) => Json) {
  const client = new RawClient(url);
  await client.connect({ roots: {} });
  const response = await client.post({
    jsonrpc: '2.0',
    id: 50,
    method: 'tools/call',
    params: { name: 'roots' },
  });
  const messages: Json[] = [];
  let answered: { status: number; body: string } | undefined;
  for await (const event of sseEvents(response)) {
    if (event.data === '') continue;
    const message = JSON.parse(event.data) as Json;
    messages.push(message);
    if (message.method === 'roots/list') {
      const reply = await client.post(answer(message.id));
      answered = { status: reply.status, body: await reply.text() };
    }
  }
  return { answered, final: messages.at(-1)!, client };
}

describe('a response with "error": null (issue 10 item 4)', () => {
  it('a response with "error": null next to a result is accepted over HTTP instead of a 500', async () => {
    const h = await startHttp();
    const run = await rootsCallOverHttp(h.url, (id) => ({
      jsonrpc: '2.0',
      id,
      result: { roots: [{ uri: 'file:///a' }] },
      error: null,
    }));
    expect(run.answered).toEqual({ status: 202, body: '' });
    expect(run.final).toEqual({ jsonrpc: '2.0', id: 50, result: text('file:///a') });
    expect(h.errors).toEqual([]);
  });

  it('a response with "error": null and no result settles the pending request with a local error over HTTP', async () => {
    const h = await startHttp();
    const run = await rootsCallOverHttp(h.url, (id) => ({ jsonrpc: '2.0', id, error: null }));
    expect(run.answered).toEqual({ status: 202, body: '' });
    // The local failure reaches the peer only as -32603; the details go to onError.
    expect(run.final).toEqual({ jsonrpc: '2.0', id: 50, error: { code: -32603, message: 'Internal error' } });
    const messages = h.errors.map((error) => error.message).join('\n');
    expect(messages).toMatch(/Dropped an invalid response/);
    expect(messages).toMatch(/response to "roots\/list" is unusable/);
    // The session keeps serving.
    expect((await run.client.request('tools/list')).messages.at(-1)).toMatchObject({ result: { tools: [] } });
  });

  it('a response with "error": null inside a 2025-03-26 batch does not abort the batch', async () => {
    const h = await startHttp();
    const old = new RawClient(h.url, { protocolVersion: '2025-03-26' });
    await old.connect();
    const batch = await old.post([
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', id: 12345, result: {}, error: null },
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'echo' } },
    ]);
    expect(batch.status).toBe(200);
    const answers = [];
    for await (const event of sseEvents(batch)) answers.push(...[JSON.parse(event.data)].flat());
    expect(answers.map((m: Json) => m.id).sort()).toEqual(['a', 'b']);
    // Both ids are free again: reusing one is a new request, not "already in flight".
    const again = await old.post({ jsonrpc: '2.0', id: 'a', method: 'tools/list' });
    expect(again.status).toBe(200);
    expect(h.errors.map((error) => error.message)).toEqual([
      expect.stringContaining('Dropped a response for unknown request id 12345'),
    ]);
  });
});

describe('malformed responses are never answered (issue 10 item 5)', () => {
  const malformed: [string, (id: unknown) => Json][] = [
    ['an error without a message', (id) => ({ jsonrpc: '2.0', id, error: { code: -32000 } })],
    ['a response without "jsonrpc"', (id) => ({ id, result: { roots: [] } })],
    [
      'a response with both result and error',
      (id) => ({ jsonrpc: '2.0', id, result: {}, error: { code: 1, message: 'x' } }),
    ],
  ];
  for (const [name, answer] of malformed) {
    it(`${name} is dropped, reported, and settles the pending request over HTTP`, async () => {
      const h = await startHttp();
      const run = await rootsCallOverHttp(h.url, answer);
      expect(run.answered).toEqual({ status: 202, body: '' });
      expect(run.final).toMatchObject({ id: 50, error: { code: -32603 } });
      expect(h.errors.some((error) => /Dropped an invalid response \(id \d+\)/.test(error.message))).toBe(
        true,
      );
    });
  }

  it('a malformed response for an id nobody waits on gets no answer over HTTP', async () => {
    const h = await startHttp();
    const client = new RawClient(h.url);
    await client.connect();
    const reply = await client.post({ jsonrpc: '2.0', id: 7, error: { code: -32000 } });
    expect(reply.status).toBe(202);
    expect(await reply.text()).toBe('');
    expect(h.errors.map((error) => error.message)).toEqual([
      expect.stringContaining('Dropped an invalid response (id 7)'),
    ]);
  });
});

/** A server on a stdio transport over in-memory streams; the test plays the client. */
function startStdio() {
  const errors: Error[] = [];
  const pipes = stdioPipes();
  const session = rootsServer(errors).connect(pipes.transport);
  return { errors, send: pipes.send, next: pipes.waitFor, lines: pipes.lines, session };
}

describe('a response with "error": null over stdio (issue 10 item 4)', () => {
  it('a response with "error": null to roots/list over stdio settles the tool call instead of hanging it', async () => {
    const s = startStdio();
    s.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { roots: {} },
        clientInfo: { name: 't', version: '1' },
      },
    });
    await s.next((m) => m.id === 'init');
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    s.send({ jsonrpc: '2.0', id: 'call-2', method: 'tools/call', params: { name: 'roots' } });
    const first = await s.next((m) => m.method === 'roots/list');
    s.send({ jsonrpc: '2.0', id: first.id, result: { roots: [{ uri: 'file:///s' }] }, error: null });
    expect(await s.next((m) => m.id === 'call-2')).toEqual({
      jsonrpc: '2.0',
      id: 'call-2',
      result: text('file:///s'),
    });

    s.send({ jsonrpc: '2.0', id: 'call-3', method: 'tools/call', params: { name: 'roots' } });
    const second = await s.next((m) => m.method === 'roots/list' && m.id !== first.id);
    s.send({ jsonrpc: '2.0', id: second.id, error: null });
    expect(await s.next((m) => m.id === 'call-3')).toEqual({
      jsonrpc: '2.0',
      id: 'call-3',
      error: { code: -32603, message: 'Internal error' },
    });
    // Nothing was answered under the server's own request ids.
    expect(
      s.lines.filter((m) => m.method === undefined && (m.id === first.id || m.id === second.id)),
    ).toEqual([]);
    expect(s.errors.some((error) => /response to "roots\/list" is unusable/.test(error.message))).toBe(true);
    await s.session.close();
  });
});
