/**
 * Issue 30: a 2026-07-28 POST is served by one path whether or not an observer is configured (it
 * used to take a throwaway session's connection when one was, the direct path otherwise). Counted
 * by wrapping, on the real classes, the direct path's `serve` and the session transport's
 * `deliver` (which hands a body to a connection): each request must enter the first once and the
 * second never. With the observer, what it is told must be what a connection would tell it.
 */
import type { Observer } from '@mcpkit/core';
import { McpServer } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpSessionTransport } from '../packages/server/src/http/delivery/transport.js';
import { DirectModernRequest } from '../packages/server/src/http/modernDirect.js';
import { StreamableHttpEndpoint } from '../packages/server/src/http/streamable.js';
import { envelope, MODERN } from './support/modernWire.js';
import { rawPost } from './support/rawPost.js';

const post = rawPost;

const counts = { serve: 0, deliver: 0 };
const originalServe = DirectModernRequest.prototype.serve;
const originalDeliver = HttpSessionTransport.prototype.deliver;
DirectModernRequest.prototype.serve = function (this: DirectModernRequest) {
  counts.serve++;
  return originalServe.call(this);
};
HttpSessionTransport.prototype.deliver = function (this: HttpSessionTransport, ...args) {
  counts.deliver++;
  return originalDeliver.apply(this, args);
};

let open: StreamableHttpEndpoint | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** One 2026-07-28 `tools/call` (a synchronous tool, and one that answers later) through a fresh endpoint. */
async function callBoth(observer: Observer | undefined): Promise<string[]> {
  const server = new McpServer({ name: 'observed', version: '1.0.0' }, observer ? { observer } : {});
  server.tool('now', { description: 'Answers at once' }, () => 'now');
  server.tool('later', { description: 'Answers after a turn' }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return 'later';
  });
  open = new StreamableHttpEndpoint(server, { enableJsonResponse: true });
  const bodies: string[] = [];
  counts.serve = 0;
  counts.deliver = 0;
  for (const [id, name] of [
    [1, 'now'],
    [2, 'later'],
  ] as const) {
    const body = {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: {}, _meta: envelope() },
    };
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name };
    const reply = await open.handle(post(body, headers), undefined);
    expect(reply.status).toBe(200);
    bodies.push(String(reply.body));
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
  return bodies;
}

describe('a 2026-07-28 POST takes one path, observer or not (issue 30)', () => {
  it('without an observer: the direct path, no connection delivery', async () => {
    const bodies = await callBoth(undefined);
    expect(bodies[0]).toContain('"now"');
    expect(bodies[1]).toContain('"later"');
    expect(counts).toEqual({ serve: 2, deliver: 0 });
  });

  it('with an observer: the same path, and the observer told what a connection would tell it', async () => {
    const seen: string[] = [];
    const observer: Observer = {
      requestStarted: (request) => seen.push(`started ${request.method} ${String(request.id)}`),
      runHandler: (_message, handler) => {
        seen.push('inside');
        return handler();
      },
      requestFinished: (request, outcome) =>
        seen.push(
          `finished ${String(request.id)} ${outcome.result ? 'result' : `error ${outcome.errorCode}`}`,
        ),
      sessionOpened: () => seen.push('session opened'),
      sessionClosed: () => seen.push('session closed'),
      messageSize: (direction, bytes, session) =>
        seen.push(`${direction} ${bytes > 0} ${session !== undefined}`),
    };
    const bodies = await callBoth(observer);
    expect(bodies[0]).toContain('"now"');
    expect(bodies[1]).toContain('"later"');
    expect(counts).toEqual({ serve: 2, deliver: 0 });
    for (const id of [1, 2]) {
      expect(seen).toContain(`started tools/call ${id}`);
      expect(seen).toContain(`finished ${id} result`);
    }
    expect(seen.filter((event) => event === 'inside')).toHaveLength(2);
    expect(seen).toContain('in true true');
    expect(seen).toContain('out true true');
    expect(seen.filter((event) => event === 'session opened').length).toBe(
      seen.filter((event) => event === 'session closed').length,
    );
  });

  it('with an observer, a failing call is reported with its error code', async () => {
    const finished: unknown[] = [];
    const server = new McpServer(
      { name: 'observed', version: '1.0.0' },
      { observer: { requestFinished: (_request, outcome) => finished.push(outcome.errorCode) } },
    );
    server.tool('now', { description: 'Answers at once' }, () => 'now');
    open = new StreamableHttpEndpoint(server, { enableJsonResponse: true });
    const body = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'missing', arguments: {}, _meta: envelope() },
    };
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'missing' };
    const reply = await open.handle(post(body, headers), undefined);
    expect(String(reply.body)).toContain('"error"');
    expect(finished).toEqual([JSON.parse(String(reply.body)).error.code]);
  });
});
