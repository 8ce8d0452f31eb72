/**
 * The observer seam in the JSON-RPC engine: two real connections over the in-memory pair, one
 * observed on each side.
 */
import { describe, expect, it } from 'vitest';
import {
  Connection,
  type ConnectionHandler,
  combineObservers,
  createInMemoryPair,
  ErrorCode,
  McpError,
  type MessageSink,
  type ObservedNotification,
  type ObservedOutcome,
  ObservedRequest,
  type Observer,
  observedErrorType,
  observedTarget,
} from './index.js';

interface Seen {
  started: ObservedRequest[];
  finished: Array<{ request: ObservedRequest; outcome: ObservedOutcome }>;
}

function recorder(extra: Partial<Observer> = {}): Observer & { seen: Seen } {
  const seen: Seen = { started: [], finished: [] };
  return {
    seen,
    requestStarted: (request) => seen.started.push(request),
    requestFinished: (request, outcome) => seen.finished.push({ request, outcome }),
    ...extra,
  };
}

async function pair(
  onRequest: ConnectionHandler['onRequest'],
  clientObserver?: Observer,
  serverObserver?: Observer,
  onNotification: ConnectionHandler['onNotification'] = () => {},
) {
  const [clientSide, serverSide] = createInMemoryPair();
  const errors: Error[] = [];
  const server = new Connection(
    serverSide,
    { onRequest, onNotification },
    { observer: serverObserver, onError: (error) => errors.push(error) },
  );
  const client = new Connection(
    clientSide,
    { onRequest: () => ({}), onNotification: () => {} },
    { observer: clientObserver, onError: (error) => errors.push(error) },
  );
  await server.start();
  await client.start();
  return { client, server, errors };
}

describe('the observer seam', () => {
  it('sees a request on both sides, with id, target, result and duration', async () => {
    const clientObserver = recorder();
    const serverObserver = recorder();
    const { client } = await pair(() => ({ content: [] }), clientObserver, serverObserver);
    await client.request('tools/call', { name: 'echo', arguments: {} });

    const [sent] = clientObserver.seen.started;
    const [received] = serverObserver.seen.started;
    expect(sent).toMatchObject({ role: 'client', method: 'tools/call', id: 1, target: 'echo' });
    expect(received).toMatchObject({ role: 'server', method: 'tools/call', id: 1, target: 'echo' });
    for (const { outcome } of [...clientObserver.seen.finished, ...serverObserver.seen.finished]) {
      expect(outcome.result).toEqual({ content: [] });
      expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
      expect(observedErrorType('tools/call', outcome)).toBeUndefined();
    }
  });

  it('reports the wire error, and "Internal error" with no details for a crash', async () => {
    const serverObserver = recorder();
    const { client, errors } = await pair(
      (request) => {
        if (request.method === 'bad') throw new McpError(ErrorCode.InvalidParams, 'Bad name');
        throw new Error('secret detail');
      },
      undefined,
      serverObserver,
    );
    await expect(client.request('bad')).rejects.toThrow('Bad name');
    await expect(client.request('crash')).rejects.toThrow('Internal error');
    expect(serverObserver.seen.finished.map((f) => f.outcome)).toMatchObject([
      { errorCode: ErrorCode.InvalidParams, errorMessage: 'Bad name' },
      { errorCode: ErrorCode.InternalError, errorMessage: 'Internal error' },
    ]);
    expect(errors.map((e) => e.message)).toEqual(['secret detail']);
  });

  it('reports a cancelled request on the server and a timed-out one on the client', async () => {
    const clientObserver = recorder();
    const serverObserver = recorder();
    const { client } = await pair(
      (request) => new Promise((resolve) => request.signal.addEventListener('abort', () => resolve({}))),
      clientObserver,
      serverObserver,
    );
    await expect(client.request('wait', {}, { timeout: 20 })).rejects.toThrow(/timed out/i);
    expect(clientObserver.seen.finished[0]!.outcome.failure).toBe('timeout');
    // The timeout sends notifications/cancelled; the server's handler ends without an answer.
    await expect.poll(() => serverObserver.seen.finished[0]?.outcome.failure).toBe('cancelled');
  });

  it("adds an observer's _meta entries to the outgoing request, keeping the caller's", async () => {
    let received: Record<string, unknown> | undefined;
    const observer = recorder({
      requestStarted: (request) => request.setMeta('traceparent', '00-abc-def-01'),
    });
    const params = { name: 'echo', _meta: { mine: 1 } };
    const { client } = await pair((request) => {
      received = request.params;
      return {};
    }, observer);
    await client.request('tools/call', params);
    expect(received?._meta).toEqual({ mine: 1, progressToken: 1, traceparent: '00-abc-def-01' });
    expect(params._meta).toEqual({ mine: 1 }); // the caller's object is untouched
  });

  it('runs the handler through runHandler and survives an observer that throws', async () => {
    const order: string[] = [];
    const observer: Observer = {
      requestStarted: () => {
        throw new Error('observer bug');
      },
      runHandler: (_request, handler) => {
        order.push('around');
        return handler();
      },
    };
    const { client, errors } = await pair(
      () => {
        order.push('handler');
        return { ok: true };
      },
      undefined,
      observer,
    );
    expect(await client.request('x')).toEqual({ ok: true });
    expect(order).toEqual(['around', 'handler']);
    expect(errors.map((e) => e.message)).toEqual(['observer bug']);
  });

  it('offers transports a size hook only when the observer wants sizes', () => {
    const sinks: MessageSink[] = [];
    const transport = {
      start: (sink: MessageSink) => void sinks.push(sink),
      send: () => undefined,
      close: async () => {},
    };
    const handler = { onRequest: () => ({}), onNotification: () => {} };
    new Connection(transport, handler).start();
    new Connection(transport, handler, { observer: recorder() }).start();
    const sizes: number[] = [];
    new Connection(transport, handler, {
      observer: { messageSize: (_d, bytes) => sizes.push(bytes) },
    }).start();
    expect(sinks.map((sink) => typeof sink.size)).toEqual(['undefined', 'undefined', 'function']);
    sinks[2]!.size!('in', 42);
    expect(sizes).toEqual([42]);
  });

  it('gives each combined observer its own request.state', async () => {
    const seen: string[] = [];
    const own = (name: string): Observer => ({
      requestStarted: (request) => {
        request.state = name;
      },
      runHandler: (request, handler) => {
        seen.push(`run ${name}=${String(request.state)}`);
        return handler();
      },
      requestFinished: (request) => seen.push(`end ${name}=${String(request.state)}`),
    });
    const { client } = await pair(() => ({}), undefined, combineObservers(own('a'), own('b')));
    await client.request('x');
    expect(seen).toEqual(['run a=a', 'run b=b', 'end a=a', 'end b=b']);
  });

  it('names targets and combines observers', () => {
    expect(observedTarget('prompts/get', { name: 'review' })).toBe('review');
    expect(observedTarget('resources/read', { uri: 'file:///a' })).toBe('file:///a');
    expect(observedTarget('tools/list', {})).toBeUndefined();
    expect(combineObservers(undefined)).toBeUndefined();
    const a = recorder();
    const b = recorder();
    const both = combineObservers(a, undefined, b)!;
    both.sessionOpened?.({ role: 'server', id: undefined, protocolVersion: undefined, transport: 'pipe' });
    const request = new ObservedRequest('server', 'x', 1, undefined, undefined);
    both.requestStarted?.(request);
    both.requestFinished?.(request, { durationMs: 1 });
    expect([a.seen.finished.length, b.seen.finished.length]).toEqual([1, 1]);
  });

  describe('notifications', () => {
    function notificationRecorder(extra: Partial<Observer> = {}) {
      const seen: string[] = [];
      const observer: Observer = {
        notificationStarted: (n: ObservedNotification) => seen.push(`start ${n.role} ${n.method}`),
        notificationFinished: (n, durationMs) => {
          expect(durationMs).toBeGreaterThanOrEqual(0);
          seen.push(`end ${n.role} ${n.method}`);
        },
        ...extra,
      };
      return { observer, seen };
    }

    it('are seen sent on one side and received on the other, _meta entries included', async () => {
      const sender = notificationRecorder({
        notificationStarted: (n) => n.setMeta('traceparent', '00-abc-def-01'),
      });
      const receiver = notificationRecorder();
      const delivered: Array<Record<string, unknown> | undefined> = [];
      const { client } = await pair(
        () => ({}),
        sender.observer,
        receiver.observer,
        (_method, params) => delivered.push(params),
      );
      const params = { level: 'info', _meta: { mine: 1 } };
      await client.notify('notifications/message', params);
      await expect.poll(() => delivered.length).toBe(1);
      expect(delivered[0]?._meta).toEqual({ mine: 1, traceparent: '00-abc-def-01' });
      expect(params._meta).toEqual({ mine: 1 }); // the caller's object is untouched
      expect(receiver.seen).toEqual([
        'start server notifications/message',
        'end server notifications/message',
      ]);
    });

    it('runs the receiving handler through runHandler, and sees cancellation both ways', async () => {
      const order: string[] = [];
      const sender = notificationRecorder();
      const receiver = notificationRecorder({
        runHandler: (message, handler) => {
          order.push(`around ${message.method}`);
          return handler();
        },
      });
      const { client } = await pair(
        (request) => new Promise((resolve) => request.signal.addEventListener('abort', () => resolve({}))),
        sender.observer,
        receiver.observer,
        (method) => order.push(`handler ${method}`),
      );
      await expect(client.request('wait', {}, { timeout: 20 })).rejects.toThrow(/timed out/i);
      expect(sender.seen).toEqual([
        'start client notifications/cancelled',
        'end client notifications/cancelled',
      ]);
      await expect.poll(() => receiver.seen).toContain('end server notifications/cancelled');
      expect(order).toEqual([
        'around wait',
        'around notifications/cancelled',
        'handler notifications/cancelled',
      ]);
    });

    it('are skipped for observers without notification hooks (delivery unchanged), and combine', async () => {
      const delivered: string[] = [];
      const { client } = await pair(
        () => ({}),
        recorder(),
        recorder(),
        (method) => delivered.push(method),
      );
      await client.notify('notifications/initialized');
      await expect.poll(() => delivered).toEqual(['notifications/initialized']);

      expect(combineObservers(recorder(), recorder())!.notificationStarted).toBeUndefined();
      const a = notificationRecorder({ notificationStarted: (n) => (n.state = 'a') });
      const b = notificationRecorder({ notificationStarted: (n) => (n.state = 'b') });
      const states: unknown[] = [];
      a.observer.notificationFinished = (n) => states.push(n.state);
      b.observer.notificationFinished = (n) => states.push(n.state);
      const receiver = combineObservers(a.observer, b.observer);
      const { client: other } = await pair(() => ({}), undefined, receiver);
      await other.notify('notifications/initialized');
      await expect.poll(() => states).toEqual(['a', 'b']);
    });
  });
});
