/**
 * The shape of every mcpkit HTTP handler: a function of exactly one `Request`, which any runtime
 * can take as its `fetch` (`Bun.serve({ fetch })`, `Deno.serve(handler)`, a Worker's
 * `export default { fetch }`), and a separate `handle(request, extra)` for hosts that know more.
 *
 * Why two entry points: runtimes call `fetch` with their own second argument (Bun its `Server`,
 * Deno its `ServeHandlerInfo`, Workers their `env`). If the function read a second argument, such
 * an object would become the request's extras, and an `env` binding named `authInfo` would
 * authenticate every caller. So the function never looks past its first argument, and the verified
 * caller can only come through `handle`, which a runtime never calls.
 * @module
 */
import type { AuthInfo } from '@mcpkit/core';
import type { CorsPolicy } from './cors.js';
import { RAW_HTTP_HANDLER, type RawHttpHandler, type RawHttpRequest } from './rawHttp.js';
import { webRequestView } from './requestView.js';
import { type Reply, toResponse } from './responses.js';

/** What a trusted host adds to a request besides the `Request` itself (see {@link McpHttpHandler.handle}). */
export interface HttpRequestExtra {
  /** The verified identity of the caller (from an authorization layer); handlers see it as `ctx.authInfo`. */
  readonly authInfo?: AuthInfo;
}

/**
 * An mcpkit HTTP endpoint.
 *
 * @example
 * ```ts
 * declare const Bun: { serve(options: { fetch(request: Request, server: unknown): Promise<Response> }): void };
 * declare const verified: AuthInfo;
 * const handler = createStreamableHttpHandler(server);
 * Bun.serve({ fetch: handler });                      // one argument: the runtime's second is never read
 * const authed = (request: Request) => handler.handle(request, { authInfo: verified });
 * ```
 */
export interface McpHttpHandler {
  /**
   * Serves one request. Takes exactly one argument: whatever else a runtime passes (Bun's
   * `Server`, Deno's `ServeHandlerInfo`, a Worker's `env`) is ignored, so it can never
   * authenticate anyone.
   */
  (request: Request): Promise<Response>;
  /**
   * Serves one request with what the host verified about it, such as the caller's identity. Call
   * it from your own authentication layer (`@mcpkit/auth`'s `protect` does); never hand it to a
   * runtime as `fetch`.
   */
  handle(request: Request, extra: HttpRequestExtra): Promise<Response>;
  /**
   * Adds the CORS headers this handler gives its own answers (option `cors`) to a response made
   * outside it, such as an authentication layer's 401, so that the page can read it. Returns the
   * response as it is when CORS is off.
   */
  applyCors(request: Request, response: Response): Response;
  /** Ends every session and stops the handler's timer. */
  close(): Promise<void>;
  /** Sessions currently open. */
  readonly sessionCount: number;
  /** SSE responses currently open: POST answers streamed as SSE, GET streams, legacy streams. */
  readonly streamCount: number;
  /**
   * Events held by the handler's event store, when the store says (`InMemoryEventStore` does);
   * `undefined` with no store or one that does not count (a shared store).
   */
  readonly storedEvents: number | undefined;
}

/** The logic behind a handler, over the request view shared with host adapters. */
export interface HttpEndpoint {
  handle(request: RawHttpRequest, extra: HttpRequestExtra | undefined): Promise<Reply>;
  close(): Promise<void>;
  readonly sessionCount: number;
  readonly cors: CorsPolicy | undefined;
  /** The open SSE connections (for `streamCount`). */
  readonly connections: { readonly size: number };
  /** The event store, if any (for `storedEvents`; see `EventStore.size`). */
  readonly eventStore?: { readonly size?: number } | undefined;
}

/**
 * Wraps an endpoint in the one-argument handler function, with `handle`, `close`,
 * `sessionCount`, `streamCount`, `storedEvents`, and the lower-level entry host adapters look for.
 *
 * @example
 * ```ts
 * const handler = toFetchHandler<StreamableHttpHandler>(new StreamableHttpEndpoint(server, options));
 * ```
 */
export function toFetchHandler<Handler extends McpHttpHandler>(endpoint: HttpEndpoint): Handler {
  // Exactly one parameter, on purpose: see the module comment.
  const handler = ((request: Request) =>
    endpoint.handle(webRequestView(request), undefined).then(toResponse)) as Handler;
  const handle = (request: Request, extra: HttpRequestExtra): Promise<Response> =>
    endpoint.handle(webRequestView(request), extra).then(toResponse);
  const raw: RawHttpHandler<HttpRequestExtra> = (request, extra) => endpoint.handle(request, extra);
  Object.defineProperties(handler, {
    handle: { value: handle },
    applyCors: {
      value: (request: Request, response: Response) =>
        endpoint.cors ? endpoint.cors.decorateResponse(request, response) : response,
    },
    close: { value: () => endpoint.close() },
    sessionCount: { get: () => endpoint.sessionCount },
    streamCount: { get: () => endpoint.connections.size },
    storedEvents: { get: () => endpoint.eventStore?.size },
    [RAW_HTTP_HANDLER]: { value: raw },
  });
  return handler;
}
