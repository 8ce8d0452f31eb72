/**
 * What the connection tells an observer, as plain functions: the outcome of an outgoing request,
 * its duration, and the `_meta` an observer adds (kept out of connection.ts, which is long enough).
 * @module
 */
import type { ObservedOutcome, ObservedRequest } from '../observer.js';
import { ConnectionClosedError, McpError, RequestCancelledError, RequestTimeoutError } from './errors.js';

/** A copy of `params` whose `_meta` also carries `meta` (the caller's objects stay as they were). */
export function withMeta(
  params: Record<string, unknown> | undefined,
  meta: Record<string, string>,
): Record<string, unknown> {
  const given = params?._meta;
  const merged = typeof given === 'object' && given !== null ? { ...(given as object), ...meta } : meta;
  return { ...params, _meta: merged };
}

export function elapsed(observed: ObservedRequest): number {
  return performance.now() - observed.startedAt;
}

/** How an outgoing request ended, as an observer is told. */
export function outgoingOutcome(
  observed: ObservedRequest,
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
