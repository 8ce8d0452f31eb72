/**
 * The one middleware shape shared by server and client, receiving and sending side.
 *
 * A middleware is `(ctx, next) => result`: it wraps the next handler. It may call `next()` and
 * return what it gives (pass on), assign `ctx.params` before calling `next()` (change params),
 * return something else (change the result), return without calling `next()` (short-circuit), or
 * throw. The first middleware added runs first on the way in and last on the way out.
 *
 * A chain is composed once, when a middleware is added, not per message; with none installed the
 * owner keeps its plain dispatch path.
 * @module
 */
import { isPromiseLike } from './shared.js';

/**
 * What every middleware context has, whichever side and direction it runs on.
 *
 * @example
 * ```ts
 * declare function record(method: string, params: unknown): void;
 * const audit: Middleware<MiddlewareContextBase> = async (ctx, next) => {
 *   const result = await next();
 *   record(ctx.method, ctx.params);
 *   return result;
 * };
 * ```
 */
export interface MiddlewareContextBase {
  /** The JSON-RPC method. */
  readonly method: string;
  /** The params; assign a new object before `next()` to change what the handler receives. */
  params: Record<string, unknown>;
  /** True for a notification: `next()` resolves to `undefined` and a result is ignored. */
  readonly isNotification: boolean;
  /** A per-message store for passing values to the middleware behind this one (made on first use). */
  readonly store: Map<unknown, unknown>;
}

/**
 * A middleware: wraps the next handler of a message (see the module comment).
 *
 * @example
 * ```ts
 * declare const metrics: { observe(method: string, ms: number): void };
 * const timing: Middleware<MiddlewareContextBase> = async (ctx, next) => {
 *   const started = performance.now();
 *   try {
 *     return await next();
 *   } finally {
 *     metrics.observe(ctx.method, performance.now() - started);
 *   }
 * };
 * ```
 */
export type Middleware<Ctx extends MiddlewareContextBase, Result = unknown> = (
  ctx: Ctx,
  next: () => Promise<Result>,
) => Result | PromiseLike<Result>;

/**
 * Composes `middlewares` around `terminal`, once: the first of the list is the outermost. Each
 * `next` is a promise-returning function, so a synchronous throw behind a middleware reaches it as
 * a rejection it can `catch`.
 *
 * @example
 * ```ts
 * declare const audit: Middleware<MiddlewareContextBase>;
 * declare const timing: Middleware<MiddlewareContextBase>;
 * declare const context: MiddlewareContextBase;
 * const handlers = new Map<string, (params: unknown) => unknown>();
 * const run = composeMiddleware([audit, timing], (ctx) => handlers.get(ctx.method)?.(ctx.params));
 * await run(context);
 * ```
 */
export function composeMiddleware<Ctx extends MiddlewareContextBase>(
  middlewares: readonly Middleware<Ctx>[],
  terminal: (ctx: Ctx) => unknown,
): (ctx: Ctx) => Promise<unknown> {
  let run = (ctx: Ctx): Promise<unknown> => {
    try {
      return asPromise(terminal(ctx));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const middleware = middlewares[i]!;
    const inner = run;
    run = (ctx) => {
      try {
        // A bound function is the one object `next` needs (a closure would add its scope).
        return asPromise(middleware(ctx, inner.bind(undefined, ctx)));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return run;
}

/**
 * Like {@link composeMiddleware}, but the composed function answers without a promise when it
 * can: when `terminal` answers synchronously and every middleware returns the promise its
 * `next()` gave it (a pass-through such as `(ctx, next) => next()`), the terminal's value is
 * returned as it is. Otherwise the chain's promise is returned. A middleware still gets a
 * promise from `next()`; only the owner skips awaiting it, so a pass-through layer costs its
 * call and no microtask, and the owner keeps a synchronous path to the wire.
 *
 * @example
 * ```ts
 * declare const audit: Middleware<MiddlewareContextBase>;
 * declare const context: MiddlewareContextBase;
 * declare function send(result: unknown): void;
 * const run = composeMiddlewareSync([audit], () => ({ ok: true }));
 * const answer = run(context);
 * if (answer instanceof Promise) answer.then(send);
 * else send(answer);
 * ```
 */
export function composeMiddlewareSync<Ctx extends MiddlewareContextBase>(
  middlewares: readonly Middleware<Ctx>[],
  terminal: (ctx: Ctx) => unknown,
): (ctx: Ctx) => unknown {
  const run = composeMiddleware(middlewares, (ctx: Ctx) => {
    const value = terminal(ctx);
    if (isPromiseLike(value)) return value;
    settledValue = value;
    settled = Promise.resolve(value);
    return settled;
  });
  return (ctx) => {
    const answer = run(ctx);
    if (answer !== settled) return answer;
    // Every layer handed the terminal's own promise back: its value is the chain's answer.
    const value = settledValue;
    settled = settledValue = undefined;
    return value;
  };
}

// The promise the latest synchronous terminal answered with, and its value: always a matching
// pair, read right after the chain returns. A chain run nested inside overwrites the pair; the
// identity check then fails and the owner awaits the promise as usual (correct, only slower).
let settled: Promise<unknown> | undefined;
let settledValue: unknown;

/**
 * A native promise passes through as it is, so a pass-through middleware (`(ctx, next) =>
 * next()`) adds no promise and no microtask of its own; anything else is wrapped once.
 */
function asPromise(value: unknown): Promise<unknown> {
  return value instanceof Promise ? value : Promise.resolve(value);
}
