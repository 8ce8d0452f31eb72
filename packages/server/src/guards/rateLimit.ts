/**
 * The rate-limit guard: a token bucket per client (optionally per method or per tool), refusing
 * with `-32029` and `data.retryAfterMs`, plus a gate for the HTTP handler that refuses a whole
 * POST with 429 before its body is read.
 * @module
 */
import type { AuthInfo } from '@mcpkit/core';
import type { ServerMiddleware, ServerMiddlewareContext } from '../middleware/context.js';
import { type BucketLimit, MemoryBucketStore, type RateLimitStore } from './bucketStore.js';
import { clientKey, principalKey } from './clientKey.js';
import { rateLimited } from './errors.js';

/** Options of {@link rateLimit}; every one has a default. */
export interface RateLimitOptions {
  /** Requests per second each key may make, on average. Default 10. */
  rate?: number;
  /** How many may come at once after a quiet spell (the bucket's size). Default twice `rate`. */
  burst?: number;
  /**
   * One bucket per client (default), per client and method, or per client and tool (`tools/call`
   * by tool name, any other method by method name).
   */
  per?: 'client' | 'method' | 'tool';
  /** Which client a request counts against; `undefined` leaves it unlimited. Default {@link clientKey}. */
  key?: (ctx: ServerMiddlewareContext) => string | undefined;
  /**
   * Limit only these methods. Default: every request but `initialize`, which opens a session (the
   * HTTP handler's session caps govern that); notifications are never refused.
   */
  methods?: readonly string[];
  /** Where buckets live. Default a {@link MemoryBucketStore} with `maxKeys` and `now`. */
  store?: RateLimitStore;
  /** For the default store: buckets kept at most. Default 10,000. */
  maxKeys?: number;
  /** For the default store: the clock in milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** What the HTTP gate sees of a request: its headers and the socket's address. */
export interface HttpGateRequest {
  header(name: string): string | null;
  readonly remoteAddress?: string | undefined;
}

/**
 * Decides, before a POST's body is read, whether to refuse it: the milliseconds to wait (a
 * positive number: the handler answers 429 with `Retry-After`), else `0` or `undefined`.
 */
export type HttpGate = (
  request: HttpGateRequest,
  extra?: { readonly authInfo?: AuthInfo },
) => number | undefined | Promise<number | undefined>;

/** The rate-limit middleware, with its store and its HTTP gate. */
export interface RateLimitGuard extends ServerMiddleware {
  /** The bucket store. */
  readonly store: RateLimitStore;
  /**
   * For `createStreamableHttpHandler(server, { gate: limiter.httpGate })`: refuses a POST from a
   * client whose bucket is empty with 429 and `Retry-After`, before its body is read. It looks
   * without taking a token (the middleware takes one per request), so it never double-counts. It
   * knows only the per-client bucket of the default key: with `per` or `key` set it admits all.
   */
  readonly httpGate: HttpGate;
}

/**
 * A token-bucket rate limit per client: principal, else session, else remote address. A refused
 * request gets `McpError(-32029, …, { retryAfterMs })`; around `tools/call` it reaches the client
 * as that error, not as a tool result.
 *
 * @throws {TypeError} for a rate or burst that is not a positive number (burst at least 1).
 * @example
 * ```ts
 * import { rateLimit } from '@mcpkit/server/guards';
 * const limiter = rateLimit({ rate: 20 }); // 20 per second, bursts of 40
 * server.use(limiter);
 * const handler = createStreamableHttpHandler(server, { gate: limiter.httpGate });
 * ```
 */
export function rateLimit(options: RateLimitOptions = {}): RateLimitGuard {
  const rate = options.rate ?? 10;
  const burst = options.burst ?? rate * 2;
  if (!(rate > 0) || !Number.isFinite(rate)) throw new TypeError('rateLimit: rate must be a positive number');
  if (!(burst >= 1) || !Number.isFinite(burst)) throw new TypeError('rateLimit: burst must be at least 1');
  const limit: BucketLimit = { rate, burst };
  const store = options.store ?? new MemoryBucketStore({ maxKeys: options.maxKeys, now: options.now });
  const keyOf = options.key ?? clientKey;
  const per = options.per ?? 'client';
  const methods = options.methods ? new Set(options.methods) : undefined;

  const middleware: ServerMiddleware = (ctx, next) => {
    if (ctx.isNotification || (methods ? !methods.has(ctx.method) : ctx.method === 'initialize')) {
      return next();
    }
    const client = keyOf(ctx);
    if (client === undefined) return next();
    const wait = store.take(bucketKey(client, per, ctx), limit);
    if (typeof wait === 'number') {
      if (wait > 0) throw rateLimited(wait);
      return next();
    }
    return wait.then((ms) => {
      if (ms > 0) throw rateLimited(ms);
      return next();
    });
  };
  const gated = per === 'client' && options.key === undefined && store.peek !== undefined;
  const httpGate: HttpGate = (request, extra) => {
    if (!gated) return undefined;
    const sessionId = request.header('mcp-session-id');
    const key =
      principalKey(extra?.authInfo) ??
      (sessionId !== null ? `session:${sessionId}` : undefined) ??
      (request.remoteAddress !== undefined ? `address:${request.remoteAddress}` : undefined);
    return key === undefined ? undefined : store.peek!(key, limit);
  };
  return Object.assign(middleware, { store, httpGate });
}

function bucketKey(client: string, per: 'client' | 'method' | 'tool', ctx: ServerMiddlewareContext): string {
  if (per === 'client') return client;
  if (per === 'tool' && ctx.method === 'tools/call' && typeof ctx.params.name === 'string') {
    return `${client}\u0000tool:${ctx.params.name}`;
  }
  return `${client}\u0000${ctx.method}`;
}
