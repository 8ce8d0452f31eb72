import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedTransport } from '../../../../tests/support/scriptedTransport.js';
import {
  CancelledByPeer,
  Connection,
  ConnectionClosedError,
  type ConnectionHandler,
  cancelSignalOf,
  createInMemoryPair,
  ErrorCode,
  type IncomingRequest,
  McpError,
  RequestCancelledError,
  RequestTimeoutError,
  signalOf,
} from '../index.js';
import { classifyBody, installAuthorizationPauses } from '../internal.js';

/** `count` progress notifications for `token`, one every `ms` of (fake) time. */
function progressEvery(ms: number, count: number, transport: ScriptedTransport, token: unknown): void {
  for (let i = 1; i <= count; i++) {
    vi.advanceTimersByTime(ms);
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: token, progress: i },
    });
  }
}

function setup(handler: Partial<ConnectionHandler> = {}, options = {}) {
  const transport = new ScriptedTransport();
  const errors: Error[] = [];
  const connection = new Connection(
    transport,
    {
      onRequest: handler.onRequest ?? ((request) => ({ echo: request.method })),
      onNotification: handler.onNotification ?? (() => {}),
      onClose: handler.onClose,
    },
    { onError: (error) => errors.push(error), ...options },
  );
  connection.start();
  return { transport, connection, errors };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('envelope checks', () => {
  it('answers bytes that are not JSON with -32700 and no id', () => {
    const { transport } = setup();
    transport.sink.parseError(new Error('Unexpected token'));
    expect(transport.last()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: expect.any(String) },
    });
    expect(transport.last()).not.toHaveProperty('id');
  });

  it.each([
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'x' }, 1],
    ['a missing jsonrpc', { id: 2, method: 'x' }, 2],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'x' }, undefined],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'x' }, undefined],
    ['a non-string method', { jsonrpc: '2.0', id: 3, method: 42 }, 3],
    ['array params', { jsonrpc: '2.0', id: 4, method: 'x', params: [1, 2] }, 4],
    ['string params', { jsonrpc: '2.0', id: 5, method: 'x', params: 'p' }, 5],
    ['no method, result or error', { jsonrpc: '2.0', id: 6 }, 6],
    ['a bare string', 'hello', undefined],
    ['null', null, undefined],
  ])('answers %s with -32600', (_name, message, id) => {
    const { transport } = setup();
    transport.deliver(message);
    const reply = transport.last();
    expect(reply.error.code).toBe(ErrorCode.InvalidRequest);
    if (id === undefined) expect(reply).not.toHaveProperty('id');
    else expect(reply.id).toBe(id);
  });

  it('never answers a notification, even an invalid one', async () => {
    const { transport, errors } = setup({
      onNotification: () => {
        throw new Error('boom');
      },
    });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/whatever' });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/bad', params: 'nope' });
    await tick();
    expect(transport.sent).toEqual([]);
    expect(errors.length).toBe(2);
  });

  it('answers an unknown method with the handler-chosen -32601', async () => {
    const { transport } = setup({
      onRequest: (r) => {
        throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${r.method}`);
      },
    });
    transport.deliver({ jsonrpc: '2.0', id: 'a', method: 'nope' });
    expect(transport.last()).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      error: { code: -32601, message: 'Method not found: nope' },
    });
  });

  it('answers a throwing handler with -32603 and no internals', async () => {
    const { transport, errors } = setup({
      onRequest: async () => {
        throw new Error('secret /home/me/db.sqlite failed at line 3');
      },
    });
    transport.deliver({ jsonrpc: '2.0', id: 7, method: 'x' });
    await tick();
    expect(transport.last()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(JSON.stringify(transport.sent)).not.toContain('secret');
    expect(errors[0]?.message).toContain('secret');
  });

  it('answers a batch as invalid unless batches are accepted', () => {
    const { transport } = setup();
    transport.deliver([{ jsonrpc: '2.0', id: 1, method: 'x' }]);
    expect(transport.last()).toMatchObject({ error: { code: -32600 } });
    expect(transport.last()).not.toHaveProperty('id');
  });

  it('processes a batch when the negotiated revision accepts batches (2025-03-26)', async () => {
    const { transport } = setup(
      { onRequest: async (r) => ({ method: r.method }) },
      { acceptBatches: () => true },
    );
    transport.deliver([
      { jsonrpc: '2.0', id: 1, method: 'a' },
      { jsonrpc: '2.0', method: 'notifications/n' },
      { jsonrpc: '2.0', id: null, method: 'bad' },
      { jsonrpc: '2.0', id: 2, method: 'b' },
    ]);
    await tick();
    expect(transport.sent.length).toBe(1);
    const batch = transport.last() as any[];
    expect(batch).toHaveLength(3);
    expect(batch).toContainEqual({ jsonrpc: '2.0', id: 1, result: { method: 'a' } });
    expect(batch).toContainEqual({ jsonrpc: '2.0', id: 2, result: { method: 'b' } });
    expect(batch.find((r) => r.error)?.error.code).toBe(-32600);
  });

  it('refuses a second request that reuses an id still in flight', () => {
    const { transport } = setup({ onRequest: () => new Promise(() => {}) });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'slow' });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'slow' });
    expect(transport.last()).toMatchObject({ id: 1, error: { code: -32600 } });
  });
});

describe('requests and responses', () => {
  it('matches responses to requests and never reuses an id', async () => {
    const { transport, connection } = setup();
    const a = connection.request('a');
    const b = connection.request('b');
    const [ra, rb] = transport.sent as any[];
    expect(ra.id).not.toBe(rb.id);
    transport.deliver({ jsonrpc: '2.0', id: rb.id, result: { v: 'b' } });
    transport.deliver({ jsonrpc: '2.0', id: ra.id, result: { v: 'a' } });
    expect(await a).toEqual({ v: 'a' });
    expect(await b).toEqual({ v: 'b' });
  });

  it('rejects with an McpError carrying the peer error', async () => {
    const { transport, connection } = setup();
    const pending = connection.request('x');
    transport.deliver({
      jsonrpc: '2.0',
      id: transport.last().id,
      error: { code: -32602, message: 'bad', data: 1 },
    });
    await expect(pending).rejects.toMatchObject({ code: -32602, message: 'bad', data: 1 });
  });

  it('drops a response with an unknown id and reports it without throwing', () => {
    const { transport, errors } = setup();
    expect(() => transport.deliver({ jsonrpc: '2.0', id: 999, result: {} })).not.toThrow();
    expect(transport.sent).toEqual([]);
    expect(errors[0]?.message).toContain('unknown request id 999');
  });

  it('attaches a progress token by default, and not when neither progress nor reset is wanted', () => {
    const { transport, connection } = setup();
    void connection.request('x', { a: 1 }).catch(() => {});
    expect(transport.last().params).toEqual({ a: 1, _meta: { progressToken: transport.last().id } });
    void connection.request('y', { _meta: { k: 1 } }, { resetTimeoutOnProgress: false }).catch(() => {});
    expect(transport.last().params).toEqual({ _meta: { k: 1 } });
  });

  it("adds the progress token to a copy of the caller's _meta, own __proto__ key kept as data", () => {
    const { transport, connection } = setup();
    const meta = JSON.parse('{"io.modelcontextprotocol/protocolVersion":"2026-07-28","__proto__":{"x":1}}');
    const params = { name: 'echo', _meta: meta };
    void connection.request('tools/call', params).catch(() => {});
    const sent = transport.last().params;
    expect(Object.keys(sent)).toEqual(['name', '_meta']);
    expect(Object.keys(sent._meta)).toEqual([
      'io.modelcontextprotocol/protocolVersion',
      '__proto__',
      'progressToken',
    ]);
    expect(Object.getPrototypeOf(sent._meta)).toBe(Object.prototype);
    expect(Object.keys(meta)).toEqual(['io.modelcontextprotocol/protocolVersion', '__proto__']);
  });
});

describe('timeouts', () => {
  it('times out, sends notifications/cancelled and gives a clear error', async () => {
    vi.useFakeTimers();
    const { transport, connection } = setup();
    const pending = connection.request('tools/call', {}, { timeout: 1000 });
    const id = transport.last().id;
    vi.advanceTimersByTime(1001);
    await expect(pending).rejects.toBeInstanceOf(RequestTimeoutError);
    await expect(pending).rejects.toThrow(/tools\/call.*timed out after 1000 ms/);
    expect(transport.last()).toMatchObject({ method: 'notifications/cancelled', params: { requestId: id } });
  });

  it('progress resets the timeout by default', async () => {
    vi.useFakeTimers();
    const { transport, connection } = setup();
    const pending = connection.request('slow', {}, { timeout: 1000 });
    const token = transport.last().params._meta.progressToken;
    progressEvery(800, 5, transport, token);
    transport.deliver({ jsonrpc: '2.0', id: token, result: { ok: true } });
    await expect(pending).resolves.toEqual({ ok: true });
  });

  it('a maximum total timeout applies whatever progress arrives', async () => {
    vi.useFakeTimers();
    const { transport, connection } = setup();
    const pending = connection.request('slow', {}, { timeout: 1000, maxTotalTimeout: 2500 });
    pending.catch(() => {});
    const token = transport.last().params._meta.progressToken;
    progressEvery(700, 4, transport, token);
    await expect(pending).rejects.toMatchObject({ reason: 'maxTotalTimeout' });
  });

  it('does not reset the timeout on progress when asked not to', async () => {
    vi.useFakeTimers();
    const onProgress = vi.fn();
    const { transport, connection } = setup();
    const pending = connection.request(
      'slow',
      {},
      { timeout: 1000, resetTimeoutOnProgress: false, onProgress },
    );
    pending.catch(() => {});
    const token = transport.last().params._meta.progressToken;
    vi.advanceTimersByTime(600);
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: token, progress: 1 },
    });
    vi.advanceTimersByTime(600);
    await expect(pending).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(onProgress).toHaveBeenCalledOnce();
  });

  it('drops a response that arrives after the timeout, quietly', async () => {
    vi.useFakeTimers();
    const { transport, connection, errors } = setup();
    const pending = connection.request('x', {}, { timeout: 10 });
    pending.catch(() => {});
    const id = transport.sent[0] && (transport.sent[0] as any).id;
    vi.advanceTimersByTime(20);
    transport.deliver({ jsonrpc: '2.0', id, result: {} });
    expect(errors).toEqual([]);
  });
});

describe('cancellation', () => {
  it('notifications/cancelled aborts the handler signal and suppresses the response', async () => {
    let seen: IncomingRequest | undefined;
    const { transport } = setup({
      onRequest: (request) =>
        new Promise((resolve) => {
          seen = request;
          request.signal.addEventListener('abort', () => resolve({ late: true }));
        }),
    });
    transport.deliver({ jsonrpc: '2.0', id: 5, method: 'tools/call' });
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 5, reason: 'stop' },
    });
    await tick();
    expect(seen?.signal.aborted).toBe(true);
    expect(seen?.signal.reason).toBeInstanceOf(CancelledByPeer);
    expect(transport.sent).toEqual([]);
  });

  it('a signal read after cancellation is already aborted', async () => {
    let resolveLater!: () => void;
    let request!: IncomingRequest;
    const { transport } = setup({
      onRequest: (r) => {
        request = r;
        return new Promise<void>((resolve) => {
          resolveLater = resolve;
        });
      },
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(request.signal.aborted).toBe(true);
    resolveLater();
  });

  it('initialize cannot be cancelled', async () => {
    let signal!: AbortSignal;
    const { transport } = setup({
      onRequest: async (r) => {
        signal = r.signal;
        await tick();
        return { protocolVersion: '2025-11-25' };
      },
    });
    transport.deliver({ jsonrpc: '2.0', id: 0, method: 'initialize' });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0 } });
    await tick();
    await tick();
    expect(signal.aborted).toBe(false);
    expect(transport.last()).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
  });

  it('aborting our own request sends notifications/cancelled and drops the late response', async () => {
    const { transport, connection, errors } = setup();
    const controller = new AbortController();
    const pending = connection.request('x', {}, { signal: controller.signal });
    const id = transport.last().id;
    controller.abort('user stopped');
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    expect(transport.last()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'user stopped' },
    });
    transport.deliver({ jsonrpc: '2.0', id, result: {} });
    expect(errors).toEqual([]);
  });

  it('cancelledBy: a request made on behalf of an incoming one is cancelled with it, with no signal made', async () => {
    const upstream = setup();
    let forwarded!: Promise<unknown>;
    let incoming!: IncomingRequest;
    const downstream = setup({
      onRequest: (request) => {
        incoming = request;
        forwarded = upstream.connection.request('tools/call', { name: 'slow' }, { cancelledBy: request });
        return forwarded;
      },
    });
    downstream.transport.deliver({ jsonrpc: '2.0', id: 7, method: 'tools/call' });
    const upstreamId = upstream.transport.last().id;
    downstream.transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 7, reason: 'user stopped' },
    });
    await expect(forwarded).rejects.toBeInstanceOf(RequestCancelledError);
    expect(upstream.transport.last()).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: upstreamId },
    });
    expect(incoming.stopped).toBe(true);
    expect(incoming.stopReason).toBeInstanceOf(CancelledByPeer);
    await tick();
    expect(downstream.transport.sent).toEqual([]); // a cancelled request is never answered
  });

  /** An upstream connection, and a downstream one holding incoming request 1 unanswered. */
  function forwarding() {
    const upstream = setup();
    let incoming!: IncomingRequest;
    const downstream = setup({
      onRequest: (request) => {
        incoming = request;
        return new Promise(() => {});
      },
    });
    downstream.transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    return { upstream, downstream, incoming };
  }

  it('cancelledBy: an answered request stops listening, and a stopped source fails the request at once', async () => {
    const { upstream, downstream, incoming } = forwarding();
    const answered = upstream.connection.request('y', {}, { cancelledBy: incoming });
    upstream.transport.deliver({ jsonrpc: '2.0', id: upstream.transport.last().id, result: { ok: true } });
    await expect(answered).resolves.toEqual({ ok: true });
    const sentBefore = upstream.transport.sent.length;
    downstream.transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
    expect(upstream.transport.sent.length).toBe(sentBefore); // nothing to cancel upstream any more
    await expect(upstream.connection.request('z', {}, { cancelledBy: incoming })).rejects.toBeInstanceOf(
      RequestCancelledError,
    );
    expect(upstream.transport.sent.length).toBe(sentBefore); // never sent
  });

  it('cancelledBy: several requests on one source (the first without an array): each answered one stops listening, the rest are cancelled', async () => {
    const { upstream, downstream, incoming } = forwarding();
    const first = upstream.connection.request('a', {}, { cancelledBy: incoming });
    const firstId = upstream.transport.last().id;
    const second = upstream.connection.request('b', {}, { cancelledBy: incoming });
    const third = upstream.connection.request('c', {}, { cancelledBy: incoming });
    const thirdId = upstream.transport.last().id;
    // The first (the slot) is answered; a fourth then takes the slot again.
    upstream.transport.deliver({ jsonrpc: '2.0', id: firstId, result: { ok: 1 } });
    await expect(first).resolves.toEqual({ ok: 1 });
    const fourth = upstream.connection.request('d', {}, { cancelledBy: incoming });
    upstream.transport.deliver({ jsonrpc: '2.0', id: thirdId, result: { ok: 3 } });
    await expect(third).resolves.toEqual({ ok: 3 });
    const sentBefore = upstream.transport.sent.length;
    downstream.transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
    await expect(second).rejects.toBeInstanceOf(RequestCancelledError);
    await expect(fourth).rejects.toBeInstanceOf(RequestCancelledError);
    const cancelled = upstream.transport.sent
      .slice(sentBefore)
      .map((message) => message as { method?: string; params?: { requestId?: unknown } })
      .filter((message) => message.method === 'notifications/cancelled')
      .map((message) => message.params?.requestId);
    expect(cancelled).toHaveLength(2); // the two still pending, not the answered ones
    expect(cancelled).not.toContain(firstId);
    expect(cancelled).not.toContain(thirdId);
  });

  it('signalOf: one signal per source, fired when it is cancelled, aborted at once when it was', async () => {
    const requests: IncomingRequest[] = [];
    const { transport } = setup({
      onRequest: (request) => {
        requests.push(request);
        return new Promise(() => {});
      },
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    const signal = signalOf(requests[0]!);
    expect(signalOf(requests[0]!)).toBe(signal);
    expect(cancelSignalOf({ cancelledBy: requests[0]! })).toBe(signal);
    expect(signal.aborted).toBe(false);
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(CancelledByPeer);
    expect(signalOf(requests[0]!).aborted).toBe(true);
    const own = new AbortController().signal;
    expect(cancelSignalOf({ signal: own, cancelledBy: requests[0]! })).toBe(own);
    expect(cancelSignalOf(undefined)).toBeUndefined();
  });

  it('the handler signal fires when the transport closes', async () => {
    let signal!: AbortSignal;
    const { transport } = setup({
      onRequest: (r) => {
        signal = r.signal;
        return new Promise(() => {});
      },
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    transport.sink.closed(new Error('pipe broke'));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(ConnectionClosedError);
  });
});

describe('progress', () => {
  it('routes progress to the right caller and rejects progress that does not increase', async () => {
    const { transport, connection, errors } = setup();
    const seenA: number[] = [];
    const seenB: number[] = [];
    // Never answered: caught, so its timeout (60 s, later in a shared worker) is no unhandled rejection.
    void connection.request('a', {}, { onProgress: (p) => seenA.push(p.progress) }).catch(() => {});
    const tokenA = transport.last().params._meta.progressToken;
    void connection.request('b', {}, { onProgress: (p) => seenB.push(p.progress) }).catch(() => {});
    const tokenB = transport.last().params._meta.progressToken;
    const progress = (progressToken: unknown, value: unknown) =>
      transport.deliver({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken, progress: value },
      });
    progress(tokenA, 1);
    progress(tokenB, 10);
    progress(tokenA, 0.5);
    progress(tokenA, 1);
    progress(tokenA, 'x');
    progress(tokenA, 2.5);
    expect(seenA).toEqual([1, 2.5]);
    expect(seenB).toEqual([10]);
    expect(errors.filter((e) => /increase/.test(e.message))).toHaveLength(3);
  });

  it('a handler reports progress only when asked, only increasing, and not after responding', async () => {
    let request!: IncomingRequest;
    const { transport } = setup({
      onRequest: (r) => {
        request = r;
        r.sendProgress({ progress: 1, total: 3, message: 'one' });
        r.sendProgress({ progress: 1 });
        r.sendProgress({ progress: 2 });
        return {};
      },
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 'tok' } } });
    request.sendProgress({ progress: 3 });
    expect(transport.sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'tok', progress: 1, total: 3, message: 'one' },
      },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 2 } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
    transport.deliver({ jsonrpc: '2.0', id: 2, method: 'x' });
    expect(transport.sent).toHaveLength(4);
  });

  it('passes progress for tokens it does not own to the handler (task progress)', () => {
    const notifications: string[] = [];
    const { transport } = setup({ onNotification: (method) => notifications.push(method) });
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'task-1', progress: 1 },
    });
    expect(notifications).toEqual(['notifications/progress']);
  });
});

describe('shutdown and backpressure', () => {
  it('fails every pending request with a clear error when the transport closes', async () => {
    const { transport, connection } = setup();
    const a = connection.request('a');
    const b = connection.request('b');
    transport.sink.closed(new Error('server process exited with code 1'));
    await expect(a).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(b).rejects.toThrow(/exited with code 1/);
    await expect(connection.request('c')).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('hands the transport backpressure promise to the notifier, one shared promise', async () => {
    const { transport, connection } = setup();
    let release!: () => void;
    transport.sendResult = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = connection.notify('n1');
    const second = connection.notify('n2');
    expect(first).toBe(second);
    release();
    await first;
  });

  it('a request whose send fails rejects instead of hanging', async () => {
    const { transport, connection } = setup();
    transport.sendResult = Promise.reject(new Error('write EPIPE'));
    await expect(connection.request('x')).rejects.toThrow('write EPIPE');
  });
});

describe('over the in-memory pair', () => {
  it('carries requests, notifications and nested requests both ways', async () => {
    const [left, right] = createInMemoryPair({ serialize: true });
    const server = new Connection(right, {
      onRequest: async (request) => {
        if (request.method === 'ask') {
          const answer = await request.request<{ v: number }>('question', { q: 1 });
          return { got: answer.v };
        }
        return {};
      },
      onNotification: () => {},
    });
    const client = new Connection(left, {
      onRequest: () => ({ v: 42 }),
      onNotification: () => {},
    });
    server.start();
    client.start();
    await expect(client.request('ask')).resolves.toEqual({ got: 42 });
    await client.close();
    expect(server.closed).toBe(true);
  });
});

describe('a body its transport classified already', () => {
  it('is routed as the plain value would be: requests, notifications, batches, invalid members', async () => {
    const notified: string[] = [];
    const { transport } = setup(
      { onNotification: (method) => void notified.push(method) },
      { acceptBatches: () => true },
    );
    transport.sink.classified!(classifyBody({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    await tick();
    expect(transport.last()).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: 'tools/list' } });
    transport.sink.classified!(
      classifyBody([
        { jsonrpc: '2.0', id: 2, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 3, method: 7 },
      ]),
    );
    await tick();
    expect(transport.last()).toEqual([
      { jsonrpc: '2.0', id: 2, result: { echo: 'ping' } },
      {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: ErrorCode.InvalidRequest,
          message: 'Invalid Request: The "method" member must be a string',
        },
      },
    ]);
    expect(notified).toEqual(['notifications/initialized']);
  });
});

describe('requests waiting on authorization (MessageSink.authorizing)', () => {
  /** Lets settled promises run their callbacks (timers are fake here). */
  const flush = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  /** A request whose state is read without awaiting it: 'pending' until it settles. */
  function watched<T>(promise: Promise<T>) {
    const state = { outcome: 'pending' as 'pending' | 'resolved' | 'rejected', error: undefined as unknown };
    promise.then(
      () => {
        state.outcome = 'resolved';
      },
      (error: unknown) => {
        state.outcome = 'rejected';
        state.error = error;
      },
    );
    return state;
  }

  /** Checks that `request` is still pending just before `ms` more (fake) time, and times out just after. */
  async function expiresAfter(request: ReturnType<typeof watched>, ms: number, reason: string) {
    vi.advanceTimersByTime(ms - 1);
    await flush();
    expect(request.outcome).toBe('pending');
    vi.advanceTimersByTime(2);
    await flush();
    expect(request.outcome).toBe('rejected');
    expect(request.error).toMatchObject({ reason });
  }

  it('stops the timeout while the transport authorizes, then resumes it with the time that was left', async () => {
    vi.useFakeTimers();
    const { transport, connection } = setup();
    const pauses = installAuthorizationPauses(connection);
    const request = watched(connection.request('tools/call', {}, { timeout: 100 }));
    const id = transport.last().id;
    vi.advanceTimersByTime(60);
    transport.sink.authorizing!([id], true);
    vi.advanceTimersByTime(60_000); // a person logging in
    await flush();
    expect(request.outcome).toBe('pending');
    transport.sink.authorizing!([id], false);
    await expiresAfter(request, 40, 'timeout');
    expect(pauses.total).toBe(60_000);
  });

  it('moves the maximum total time by the wait too, and progress during the wait restarts nothing', async () => {
    vi.useFakeTimers();
    const { transport, connection } = setup();
    installAuthorizationPauses(connection);
    const request = watched(connection.request('slow', {}, { timeout: 1000, maxTotalTimeout: 200 }));
    const id = transport.last().id;
    vi.advanceTimersByTime(100);
    transport.sink.authorizing!([id], true);
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: id, progress: 1 },
    });
    vi.advanceTimersByTime(5000);
    transport.sink.authorizing!([id], false);
    await expiresAfter(request, 100, 'maxTotalTimeout');
  });

  it('counts the wait once however many requests wait; a request settled meanwhile resumes nothing', async () => {
    vi.useFakeTimers();
    const { transport, connection } = setup();
    const pauses = installAuthorizationPauses(connection);
    const controller = new AbortController();
    const first = watched(connection.request('a', {}, { signal: controller.signal }));
    const firstId = transport.last().id;
    const second = watched(connection.request('b', {}, { timeout: 100 }));
    const secondId = transport.last().id;
    transport.sink.authorizing!([firstId, secondId], true);
    vi.advanceTimersByTime(300);
    controller.abort('gave up'); // cancelling a waiting request works at once
    await flush();
    expect(first.outcome).toBe('rejected');
    expect(first.error).toBeInstanceOf(RequestCancelledError);
    // The transport's wait ends (an HTTP transport ends it with the abort): counted once, 300 ms.
    transport.sink.authorizing!([firstId, secondId], false);
    expect(pauses.total).toBe(300);
    await expiresAfter(second, 100, 'timeout');
  });

  it('changes nothing on a connection without pauses installed (a server never waits on a login)', async () => {
    vi.useFakeTimers();
    const { transport, connection } = setup();
    const request = watched(connection.request('tools/call', {}, { timeout: 100 }));
    transport.sink.authorizing!([transport.last().id], true);
    await expiresAfter(request, 100, 'timeout');
  });
});
