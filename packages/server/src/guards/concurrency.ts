/**
 * The concurrency-limit guard: at most `max` requests in flight per client. Past that it refuses
 * at once (`-32029`, `data.limit`) by default; with `queue: n` up to `n` more wait, in order, for a
 * slot, and only the next one is refused. A waiting request whose client cancels leaves the queue.
 * Memory: one small record per client with requests in flight, dropped when its last one ends.
 * @module
 */
import type { ServerMiddleware, ServerMiddlewareContext } from '../middleware/context.js';
import { clientKey } from './clientKey.js';
import { tooManyInFlight } from './errors.js';

/** Options of {@link concurrencyLimit}; every one has a default. */
export interface ConcurrencyLimitOptions {
  /** Requests of one client that may run at once. Default 8. */
  max?: number;
  /** Requests that may wait for a slot beyond `max`; the next is refused. Default 0: refuse at once. */
  queue?: number;
  /** Which client a request counts against; `undefined` leaves it unlimited. Default {@link clientKey}. */
  key?: (ctx: ServerMiddlewareContext) => string | undefined;
  /** Limit only these methods. Default: every request. */
  methods?: readonly string[];
}

interface Slots {
  running: number;
  readonly waiting: Array<() => void>;
}

/**
 * A concurrency limit per client (principal, else session, else remote address).
 *
 * @throws {TypeError} for a `max` below 1 or a negative `queue`.
 * @example
 * ```ts
 * import { concurrencyLimit } from '@mcpkit/server/guards';
 * server.use(concurrencyLimit({ max: 4, queue: 16, methods: ['tools/call'] }));
 * ```
 */
export function concurrencyLimit(options: ConcurrencyLimitOptions = {}): ServerMiddleware {
  const max = options.max ?? 8;
  const queue = options.queue ?? 0;
  if (!Number.isInteger(max) || max < 1)
    throw new TypeError('concurrencyLimit: max must be an integer of at least 1');
  if (!Number.isInteger(queue) || queue < 0)
    throw new TypeError('concurrencyLimit: queue must be a non-negative integer');
  const keyOf = options.key ?? clientKey;
  const methods = options.methods ? new Set(options.methods) : undefined;
  const clients = new Map<string, Slots>();

  const release = (key: string, slots: Slots): void => {
    const waiter = slots.waiting.shift();
    if (waiter)
      waiter(); // the slot passes straight to the next in line
    else if (--slots.running === 0) clients.delete(key);
  };
  const run = (key: string, slots: Slots, next: () => Promise<unknown>): Promise<unknown> =>
    next().finally(() => release(key, slots));

  return (ctx, next) => {
    if (ctx.isNotification || (methods && !methods.has(ctx.method))) return next();
    const key = keyOf(ctx);
    if (key === undefined) return next();
    let slots = clients.get(key);
    if (!slots) {
      slots = { running: 0, waiting: [] };
      clients.set(key, slots);
    }
    if (slots.running < max) {
      slots.running++;
      return run(key, slots, next);
    }
    if (slots.waiting.length >= queue) throw tooManyInFlight(max);
    return wait(slots, ctx.signal).then(() => run(key, slots, next));
  };
}

/** Waits for a slot; leaves the queue (rejecting) if the request is cancelled meanwhile. */
function wait(slots: Slots, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const waiter = () => {
      signal?.removeEventListener('abort', leave);
      resolve();
    };
    const leave = () => {
      const at = slots.waiting.indexOf(waiter);
      if (at >= 0) slots.waiting.splice(at, 1);
      reject(signal?.reason);
    };
    slots.waiting.push(waiter);
    signal?.addEventListener('abort', leave, { once: true });
  });
}
