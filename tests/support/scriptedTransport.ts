import type { JsonRpcMessage, MessageSink, Transport } from '@mcpkit/core';

/**
 * A transport a test drives by hand: `deliver` hands the connection a frame as if the peer sent
 * it, and everything the connection sends is kept in `sent`.
 *
 * @example
 * ```ts
 * const transport = new ScriptedTransport();
 * const connection = new Connection(transport, handler);
 * connection.start();
 * transport.deliver({ jsonrpc: '2.0', id: 1, method: 'ping' });
 * expect(transport.last()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
 * ```
 */
export class ScriptedTransport implements Transport {
  sink!: MessageSink;
  readonly sent: any[] = [];
  /** What `send` returns: set a promise to make sends slow or failing. */
  sendResult: undefined | Promise<void> = undefined;
  start(sink: MessageSink): void {
    this.sink = sink;
  }
  send(message: JsonRpcMessage | JsonRpcMessage[]): void | Promise<void> {
    this.sent.push(message);
    return this.sendResult;
  }
  async close(): Promise<void> {
    this.sink.closed();
  }
  deliver(value: unknown): void {
    this.sink.message(value);
  }
  last(): any {
    return this.sent.at(-1);
  }
}
