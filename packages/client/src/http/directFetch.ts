/**
 * The seam between the transports and a `fetch` that can answer without building web objects:
 * `@mcpkit/node/http-client`'s fetch offers a direct path under `Symbol.for('mcpkit.http.directFetch')`
 * whose answers carry the parts of a `Response` the transports read (status, `ok`, `headers.get`,
 * the body as raw chunks under `RAW_BODY`) and make a real `Response` on request under
 * `Symbol.for('mcpkit.http.webResponse')`. User code (the auth hooks) always gets a real one.
 * Registered symbols, so the two packages agree without either exporting them.
 * @module
 */

type Fetch = (url: URL, init: RequestInit) => Promise<Response>;

const DIRECT_FETCH = Symbol.for('mcpkit.http.directFetch');
const WEB_RESPONSE = Symbol.for('mcpkit.http.webResponse');

/**
 * The direct path `fetch` offers, or `fetch` itself.
 *
 * @example
 * ```ts
 * const send = directPathOf((url, init) => fetch(url, init)); // no direct path: the same function
 * ```
 */
export function directPathOf(fetch: Fetch): Fetch {
  return (fetch as { [DIRECT_FETCH]?: Fetch })[DIRECT_FETCH] ?? fetch;
}

/**
 * `response` as a real web `Response`, for code outside the transports.
 *
 * @example
 * ```ts
 * declare const response: Response;
 * declare const auth: { onUnauthorized(response: Response): Promise<boolean> };
 * await auth.onUnauthorized(webResponseOf(response));
 * ```
 */
export function webResponseOf(response: Response): Response {
  const make = (response as { [WEB_RESPONSE]?: () => Response })[WEB_RESPONSE];
  return make ? make.call(response) : response;
}
