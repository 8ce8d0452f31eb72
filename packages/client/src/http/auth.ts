/**
 * The authorization hook of the HTTP transports.
 *
 * Today it carries static or refreshed credentials. The OAuth 2.1 client of the MCP authorization
 * spec (protected-resource discovery, PKCE, token refresh, step-up) will plug in here later as one
 * more implementation of {@link AuthProvider}; the transports will not change.
 * @module
 */

/**
 * Supplies credentials to every HTTP request and reacts to `401 Unauthorized`.
 *
 * `headers()` runs before each request (POST, GET, DELETE), so a provider can hand out a fresh
 * token each time. When the server answers 401, the transport calls `onUnauthorized` with that
 * response (its `WWW-Authenticate` header says what the server wants) and, if it resolves `true`,
 * sends the request once more with newly read headers. A second 401 is an error.
 *
 * An OAuth 2.1 provider (planned) will implement this interface: `headers()` returns the bearer
 * token, `onUnauthorized` runs discovery, authorization and refresh.
 *
 * @example
 * ```ts
 * declare function refresh(tokens: { access: string }): Promise<{ access: string }>;
 * let tokens = { access: 'initial-token' };
 * const auth: AuthProvider = {
 *   headers: () => ({ Authorization: `Bearer ${tokens.access}` }),
 *   async onUnauthorized() {
 *     tokens = await refresh(tokens);
 *     return true; // retry once with the new token
 *   },
 * };
 * const transport = new StreamableHttpClientTransport(url, { authProvider: auth });
 * ```
 */
export interface AuthProvider {
  /** Headers to add to every request, typically `Authorization: Bearer <token>`. */
  headers(): Promise<Record<string, string>> | Record<string, string>;
  /**
   * Called on a 401. Resolve `true` to retry the request once (after refreshing credentials),
   * `false` to fail it. The transport discards the response body afterwards.
   */
  onUnauthorized?(response: Response): Promise<boolean>;
  /**
   * Called on a 403 (typically `insufficient_scope`, for a step-up authorization). Resolve `true`
   * to retry the request once, `false` to let the 403 through as it is.
   */
  onForbidden?(response: Response): Promise<boolean>;
}
