/**
 * The sink the stdio client's line reader delivers to: it forwards to the connection's sink, tells
 * the transport about each message (for pacing), and turns a too-deep message into a closed
 * connection instead of a `-32700`.
 *
 * A class that forwards each member by name, not `{ ...sink, message }`: the connection's sink is a
 * class instance (`ConnectionSink`) whose methods live on its prototype, which an object spread
 * does not copy. The spread version lost `parseError`, so one banner line on a server's stdout
 * threw out of the read loop and killed the process hosting it (issue 29).
 * @module
 */
import { JsonTooDeepError, type MessageExtra, type MessageSink } from '@mcpkit/core';

/** What {@link PacedSink} tells the transport. */
export interface PacedSinkHooks {
  /** A message was delivered (the transport may pause reading to pace the server). */
  delivered(value: unknown): void;
  /** A message nested past the depth limit arrived: it cannot be answered, so the connection ends. */
  tooDeep(): void;
}

/**
 * Forwards every member of `inner`, with the stdio client's pacing and depth rule added.
 *
 * @example
 * ```ts
 * declare const connectionSink: MessageSink;
 * const sink = new PacedSink(connectionSink, { delivered: () => {}, tooDeep: () => transport.close() });
 * sink.parseError(new Error('Server listening on stdio...')); // reaches the connection: -32700
 * ```
 */
export class PacedSink implements MessageSink {
  /** The inner sink's size counter, bound, when it has one (checked once per message by readers). */
  readonly size?: (direction: 'in' | 'out', bytes: number) => void;

  constructor(
    private readonly inner: MessageSink,
    private readonly hooks: PacedSinkHooks,
  ) {
    if (inner.size) this.size = inner.size.bind(inner);
  }

  message(value: unknown, extra?: MessageExtra): void {
    this.inner.message(value, extra);
    this.hooks.delivered(value);
  }

  parseError(error: Error): void {
    if (error instanceof JsonTooDeepError) this.hooks.tooDeep();
    else this.inner.parseError(error);
  }

  error(error: Error): void {
    this.inner.error(error);
  }

  closed(error?: Error): void {
    this.inner.closed(error);
  }
}
