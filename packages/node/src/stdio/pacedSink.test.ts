/**
 * The stdio client's sink around a connection's own sink (a class instance): issue 29's crash was
 * `TypeError: paced.parseError is not a function`, because an object spread dropped the prototype
 * methods of `ConnectionSink`, and one banner line on a server's stdout killed the hosting process.
 */
import {
  Connection,
  type JsonRpcMessage,
  JsonTooDeepError,
  type MessageSink,
  type Transport,
} from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { jsonLineHandler } from './lineReader.js';
import { PacedSink } from './pacedSink.js';

/** A transport that keeps the sink its connection starts it with, and what the connection sends. */
class CapturingTransport implements Transport {
  sink: MessageSink | undefined;
  readonly sent: JsonRpcMessage[] = [];
  start(sink: MessageSink): void {
    this.sink = sink;
  }
  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    this.sent.push(...(Array.isArray(message) ? message : [message]));
  }
  async close(): Promise<void> {}
}

async function connectionSink(errors: Error[] = []) {
  const transport = new CapturingTransport();
  const connection = new Connection(
    transport,
    { onRequest: () => ({}), onNotification: () => {} },
    {
      onError: (error) => errors.push(error),
    },
  );
  await connection.start();
  return { sink: transport.sink!, transport };
}

describe('paced.parseError is not a function (issue 29)', () => {
  it('a banner line reaches the connection as a parse error instead of throwing out of the read loop', async () => {
    const errors: Error[] = [];
    const { sink, transport } = await connectionSink(errors);
    expect(Object.keys({ ...sink })).not.toContain('parseError'); // why a spread lost it
    const handler = jsonLineHandler(
      new PacedSink(sink, { delivered: () => {}, tooDeep: () => {} }),
      'stdout',
    );
    expect(() => handler.line('Server listening on stdio...')).not.toThrow();
    expect(errors.map((error) => error.message)).toEqual([
      'Received a line on stdout that is not JSON: "Server listening on stdio..."',
    ]);
    expect(transport.sent).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ code: -32700 }) }),
    ]);
  });

  it('forwards messages, errors and close, and tells the transport about each message and a too-deep one', async () => {
    const { sink } = await connectionSink();
    const delivered: unknown[] = [];
    let tooDeep = 0;
    const paced = new PacedSink(sink, {
      delivered: (value) => delivered.push(value),
      tooDeep: () => tooDeep++,
    });
    paced.message({ jsonrpc: '2.0', method: 'notifications/initialized' });
    paced.parseError(new JsonTooDeepError(4));
    expect(delivered).toEqual([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(tooDeep).toBe(1);
    expect(() => paced.error(new Error('x'))).not.toThrow();
    expect(() => paced.closed()).not.toThrow();
  });

  it('keeps the inner sink’s size counter, bound to it', () => {
    const seen: number[] = [];
    class Counting implements MessageSink {
      readonly total: number[] = seen;
      message(): void {}
      parseError(): void {}
      error(): void {}
      closed(): void {}
      size(_direction: 'in' | 'out', bytes: number): void {
        this.total.push(bytes);
      }
    }
    const paced = new PacedSink(new Counting(), { delivered: () => {}, tooDeep: () => {} });
    paced.size?.('in', 7);
    expect(seen).toEqual([7]);
  });
});
