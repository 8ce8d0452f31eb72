/**
 * Who a request comes from, as the guards count it.
 * @module
 */
import type { AuthInfo } from '@mcpkit/core';
import type { ServerSession } from '../kernel/session.js';
import type { ServerMiddlewareContext } from '../middleware/context.js';

/**
 * The default key of a guard: the principal (`authInfo.clientId`, from the authorization layer),
 * else the Streamable HTTP session, else the peer's address (stateless HTTP), else the session's
 * own stable key (stdio, in-memory). The HTTP gate of the rate limit computes the same key from
 * the request before its body is read.
 *
 * @example
 * ```ts
 * server.use(rateLimit({ key: (ctx) => ctx.header('x-tenant') ?? clientKey(ctx) }));
 * ```
 */
export function clientKey(ctx: ServerMiddlewareContext): string {
  const principal = ctx.authInfo?.clientId;
  if (principal !== undefined) return `principal:${principal}`;
  // The session's key is the same on every request: built once per session, not per request.
  let key = sessionKeys.get(ctx.session);
  if (key === undefined) {
    key =
      ctx.sessionId !== undefined
        ? `session:${ctx.sessionId}`
        : ctx.remoteAddress !== undefined
          ? `address:${ctx.remoteAddress}`
          : `session:${ctx.session.key}`;
    // Stateless HTTP serves each request on a throwaway session: its address key is not kept.
    if (ctx.sessionId !== undefined || ctx.remoteAddress === undefined) sessionKeys.set(ctx.session, key);
  }
  return key;
}

const sessionKeys = new WeakMap<ServerSession, string>();

/** @internal The key of a principal, if the request carries one. */
export function principalKey(authInfo: AuthInfo | undefined): string | undefined {
  return authInfo?.clientId === undefined ? undefined : `principal:${authInfo.clientId}`;
}
