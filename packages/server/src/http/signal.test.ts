/**
 * The handler notices a client that leaves without reading `request.signal` (issue 12): on Deno,
 * reading it makes every server print a legacy-abort notice. SSE answers learn of the disconnect
 * from their body being cancelled; only a JSON answer still undecided once the POST is delivered
 * reads the signal.
 */
import { describe, expect, it } from 'vitest';
import { Server } from '../server.js';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from './streamable.js';

/** A request that counts reads of its `signal`. */
function counted(reads: { count: number }, init: RequestInit & { headers: Record<string, string> }): Request {
  const request = new Request('http://localhost/mcp', init);
  // Taken before counting starts; read through the instance, so it works whatever Request class
  // the global is (a test file run earlier in the same worker may have installed another).
  const signal = request.signal;
  Object.defineProperty(request, 'signal', {
    get() {
      reads.count++;
      return signal;
    },
  });
  return request;
}

const ACCEPT = 'application/json, text/event-stream';

function setup(options: StreamableHttpHandlerOptions) {
  const server = new Server({ name: 'signal', version: '1' }, { capabilities: { tools: {} } });
  let resolveStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    resolveStarted = resolve;
  });
  let resolveAborted!: () => void;
  const aborted = new Promise<void>((resolve) => {
    resolveAborted = resolve;
  });
  server.setRequestHandler(
    'tools/call',
    (_params, ctx) =>
      new Promise((resolve) => {
        resolveStarted();
        ctx.signal.addEventListener('abort', () => {
          resolveAborted();
          resolve({ content: [] });
        });
      }),
  );
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  const handler = createStreamableHttpHandler(server, options);
  const reads = { count: 0 };
  let sessionId: string | undefined;
  const post = async (body: unknown, signal?: AbortSignal) => {
    const headers: Record<string, string> = { accept: ACCEPT, 'content-type': 'application/json' };
    if (sessionId) headers['mcp-session-id'] = sessionId;
    const response = await handler(
      counted(reads, { method: 'POST', headers, body: JSON.stringify(body), signal }),
    );
    sessionId ??= response.headers.get('mcp-session-id') ?? undefined;
    return response;
  };
  const open = async () => {
    const init = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(init.status).toBe(200);
    await init.text();
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  };
  const call = (signal?: AbortSignal) =>
    post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait' } }, signal);
  return { handler, reads, started, aborted, open, call, post };
}

describe('disconnect detection without request.signal', () => {
  it.each([
    ['an SSE session', { eventStore: false }, true],
    ['a stateless call', { stateless: true }, false],
  ] as const)(
    '%s never reads request.signal, and a cancelled SSE body still stops the handler',
    async (_name, options, session) => {
      const { handler, reads, aborted, open, call } = setup(options);
      if (session) await open();
      const response = await call();
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      // The client goes away: the runtime cancels the response body.
      await response.body!.cancel();
      await aborted;
      expect(reads.count).toBe(0);
      await handler.close();
    },
  );

  it('a JSON answer given at once (initialize included) never reads request.signal', async () => {
    const { handler, reads, open, post } = setup({ enableJsonResponse: true });
    await open();
    const response = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ id: 2, result: { tools: [] } });
    expect(reads.count).toBe(0);
    await handler.close();
  });

  it('an undecided JSON answer reads the signal (only then) and its abort stops the handler', async () => {
    const { handler, reads, started, aborted, open, call } = setup({ enableJsonResponse: true });
    await open();
    const controller = new AbortController();
    const response = call(controller.signal);
    await started;
    controller.abort();
    await aborted;
    expect(reads.count).toBeGreaterThan(0);
    expect((await response).status).toBe(400);
    await handler.close();
  });
});
