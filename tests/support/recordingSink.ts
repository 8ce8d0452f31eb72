import type { MessageSink } from '@mcpkit/core';

/** A {@link MessageSink} that keeps everything a transport tells it, for a test to inspect. */
export interface RecordingSink extends MessageSink {
  messages: unknown[];
  parseErrors: Error[];
  errors: Error[];
  /** One entry per `closed` call: its error, or `null` for a clean close. */
  closes: (Error | null)[];
}

/**
 * A fresh {@link RecordingSink}.
 *
 * @example
 * ```ts
 * const sink = recordingSink();
 * transport.start(sink);
 * await eventually(() => sink.messages.length === 1, 'the message');
 * ```
 */
export function recordingSink(): RecordingSink {
  const sink: RecordingSink = {
    messages: [],
    parseErrors: [],
    errors: [],
    closes: [],
    message: (value) => sink.messages.push(value),
    parseError: (error) => sink.parseErrors.push(error),
    error: (error) => sink.errors.push(error),
    closed: (error) => sink.closes.push(error ?? null),
  };
  return sink;
}
