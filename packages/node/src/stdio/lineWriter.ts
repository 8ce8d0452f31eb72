/**
 * Writes messages as newline-delimited JSON to a Node `Writable`, respecting its backpressure.
 *
 * Design: while the stream accepts writes, each line goes straight to `stream.write`. Once `write`
 * returns `false` we stop calling it and hold further lines in our own array; the single `drain`
 * listener registered at construction flushes that array in batches and settles the one promise
 * that every blocked sender was given. No listener, closure or promise is created per message, so
 * a burst of any size leaves the stream's listener count unchanged.
 * @module
 */
import type { Writable } from 'node:stream';
import type { MessageSink } from '@mcpkit/core';

/** Queued lines are joined into writes of about this many characters when flushing. */
const FLUSH_BATCH_CHARS = 64 * 1024;
/** Consumed queue slots are compacted away once this many accumulate. */
const COMPACT_AFTER = 4096;

// U+2028 and U+2029 are valid inside JSON strings, but some line readers (Python's
// str.splitlines, editors, log tools) treat them as line breaks. Escaping them costs nothing when
// they are absent.
const UNICODE_LINE_BREAKS = /[\u2028\u2029]/;
const UNICODE_LINE_BREAKS_GLOBAL = /[\u2028\u2029]/g;

/**
 * Serializes one message (or batch) as a single line: compact JSON, no raw line breaks, and a
 * trailing `\n`.
 *
 * @example
 * ```ts
 * serializeLine({ jsonrpc: '2.0', method: 'x', params: { text: 'a\nb' } });
 * // '{"jsonrpc":"2.0","method":"x","params":{"text":"a\\nb"}}\n'
 * ```
 */
export function serializeLine(message: unknown): string {
  const json = JSON.stringify(message);
  if (json === undefined) throw new TypeError('The message cannot be serialized as JSON');
  if (!UNICODE_LINE_BREAKS.test(json)) return json + '\n';
  return json.replace(UNICODE_LINE_BREAKS_GLOBAL, escapeLineBreak) + '\n';
}

function escapeLineBreak(char: string): string {
  return char === '\u2028' ? '\\u2028' : '\\u2029';
}

interface Waiters {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** Options of {@link LineWriter}. */
export interface LineWriterOptions {
  /**
   * `true`: hold the lines written in one tick and hand them to the stream together when it ends
   * (one `writev` instead of a syscall each). Right for one side of a conversation only: when
   * both peers hold their burst back until their tick ends, the two processes take strict turns
   * and a pipelined exchange runs at half speed (measured with 16 calls in flight).
   * `'after-first'`: the first line of a tick leaves at once (the peer starts on it while we
   * prepare the rest), the tick's other lines leave together when it ends: two writes per burst
   * instead of one per line, on either side. Default false (every line at once).
   */
  readonly coalesce?: boolean | 'after-first';
  /**
   * The most characters held in our queue while the stream does not drain (a peer that stopped
   * reading). Past it the writer fails with an error naming the limit and calls `onOverflow`.
   * Default: no limit.
   */
  readonly maxQueuedChars?: number;
  /** Told once when `maxQueuedChars` is exceeded; the writer has failed already. */
  readonly onOverflow?: (error: Error) => void;
  /** Told the size in bytes of each line written (an observer's message sizes); absent, no cost. */
  readonly onLineBytes?: ((bytes: number) => void) | undefined;
}

/**
 * The `onLineBytes` option that reports written lines to `sink`'s size observer, or `undefined`
 * when nothing observes sizes (the writer then does nothing per line).
 *
 * @example
 * ```ts
 * new LineWriter(process.stdout, { onLineBytes: lineBytesOf(sink) });
 * ```
 */
export function lineBytesOf(sink: MessageSink): ((bytes: number) => void) | undefined {
  const size = sink.size;
  return size ? (bytes) => size.call(sink, 'out', bytes) : undefined;
}

/** A backpressure-aware line writer bound to one stream for its whole life. */
export class LineWriter {
  #queue: string[] = [];
  /** Index of the first unsent line in `queue`. */
  #head = 0;
  #waiters: Waiters | undefined;
  #failure: Error | undefined;
  #corked = false;
  #attached = true;
  readonly #coalesce: boolean | 'after-first';
  /** Characters in `queue` from `head` on. */
  #queuedChars = 0;

  readonly #stream: Writable;
  readonly #options: LineWriterOptions;
  constructor(stream: Writable, options: LineWriterOptions = {}) {
    this.#stream = stream;
    this.#options = options;
    this.#coalesce = options.coalesce ?? false;
    stream.on('drain', this.#onDrain);
  }

  /** True while lines wait for the stream to drain. */
  get blocked(): boolean {
    return this.#waiters !== undefined;
  }

  /** How many lines wait in our queue (not counting the stream's own buffer). */
  get queuedLines(): number {
    return this.#queue.length - this.#head;
  }

  /**
   * Writes one message. Returns `undefined` when the stream can take more at once, otherwise the
   * promise shared by every sender that is waiting for `drain`.
   */
  write(message: unknown): undefined | Promise<void> {
    if (this.#failure) throw this.#failure;
    const line = serializeLine(message);
    if (this.#options.onLineBytes) this.#options.onLineBytes(Buffer.byteLength(line));
    if (this.#waiters) {
      const shared = this.#waiters.promise;
      this.#queue.push(line);
      this.#queuedChars += line.length;
      const limit = this.#options.maxQueuedChars;
      // The shared promise is rejected by the failure, so every waiting sender hears of it.
      if (limit !== undefined && this.#queuedChars > limit) this.#overflow(limit);
      return shared;
    }
    if (this.#coalesce === true) this.#corkUntilNextTick();
    const accepted = this.#stream.write(line);
    // After the tick's first line the rest of the tick is held ('after-first'; a no-op for true).
    if (this.#coalesce) this.#corkUntilNextTick();
    return accepted ? undefined : this.#block();
  }

  /** Settles once everything queued has been handed to the stream (or the writer failed). */
  idle(): Promise<void> {
    return this.#waiters ? this.#waiters.promise : Promise.resolve();
  }

  /**
   * Hands everything still queued to the stream regardless of backpressure and ends it. Waiting
   * senders are released: their lines are now in the stream's buffer.
   */
  end(): void {
    if (this.#failure) return;
    const rest = this.#takeAll();
    if (rest.length > 0) this.#stream.write(rest);
    this.#stream.end();
    this.#release();
    this.#failure = new Error('The stdio transport is closed');
  }

  /** Stops writing for good: queued lines are dropped and waiting senders get `error`. */
  fail(error: Error): void {
    if (this.#failure) return;
    this.#failure = error;
    this.#takeAll();
    const waiters = this.#waiters;
    this.#waiters = undefined;
    waiters?.reject(error);
  }

  #overflow(limit: number): void {
    const error = new Error(
      `The peer is not reading: more than ${limit} characters wait to be written to it (maxWriteQueueBytes)`,
    );
    // Waiting senders are released, not rejected: their lines are dropped with the connection,
    // which `onOverflow` closes with this one error (rejecting would report it once per line).
    this.#failure = error;
    this.#takeAll();
    this.#release();
    this.#options.onOverflow?.(error);
  }

  /** Removes the listener this writer added to the stream. */
  detach(): void {
    if (!this.#attached) return;
    this.#attached = false;
    this.#stream.removeListener('drain', this.#onDrain);
  }

  #block(): Promise<void> {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A sender that ignores the promise must not turn a closed pipe into an unhandled rejection;
    // senders that await it still see the error.
    promise.catch(ignore);
    this.#waiters = { promise, resolve, reject };
    return promise;
  }

  readonly #onDrain = (): void => {
    if (!this.#waiters || this.#failure) return;
    while (this.#head < this.#queue.length) {
      if (!this.#stream.write(this.#takeBatch())) return;
    }
    this.#release();
  };

  #release(): void {
    const waiters = this.#waiters;
    this.#waiters = undefined;
    waiters?.resolve();
  }

  #takeBatch(): string {
    const queue = this.#queue;
    let end = this.#head;
    let size = 0;
    while (end < queue.length && size < FLUSH_BATCH_CHARS) {
      size += queue[end]!.length;
      end++;
    }
    const batch = end - this.#head === 1 ? queue[this.#head]! : queue.slice(this.#head, end).join('');
    this.#head = end;
    this.#queuedChars -= batch.length;
    this.#compact();
    return batch;
  }

  #takeAll(): string {
    const rest = this.#head === 0 ? this.#queue.join('') : this.#queue.slice(this.#head).join('');
    this.#queue = [];
    this.#head = 0;
    this.#queuedChars = 0;
    return rest;
  }

  #compact(): void {
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head >= COMPACT_AFTER && this.#head * 2 >= this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }

  // Messages produced in one tick (a burst of responses) leave in one writev instead of one
  // syscall each.
  #corkUntilNextTick(): void {
    if (this.#corked) return;
    this.#corked = true;
    this.#stream.cork();
    process.nextTick(this.#uncork);
  }

  readonly #uncork = (): void => {
    this.#corked = false;
    this.#stream.uncork();
  };
}

function ignore(): void {}
