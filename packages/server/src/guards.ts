/**
 * `@mcpkit/server/guards`: built-in guards, each an ordinary middleware with defaulted options
 * (issue 21, section 2). A subpath of its own, so a server that uses none loads none.
 *
 * - {@link rateLimit}: a token bucket per client (principal, else session, else address), refusing
 *   with `-32029` and `data.retryAfterMs`; its `httpGate` refuses whole POSTs with 429.
 * - {@link concurrencyLimit}: at most N requests in flight per client; refuse, or queue up to a bound.
 * - {@link deadline}: a server-side time limit per tool; the handler's signal aborts, the caller
 *   gets `-32001`.
 *
 * @example
 * ```ts
 * import { concurrencyLimit, deadline, rateLimit } from '@mcpkit/server/guards';
 * server.use(rateLimit({ rate: 20 })).use(concurrencyLimit({ max: 4 })).use(deadline({ ms: 30_000 }));
 * ```
 * @module
 */
export {
  type BucketLimit,
  MemoryBucketStore,
  type MemoryBucketStoreOptions,
  type RateLimitStore,
} from './guards/bucketStore.js';
export { clientKey } from './guards/clientKey.js';
export { type ConcurrencyLimitOptions, concurrencyLimit } from './guards/concurrency.js';
export { type DeadlineOptions, deadline } from './guards/deadline.js';
export { deadlinePassed, GuardErrorCode, rateLimited, tooManyInFlight } from './guards/errors.js';
export {
  type HttpGate,
  type HttpGateRequest,
  type RateLimitGuard,
  type RateLimitOptions,
  rateLimit,
} from './guards/rateLimit.js';
