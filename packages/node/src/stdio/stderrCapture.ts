/**
 * The server's stderr when piped: decoded for the `onStderr` hook, its tail kept for the error of a
 * dying server, and passed on to `StdioClientTransport.stderr` once someone reads that.
 * @module
 */
import { PassThrough, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { MessageSink } from '@mcpkit/core';
import { toError } from '@mcpkit/core/internal';

/** How much stderr text is kept for the error message of a dying server. */
const STDERR_TAIL_CHARS = 2048;

/** Reads a child's piped stderr continuously, so the server never blocks on it. */
export class StderrCapture {
  /** The stream `StdioClientTransport.stderr` exposes; it buffers only once someone reads it. */
  readonly out = new PassThrough();
  readonly #onStderr: ((text: string) => void) | undefined;
  #source: Readable | undefined;
  #sink: MessageSink | undefined;
  #decoder: StringDecoder | undefined;
  #tail = '';

  constructor(onStderr: ((text: string) => void) | undefined) {
    this.#onStderr = onStderr;
  }

  /** The last {@link STDERR_TAIL_CHARS} characters of the server's stderr, for its exit error. */
  get tail(): string {
    return this.#tail;
  }

  /** Starts reading the child's stderr; a failing `onStderr` hook is reported to `sink.error`. */
  attach(stderr: Readable, sink: MessageSink, onPipeError: (error: Error) => void): void {
    this.#source = stderr;
    this.#sink = sink;
    this.#decoder = new StringDecoder('utf8');
    stderr.on('data', this.#onData);
    stderr.on('error', onPipeError);
    this.out.on('drain', () => stderr.resume());
  }

  /** The child closed: the decoder's last characters join the tail, and readers see the end. */
  end(): void {
    const tail = this.#decoder?.end() ?? '';
    if (tail !== '') this.#keepTail(tail);
    this.out.end();
  }

  readonly #onData = (chunk: Buffer): void => {
    const text = this.#decoder!.write(chunk);
    this.#keepTail(text);
    if (text !== '' && this.#onStderr) this.#callHook(text);
    const out = this.out;
    // readableFlowing stays null until someone consumes the stream; writing before that would
    // buffer without bound.
    if (out.readableFlowing !== null && !out.write(chunk)) this.#source?.pause();
  };

  #callHook(text: string): void {
    try {
      this.#onStderr!(text);
    } catch (error) {
      this.#sink?.error(toError(error));
    }
  }

  #keepTail(text: string): void {
    const joined = this.#tail + text;
    this.#tail = joined.length > STDERR_TAIL_CHARS ? joined.slice(-STDERR_TAIL_CHARS) : joined;
  }
}
