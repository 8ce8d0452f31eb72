/**
 * The one place a session's outgoing message chooses its way: through the sending seam when a
 * sending middleware is installed, else the plain path below (check, encode, send), which is also
 * where the seam's chain ends. `session.request/notify/ping` and `ctx.progress/requestClient/notify`
 * all come here; none of them tests the seam itself. No object is made on the plain path.
 * @module
 */
import { Method, Notification } from '@mcpkit/core';
import type { NotificationRoute, RequestRoute } from './ports.js';

/**
 * Sends a request to `session`'s client, on behalf of `request` when given (cancelled with it).
 *
 * @example
 * ```ts
 * const { roots } = (await sendRequest(session, 'roots/list', undefined, undefined, undefined)) as ListRootsResult;
 * ```
 */
export const sendRequest: RequestRoute = (session, method, params, options, request) => {
  const sending = session.server.sending;
  if (sending !== undefined) return sending(session, method, params, false, request, options, undefined);
  try {
    return deliverRequest(session, method, params, options, request);
  } catch (error) {
    return Promise.reject(error);
  }
};

/**
 * Sends a notification to `session`'s client, tied to `request` (or to `relatedRequestId`).
 * Progress of `request` goes through the request's own progress token.
 *
 * @example
 * ```ts
 * sendNotification(session, 'notifications/resources/updated', { uri }, undefined, undefined);
 * ```
 */
export const sendNotification: NotificationRoute = (session, method, params, request, relatedRequestId) => {
  const sending = session.server.sending;
  if (sending !== undefined && !session.closed) {
    return sending(session, method, params, true, request, undefined, relatedRequestId).then(ignore);
  }
  return deliverNotification(session, method, params, request, relatedRequestId);
};

/**
 * The plain path of a request (and the end of the sending chain): checked against the client's
 * capabilities and encoded for its revision, then sent. Throws a `CapabilityError` synchronously.
 *
 * @example
 * ```ts
 * const answer = deliverRequest(session, 'ping', undefined, undefined, undefined);
 * ```
 */
export const deliverRequest: RequestRoute = (session, method, params, options, request) => {
  // The session's own ping: allowed before `initialize` completes, nothing to encode.
  if (method === Method.Ping && request === undefined)
    return session.connection.request(method, params, options);
  const prepared = session.prepareRequest(method, params);
  if (request) return request.request.request(method, prepared, options);
  return session.connection.request(method, prepared, options);
};

/**
 * The plain path of a notification (and the end of the sending chain).
 *
 * @example
 * ```ts
 * deliverNotification(session, 'notifications/message', { level: 'info', data: 'hi' }, undefined, undefined);
 * ```
 */
export const deliverNotification: NotificationRoute = (
  session,
  method,
  params,
  request,
  relatedRequestId,
) => {
  if (request === undefined) return session.notifyNow(method, params, relatedRequestId);
  if (method === Notification.Progress) return request.sendProgressNow(params ?? {});
  return session.notifyNow(method, params, request.requestId);
};

function ignore(): undefined {
  return undefined;
}
