/**
 * The server side of the stdio transport: read messages from stdin, write them to stdout.
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import type { JsonRpcMessage, MessageSink, SendOptions, Transport } from '@mcpkit/core';
import { DEFAULT_MAX_MESSAGE_BYTES, jsonLineHandler, LineReader } from './lineReader.js';
import { LineWriter, lineBytesOf } from './lineWriter.js';

/**
 * Options of {@link StdioServerTransport}.
 *
 * @example
 * ```ts
 * import type { Socket } from 'node:net';
 *
 * declare const socket: Socket;
 * // Serve over a socket instead of the process's own streams.
 * new StdioServerTransport({ stdin: socket, stdout: socket, maxMessageBytes: 8 * 1024 * 1024 });
 * ```
 */
export interface StdioServerOptions {
  /** Where messages come from. Default: `process.stdin`. */
  stdin?: Readable;
  /** Where messages go. Nothing else may be written to it. Default: `process.stdout`. */
  stdout?: Writable;
  /**
   * The largest incoming message, in bytes. A longer line is discarded up to its newline and
   * answered with a parse error; the transport keeps serving. Default: 64 MiB.
   */
  maxMessageBytes?: number;
  /**
   * Deepest nesting of arrays and objects accepted in one message, checked before parsing; deeper
   * messages are answered with a `-32700` that names the limit. Default 512.
   */
  maxJsonDepth?: number;
}

/**
 * Serves MCP over newline-delimited JSON on stdin/stdout, for servers a client spawns.
 *
 * Write logs to stderr: anything else on stdout corrupts the stream.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@mcpkit/node/stdio';
 *
 * await server.connect(new StdioServerTransport());
 * ```
 */
export class StdioServerTransport implements Transport {
  readonly networkTransport = 'pipe';
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #maxMessageBytes: number;
  readonly #maxJsonDepth: number | undefined;
  #writer: LineWriter | undefined;
  #reader: LineReader | undefined;
  #sink: MessageSink | undefined;
  #isClosed = false;
  #reading = false;
  #closing: Promise<void> | undefined;

  constructor(options: StdioServerOptions = {}) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#maxJsonDepth = options.maxJsonDepth;
  }

  start(sink: MessageSink): void {
    if (this.#sink) throw new Error('The stdio server transport is already started');
    if (this.#isClosed) throw new Error('The stdio server transport is closed');
    this.#sink = sink;
    this.#reader = new LineReader(this.#maxMessageBytes, jsonLineHandler(sink, 'stdin', this.#maxJsonDepth));
    // Responses produced in one tick (to a burst of requests) leave in one write; the client
    // side writes at once, so the two processes overlap instead of taking turns.
    this.#writer = new LineWriter(this.#stdout, { coalesce: true, onLineBytes: lineBytesOf(sink) });
    this.#stdout.on('error', this.#onStdoutError);
    this.#stdin.on('error', this.#onStdinError);
    this.#stdin.on('end', this.#onStdinEnd);
    this.#stdin.on('close', this.#onStdinEnd);
    this.#reading = true;
    // Undo the unref of an earlier transport that read this stream.
    handleOf(this.#stdin)?.ref();
    this.#stdin.on('data', this.#onData);
    if (this.#stdin.readableEnded) this.#onStdinEnd();
  }

  /**
   * Writes one message (or batch) as a line on stdout. Returns a promise, shared by all waiting
   * senders, when stdout is applying backpressure.
   */
  send(message: JsonRpcMessage | JsonRpcMessage[], _options?: SendOptions): void | Promise<void> {
    if (!this.#writer) throw new Error('The stdio server transport is not started');
    if (this.#isClosed) throw new Error('The stdio server transport is closed');
    return this.#writer.write(message);
  }

  /**
   * Stops reading stdin (pausing and unref-ing it, so the process can exit), waits until queued
   * messages are handed to stdout, and detaches. stdout itself is left open: the process owns it,
   * and ending it could cut off data still buffered.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#stopReading();
    const writer = this.#writer;
    if (writer) {
      await writer.idle().catch(ignore);
      writer.detach();
      this.#stdout.removeListener('error', this.#onStdoutError);
    }
    this.#finish(undefined);
  }

  readonly #onData = (chunk: Buffer | string): void => {
    this.#reader!.push(chunk);
  };

  readonly #onStdinEnd = (): void => {
    this.#reader?.end();
    this.#stopReading();
    this.#finish(undefined);
  };

  readonly #onStdinError = (error: Error): void => {
    this.#stopReading();
    this.#writer?.fail(error);
    this.#finish(new Error(`Could not read stdin: ${error.message}`, { cause: error }));
  };

  // EPIPE and friends: the client is gone, so nothing we send can arrive.
  readonly #onStdoutError = (error: Error): void => {
    this.#stopReading();
    this.#writer?.fail(error);
    this.#finish(new Error(`Could not write to stdout: ${error.message}`, { cause: error }));
  };

  #stopReading(): void {
    if (!this.#reading) return;
    this.#reading = false;
    const stdin = this.#stdin;
    stdin.removeListener('data', this.#onData);
    stdin.removeListener('end', this.#onStdinEnd);
    stdin.removeListener('close', this.#onStdinEnd);
    // Keep swallowing late errors: an 'error' with no listener would crash the process.
    stdin.removeListener('error', this.#onStdinError);
    stdin.on('error', ignore);
    stdin.pause();
    // A paused pipe or socket still has a reading handle that keeps the event loop alive; unref
    // lets the process exit once nothing else is pending.
    handleOf(stdin)?.unref();
  }

  #finish(error: Error | undefined): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#sink?.closed(error);
  }
}

function ignore(): void {}

/** The ref/unref pair of sockets, pipes and TTYs (process.stdin); file streams have none. */
function handleOf(stream: Readable): { ref(): void; unref(): void } | undefined {
  const candidate = stream as Partial<{ ref: unknown; unref: unknown }>;
  return typeof candidate.ref === 'function' && typeof candidate.unref === 'function'
    ? (stream as unknown as { ref(): void; unref(): void })
    : undefined;
}
