/**
 * Reading the responses of the HTTP client transports: a body as raw chunks (what a custom fetch
 * may offer) or a web stream, read as text to a limit or released unread, and a failed response's
 * own explanation turned into the transport's error.
 * @module
 */
import { HttpTransportError } from './errors.js';

/** How much of an error body is read to find the server's explanation. */
const ERROR_BODY_LIMIT = 64 * 1024;
const SHORT_TEXT_LIMIT = 200;

/**
 * Where a custom `fetch` not built on web streams (the undici path of `@mcpkit/node/http-client`)
 * puts the body of a `Response` it created without one: plain byte chunks, read without the web
 * stream machinery that costs Node's `fetch` hundreds of µs per request.
 *
 * @example
 * ```ts
 * import type { Readable } from 'node:stream';
 *
 * declare const nodeReadable: Readable;
 * const headers = { 'content-type': 'application/json' };
 * const response = new Response(null, { status: 200, headers });
 * Object.defineProperty(response, RAW_BODY, { value: { chunks: nodeReadable, cancel: () => nodeReadable.destroy() } });
 * ```
 */
export const RAW_BODY: unique symbol = Symbol.for('mcpkit.http.rawBody');

/**
 * A response body as chunks; see {@link RAW_BODY}.
 *
 * @example
 * ```ts
 * import type { Readable } from 'node:stream';
 *
 * declare const readable: Readable;
 * const body: RawBody = { chunks: readable, cancel: () => readable.destroy() };
 * ```
 */
export interface RawBody {
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Stops reading and releases the connection (best effort, never throws). */
  cancel(): void;
  /**
   * Optional: the whole body as UTF-8 text in one step. Used only when the response declares a
   * `Content-Length` within the reader's limit, so the limit still holds.
   */
  text?(): Promise<string>;
}

/** A body to read: a web stream, or the raw chunks a custom fetch offered. */
export type ResponseBody = NonNullable<Response['body']> | RawBody;

/** The body of `response`, raw chunks first. */
export function bodyOf(response: Response): ResponseBody | null {
  return (response as { [RAW_BODY]?: RawBody })[RAW_BODY] ?? response.body;
}

/** Reads a body as text chunks, whichever kind it is. */
export interface TextSource {
  /** The next piece of text, `undefined` at the end. Rejects when the body breaks off. */
  next(): Promise<string | undefined>;
  /** Stops reading; the promise (web streams only) settles once the body is released. */
  cancel(): void | Promise<void>;
}

/** Opens `body` for reading as UTF-8 text. */
export function textSource(body: ResponseBody): TextSource {
  if ('chunks' in body) {
    const iterator = body.chunks[Symbol.asyncIterator]();
    const decoder = new TextDecoder();
    return {
      next: async () => {
        const { value, done } = await iterator.next();
        return done ? decoder.decode() || undefined : decoder.decode(value, { stream: true });
      },
      cancel: () => body.cancel(),
    };
  }
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  return {
    next: async () => {
      const { value, done } = await reader.read();
      return done ? undefined : value;
    },
    // Cancelling reaches the body through the decoder, which frees the connection.
    cancel: () => reader.cancel().catch(() => {}),
  };
}

/** Releases a response body nobody will read, so its connection is freed. */
export function discardBody(response: Response): void {
  const raw = (response as { [RAW_BODY]?: RawBody })[RAW_BODY];
  if (raw) raw.cancel();
  else if (response.body && !response.bodyUsed) response.body.cancel().catch(() => {});
}

/** The media type of a response, lower-cased, without parameters. */
export function mediaType(response: Response): string {
  const value = response.headers.get('content-type') ?? '';
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/** What a failed response says about itself: a JSON-RPC error body, if it has one. */
export interface FailedResponse {
  readonly error: HttpTransportError;
  /** The parsed body, when it was JSON. */
  readonly json: unknown;
}

/**
 * Reads a non-2xx response and builds the error for it. The message carries the status and the
 * server's JSON-RPC error message or short plain-text reason, never a raw body.
 */
export async function readFailure(response: Response, what: string): Promise<FailedResponse> {
  const { text } = await readText(response, ERROR_BODY_LIMIT);
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const reason = serverReason(json) ?? plainTextReason(text, mediaType(response));
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return {
    error: new HttpTransportError(
      `${what} failed: ${status}${reason ? ` (${reason})` : ''}`,
      response.status,
    ),
    json,
  };
}

function serverReason(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const error = (json as { error?: unknown }).error;
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  ) {
    return truncate((error as { message: string }).message);
  }
  if (typeof error === 'string') return truncate(error);
  return undefined;
}

function plainTextReason(text: string, type: string): string | undefined {
  if (type !== 'text/plain' || text.length === 0 || text.length > SHORT_TEXT_LIMIT) return undefined;
  return text.includes('\n') ? undefined : text.trim() || undefined;
}

function truncate(text: string): string {
  return text.length > SHORT_TEXT_LIMIT ? `${text.slice(0, SHORT_TEXT_LIMIT)}…` : text;
}

/**
 * Reads a body as text, up to `limit` characters. `complete` is false when the body was longer
 * (the rest is discarded) or broke off.
 */
export async function readText(
  response: Response,
  limit: number,
): Promise<{ text: string; complete: boolean }> {
  const body = bodyOf(response);
  if (!body) return { text: '', complete: true };
  if ('chunks' in body && body.text && declaredLength(response) <= limit) {
    try {
      return { text: await body.text(), complete: true };
    } catch {
      return { text: '', complete: false };
    }
  }
  const source = textSource(body);
  let text = '';
  let complete = false;
  try {
    while (text.length <= limit) {
      const piece = await source.next();
      if (piece === undefined) {
        complete = true;
        break;
      }
      text += piece;
    }
  } catch {
    // A body that breaks off still leaves us the status to report.
  } finally {
    if (!complete) source.cancel();
  }
  return text.length > limit ? { text: text.slice(0, limit), complete: false } : { text, complete };
}

/** The `Content-Length` of a response in bytes (an upper bound of its characters); Infinity when absent or invalid. */
function declaredLength(response: Response): number {
  const value = response.headers.get('content-length');
  return value !== null && /^\d{1,15}$/.test(value) ? Number(value) : Number.POSITIVE_INFINITY;
}
