/**
 * The error the HTTP transports raise for anything HTTP-shaped: a status the protocol does not
 * expect, a refused redirect, a stream that could not be resumed.
 * @module
 */

/**
 * An HTTP transport failure. `status` is the HTTP status when there was a response.
 *
 * The message names the status and, when the server explained itself with a JSON-RPC error body,
 * that explanation. It never carries the raw body, which may be an HTML page or hold internals.
 *
 * @example
 * ```ts
 * try {
 *   await client.connect(new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp'));
 * } catch (error) {
 *   if (error instanceof HttpTransportError && error.status === 401) console.error('log in first');
 * }
 * ```
 */
export class HttpTransportError extends Error {
  override name = 'HttpTransportError';
  constructor(
    message: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The auth provider did not finish within `authorizationTimeout` after a 401 (or a step-up 403):
 * a login in a browser that nobody completed. The request it held fails with it; a connection's
 * era probe takes it as final (it does not fall back to `initialize`, which would log in again).
 *
 * @example
 * ```ts
 * declare const authProvider: AuthProvider;
 * try {
 *   await client.connect(new StreamableHttpClientTransport(url, { authProvider, authorizationTimeout: 60_000 }));
 * } catch (error) {
 *   if (error instanceof AuthorizationTimeoutError) console.error('nobody logged in within a minute');
 * }
 * ```
 */
export class AuthorizationTimeoutError extends HttpTransportError {
  override name = 'AuthorizationTimeoutError';
  constructor(
    what: string,
    /** The bound that was reached, in ms. */
    readonly limit: number,
  ) {
    super(
      `${what} waited on authorization (a login) for more than ${limit} ms (authorizationTimeout); gave up`,
    );
  }
}
