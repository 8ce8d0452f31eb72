/**
 * What the connection tells an observer, as plain functions: the outcome of an outgoing request,
 * its duration, and the `_meta` an observer adds (kept out of connection.ts, which is long enough).
 * @module
 */
import {
  type ObservedMessage,
  ObservedNotification,
  type ObservedOutcome,
  type ObservedRole,
} from '../observer.js';
import { toError } from '../shared.js';
import type { ConnectionOptions } from './connectionOptions.js';
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

/**
 * Runs `run` (the send of a notification, or the delivery of a received one) under the
 * connection's observer: started, then run (a received one inside `runHandler`), then finished. A
 * sent notification takes the observer's `_meta` entries. Observer failures go to `onError`.
 */
export function observeNotification<T>(
  role: ObservedRole,
  message: JsonRpcNotification,
  options: ConnectionOptions,
  run: () => T,
): T {
  const observer = options.observer!;
  const observed = new ObservedNotification(role, message.method, message.params, options.observedSession);
  const report = (error: unknown) => {
    try {
      options.onError?.(toError(error));
    } catch {
      // As the connection's own report: a failing error hook must not break the message.
    }
  };
  try {
    observer.notificationStarted?.(observed);
  } catch (error) {
    report(error);
  }
  if (observed.meta && role === 'client') message.params = withMeta(message.params, observed.meta);
  try {
    return role === 'server' && observer.runHandler ? observer.runHandler(observed, run) : run();
  } finally {
    try {
      observer.notificationFinished?.(observed, elapsed(observed));
    } catch (error) {
      report(error);
    }
  }
}
