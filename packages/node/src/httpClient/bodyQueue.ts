/**
 * A response body as undici hands it to a dispatch handler, chunk by chunk, offered to the
 * transport as the raw chunks of `@mcpkit/client/http` (`RawBody`): an async iterator with
 * backpressure (the connection is paused while unread chunks pile up), the whole text in one
 * step, and a cancel that frees the connection. No Node `Readable` and no web stream per request.
 * @module
 */
import type { RawBody } from '@mcpkit/client/http';

/** Unread bytes past which the connection is paused until the reader catches up. */
const HIGH_WATER = 64 * 1024;
/**
 * A cancelled body that is not an event stream is read to its end and dropped, so its connection
 * goes back to the pool; past this many bytes it is aborted instead (as undici's `dump` does).
 */
const DRAIN_LIMIT = 128 * 1024;

/** What the queue needs of the request it reads: pause, resume and abort it. */
export interface BodyFlow {
  pause(): void;
  resume(): void;
  abort(reason: Error): void;
}

/**
 * The body of one response. The dispatch handler pushes (`push`, `end`, `fail`); the transport
 * reads (`chunks`, `text`, `cancel`).
 *
 * @example
 * ```ts
 * declare const flow: BodyFlow;
 * const body = new BodyQueue(flow, false);
 * body.push(Buffer.from('{"jsonrpc":"2.0"}'));
 * body.end();
 * await body.text(); // '{"jsonrpc":"2.0"}'
 * ```
 */
export class BodyQueue implements RawBody {
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private ended = false;
  private error: Error | undefined;
  private cancelled = false;
  private drained = 0;
  private paused = false;
  /** The reader waiting for the next chunk or the end, if one is. */
  private wake: (() => void) | undefined;

  /** `streaming`: an event stream, which may never end, so `cancel` aborts it at once. */
  constructor(
    private readonly flow: BodyFlow,
    private readonly streaming: boolean,
  ) {}

  /** The handler received `chunk`. */
  push(chunk: Buffer): void {
    if (this.cancelled) {
      this.drained += chunk.length;
      if (this.drained > DRAIN_LIMIT) this.flow.abort(new Error('response body discarded'));
      return;
    }
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (this.queuedBytes > HIGH_WATER && !this.paused) {
      this.paused = true;
      this.flow.pause();
    }
    this.notify();
  }

  /** The response ended. */
  end(): void {
    this.ended = true;
    this.notify();
  }

  /** The response broke off. */
  fail(error: Error): void {
    this.error ??= error;
    this.notify();
  }

  /** Whether the body still expects chunks. */
  get open(): boolean {
    return !this.ended && this.error === undefined;
  }

  readonly chunks: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: () => this.next(),
      return: async () => {
        this.cancel();
        return { value: undefined, done: true };
      },
    }),
  };

  /** The whole body as UTF-8 text (the transport asks only when its length is within its limit). */
  async text(): Promise<string> {
    while (this.open) await this.waitForMore();
    if (this.error) throw this.error;
    const only = this.queue.length === 1 ? this.queue[0] : undefined;
    const text = (only ?? Buffer.concat(this.queue)).toString('utf8');
    this.take();
    return text;
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.take();
    this.notify();
    if (!this.open) return;
    if (this.streaming) this.flow.abort(new Error('response body cancelled'));
    else if (this.paused) this.resume();
  }

  private async next(): Promise<IteratorResult<Uint8Array>> {
    while (this.queue.length === 0 && this.open && !this.cancelled) await this.waitForMore();
    const chunk = this.queue.shift();
    if (chunk !== undefined) {
      this.queuedBytes -= chunk.length;
      if (this.paused && this.queuedBytes <= HIGH_WATER / 2) this.resume();
      return { value: chunk, done: false };
    }
    if (this.error && !this.cancelled) throw this.error;
    return { value: undefined, done: true };
  }

  private take(): void {
    this.queue.length = 0;
    this.queuedBytes = 0;
  }

  private resume(): void {
    this.paused = false;
    this.flow.resume();
  }

  private waitForMore(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
