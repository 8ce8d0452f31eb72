/**
 * Issue 10 items 4 and 5 at the engine: what the connection does with responses that are
 * malformed or carry `"error": null`. The transport tests (tests/malformed-responses.test.ts)
 * repeat these over HTTP and stdio.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../../../../tests/support/scriptedTransport.js';
import { Connection, InvalidResponseError, LocalError, McpError } from '../index.js';

function setup() {
  const transport = new ScriptedTransport();
  const errors: Error[] = [];
  const connection = new Connection(
    transport,
    { onRequest: (request) => ({ echo: request.method }), onNotification: () => {} },
    { onError: (error) => errors.push(error), acceptBatches: () => true },
  );
  connection.start();
  return { transport, connection, errors };
}

const settled = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe('Connection: responses with "error": null', () => {
  it('a response with "error": null next to a result resolves the pending request instead of crashing the connection', async () => {
    const { transport, connection, errors } = setup();
    const pending = connection.request('roots/list');
    expect(() =>
      transport.sink.message({ jsonrpc: '2.0', id: 1, result: { roots: [] }, error: null }),
    ).not.toThrow();
    await expect(pending).resolves.toEqual({ roots: [] });
    expect(errors).toEqual([]);
  });

  it('a response with "error": null and no result settles the pending request with a local error instead of crashing the connection', async () => {
    const { transport, connection, errors } = setup();
    const pending = settled(connection.request('roots/list'));
    expect(() => transport.sink.message({ jsonrpc: '2.0', id: 1, error: null })).not.toThrow();
    const { error } = (await pending) as { error: unknown };
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).not.toBeInstanceOf(McpError);
    expect((error as InvalidResponseError).method).toBe('roots/list');
    expect(errors).toHaveLength(1);
    expect(transport.sent.filter((m) => !('method' in (m as object)))).toEqual([]);
  });

  it('a response with "error": null for an unknown id is reported, not thrown', () => {
    const { transport, errors } = setup();
    expect(() => transport.sink.message({ jsonrpc: '2.0', id: 99, result: {}, error: null })).not.toThrow();
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('unknown request id 99')]);
  });

  it('a response with "error": null inside a batch does not abort the batch', () => {
    const { transport, errors } = setup();
    transport.sink.message([
      { jsonrpc: '2.0', id: 'a', method: 'one' },
      { jsonrpc: '2.0', id: 5, error: null },
      { jsonrpc: '2.0', id: 'b', method: 'two' },
    ]);
    expect(transport.sent).toEqual([
      [
        { jsonrpc: '2.0', id: 'a', result: { echo: 'one' } },
        { jsonrpc: '2.0', id: 'b', result: { echo: 'two' } },
      ],
    ]);
    expect(errors).toHaveLength(1);
  });
});

describe('Connection: malformed responses are never answered', () => {
  const malformed: [string, Record<string, unknown>][] = [
    ['an error without a message', { jsonrpc: '2.0', id: 7, error: { code: -32000 } }],
    ['a response without "jsonrpc"', { id: 7, result: {} }],
    ['a result that is not an object', { jsonrpc: '2.0', id: 7, result: 'yes' }],
    ['both a result and an error', { jsonrpc: '2.0', id: 7, result: {}, error: { code: 1, message: 'x' } }],
    ['a result with a null id', { jsonrpc: '2.0', id: null, result: {} }],
  ];
  for (const [name, message] of malformed) {
    it(`${name} is dropped and reported, never answered with -32600`, () => {
      const { transport, errors } = setup();
      transport.sink.message(message);
      expect(transport.sent).toEqual([]);
      expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('Dropped an invalid response')]);
    });
  }

  it('a malformed response settles the pending request it names with a local error', async () => {
    const { transport, connection } = setup();
    const pending = settled(connection.request('sampling/createMessage'));
    transport.sink.message({ jsonrpc: '2.0', id: 1, error: { code: -32000 } });
    const { error } = (await pending) as { error: Error };
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toContain('"code" and a string "message"');
    // Only the request itself went out: no answer, no cancellation of an answered request.
    expect(transport.sent).toHaveLength(1);
  });
});

describe('Connection: nothing a handler throws escapes the connection', () => {
  it('a handler that throws a value String() cannot convert is answered -32603 and reported', async () => {
    const transport = new ScriptedTransport();
    const errors: Error[] = [];
    const connection = new Connection(
      transport,
      {
        onRequest: (request) => {
          if (request.method === 'sync') throw Object.create(null);
          return Promise.reject({ toString: 1, valueOf: 1 });
        },
        onNotification: () => {},
      },
      { onError: (error) => errors.push(error) },
    );
    connection.start();
    transport.sink.message({ jsonrpc: '2.0', id: 1, method: 'sync' });
    transport.sink.message({ jsonrpc: '2.0', id: 2, method: 'async' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(transport.sent).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Internal error' } },
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      'A handler threw a non-Error value (object)',
      'A handler threw a non-Error value (object)',
    ]);
  });
});
