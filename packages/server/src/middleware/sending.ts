/**
 * The server's sending side: a message a session sends (a request to the client, a notification)
 * runs through the middleware added with `server.useSending`, and the chain ends in
 * {@link deliver}, which checks, encodes and sends it exactly as the plain path does. Used only
 * when a sending middleware is installed.
 * @module
 */
import { Method, Notification, type OutgoingRequestOptions, type RequestId } from '@mcpkit/core';
import type { RequestContext } from '../context.js';
import type { ServerSession } from '../session.js';
import { ServerMiddlewareContext } from './context.js';

/**
 * @internal Runs one message `session` sends through the server's sending middleware.
 *
 * @example
 * ```ts
 * await sendThrough(session, 'roots/list', undefined, false, undefined, {});
 * ```
 */
export function sendThrough(
  session: ServerSession,
  method: string,
  params: Record<string, unknown> | undefined,
  notification: boolean,
  request: RequestContext | undefined,
  outgoing: { options?: OutgoingRequestOptions; relatedRequestId?: RequestId },
): Promise<unknown> {
  const message = { ...outgoing, notification, noParams: params === undefined };
  const ctx = new ServerMiddlewareContext(method, params ?? {}, session, request, undefined, message);
  return session.server.sendPipeline!(ctx);
}

/**
 * @internal The end of the sending chain: the message as the middleware left it. A request is
 * checked against the client's capabilities and encoded for its revision here, after the chain,
 * so a middleware's change is checked like the caller's own.
 *
 * @example
 * ```ts
 * const run = composeMiddleware(middlewares, deliver);
 * ```
 */
export function deliver(ctx: ServerMiddlewareContext): unknown {
  const session = ctx.session;
  const outgoing = ctx.outgoing!;
  const params = outgoing.noParams && Object.keys(ctx.params).length === 0 ? undefined : ctx.params;
  const request = ctx.request;
  if (outgoing.notification) {
    if (ctx.method === Notification.Progress && request) return request.sendProgressNow(ctx.params);
    return session.notifyNow(ctx.method, params, request ? request.requestId : outgoing.relatedRequestId);
  }
  if (ctx.method === Method.Ping) return session.connection.request(Method.Ping, params, outgoing.options);
  const prepared = session.prepareRequest(ctx.method, params);
  if (request) return request.request.request(ctx.method, prepared, outgoing.options);
  return session.connection.request(ctx.method, prepared, outgoing.options);
}
