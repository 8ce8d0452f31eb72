/**
 * The HTTP plumbing both client transports share: headers from the user, the auth hook and the
 * protocol, one retry after a 401, same-origin redirects only, and the network failure messages
 * (reading responses is `responseBody.ts`).
 * @module
 */
import type { MessageSink } from '@mcpkit/core';
import type { AuthProvider } from './auth.js';
import { awaitAuthorization, DEFAULT_AUTHORIZATION_TIMEOUT } from './authorizationWait.js';
import { directPathOf, webResponseOf } from './directFetch.js';
import { type AuthorizationTimeoutError, HttpTransportError } from './errors.js';
import { FETCH_ABORT, FetchAbort, isAborted } from './fetchAbort.js';
import type { Outgoing } from './messages.js';
import { discardBody } from './responseBody.js';

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
   * How long a request waits on `authProvider` after a 401 (or a step-up 403), in ms: a person
   * logging in in a browser. That wait does not count against the request's `timeout` or
   * `maxTotalTimeout`, nor the handshake's limit or the era probe's (`eraProbeTimeout`): their
   * clocks stop while it runs and go on when the request is sent again. Past this bound the
   * request fails with an {@link AuthorizationTimeoutError}. Cancelling the request (its
   * `signal`) ends the wait at once. Default {@link DEFAULT_AUTHORIZATION_TIMEOUT} (10 minutes).
   */
  authorizationTimeout?: number;
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
  /** Aborts the exchange (a `FetchAbort` from the transport, whose signal is made only if asked for). */
  readonly controller: AbortController;
  /** The JSON-RPC message a POST carries: its requests wait while the auth provider authorizes. */
  readonly message?: Outgoing;
  /** Told when the exchange starts (true) and stops (false) waiting on the auth provider. */
  readonly authorizing?: (waiting: boolean) => void;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Statuses after which a client may repeat a POST as-is; the others turn it into a GET. */
const METHOD_PRESERVING_REDIRECTS = new Set([307, 308]);
const MAX_REDIRECTS = 5;

/**
 * Performs the HTTP requests of one transport.
 * @internal
 */
export class HttpRequester {
  private readonly fetchFn: FetchLike;
  /** The fetch is a direct path: it takes a `FetchAbort` instead of an `AbortSignal`. */
  private readonly direct: boolean;
  /**
   * The user's fixed headers, checked and lower-cased once, so a request without an auth
   * provider costs one object spread instead of a `Headers` built and copied. Undefined when
   * the headers are computed per request.
   */
  private readonly fixedHeaders: Record<string, string> | undefined;
  /** No user headers at all: the protocol headers are sent as they are, without a copy. */
  private readonly noFixedHeaders: boolean;
  /** The connection, told when requests wait on the auth provider (set by the transport's `start`). */
  sink: MessageSink | undefined;

  constructor(private readonly options: HttpRequestOptions) {
    // A fetch with a direct path (the undici one of @mcpkit/node/http-client) is used through it.
    this.fetchFn = options.fetch ? directPathOf(options.fetch) : (url, init) => fetch(url, init);
    this.direct = options.fetch !== undefined && this.fetchFn !== options.fetch;
    const source = options.headers;
    this.fixedHeaders = typeof source === 'function' ? undefined : headerObject(new Headers(source));
    this.noFixedHeaders = this.fixedHeaders !== undefined && Object.keys(this.fixedHeaders).length === 0;
  }

  /**
   * Sends `call`. On a 401 the auth provider may refresh its credentials; the request is then
   * repeated once with freshly read headers. The wait on the provider is bounded by
   * `authorizationTimeout`, and the requests of `call.message` are told to the sink as waiting
   * meanwhile (their timeouts stop).
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
      retry = await awaitAuthorization({
        reaction: react.call(auth, webResponseOf(response)),
        what: `${call.method} ${call.url.href}`,
        controller: call.controller,
        message: call.message,
        sink: this.sink,
        onWait: call.authorizing,
        limit: this.options.authorizationTimeout ?? DEFAULT_AUTHORIZATION_TIMEOUT,
      });
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
    const init: RequestInit & { [FETCH_ABORT]?: FetchAbort } = {
      method: call.method,
      headers: await this.headersFor(call.headers),
      redirect: 'manual',
    };
    if (this.direct && call.controller instanceof FetchAbort) init[FETCH_ABORT] = call.controller;
    else init.signal = call.controller.signal;
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
      if (isAborted(call.controller)) throw error;
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
    if (!auth && this.noFixedHeaders) return protocol;
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

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && cause !== error.message ? `${error.message} (${cause})` : error.message;
}
