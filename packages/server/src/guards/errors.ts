/**
 * The wire errors the guards answer with: one documented code each, and `data` a client can act
 * on. JSON-RPC leaves -32000 to -32099 to implementations; MCP assigns none of these.
 * @module
 */
import { McpError } from '@mcpkit/core';

/**
 * The JSON-RPC error codes of the guards.
 *
 * - `TooManyRequests` (-32029, after HTTP 429): a rate limit or a concurrency limit refused the
 *   request; `data.retryAfterMs` says when to try again (rate limit), `data.limit` how many may run
 *   at once (concurrency limit).
 * - `Timeout` (-32001): a deadline passed; the handler's signal was aborted; `data.timeoutMs`.
 *
 * @example
 * ```ts
 * if (error instanceof McpError && error.code === GuardErrorCode.TooManyRequests) await sleep(error.data.retryAfterMs);
 * ```
 */
export const GuardErrorCode = {
  TooManyRequests: -32029,
  Timeout: -32001,
} as const;

/**
 * The refusal of a rate limit: retry after `retryAfterMs`.
 *
 * @example
 * ```ts
 * throw rateLimited(250); // code -32029, data { retryAfterMs: 250 }
 * ```
 */
export function rateLimited(retryAfterMs: number): McpError {
  const wait = Math.max(1, Math.ceil(retryAfterMs));
  return new McpError(GuardErrorCode.TooManyRequests, `Rate limit exceeded: retry after ${wait} ms`, {
    retryAfterMs: wait,
  });
}

/**
 * The refusal of a concurrency limit: `limit` requests of this client are already running.
 *
 * @example
 * ```ts
 * throw tooManyInFlight(4); // code -32029, data { limit: 4 }
 * ```
 */
export function tooManyInFlight(limit: number): McpError {
  return new McpError(
    GuardErrorCode.TooManyRequests,
    `Too many requests in flight: at most ${limit} at once`,
    { limit },
  );
}

/**
 * The answer to a call that passed its deadline.
 *
 * @example
 * ```ts
 * throw deadlinePassed('search', 5_000); // code -32001, data { timeoutMs: 5000 }
 * ```
 */
export function deadlinePassed(tool: string, timeoutMs: number): McpError {
  return new McpError(GuardErrorCode.Timeout, `Tool "${tool}" exceeded its time limit of ${timeoutMs} ms`, {
    timeoutMs,
  });
}
