/**
 * Who a session belongs to: the principal it is bound to, the check a request must pass to use
 * it, and the key its client is counted under for the per-client quota.
 * @module
 */
import type { AuthInfo } from '@mcpkit/core';

/**
 * The key a client's sessions are counted under: its principal when authenticated, else its
 * address as the socket reports it (never a header). `undefined` when neither is known.
 *
 * @example
 * ```ts
 * clientKeyOf(undefined, '127.0.0.1'); // 'address:127.0.0.1'
 * ```
 */
export function clientKeyOf(
  authInfo: AuthInfo | undefined,
  remoteAddress: string | undefined,
): string | undefined {
  if (authInfo?.clientId !== undefined) return `principal:${authInfo.clientId}`;
  return remoteAddress === undefined ? undefined : `address:${remoteAddress}`;
}

/**
 * The principal a session is bound to: the token's subject together with the client it was issued
 * to (`extra.sub`, as the built-in verifiers of `@mcpkit/auth/server` set it), else the client
 * alone. `undefined` when the request carries neither, and then the session is not bound.
 *
 * @example
 * ```ts
 * principalOf({ token: 't', clientId: 'app', scopes: [] }); // 'client:app'
 * ```
 */
export function principalOf(authInfo: AuthInfo | undefined): string | undefined {
  if (!authInfo) return undefined;
  const subject = authInfo.extra?.sub;
  // JSON keeps the parts apart: a client id may itself contain ':' (a metadata-document URL).
  if (typeof subject === 'string') return `sub:${JSON.stringify([authInfo.clientId ?? null, subject])}`;
  return authInfo.clientId === undefined ? undefined : `client:${authInfo.clientId}`;
}

/**
 * Whether a request with `authInfo` may use a session bound to `owner`. A session presented with
 * another principal's token is treated as unknown (404), so an id that leaked is worth nothing
 * without its owner's token, and the refusal says nothing about whether the id exists.
 *
 * @example
 * ```ts
 * mayUseSession(undefined, authInfo); // true: an unbound session
 * ```
 */
export function mayUseSession(owner: string | undefined, authInfo: AuthInfo | undefined): boolean {
  return owner === undefined || owner === principalOf(authInfo);
}
