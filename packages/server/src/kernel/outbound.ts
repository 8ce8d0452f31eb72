/**
 * The one place a session's outgoing message chooses its way: through the sending seam when a
 * sending middleware is installed, else the plain path below (check, encode, send), which is also
 * where the seam's chain ends. `session.request/notify/ping` and `ctx.progress/requestClient/notify`
 * all come here; none of them tests the seam itself. No object is made on the plain path.
 * @module
 */
import { Method, Notification, type OutgoingRequestOptions, type RequestId } from '@mcpkit/core';
import type { RequestContext } from './context.js';
import type { ServerSession } from './session.js';

/**
 * Sends a request to `session`'s client, on behalf of `request` when given (cancelled with it).
 *
 * @example
 * ```ts
 * const { roots } = await sendRequest<ListRootsResult>(session, 'roots/list', undefined, undefined, undefined);
 * ```
 */
export function sendRequest<R>(
  session: ServerSession,
  method: string,
  params: Record<string, unknown> | undefined,
  options: OutgoingRequestOptions | undefined,
  request: RequestContext | undefined,
): Promise<R> {
  const sending = session.server.sending;
  if (sending !== undefined) {
    return sending.send(session, method, params, false, request, options, undefined) as Promise<R>;
  }
  try {
    return deliverRequest<R>(session, method, params, options, request);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Sends a notification to `session`'s client, tied to `request` (or to `relatedRequestId`).
 * Progress of `request` goes through the request's own progress token.
 *
 * @example
 * ```ts
 * sendNotification(session, 'notifications/resources/updated', { uri }, undefined, undefined);
 * ```
 */
export function sendNotification(
  session: ServerSession,
  method: string,
  params: Record<string, unknown> | undefined,
  request: RequestContext | undefined,
  relatedRequestId: RequestId | undefined,
): void | Promise<void> {
  const sending = session.server.sending;
  if (sending !== undefined && !session.closed) {
    return sending.send(session, method, params, true, request, undefined, relatedRequestId).then(ignore);
  }
  return deliverNotification(session, method, params, request, relatedRequestId);
}

/**
 * The plain path of a request (and the end of the sending chain): checked against the client's
 * capabilities and encoded for its revision, then sent. Throws a `CapabilityError` synchronously.
 *
 * @example
 * ```ts
 * const answer = deliverRequest(session, 'ping', undefined, undefined, undefined);
 * ```
 */
export function deliverRequest<R>(
  session: ServerSession,
  method: string,
  params: Record<string, unknown> | undefined,
  options: OutgoingRequestOptions | undefined,
  request: RequestContext | undefined,
): Promise<R> {
  // The session's own ping: allowed before `initialize` completes, nothing to encode.
  if (method === Method.Ping && request === undefined)
    return session.connection.request<R>(method, params, options);
  const prepared = session.prepareRequest(method, params);
  if (request) return request.request.request<R>(method, prepared, options);
  return session.connection.request<R>(method, prepared, options);
}

/**
 * The plain path of a notification (and the end of the sending chain).
 *
 * @example
 * ```ts
 * deliverNotification(session, 'notifications/message', { level: 'info', data: 'hi' }, undefined, undefined);
 * ```
 */
export function deliverNotification(
  session: ServerSession,
  method: string,
  params: Record<string, unknown> | undefined,
  request: RequestContext | undefined,
  relatedRequestId: RequestId | undefined,
): void | Promise<void> {
  if (request === undefined) return session.notifyNow(method, params, relatedRequestId);
  if (method === Notification.Progress) return request.sendProgressNow(params ?? {});
  return session.notifyNow(method, params, request.requestId);
}

function ignore(): undefined {
  return undefined;
}
