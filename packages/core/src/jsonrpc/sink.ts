/**
 * The face a {@link Connection} shows its transport: one small object per connection whose
 * methods live on the prototype, rather than an object literal of five arrow functions (five
 * closures and their context per connection, which thousands of idle HTTP sessions each carried).
 * @module
 */
import type { MessageExtra, MessageSink } from '../transport/transport.js';
import type { ClassifiedBody, RequestId } from './messages.js';

/** What the sink forwards to: the receiving side of a connection (its `@internal` members). */
export interface SinkOwner {
  receive(value: unknown, extra?: MessageExtra): void;
  receiveClassified(body: ClassifiedBody, extra?: MessageExtra): void;
  receiveGarbage(error: Error): void;
  report(error: Error): void;
  handleClosed(error: Error | undefined): void;
  authorizing(ids: readonly RequestId[], waiting: boolean): void;
}

/**
 * Forwards a transport's calls to its connection.
 *
 * @example
 * ```ts
 * declare const owner: SinkOwner;
 * declare const transport: Transport;
 * await transport.start(new ConnectionSink(owner));
 * ```
 */
export class ConnectionSink implements MessageSink {
  /** Set only when an observer counts message sizes: transports check for it once per message. */
  size?: (direction: 'in' | 'out', bytes: number) => void;

  constructor(private readonly owner: SinkOwner) {}

  message(value: unknown, extra?: MessageExtra): void {
    this.owner.receive(value, extra);
  }

  classified(body: ClassifiedBody, extra?: MessageExtra): void {
    this.owner.receiveClassified(body, extra);
  }

  parseError(error: Error): void {
    this.owner.receiveGarbage(error);
  }

  error(error: Error): void {
    this.owner.report(error);
  }

  closed(error?: Error): void {
    this.owner.handleClosed(error);
  }

  authorizing(ids: readonly RequestId[], waiting: boolean): void {
    this.owner.authorizing(ids, waiting);
  }
}
