/**
 * Narrowing a middleware to one method, so it is typed by that method and passes the rest on.
 * @module
 */
import type { ClientRequestMethod } from '@mcpkit/core';
import type { ServerMethodContext, ServerMethodMiddleware, ServerMiddleware } from './context.js';

/**
 * A middleware that runs `middleware` for requests of `method` only and passes every other
 * message on untouched. A method of the specification gets typed params and result; any other
 * name (an extension) gets the untyped context.
 *
 * @example
 * ```ts
 * server.use(onMethod('resources/read', async (ctx, next) => {
 *   if (ctx.params.uri.startsWith('secret://')) throw new McpError(ErrorCode.InvalidParams, 'Not yours');
 *   return next();
 * }));
 * ```
 */
export function onMethod<M extends ClientRequestMethod>(
  method: M,
  middleware: ServerMethodMiddleware<M>,
): ServerMiddleware;
export function onMethod(method: string, middleware: ServerMiddleware): ServerMiddleware;
export function onMethod(
  method: string,
  middleware: ServerMiddleware | ServerMethodMiddleware<any>,
): ServerMiddleware {
  const run = middleware as ServerMiddleware;
  return (ctx, next) => (ctx.method === method && !ctx.isNotification ? run(ctx, next) : next());
}

/** @internal The typed view of a context already checked to be of method `M`. */
export function asMethod<M extends ClientRequestMethod>(ctx: unknown): ServerMethodContext<M> {
  return ctx as ServerMethodContext<M>;
}
