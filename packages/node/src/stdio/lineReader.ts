/**
 * Splits a byte stream into newline-delimited UTF-8 lines and hands each parsed JSON value to a
 * {@link MessageSink}.
 *
 * Bytes are kept as the `Buffer` chunks they arrived in and decoded once per line, so a 10 MB
 * message arriving in 64 KiB chunks costs one copy, not a quadratic series of string
 * concatenations, and a multibyte character split across two chunks decodes correctly.
 * @module
 */
import { DEFAULT_MAX_JSON_DEPTH, JsonTooDeepError, type MessageSink } from '@mcpkit/core';
import { exceedsJsonDepth, toError } from '@mcpkit/core/internal';

const LF = 0x0a;
const CR = 0x0d;

/**
 * The default limit on one incoming message, in bytes.
 *
 * Large enough for base64 images and big resources, small enough that a runaway peer cannot make
 * us buffer without bound; `JSON.parse` of a line this size already needs several times as much
 * heap.
 *
 * @example
 * ```ts
 * new StdioServerTransport({ maxMessageBytes: 4 * DEFAULT_MAX_MESSAGE_BYTES });
 * ```
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** How much of a non-JSON line goes into the local error message, to help spot stray log output. */
const SNIPPET_CHARS = 80;

/** Receives what a {@link LineReader} found. */
export interface LineHandler {
  /** One complete line, without its `\n` or `\r\n`, never empty. */
  line(text: string): void;
  /** A line grew past the limit; its bytes up to the next newline are discarded. */
  oversize(limit: number): void;
}

/** Incremental newline splitter over `Buffer` chunks. */
export class LineReader {
  /** Chunks (or tails of chunks) of the line that is not finished yet. */
  #parts: Buffer[] = [];
  #partBytes = 0;
  /** True while skipping the rest of an oversized line. */
  #discarding = false;
  /** Set by {@link pause}: chunks (and the rest of the current one) wait in `held`. */
  #paused = false;
  #held: Buffer[] = [];
  #endPending = false;

  readonly #maxLineBytes: number;
  readonly #handler: LineHandler;
  constructor(maxLineBytes: number, handler: LineHandler) {
    this.#maxLineBytes = maxLineBytes;
    this.#handler = handler;
  }

  /** Feeds one chunk. Strings (a stream with `setEncoding`) are accepted too. */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (this.#paused) {
      this.#held.push(bytes);
      return;
    }
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(LF, start);
      if (newline === -1) {
        this.#hold(bytes, start);
        return;
      }
      this.#finishLine(bytes, start, newline);
      start = newline + 1;
      if (this.#paused && start < bytes.length) {
        this.#held.push(bytes.subarray(start));
        return;
      }
    }
  }

  /**
   * Stops handing out lines, from the next line on (a handler may call it mid-chunk); what
   * arrives meanwhile is held, unparsed, until {@link resume}. The caller also pauses its stream,
   * so at most a chunk or two is held.
   */
  pause(): void {
    this.#paused = true;
  }

  /** Hands out the held lines (until paused again) and goes on. */
  resume(): void {
    this.#paused = false;
    const rest = this.#held;
    this.#held = [];
    while (rest.length > 0 && !this.#paused) this.push(rest.shift()!);
    if (rest.length > 0) this.#held.push(...rest);
    else if (this.#endPending && !this.#paused) this.end();
  }

  /** The stream ended: a last line without a trailing newline is still delivered. */
  end(): void {
    if (this.#paused) {
      this.#endPending = true;
      return;
    }
    this.#endPending = false;
    if (!this.#discarding && this.#partBytes > 0) {
      const line = Buffer.concat(this.#parts, this.#partBytes);
      this.#reset();
      this.#emit(line, 0, line.length);
    }
    this.#reset();
  }

  #hold(bytes: Buffer, start: number): void {
    if (this.#discarding) return;
    const length = bytes.length - start;
    if (this.#partBytes + length > this.#maxLineBytes) {
      this.#startDiscarding();
      return;
    }
    this.#parts.push(start === 0 ? bytes : bytes.subarray(start));
    this.#partBytes += length;
  }

  #finishLine(bytes: Buffer, start: number, end: number): void {
    if (this.#discarding) {
      this.#discarding = false;
      return;
    }
    const total = this.#partBytes + (end - start);
    if (total > this.#maxLineBytes) {
      this.#startDiscarding();
      this.#discarding = false;
      return;
    }
    if (this.#parts.length === 0) {
      this.#emit(bytes, start, end);
      return;
    }
    this.#parts.push(bytes.subarray(start, end));
    const line = Buffer.concat(this.#parts, total);
    this.#reset();
    this.#emit(line, 0, total);
  }

  #emit(bytes: Buffer, start: number, end: number): void {
    const stop = end > start && bytes[end - 1] === CR ? end - 1 : end;
    if (stop === start) return;
    this.#handler.line(bytes.toString('utf8', start, stop));
  }

  #startDiscarding(): void {
    this.#reset();
    this.#discarding = true;
    this.#handler.oversize(this.#maxLineBytes);
  }

  #reset(): void {
    if (this.#parts.length > 0) this.#parts = [];
    this.#partBytes = 0;
  }
}

/**
 * A {@link LineHandler} that parses each line as JSON and reports to a sink: values go to
 * `message`, anything unparsable or oversized to `parseError` (so the peer gets `-32700`).
 * `source` names the stream in local error messages ("stdin", "the server's stdout"). A line nested
 * deeper than `maxDepth` is refused before parsing, with a {@link JsonTooDeepError}.
 */
export function jsonLineHandler(
  sink: MessageSink,
  source: string,
  maxDepth: number = DEFAULT_MAX_JSON_DEPTH,
): LineHandler {
  return {
    line(text) {
      if (sink.size) sink.size('in', Buffer.byteLength(text) + 1);
      if (exceedsJsonDepth(text, maxDepth)) {
        sink.parseError(new JsonTooDeepError(maxDepth));
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (cause) {
        // Whitespace-only lines carry nothing; they are not worth a -32700.
        if (text.trim() === '') return;
        sink.parseError(
          new Error(`Received a line on ${source} that is not JSON: ${snippet(text)}`, { cause }),
        );
        return;
      }
      deliver(sink, value);
    },
    oversize(limit) {
      sink.parseError(
        new Error(`Discarded a message on ${source} larger than the ${limit}-byte limit (maxMessageBytes)`),
      );
    },
  };
}

function deliver(sink: MessageSink, value: unknown): void {
  try {
    sink.message(value);
  } catch (error) {
    // A throwing sink must not abort the read loop and lose the rest of the chunk.
    sink.error(toError(error));
  }
}

function snippet(text: string): string {
  const short = text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}…` : text;
  return JSON.stringify(short);
}
