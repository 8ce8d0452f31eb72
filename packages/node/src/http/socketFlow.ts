/**
 * Moving bytes between a Node socket and the handlers' streams when the peer misbehaves: a
 * request body read up to a limit, a response body copied with backpressure that gives up on a
 * client that stops reading, and the unread rest of a refused upload received before the answer
 * goes out.
 * @module
 */
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toError } from '@mcpkit/core/internal';

/**
 * An upload refused before it was all read is still received (and discarded) up to this many
 * bytes, and for this long, before the answer goes out: a client still sending when the
 * connection closes sees a reset instead of the answer (Node's fetch reports "fetch failed").
 */
const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/** Copies a streamed body, honouring backpressure; a client that leaves cancels the stream. */
export async function pipeStream(
  body: ReadableStream<Uint8Array>,
  res: ServerResponse,
  onError: (error: Error) => void,
): Promise<void> {
  const reader = body.getReader();
  const onClose = (): void => {
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  const backpressure = new Backpressure(res);
  // A stream that gives up (its client left too much unread) errors while we wait for `drain`:
  // stop waiting then, or the socket of a client that never reads stays open forever.
  reader.closed.then(backpressure.ended, backpressure.ended);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await backpressure.wait();
      if (res.destroyed) break;
    }
    res.end();
  } catch (error) {
    // The stream failed (e.g. it was cut off for not being read): drop the connection.
    if (!res.destroyed) onError(toError(error));
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}

/**
 * Waits, again and again, until a response can take more, its client left, or the body it copies
 * ended or failed. One per streamed response, so a long stream to a slow client does not pile up
 * a reaction per wait on the body's `closed` promise.
 */
class Backpressure {
  private resolve: (() => void) | undefined;
  private bodyEnded = false;

  constructor(private readonly res: ServerResponse) {}

  wait(): Promise<void> {
    if (this.bodyEnded) return Promise.resolve();
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.res.on('drain', this.wake);
      this.res.on('close', this.wake);
    });
  }

  /** The body ended or failed: no wait may last any longer. */
  readonly ended = (): void => {
    this.bodyEnded = true;
    this.wake();
  };

  private readonly wake = (): void => {
    this.res.off('drain', this.wake);
    this.res.off('close', this.wake);
    const resolve = this.resolve;
    this.resolve = undefined;
    resolve?.();
  };
}

/**
 * Reads a body up to `limit` bytes; past it the rest is discarded.
 *
 * @example
 * ```ts
 * const body = await readLimited(req, 4 * 1024 * 1024);
 * if (body === 'too-large') res.writeHead(413).end();
 * ```
 */
export function readLimited(
  req: IncomingMessage,
  limit: number,
): Promise<Uint8Array | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Uint8Array | 'too-large' | 'aborted'): void => {
      detach();
      resolve(result);
    };
    // 'close' before 'end' means the client went away mid-body.
    const aborted = (): void => finish('aborted');
    const detach = listenAll(req, {
      data: (chunk: Buffer): void => {
        size += chunk.length;
        if (size > limit) {
          finish('too-large');
          req.resume(); // discard the rest
          return;
        }
        chunks.push(chunk);
      },
      end: () => finish(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)),
      error: aborted,
      close: aborted,
    });
  });
}

/**
 * Receives and discards what is left of a request body the handler did not read (a refused
 * upload), so that the client, still sending, gets to read the answer. Resolves true when the
 * request was read to its end, false when it was cut off at the bounds (the answer then closes the
 * connection) or the client left.
 */
export function drainRequest(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  return new Promise((resolve) => {
    let received = 0;
    const finish = (complete: boolean): void => {
      clearTimeout(timer);
      detach();
      res.off('close', onGone);
      resolve(complete);
    };
    const onGone = (): void => finish(false);
    const timer = setTimeout(onGone, DRAIN_MAX_MS);
    const detach = listenAll(req, {
      data: (chunk: Buffer): void => {
        received += chunk.length;
        if (received > DRAIN_MAX_BYTES) finish(false);
      },
      end: () => finish(true),
      error: onGone,
    });
    res.once('close', onGone);
    req.resume();
  });
}

/**
 * Adds `listeners` to `emitter` and returns what removes exactly them: the one place a body read
 * finishes detaches everything it attached, whichever event finished it.
 */
function listenAll(
  emitter: EventEmitter,
  listeners: Readonly<Record<string, (...args: any[]) => void>>,
): () => void {
  // for…in, not Object.entries: every request's body read comes here, and entries would allocate
  // an array per listener twice per request.
  for (const event in listeners) emitter.on(event, listeners[event]!);
  return () => {
    for (const event in listeners) emitter.off(event, listeners[event]!);
  };
}
