/**
 * Reads a `text/event-stream` body event by event with `eventsource-parser`.
 * @module
 */
import { DEFAULT_MAX_INCOMING_PER_SECOND } from '@mcpkit/core';
import { IncomingRateLimit } from '@mcpkit/core/internal';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { DEFAULT_MAX_MESSAGE_SIZE } from './requester.js';
import { type ResponseBody, textSource } from './responseBody.js';

/**
 * Paces the SSE streams of one connection: counts the messages the server starts and tells
 * {@link readEventStream} (through `pace`) how long to stop reading once there are too many.
 */
export class SsePacer {
  private readonly limit: IncomingRateLimit;
  private pausedUntil = 0;
  /** For {@link ReadEventStreamOptions.pace}. */
  readonly pace = (): number => this.pausedUntil - Date.now();

  constructor(perSecond: number | undefined, report: (error: Error) => void) {
    this.limit = new IncomingRateLimit(perSecond ?? DEFAULT_MAX_INCOMING_PER_SECOND, report);
  }

  /** Counts one delivered message. */
  admit(message: unknown): void {
    const pause = this.limit.admit(message);
    if (pause > 0) this.pausedUntil = Date.now() + pause;
  }
}

/** What {@link readEventStream} reports while it reads. */
export interface EventStreamHandlers {
  /** One complete event. Return `true` to stop reading and release the connection. */
  onEvent(event: EventSourceMessage): boolean | undefined;
  /** The server set its reconnection time (`retry:` field), in ms. */
  onRetry?(milliseconds: number): void;
}

/** Options of {@link readEventStream}. */
export interface ReadEventStreamOptions {
  /** Largest event accepted, in characters. Default {@link DEFAULT_MAX_MESSAGE_SIZE}. */
  maxEventSize?: number;
  /**
   * Stops reading when aborted. The fetch signal usually errors the body too, but a custom
   * `fetch` may not wire it through, so the reader is cancelled here as well.
   */
  signal?: AbortSignal;
  /**
   * Asked after each chunk: how many ms to wait before reading the next one (backpressure on a
   * server that sends too much); 0 or less reads on at once.
   */
  pace?: () => number;
}

/**
 * Reads `body` until it ends, a handler asks to stop, or it fails (the promise then rejects: a
 * network drop, an abort, an event over `maxEventSize`). An event cut off by the end of the body
 * is discarded, as the SSE standard says.
 */
export async function readEventStream(
  body: ResponseBody,
  handlers: EventStreamHandlers,
  options: ReadEventStreamOptions = {},
): Promise<void> {
  const maxEventSize = options.maxEventSize ?? DEFAULT_MAX_MESSAGE_SIZE;
  const signal = options.signal;
  let stop = false;
  let failure: Error | undefined;
  const tooLarge = () => new Error(`An SSE event exceeded the limit of ${maxEventSize} characters`);
  const parser = createParser({
    maxBufferSize: maxEventSize,
    onEvent: (event) => {
      if (stop || failure) return;
      // The parser caps only what it buffers across chunks; a whole event can come in one.
      if (event.data.length > maxEventSize) failure = tooLarge();
      else if (handlers.onEvent(event) === true) stop = true;
    },
    onRetry: (milliseconds) => handlers.onRetry?.(milliseconds),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure = tooLarge();
    },
  });
  const source = textSource(body);
  const onAbort = () => void source.cancel();
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    while (!stop) {
      const text = await source.next();
      if (signal?.aborted) throw new Error('The SSE stream was aborted');
      if (text === undefined) return;
      parser.feed(text);
      if (failure) throw failure;
      const wait = options.pace?.() ?? 0;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (stop || failure) await source.cancel();
  }
}
