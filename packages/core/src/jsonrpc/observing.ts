/**
 * What the connection tells an observer, as plain functions: the outcome of an outgoing request,
 * its duration, and the `_meta` an observer adds (kept out of connection.ts, which is long enough).
 * @module
 */
import {
  type ObservedMessage,
  ObservedNotification,
  type ObservedOutcome,
  type ObservedSession,
  type Observer,
} from '../observer.js';
import { ConnectionClosedError, McpError, RequestCancelledError, RequestTimeoutError } from './errors.js';
import type { JsonRpcNotification } from './messages.js';

/** A copy of `params` whose `_meta` also carries `meta` (the caller's objects stay as they were). */
export function withMeta(
  params: Record<string, unknown> | undefined,
  meta: Record<string, string>,
): Record<string, unknown> {
  const given = params?._meta;
  const merged = typeof given === 'object' && given !== null ? { ...(given as object), ...meta } : meta;
  return { ...params, _meta: merged };
}

export function elapsed(observed: ObservedMessage): number {
  return performance.now() - observed.startedAt;
}

/** How an outgoing request ended, as an observer is told. */
export function outgoingOutcome(
  observed: ObservedMessage,
  result: unknown,
  error: Error | undefined,
): ObservedOutcome {
  const durationMs = elapsed(observed);
  if (!error) return { durationMs, result: result as Record<string, unknown> };
  if (error instanceof McpError) return { durationMs, errorCode: error.code, errorMessage: error.message };
  if (error instanceof RequestTimeoutError) return { durationMs, failure: 'timeout' };
  if (error instanceof RequestCancelledError) return { durationMs, failure: 'cancelled' };
  if (error instanceof ConnectionClosedError) return { durationMs, failure: 'closed' };
  return { durationMs, failure: error.name };
}

/** Whether `observer` listens to notifications (else the engine skips them: no record built). */
export function watchesNotifications(observer: Observer | undefined): observer is Observer {
  return observer !== undefined && !!(observer.notificationStarted || observer.notificationFinished);
}

/**
 * Sends `message` through `send` under the observer: started (its `_meta` entries join the
 * message), sent, finished. Observer failures go to `report`, never to the sender.
 */
export function sendObserved<T>(
  observer: Observer,
  session: ObservedSession | undefined,
  message: JsonRpcNotification,
  report: (error: unknown) => void,
  send: () => T,
): T {
  const observed = new ObservedNotification('client', message.method, message.params, session);
  guard(report, () => observer.notificationStarted?.(observed));
  if (observed.meta) message.params = withMeta(message.params, observed.meta);
  try {
    return send();
  } finally {
    guard(report, () => observer.notificationFinished?.(observed, elapsed(observed)));
  }
}

/** Runs the delivery of a received notification under the observer (inside its context). */
export function receiveObserved(
  observer: Observer,
  session: ObservedSession | undefined,
  message: JsonRpcNotification,
  report: (error: unknown) => void,
  deliver: () => void,
): void {
  const observed = new ObservedNotification('server', message.method, message.params, session);
  guard(report, () => observer.notificationStarted?.(observed));
  try {
    if (observer.runHandler) observer.runHandler(observed, deliver);
    else deliver();
  } finally {
    guard(report, () => observer.notificationFinished?.(observed, elapsed(observed)));
  }
}

function guard(report: (error: unknown) => void, fn: () => void): void {
  try {
    fn();
  } catch (error) {
    report(error);
  }
}
