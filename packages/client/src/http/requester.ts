/**
 * The HTTP plumbing both client transports share: headers from the user, the auth hook and the
 * protocol, one retry after a 401, same-origin redirects only, and the failure messages.
 * @module
 */
import type { AuthProvider } from './auth.js';
import { HttpTransportError } from './errors.js';

/**
 * The part of `fetch` the transports use. The global `fetch` fits, and so does a wrapper.
 *
 * @example
 * ```ts
 * const loggingFetch: FetchLike = (url, init) => {
 *   console.error(init.method, url.href);
 *   return fetch(url, init);
 * };
 * ```
 */
export type FetchLike = (url: URL, init: RequestInit) => Promise<Response>;

/**
 * Extra headers: fixed, or computed before every request (e.g. a rotating API key).
 *
 * @example
 * ```ts
 * const fixed: HeadersSource = { 'X-Api-Key': key };
 * declare const keys: { current(): Promise<string> };
 * const rotating: HeadersSource = async () => ({ 'X-Api-Key': await keys.current() });
 * ```
 */
export type HeadersSource = HeaderValues | (() => HeaderValues | Promise<HeaderValues>);

/**
 * What `new Headers()` accepts. Spelled through `Headers` because the global `HeadersInit` exists
 * only in the DOM lib: a Node project compiling with `lib: ["ES2022"]` and `@types/node` lacks it.
 */
type HeaderValues = NonNullable<ConstructorParameters<typeof Headers>[0]>;

/**
 * Options every HTTP client transport accepts.
 *
 * @example
 * ```ts
 * const loggingFetch: FetchLike = (input, init) => {
 *   console.error(init?.method, String(input));
 *   return fetch(input, init);
 * };
 * const options: HttpRequestOptions = { headers: { 'User-Agent': 'my-host/1.0' }, fetch: loggingFetch };
 * ```
 */
export interface HttpRequestOptions {
  /**
   * Headers added to every request. A function is called before each request. Protocol headers
   * (`Accept`, `Content-Type`, `Mcp-Session-Id`, `MCP-Protocol-Version`, `Last-Event-ID`) and the
   * auth provider's headers win over these.
   */
  headers?: HeadersSource;
  /** The `fetch` to use, e.g. one with a proxy agent or logging. Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Supplies credentials and handles 401; see {@link AuthProvider}. */
  authProvider?: AuthProvider;
  /**
   * Largest message accepted from the server (a JSON answer or one SSE event), in characters.
   * Larger ones fail instead of exhausting memory. Default 32 Mi.
   */
  maxMessageSize?: number;
}

/** The default of {@link HttpRequestOptions.maxMessageSize}: big tool results fit, a runaway server does not. */
export const DEFAULT_MAX_MESSAGE_SIZE = 32 * 1024 * 1024;

/** One HTTP exchange to perform. */
export interface HttpCall {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: URL;
  /** Protocol headers; they override user and auth headers of the same name. */
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly signal: AbortSignal;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Statuses after which a client may repeat a POST as-is; the others turn it into a GET. */
const METHOD_PRESERVING_REDIRECTS = new Set([307, 308]);
const MAX_REDIRECTS = 5;
/** How much of an error body is read to find the server's explanation. */
const ERROR_BODY_LIMIT = 64 * 1024;
const SHORT_TEXT_LIMIT = 200;

/**
 * Performs the HTTP requests of one transport.
 * @internal
 */
export class HttpRequester {
  private readonly fetchFn: FetchLike;
  /**
   * The user's fixed headers, checked and lower-cased once, so a request without an auth
   * provider costs one object spread instead of a `Headers` built and copied. Undefined when
   * the headers are computed per request.
   */
  private readonly fixedHeaders: Record<string, string> | undefined;

  constructor(private readonly options: HttpRequestOptions) {
    this.fetchFn = options.fetch ?? ((url, init) => fetch(url, init));
    const source = options.headers;
    this.fixedHeaders = typeof source === 'function' ? undefined : headerObject(new Headers(source));
  }

  /**
   * Sends `call`. On a 401 the auth provider may refresh its credentials; the request is then
   * repeated once with freshly read headers.
   */
  async send(call: HttpCall): Promise<Response> {
    const response = await this.fetchOnce(call);
    const auth = this.options.authProvider;
    // 403 goes to the provider only when it steps up (insufficient_scope); otherwise it is an answer.
    const react =
      response.status === 401
        ? auth?.onUnauthorized
        : response.status === 403
          ? auth?.onForbidden
          : undefined;
    if (!react) return response;
    let retry: boolean;
    try {
      retry = await react.call(auth, response);
    } catch (error) {
      discardBody(response);
      throw error;
    }
    if (!retry && response.status === 403) return response;
    discardBody(response);
    if (!retry)
      throw new HttpTransportError(`${call.method} ${call.url.href} was refused: HTTP 401 Unauthorized`, 401);
    return this.fetchOnce(call);
  }

  private async fetchOnce(call: HttpCall): Promise<Response> {
    const init: RequestInit = {
      method: call.method,
      headers: await this.headersFor(call.headers),
      signal: call.signal,
      redirect: 'manual',
    };
    if (call.body !== undefined) init.body = call.body;
    let target = call.url;
    for (let hops = 0; ; hops++) {
      const response = await this.fetchGuarded(target, init, call);
      if (response.type === 'opaqueredirect') {
        throw new HttpTransportError(
          `${call.method} ${call.url.href} was redirected to a location this fetch hides; it was not followed`,
          response.status,
        );
      }
      if (!REDIRECT_STATUSES.has(response.status)) return response;
      target = this.redirectTarget(response, target, call, hops);
    }
  }

  private async fetchGuarded(target: URL, init: RequestInit, call: HttpCall): Promise<Response> {
    try {
      return await this.fetchFn(target, init);
    } catch (error) {
      if (call.signal.aborted) throw error;
      throw new HttpTransportError(
        `${call.method} ${target.href} failed: ${describeNetworkError(error)}`,
        undefined,
        {
          cause: error,
        },
      );
    }
  }

  /** Follows a redirect only within the origin, so session ids and credentials never leave it. */
  private redirectTarget(response: Response, from: URL, call: HttpCall, hops: number): URL {
    discardBody(response);
    const location = response.headers.get('location');
    const refuse = (why: string) =>
      new HttpTransportError(
        `${call.method} ${call.url.href} was redirected (HTTP ${response.status}); ${why}`,
        response.status,
      );
    if (!location) throw refuse('the response has no Location');
    if (hops >= MAX_REDIRECTS) throw refuse(`gave up after ${MAX_REDIRECTS} redirects`);
    let next: URL;
    try {
      next = new URL(location, from);
    } catch {
      throw refuse('the Location is not a valid URL');
    }
    if (next.origin !== call.url.origin)
      throw refuse(`redirects to another origin (${next.origin}) are not followed`);
    if (call.method !== 'GET' && !METHOD_PRESERVING_REDIRECTS.has(response.status)) {
      throw refuse(`only 307 and 308 redirects are followed for ${call.method}`);
    }
    return next;
  }

  private async headersFor(protocol: Record<string, string>): Promise<Record<string, string>> {
    const auth = this.options.authProvider;
    if (!auth && this.fixedHeaders) return { ...this.fixedHeaders, ...protocol };
    const source = this.options.headers;
    const headers = new Headers(typeof source === 'function' ? await source() : source);
    if (auth) {
      for (const [name, value] of Object.entries(await auth.headers())) headers.set(name, value);
    }
    for (const [name, value] of Object.entries(protocol)) headers.set(name, value);
    return headerObject(headers);
  }
}

/** `headers` as a plain object with lower-case names, which every `fetch` accepts. */
function headerObject(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

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

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && cause !== error.message ? `${error.message} (${cause})` : error.message;
}
