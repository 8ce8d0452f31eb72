/**
 * A lower-level entry into the HTTP handlers, for hosts that are not web-standard underneath.
 *
 * The Streamable HTTP and legacy SSE handlers are `(Request) => Promise<Response>` functions, and
 * that stays their contract. On Node, though, building a `Request` (with its `Headers`, body
 * stream and linked `AbortSignal`) and reading back a `Response` costs more CPU than the whole
 * MCP exchange it carries (measured: over a third of a JSON `tools/call`). So a handler may also
 * expose, under {@link RAW_HTTP_HANDLER}, the same logic over this minimal view of a request and
 * a plain reply; a host adapter that finds it (`@mcpkit/node/http` does) uses it, and everything
 * else keeps using the web-standard function. Both paths run the same code and answer alike.
 *
 * This is a contract between the HTTP handlers and host adapters, so it lives here with the
 * handlers, not in `@mcpkit/core` (which knows nothing of HTTP). The symbol is a registry symbol:
 * an adapter may recreate it with `Symbol.for` instead of importing this package at run time.
 * @module
 */

/**
 * The part of `AbortSignal` the handlers use to notice a client that went away.
 *
 * @example
 * ```ts
 * const signal: AbortSignalLike = new AbortController().signal;
 * ```
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * One HTTP request as the handlers read it.
 *
 * @example
 * ```ts
 * declare const request: RawHttpRequest;
 * const accept = request.header('accept'); // null when absent
 * const body = await request.readBody(4 * 1024 * 1024);
 * ```
 */
export interface RawHttpRequest {
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The absolute request URL. */
  readonly url: string;
  /** A header by lower-case name, repeated values joined by `", "` as `Headers.get` does; null when absent. */
  header(name: string): string | null;
  /**
   * The body's bytes. Past `limit` bytes reading stops (the rest is discarded) with `'too-large'`;
   * a body that fails mid-way gives `'aborted'`. Read once.
   */
  readBody(limit: number): Promise<Uint8Array | 'too-large' | 'aborted'>;
  /**
   * The peer's network address as the host's socket reports it (never read from a header), when
   * the host knows it. Used for per-client session quotas.
   */
  readonly remoteAddress?: string | undefined;
  /** Aborts when the client goes away before the reply is complete. */
  readonly signal: AbortSignalLike;
  /** The request as a web `Request`, for handlers that want one; made on first use, body not readable. */
  toRequest(): Request;
}

/**
 * A reply: a status, headers (owned by the receiver, which may add to them), and a body that is
 * text, a byte stream (an SSE stream is written as it comes) or nothing.
 *
 * @example
 * ```ts
 * const reply: RawHttpReply = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
 * ```
 */
export interface RawHttpReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string | ReadableStream<Uint8Array> | null;
}

/**
 * The lower-level form of an HTTP handler: the same answers as its web-standard form.
 *
 * @example
 * ```ts
 * declare const handler: object;
 * const raw = (handler as { [RAW_HTTP_HANDLER]?: RawHttpHandler })[RAW_HTTP_HANDLER];
 * ```
 */
export type RawHttpHandler<Extra = unknown> = (
  request: RawHttpRequest,
  extra?: Extra,
) => Promise<RawHttpReply>;

/**
 * Where a web-standard handler function keeps its {@link RawHttpHandler}. A registry symbol, so
 * adapters find it across package copies.
 *
 * @example
 * ```ts
 * declare const handler: { [RAW_HTTP_HANDLER]?: RawHttpHandler };
 * const raw = typeof handler[RAW_HTTP_HANDLER] === 'function' ? handler[RAW_HTTP_HANDLER] : undefined;
 * ```
 */
export const RAW_HTTP_HANDLER: unique symbol = Symbol.for('mcpkit.rawHttpHandler');
