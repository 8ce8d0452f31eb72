/**
 * The end of the server's sending chain: a message a session sends (a request to the client, a
 * notification) runs through the middleware added with `server.useSending` (chains.ts), and the
 * chain ends in {@link deliver}, which hands the message as the middleware left it to the kernel's
 * plain path (check, encode, send). Used only when a sending middleware is installed.
 * @module
 */
import { deliverNotification, deliverRequest } from '../kernel/outbound.js';
import type { ServerMiddlewareContext } from './context.js';

/**
 * @internal The end of the sending chain: the message as the middleware left it. A request is
 * checked against the client's capabilities and encoded for its revision there, after the chain,
 * so a middleware's change is checked like the caller's own.
 *
 * @example
 * ```ts
 * const run = composeMiddleware(middlewares, deliver);
 * ```
 */
export function deliver(ctx: ServerMiddlewareContext): unknown {
  const outgoing = ctx.outgoing!;
  const params = outgoing.noParams && Object.keys(ctx.params).length === 0 ? undefined : ctx.params;
  if (outgoing.notification) {
    return deliverNotification(ctx.session, ctx.method, params, ctx.request, outgoing.relatedRequestId);
  }
  return deliverRequest(ctx.session, ctx.method, params, outgoing.options, ctx.request);
}
